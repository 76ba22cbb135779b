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
#include "report/report.h"
#include "report/series.h"
#include "util/args.h"
#include "util/msg.h"
#include "util/output.h"

enum report_format { FORMAT_TABLE, FORMAT_JSON, FORMAT_CSV };

static const struct {
	const char *name;
	int value;
} format_names[] = {
	{ "table", FORMAT_TABLE },
	{ "json", FORMAT_JSON },
	{ "csv", FORMAT_CSV },
	{ NULL, 0 },
};

enum { OPT_ORDER = 256, OPT_FORMAT, OPT_TIMESERIES, OPT_PLOT, OPT_FORCE };

/* Replay's own options; the model's come from its configuration table (replay/options.h). */
static const struct argp_option replay_options[] = {
	{ "folio-order", OPT_ORDER, "N[,N...]", 0,
	  "largest folio order of each model, up to --max-pagecache-order; a list runs one "
	  "model per order (default 9, the kernel's largest)", PARAM_GROUP_FOLIOS },
	{ "format", OPT_FORMAT, "FMT", 0, "table (default), json or csv", PARAM_GROUP_OUTPUT },
	{ "output", 'o', "FILE", 0, "write the report to FILE instead of standard output",
	  PARAM_GROUP_OUTPUT },
	{ "timeseries", OPT_TIMESERIES, "FILE", 0,
	  "write one CSV row per interval per order to FILE", PARAM_GROUP_OUTPUT },
	{ "plot", OPT_PLOT, "FILE", 0,
	  "write an SVG plot of LRU length, write bandwidth, dirty bytes and fragmentation "
	  "index over time to FILE", PARAM_GROUP_OUTPUT },
	{ "quiet", 'q', NULL, 0, "no progress line on stderr, even on a terminal",
	  PARAM_GROUP_OUTPUT },
	{ "force", OPT_FORCE, NULL, 0,
	  "replace a symbolic link at an output (never what it points to)", PARAM_GROUP_OUTPUT },
	{ 0 }
};

struct replay_args {
	struct model_config base;
	unsigned orders[REPLAY_MAX_CONFIGS], norders;
	unsigned set;			/* enum model_recorded: what the user gave */
	int format;
	bool quiet, force;
	const char *file, *output, *timeseries, *plot;
	struct ft_seen seen;
};

static error_t parse_format(const char *arg, int *out)
{
	for (unsigned i = 0; format_names[i].name; i++) {
		if (strcmp(format_names[i].name, arg) == 0) {
			*out = format_names[i].value;
			return 0;
		}
	}
	return ft_usage_error(NULL, "format", arg, "expected table, json or csv");
}

static error_t parse_own_opt(struct replay_args *a, int key, const char *arg)
{
	const char *why;

	switch (key) {
	case OPT_ORDER:
		if (!parse_order_list(arg, a->orders, &a->norders, &why))
			return ft_usage_error(NULL, "folio-order", arg, why);
		return 0;
	case OPT_FORMAT:
		return parse_format(arg, &a->format);
	case 'o':
		a->output = arg;
		return 0;
	case OPT_TIMESERIES:
		a->timeseries = arg;
		return 0;
	case OPT_PLOT:
		a->plot = arg;
		return 0;
	case 'q':
		a->quiet = true;
		return 0;
	case OPT_FORCE:
		a->force = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static error_t replay_parse(int key, char *arg, struct argp_state *state)
{
	struct replay_args *a = state->input;
	error_t e;

	if (ft_option_once(&a->seen, state, key))
		return EINVAL;
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
	e = model_options_parse(key, arg, &a->base, &a->set);
	if (e == ARGP_ERR_UNKNOWN)
		e = parse_own_opt(a, key, arg);
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
		if (a->orders[i] > a->base.max_pagecache_order) {
			ft_warn("--folio-order=%u: above the page cache's largest order, %u "
				"(MAX_PAGECACHE_ORDER); --max-pagecache-order=%u models it as a what-if",
				a->orders[i], a->base.max_pagecache_order, a->orders[i]);
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

typedef int (*emit_fn)(FILE *f, const struct replay_args *a, const struct replay *rp);

/* The report on standard output, as when no -o was given. */
static int emit_stdout(emit_fn fn, const struct replay_args *a, const struct replay *rp)
{
	if (fn(stdout, a, rp) || fflush(stdout)) {
		ft_warn("standard output: write failed: %s", strerror(errno));
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

/*
 * A time series keeps MODEL_SAMPLES_MAX samples per order: a shorter --interval over the trace
 * is refused, saying how many samples it would have made and which interval fits.
 */
static int check_samples(const struct replay_args *a, const struct replay *rp)
{
	uint64_t span = rp->now - rp->series.t0, fit = span / MODEL_SAMPLES_MAX + 1;

	if (!(a->timeseries || a->plot) || rp->samples <= MODEL_SAMPLES_MAX)
		return 0;
	ft_warn("--interval=%lluns: %llu samples per order over the trace's %.9f s, more than the "
		"%u a time series keeps: give --interval=%lluns or longer",
		(unsigned long long)a->base.interval_ns, (unsigned long long)rp->samples,
		(double)span / 1e9, MODEL_SAMPLES_MAX, (unsigned long long)fit);
	return -1;
}

/*
 * Every output asked for, all or none: each is written to its temporary file first, and only
 * when all of them were written does any take its name (util/output.h).
 */
static int emit_all(const struct replay_args *a, const struct replay *rp)
{
	const struct {
		const char *path;
		emit_fn fn;
		bool dash_is_stdout;
	} files[] = {
		{ a->output, emit_report, true },
		{ a->timeseries, emit_timeseries, false },
		{ a->plot, emit_plot, false },
	};
	struct ft_output out[3];
	struct ft_error err;
	unsigned n = 0, i;
	int ret = 0;

	for (i = 0; i < 3 && !ret; i++) {
		const struct ft_output_opts oo = { .mode = 0666, .force = a->force,
						   .dash_is_stdout = files[i].dash_is_stdout,
						   .inputs = &a->file, .ninputs = 1 };
		FILE *f;

		if (!files[i].path)
			continue;
		if (ft_output_open(&out[n], files[i].path, &oo, &err)) {
			ret = -1;
			break;
		}
		f = ft_output_stdio(&out[n++], &err);
		if (!f || files[i].fn(f, a, rp)) {
			if (f)
				ft_error_set(&err, ft_output_name(&out[n - 1]), "write failed: %s",
					     strerror(errno));
			ret = -1;
		}
	}
	for (i = 0; i < n; i++) {
		if (ret)
			ft_output_abort(&out[i], false);
		else if (ft_output_commit(&out[i], &err))
			ret = -1;
	}
	if (ret)
		ft_warn("%s", err.msg);
	else if (!a->output)
		ret = emit_stdout(emit_report, a, rp);
	return ret;
}

int cmd_replay(int argc, char **argv)
{
	struct argp argp = {
		NULL, replay_parse, "FILE",
		"Replay the trace FILE (- for stdin) through page-cache models of the given folio "
		"orders in one pass and report LRU lengths, hit ratios, read and write "
		"amplification, writeback, reclaim and fragmentation per order, with ratios to "
		"order 0. SIZE takes K, M, G, T suffixes (binary); durations take ns, us, ms, s, "
		"m, h.",
		0, 0, 0
	};
	struct replay_args args = { .norders = 1 };
	struct model_config cfg[REPLAY_MAX_CONFIGS];
	struct model_options mo;
	struct replay *rp;
	struct ft_error err;
	int ret;

	model_config_defaults(&args.base);
	args.base.interval_ns = 1000000000;	/* the time series' default */
	args.orders[0] = args.base.max_pagecache_order;	/* the kernel's largest folios */
	if (model_options_init(&mo, replay_options) < 0) {
		ft_warn("out of memory");
		return EXIT_RUNTIME;
	}
	argp.options = mo.options;
	ret = argp_parse(&argp, argc, argv, 0, NULL, &args);
	model_options_release(&mo);
	if (ret)
		return EXIT_USAGE;
	if (make_configs(&args, cfg) < 0)
		return EXIT_USAGE;
	rp = malloc(sizeof(*rp));
	if (!rp) {
		ft_warn("out of memory");
		return EXIT_RUNTIME;
	}
	replay_init(rp, cfg, args.norders, args.set, args.timeseries || args.plot);
	rp->quiet = args.quiet;
	if (replay_file(rp, args.file, &err) < 0) {
		ft_warn("%s", err.msg);
		ret = EXIT_RUNTIME;
	} else if (check_samples(&args, rp) < 0) {
		ret = EXIT_USAGE;
	} else if (emit_all(&args, rp) < 0) {
		ret = EXIT_RUNTIME;
	} else {
		/* a cut trace or damaged records were reported on stderr: results are partial */
		ret = rp->run.truncated || rp->run.bad ? EXIT_RUNTIME : EXIT_OK;
	}
	replay_release(rp);
	free(rp);
	return ret;
}
