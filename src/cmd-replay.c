/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace replay: stream a trace through page-cache models of one or more folio orders in
 * one pass and report what each cache did, side by side with ratios to order 0.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "replay/replay.h"
#include "report/config.h"
#include "report/report.h"
#include "report/series.h"
#include "util.h"

enum report_format { FORMAT_TABLE, FORMAT_JSON, FORMAT_CSV };

static const struct config_name format_names[] = {
	{ "table", FORMAT_TABLE },
	{ "json", FORMAT_JSON },
	{ "csv", FORMAT_CSV },
	{ NULL, 0 },
};

enum {
	OPT_ORDER = 256, OPT_MIN_ORDER, OPT_POLICY, OPT_WRITE_POLICY, OPT_LRU, OPT_NO_READAHEAD,
	OPT_RA_PAGES, OPT_MEMORY, OPT_DIRTY_GRANULARITY, OPT_BLOCK_SIZE, OPT_DIRTY_EXPIRE,
	OPT_DIRTY_WRITEBACK, OPT_DIRTY_RATIO, OPT_DIRTY_BG_RATIO, OPT_DIRTY_BYTES,
	OPT_DIRTY_BG_BYTES, OPT_DEVICE, OPT_PINNED, OPT_SEED, OPT_FALLBACK, OPT_INTERVAL,
	OPT_FORMAT, OPT_TIMESERIES, OPT_PLOT,
};

static const struct argp_option replay_options[] = {
	{ 0, 0, 0, 0, "Folios:", 1 },
	{ "folio-order", OPT_ORDER, "N[,N...]", 0,
	  "largest folio order of each model, 0..10; a list runs one model per order (default 0)",
	  1 },
	{ "min-order", OPT_MIN_ORDER, "N", 0, "smallest folio order (default 0)", 1 },
	{ "policy", OPT_POLICY, "POLICY", 0,
	  "fixed: every miss allocates the order; readahead: orders grow with the readahead "
	  "window (default fixed)", 1 },
	{ "write-policy", OPT_WRITE_POLICY, "POLICY", 0,
	  "sized: folio order from the write's length, as the kernel does; fixed: like reads "
	  "(default sized)", 1 },
	{ "no-readahead", OPT_NO_READAHEAD, 0, 0, "do not model readahead on read misses", 1 },
	{ "ra-pages", OPT_RA_PAGES, "N", 0, "readahead window, pages (default 32)", 1 },
	{ 0, 0, 0, 0, "Memory and LRU:", 2 },
	{ "memory", OPT_MEMORY, "SIZE", 0,
	  "page-cache memory (default: the recorded cgroup limit or host memory)", 2 },
	{ "lru", OPT_LRU, "KIND", 0,
	  "two-list: active/inactive as mm/vmscan.c; plain: one strict LRU (default two-list)",
	  2 },
	{ "pinned", OPT_PINNED, "PCT", 0, "percent of memory pinned by others (default 0)", 2 },
	{ "seed", OPT_SEED, "N", 0, "seed for where pinned pages lie (default 1)", 2 },
	{ "fallback", OPT_FALLBACK, "HOW", 0,
	  "no free block of the order: smaller (take a smaller order) or compact (default "
	  "smaller)", 2 },
	{ 0, 0, 0, 0, "Dirty data and writeback:", 3 },
	{ "dirty-granularity", OPT_DIRTY_GRANULARITY, "G", 0,
	  "folio: writeback sends whole folios; block: only dirty blocks, as iomap "
	  "(default folio)", 3 },
	{ "block-size", OPT_BLOCK_SIZE, "SIZE", 0,
	  "filesystem block size (default: the recorded device's, else 4K)", 3 },
	{ "dirty-expire", OPT_DIRTY_EXPIRE, "T", 0,
	  "age at which dirty data is written: centisecs or a duration (default: recorded, "
	  "else 3000)", 3 },
	{ "dirty-writeback", OPT_DIRTY_WRITEBACK, "T", 0,
	  "flusher period: centisecs or a duration, 0 = off (default: recorded, else 500)", 3 },
	{ "dirty-ratio", OPT_DIRTY_RATIO, "PCT", 0, "writers are throttled above this", 3 },
	{ "dirty-background-ratio", OPT_DIRTY_BG_RATIO, "PCT", 0,
	  "background writeback starts above this", 3 },
	{ "dirty-bytes", OPT_DIRTY_BYTES, "SIZE", 0, "like --dirty-ratio, in bytes", 3 },
	{ "dirty-background-bytes", OPT_DIRTY_BG_BYTES, "SIZE", 0,
	  "like --dirty-background-ratio, in bytes", 3 },
	{ "device", OPT_DEVICE, "DEV", 0,
	  "write device model: nvme, sata-ssd, hdd, nfs or lat=US,bw=MBPS", 3 },
	{ 0, 0, 0, 0, "Output:", 4 },
	{ "format", OPT_FORMAT, "FMT", 0, "table (default), json or csv", 4 },
	{ "output", 'o', "FILE", 0, "write the report to FILE instead of standard output", 4 },
	{ "interval", OPT_INTERVAL, "T", 0, "time-series interval (default 1s)", 4 },
	{ "timeseries", OPT_TIMESERIES, "FILE", 0,
	  "write one CSV row per interval per order to FILE", 4 },
	{ "plot", OPT_PLOT, "FILE", 0,
	  "write an SVG plot of LRU length, write bandwidth, dirty bytes and fragmentation "
	  "index over time to FILE", 4 },
	{ 0 }
};

struct replay_args {
	struct model_config base;
	unsigned orders[REPLAY_MAX_CONFIGS], norders;
	unsigned set;			/* enum replay_set */
	int format;
	const char *file, *output, *timeseries, *plot;
};

/* Usage errors are one line naming the option and the problem; exit status 2. */
static error_t bad_value(const char *opt, const char *arg, const char *why)
{
	ft_warn("--%s=%s: %s", opt, arg, why);
	return EINVAL;
}

/* NAME from a name table into *out. */
static error_t parse_choice(const char *opt, const char *arg, const struct config_name *tbl,
			    int *out)
{
	char choices[96];
	int v = config_lookup(tbl, arg);

	if (v < 0) {
		config_choices(tbl, choices, sizeof(choices));
		ft_warn("--%s=%s: expected %s", opt, arg, choices);
		return EINVAL;
	}
	*out = v;
	return 0;
}

static error_t parse_unsigned(const char *opt, const char *arg, uint64_t min, uint64_t max,
			      unsigned *out)
{
	const char *why;
	uint64_t v;

	if (!parse_u64_range(arg, min, max, &v, &why))
		return bad_value(opt, arg, why);
	*out = (unsigned)v;
	return 0;
}

static error_t parse_folio_opt(struct replay_args *a, int key, const char *arg)
{
	const char *why;
	int v = 0;
	error_t e;

	switch (key) {
	case OPT_ORDER:
		if (!parse_order_list(arg, a->orders, &a->norders, &why))
			return bad_value("folio-order", arg, why);
		return 0;
	case OPT_MIN_ORDER:
		return parse_unsigned("min-order", arg, 0, MODEL_MAX_ORDER, &a->base.min_order);
	case OPT_POLICY:
		e = parse_choice("policy", arg, config_policy_names, &v);
		if (!e)
			a->base.policy = v;
		return e;
	case OPT_WRITE_POLICY:
		e = parse_choice("write-policy", arg, config_write_policy_names, &v);
		if (!e)
			a->base.write_policy = v;
		return e;
	case OPT_NO_READAHEAD:
		a->base.readahead = false;
		return 0;
	case OPT_RA_PAGES:
		return parse_unsigned("ra-pages", arg, 1, 1u << 20, &a->base.ra_pages);
	}
	return ARGP_ERR_UNKNOWN;
}

static error_t parse_memory_opt(struct replay_args *a, int key, const char *arg)
{
	const char *why;
	uint64_t v;
	int c = 0;
	error_t e;

	switch (key) {
	case OPT_MEMORY:
		if (!parse_size(arg, &v, &why))
			return bad_value("memory", arg, why);
		if (v == 0)
			return bad_value("memory", arg, "must be above 0");
		a->base.memory_bytes = v;
		a->set |= REPLAY_SET_MEMORY;
		return 0;
	case OPT_LRU:
		e = parse_choice("lru", arg, config_lru_names, &c);
		if (!e)
			a->base.lru = c;
		return e;
	case OPT_PINNED:
		if (!parse_double_range(arg, 0, 99, &a->base.pinned_pct, &why))
			return bad_value("pinned", arg, "expected a percentage from 0 to 99");
		return 0;
	case OPT_SEED:
		if (!parse_u64_range(arg, 0, UINT64_MAX, &a->base.seed, &why))
			return bad_value("seed", arg, why);
		return 0;
	case OPT_FALLBACK:
		e = parse_choice("fallback", arg, config_fallback_names, &c);
		if (!e)
			a->base.fallback = c;
		return e;
	}
	return ARGP_ERR_UNKNOWN;
}

/* The kernel's rule: setting a ratio clears its bytes form and the other way round. */
static error_t parse_dirty_limit(struct replay_args *a, int key, const char *arg)
{
	struct model_config *c = &a->base;
	const char *why;
	uint64_t v;

	switch (key) {
	case OPT_DIRTY_RATIO:
		a->set |= REPLAY_SET_DIRTY_RATIO;
		c->dirty_bytes = 0;
		return parse_unsigned("dirty-ratio", arg, 0, 100, &c->dirty_ratio);
	case OPT_DIRTY_BG_RATIO:
		a->set |= REPLAY_SET_DIRTY_BACKGROUND;
		c->dirty_background_bytes = 0;
		return parse_unsigned("dirty-background-ratio", arg, 0, 100,
				      &c->dirty_background_ratio);
	case OPT_DIRTY_BYTES:
		if (!parse_size(arg, &v, &why))
			return bad_value("dirty-bytes", arg, why);
		if (v == 0)
			return bad_value("dirty-bytes", arg, "must be above 0 (use --dirty-ratio)");
		a->set |= REPLAY_SET_DIRTY_RATIO;
		c->dirty_bytes = v;
		return 0;
	case OPT_DIRTY_BG_BYTES:
		if (!parse_size(arg, &v, &why))
			return bad_value("dirty-background-bytes", arg, why);
		if (v == 0)
			return bad_value("dirty-background-bytes", arg,
					 "must be above 0 (use --dirty-background-ratio)");
		a->set |= REPLAY_SET_DIRTY_BACKGROUND;
		c->dirty_background_bytes = v;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static error_t parse_dirty_opt(struct replay_args *a, int key, const char *arg)
{
	struct model_config *c = &a->base;
	const char *why;
	int v = 0;
	error_t e;

	switch (key) {
	case OPT_DIRTY_GRANULARITY:
		e = parse_choice("dirty-granularity", arg, config_dirty_names, &v);
		if (!e)
			c->dirty = v;
		return e;
	case OPT_BLOCK_SIZE:
		if (!parse_block_size(arg, &c->block_size, &why))
			return bad_value("block-size", arg, why);
		a->set |= REPLAY_SET_BLOCK_SIZE;
		return 0;
	case OPT_DIRTY_EXPIRE:
		if (!parse_centisecs(arg, &c->dirty_expire_ns, &why))
			return bad_value("dirty-expire", arg, why);
		a->set |= REPLAY_SET_DIRTY_EXPIRE;
		return 0;
	case OPT_DIRTY_WRITEBACK:
		if (!parse_centisecs(arg, &c->writeback_period_ns, &why))
			return bad_value("dirty-writeback", arg, why);
		a->set |= REPLAY_SET_DIRTY_WRITEBACK;
		return 0;
	case OPT_DEVICE:
		if (!parse_device(arg, &c->device_latency_us, &c->device_bandwidth_mbps, &why))
			return bad_value("device", arg, why);
		return 0;
	}
	return parse_dirty_limit(a, key, arg);
}

static error_t parse_output_opt(struct replay_args *a, int key, const char *arg)
{
	const char *why;

	switch (key) {
	case OPT_FORMAT:
		return parse_choice("format", arg, format_names, &a->format);
	case 'o':
		a->output = arg;
		return 0;
	case OPT_INTERVAL:
		if (!parse_duration_ns(arg, &a->base.interval_ns, &why))
			return bad_value("interval", arg, why);
		if (a->base.interval_ns == 0)
			return bad_value("interval", arg, "must be above 0");
		return 0;
	case OPT_TIMESERIES:
		a->timeseries = arg;
		return 0;
	case OPT_PLOT:
		a->plot = arg;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static error_t replay_parse(int key, char *arg, struct argp_state *state)
{
	struct replay_args *a = state->input;
	error_t e;

	switch (key) {
	case ARGP_KEY_ARG:
		if (a->file) {
			ft_warn("one trace file only (see folio-trace replay --help)");
			return EINVAL;
		}
		a->file = arg;
		return 0;
	case ARGP_KEY_END:
		if (!a->file) {
			ft_warn("no trace file given (see folio-trace replay --help)");
			return EINVAL;
		}
		return 0;
	}
	e = parse_folio_opt(a, key, arg);
	if (e == ARGP_ERR_UNKNOWN)
		e = parse_memory_opt(a, key, arg);
	if (e == ARGP_ERR_UNKNOWN)
		e = parse_dirty_opt(a, key, arg);
	if (e == ARGP_ERR_UNKNOWN)
		e = parse_output_opt(a, key, arg);
	return e;
}

/* One configuration per order, the options shared. */
static int make_configs(const struct replay_args *a, struct model_config *cfg)
{
	for (unsigned i = 0; i < a->norders; i++) {
		if (a->base.min_order > a->orders[i]) {
			ft_warn("--min-order=%u: above --folio-order %u", a->base.min_order,
				a->orders[i]);
			return -1;
		}
		cfg[i] = a->base;
		cfg[i].order = a->orders[i];
	}
	return 0;
}

static int write_report(FILE *f, const struct replay_args *a, const struct report *r)
{
	switch (a->format) {
	case FORMAT_JSON:
		return report_write_json(f, r);
	case FORMAT_CSV:
		return report_write_csv(f, r);
	default:
		return report_write_table(f, r);
	}
}

/* Opens path ("-" for stdout in the report's case), writes, closes; 0 or -1 with a message. */
static int write_file(const char *path, bool dash_is_stdout,
		      int (*fn)(FILE *, const struct replay_args *, const struct replay *),
		      const struct replay_args *a, const struct replay *rp)
{
	bool to_stdout = !path || (dash_is_stdout && strcmp(path, "-") == 0);
	FILE *f = to_stdout ? stdout : fopen(path, "w");
	int ret;

	if (!f) {
		ft_warn("%s: cannot create: %s", path, strerror(errno));
		return -1;
	}
	ret = fn(f, a, rp);
	if (to_stdout)
		ret |= fflush(f) ? -1 : 0;
	else
		ret |= fclose(f) ? -1 : 0;
	if (ret) {
		ft_warn("%s: write failed: %s", to_stdout ? "standard output" : path,
			strerror(errno));
		return -1;
	}
	return 0;
}

static int emit_report(FILE *f, const struct replay_args *a, const struct replay *rp)
{
	struct report r = { .run = &rp->run, .cols = rp->cols, .ncols = rp->ncfg };

	r.baseline = report_pick_baseline(rp->cols, rp->ncfg);
	return write_report(f, a, &r);
}

static int emit_timeseries(FILE *f, const struct replay_args *a, const struct replay *rp)
{
	return series_write_csv(f, &rp->series);
}

static int emit_plot(FILE *f, const struct replay_args *a, const struct replay *rp)
{
	char title[512];

	snprintf(title, sizeof(title), "folio-trace replay: %s", a->file);
	return series_write_svg(f, &rp->series, title);
}

static int emit_all(const struct replay_args *a, const struct replay *rp)
{
	if (write_file(a->output, true, emit_report, a, rp) < 0)
		return -1;
	if (a->timeseries && write_file(a->timeseries, false, emit_timeseries, a, rp) < 0)
		return -1;
	if (a->plot && write_file(a->plot, false, emit_plot, a, rp) < 0)
		return -1;
	return 0;
}

int cmd_replay(int argc, char **argv)
{
	static const struct argp argp = {
		replay_options, replay_parse, "FILE",
		"Replay the trace FILE (- for stdin) through page-cache models of the given folio "
		"orders in one pass and report LRU lengths, hit ratios, read and write "
		"amplification, writeback, reclaim and fragmentation per order, with ratios to "
		"order 0. SIZE takes K, M, G, T suffixes (binary); durations take ns, us, ms, s, "
		"m, h.",
		0, 0, 0
	};
	struct replay_args args = { .orders = { 0 }, .norders = 1 };
	struct model_config cfg[REPLAY_MAX_CONFIGS];
	struct replay *rp;
	struct ft_error err;
	int ret;

	model_config_defaults(&args.base);
	args.base.interval_ns = 1000000000;
	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	if (make_configs(&args, cfg) < 0)
		return EXIT_USAGE;
	rp = malloc(sizeof(*rp));
	if (!rp) {
		ft_warn("out of memory");
		return EXIT_RUNTIME;
	}
	replay_init(rp, cfg, args.norders, args.set, args.timeseries || args.plot);
	if (replay_file(rp, args.file, &err) < 0) {
		ft_warn("%s", err.msg);
		ret = EXIT_RUNTIME;
	} else if (emit_all(&args, rp) < 0) {
		ret = EXIT_RUNTIME;
	} else {
		/* a cut trace was reported on stderr; its results are partial */
		ret = rp->run.truncated ? EXIT_RUNTIME : EXIT_OK;
	}
	replay_release(rp);
	free(rp);
	return ret;
}
