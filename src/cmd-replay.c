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
#include <sys/stat.h>

#include "calibrate/trust.h"
#include "cmd.h"
#include "replay/firstpass.h"
#include "replay/mrc.h"
#include "replay/replay.h"
#include "replay/survey.h"
#include "replay/sweep.h"
#include "replay/units.h"
#include "report/curve.h"
#include "report/heatmap.h"
#include "report/metrics.h"
#include "report/report.h"
#include "report/series.h"
#include "report/units.h"
#include "util/args.h"
#include "util/headroom.h"
#include "util/msg.h"
#include "util/output.h"
#include "util/parse.h"

enum report_format { FORMAT_TABLE, FORMAT_JSON, FORMAT_CSV, FORMAT_CSV_LONG };

static const struct {
	const char *name;
	int value;
} format_names[] = {
	{ "table", FORMAT_TABLE },
	{ "json", FORMAT_JSON },
	{ "csv", FORMAT_CSV },
	{ "csv-long", FORMAT_CSV_LONG },
	{ NULL, 0 },
};

enum { OPT_ORDER = 256, OPT_FORMAT, OPT_TIMESERIES, OPT_PLOT, OPT_MRC, OPT_CURVE, OPT_CURVE_PLOT,
       OPT_FORCE, OPT_HEATMAP, OPT_HEATMAP_FILE, OPT_METRICS, OPT_BY, OPT_TOP, OPT_SORT,
       OPT_THREADS, OPT_ALL, OPT_CGROUP_LIMIT };

/* --memory as replay takes it: one size, or a sweep (replay/sweep.h) */
static const char memory_help[] =
	"page-cache memory (default: the recorded cgroup limit or host memory); a list "
	"(64M,256M,1G) or a range by step (64M..1G:64M), factor (1G..16G:x2) or count "
	"(64M..16G/100) runs every order at every size and reports curves; a size may be a "
	"share of the trace's working set (5%, 1%..100%/100); sizes whose models would not "
	"fit in the memory the process can take are refused";

/* The options --mrc needs, when given on the command line (else --mrc sets them). */
enum {
	MRC_GIVEN_LRU = 1, MRC_GIVEN_POLICY = 2, MRC_GIVEN_READAHEAD = 4, MRC_GIVEN_WRITE = 8,
	MRC_GIVEN_FALLBACK = 16,
};

/* --top's default: the rows of --by kept */
#define UNITS_TOP_DEFAULT	20

/* Instances of one sweep at most (orders x memory sizes). */
#define SWEEP_MAX_INSTANCES	4096

/* Replay's own options; the model's come from its configuration table (replay/options.h). */
static const struct argp_option replay_options[] = {
	{ "folio-order", OPT_ORDER, "N[,N...]", 0,
	  "largest folio order of each model, up to --max-pagecache-order; a list runs one "
	  "model per order (default: 0 and the largest order the recorded kernel inserted in "
	  "the trace, else 0 and 9)", PARAM_GROUP_FOLIOS },
	{ "format", OPT_FORMAT, "FMT", 0,
	  "table (default), json, csv (a row per order) or csv-long (a row per order and "
	  "metric: label,order,metric,value)", PARAM_GROUP_OUTPUT },
	{ "metrics", OPT_METRICS, "LIST", 0,
	  "only these metric keys and groups, comma-separated, in every format (CSV columns in "
	  "the order given): trace, reads, writes, cache, lru, memory, folios, reclaim, "
	  "fragmentation, all or help (the keys and their meanings) (default: all; the table "
	  "leaves out rows zero in every model)", PARAM_GROUP_OUTPUT },
	{ "all", OPT_ALL, NULL, 0, "the table keeps the rows zero in every model too",
	  PARAM_GROUP_OUTPUT },
	{ "verbose", 'v', NULL, 0, "show everything: every row of the table, as --all",
	  PARAM_GROUP_OUTPUT },
	{ "output", 'o', "FILE", 0, "write the report to FILE instead of standard output",
	  PARAM_GROUP_OUTPUT },
	{ "timeseries", OPT_TIMESERIES, "FILE", 0,
	  "write one CSV row per interval per order to FILE", PARAM_GROUP_OUTPUT },
	{ "plot", OPT_PLOT, "FILE", 0,
	  "write an SVG plot over time to FILE: LRU length, read hit ratio and device read "
	  "bandwidth when the trace reads, write bandwidth and dirty bytes when it writes, "
	  "fragmentation index; without --interval, one that gives 200 to 500 samples",
	  PARAM_GROUP_OUTPUT },
	{ "heatmap", OPT_HEATMAP, "FILE", 0,
	  "write an SVG heatmap of one traced file to FILE: accesses by time and file offset, "
	  "then the reads that missed, one panel per order", PARAM_GROUP_OUTPUT },
	{ "heatmap-file", OPT_HEATMAP_FILE, "PATH|MAJ:MIN:INO", 0,
	  "the file --heatmap shows, by its recorded path or device and inode (default: the "
	  "file with the most data accesses)", PARAM_GROUP_OUTPUT },
	{ "quiet", 'q', NULL, 0, "no progress line on stderr, even on a terminal",
	  PARAM_GROUP_OUTPUT },
	{ "threads", OPT_THREADS, "N", 0,
	  "run the models on at most N threads beside the one decoding the trace; 1: all in one "
	  "thread (default: a thread per model up to the online CPUs; results are the same)",
	  PARAM_GROUP_OUTPUT },
	{ "force", OPT_FORCE, NULL, 0,
	  "replace a symbolic link at an output (never what it points to)", PARAM_GROUP_OUTPUT },
	{ "mrc", OPT_MRC, "MODE", 0,
	  "miss-ratio curves of the plain LRU in one pass by stack distances instead of model "
	  "instances: exact, sampled[:RATE] (spatial sampling, default 0.01) or compare[:RATE] "
	  "(both, with the sampled curve's error); runs the plain LRU with folios of the order "
	  "alone and no readahead (--lru=plain --policy=fixed --no-readahead --write-policy=fixed "
	  "--fallback=compact, each set when not given); points from --memory=LIST, else 100 up to the working set",
	  PARAM_GROUP_MEMORY },
	{ "cgroup-limit", OPT_CGROUP_LIMIT, "NAME:SIZE", 0,
	  "what-if: the memory cgroup NAME (its path in the trace, or the path's last part) "
	  "limited to SIZE; its folios charged apart from the other cgroups' (repeatable)",
	  PARAM_GROUP_MEMORY },
	{ "curve", OPT_CURVE, "FILE", 0,
	  "write the curves against memory (a sweep or --mrc) as CSV to FILE, a row per order "
	  "and memory size", PARAM_GROUP_OUTPUT },
	{ "by", OPT_BY, "UNIT", 0,
	  "file, process or cgroup: also report each file, process or memory cgroup in every "
	  "model, beside the folios the kernel inserted for it and the bytes its file system "
	  "wrote back", PARAM_GROUP_OUTPUT },
	{ "top", OPT_TOP, "N", 0, "with --by: the first N rows (default 20)",
	  PARAM_GROUP_OUTPUT },
	{ "sort", OPT_SORT, "METRIC", 0,
	  "with --by: the order of the rows, by METRIC of the first model: read_requests, "
	  "read_bytes, hit_ratio (lowest first), device_read_bytes (default), refaults, "
	  "evicted_pages, write_bytes, writeback_bytes, write_amplification, insertions, kernel_inserted or "
	  "kernel_writeback_bytes", PARAM_GROUP_OUTPUT },
	{ "curve-plot", OPT_CURVE_PLOT, "FILE", 0,
	  "write an SVG plot of read hit ratio, device read bytes, refaults and write-back "
	  "bytes against memory, a line per order, to FILE", PARAM_GROUP_OUTPUT },
	{ 0 }
};

struct replay_args {
	struct model_config base;
	unsigned orders[REPLAY_MAX_CONFIGS], norders;
	unsigned set;			/* enum model_recorded: what the user gave */
	int format;
	bool quiet, force;
	unsigned threads;		/* --threads; 0: as many as useful */
	const char *file, *output, *timeseries, *plot, *curve, *curve_plot, *heatmap;
	struct survey_target heat_target;
	const char *heat_arg;
	bool interval_given;
	uint64_t span_ns;		/* of the trace, from the first pass; 0: unknown */
	char subtitle[160];		/* the plot's: the interval and where it came from */
	struct heatmap heat;
	struct memory_list *mem;	/* --memory=LIST|RANGE; NULL: one size */
	const char *mem_arg;
	enum mrc_mode mrc;
	double mrc_rate;
	unsigned mrc_given;		/* MRC_GIVEN_*: what --mrc needs, given by the user */
	char mrc_set[160];		/* what --mrc set for itself, said in the report; "" */
	/* the run's curves (a sweep or --mrc) */
	struct curve_set curves;
	bool have_curves;
	struct ft_seen seen;
	struct report_select sel;
	bool have_sel;
	bool metrics_help;		/* --metrics=help: the keys listed, nothing replayed */
	bool all_rows;			/* --all, -v, --metrics=all */
	bool orders_given;		/* --folio-order: else order 0 and the kernel's */
	char why_orders[160];		/* the default orders, said in the verdict */
	/* the kernel's facts read for the default orders, kept for the trust line */
	struct calib_facts *facts;
	char trust[320];		/* the verdict's trust line; "" not computed */
	bool by;			/* --by given: rows per unit of by_kind */
	enum top_by by_kind;
	uint64_t top;
	bool top_given, sort_given;
	enum report_unit_sort sort;
	struct report_units units;	/* --by's rows, after the replay */
	struct replay_cgroups cgroups;	/* the trace's memory cgroups, --cgroup-limit */
};

static error_t parse_format(const char *arg, int *out)
{
	for (unsigned i = 0; format_names[i].name; i++) {
		if (strcmp(format_names[i].name, arg) == 0) {
			*out = format_names[i].value;
			return 0;
		}
	}
	return ft_usage_error(NULL, "format", arg, "expected table, json, csv or csv-long");
}

static error_t parse_own_opt(struct replay_args *a, int key, const char *arg)
{
	const char *why;

	switch (key) {
	case OPT_ORDER:
		if (!parse_order_list(arg, a->orders, &a->norders, &why))
			return ft_usage_error(NULL, "folio-order", arg, why);
		a->orders_given = true;
		return 0;
	case OPT_FORMAT:
		return parse_format(arg, &a->format);
	case OPT_METRICS:
		if (strcmp(arg, "help") == 0) {
			a->metrics_help = true;
			return 0;
		}
		if (!report_select_parse(arg, &a->sel, &why))
			return ft_usage_error(NULL, "metrics", arg, why);
		a->have_sel = true;
		a->all_rows |= a->sel.all;
		return 0;
	case OPT_ALL:
	case 'v':
		a->all_rows = true;
		return 0;
	case 'o':
		a->output = arg;
		return 0;
	case OPT_TIMESERIES:
		a->timeseries = arg;
		return 0;
	case OPT_PLOT:
		a->plot = arg;
		return 0;
	case OPT_HEATMAP:
		a->heatmap = arg;
		return 0;
	case OPT_HEATMAP_FILE:
		if (!survey_parse_target(arg, &a->heat_target, &why))
			return ft_usage_error(NULL, "heatmap-file", arg, why);
		a->heat_arg = arg;
		return 0;
	case 'q':
		a->quiet = true;
		return 0;
	case OPT_THREADS: {
		uint64_t n;

		if (ft_parse_u64_arg(NULL, "threads", arg, 1, PIPE_MAX_WORKERS, &n))
			return EINVAL;
		a->threads = (unsigned)n;
		return 0;
	}
	case OPT_FORCE:
		a->force = true;
		return 0;
	case OPT_MRC:
		if (!parse_mrc(arg, &a->mrc, &a->mrc_rate, &why))
			return ft_usage_error(NULL, "mrc", arg, why);
		return 0;
	case OPT_CURVE:
		a->curve = arg;
		return 0;
	case OPT_CURVE_PLOT:
		a->curve_plot = arg;
		return 0;
	case OPT_CGROUP_LIMIT:
		if (!replay_cgroups_parse_limit(&a->cgroups, arg, &why))
			return ft_usage_error(NULL, "cgroup-limit", arg, why);
		return 0;
	case OPT_BY:
		if (!top_by_parse(arg, &a->by_kind))
			return ft_usage_error(NULL, "by", arg, "expected file, process or cgroup");
		a->by = true;
		return 0;
	case OPT_TOP:
		if (ft_parse_u64_arg(NULL, "top", arg, 1, UINT32_MAX, &a->top))
			return EINVAL;
		a->top_given = true;
		return 0;
	case OPT_SORT:
		if (!report_unit_sort_parse(arg, &a->sort))
			return ft_usage_error(NULL, "sort", arg, "expected read_requests, "
					      "read_bytes, hit_ratio, device_read_bytes, refaults, "
					      "evicted_pages, write_bytes, writeback_bytes, "
					      "write_amplification, "
					      "insertions, kernel_inserted or "
					      "kernel_writeback_bytes");
		a->sort_given = true;
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

/* Two outputs of one run under one name would leave only one of them. */
static int check_outputs_differ(const struct replay_args *a)
{
	const struct {
		const char *opt, *path;
	} o[] = {
		{ "output", a->output }, { "timeseries", a->timeseries }, { "plot", a->plot },
		{ "heatmap", a->heatmap }, { "curve", a->curve }, { "curve-plot", a->curve_plot },
	};
	enum { N = sizeof(o) / sizeof(o[0]) };
	struct stat si, sj;

	for (unsigned i = 0; i < N; i++)
		for (unsigned j = i + 1; o[i].path && j < N; j++) {
			if (!o[j].path)
				continue;
			if (strcmp(o[i].path, o[j].path) &&
			    (stat(o[i].path, &si) || stat(o[j].path, &sj) ||
			     !S_ISREG(si.st_mode) || si.st_dev != sj.st_dev ||
			     si.st_ino != sj.st_ino))
				continue;
			ft_warn("--%s=%s and --%s=%s: one file for two outputs", o[i].opt,
				o[i].path, o[j].opt, o[j].path);
			return -1;
		}
	return 0;
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
		if (!a->file && !a->metrics_help) {
			ft_warn("no trace file given (see folio-trace replay --help)");
			return EINVAL;
		}
		if (check_outputs_differ(a))
			return EINVAL;
		return 0;
	}
	if (key == MODEL_OPTION_KEY + (int)(model_param_by_option("memory") - model_params) &&
	    memory_arg_is_sweep(arg)) {
		const char *why;

		if (!a->mem && !(a->mem = malloc(sizeof(*a->mem)))) {
			ft_warn("out of memory");
			return ENOMEM;
		}
		if (!parse_memory_list(arg, a->mem, &why))
			return ft_usage_error(NULL, "memory", arg, why);
		a->mem_arg = arg;
		a->set |= MODEL_REC_MEMORY;
		return 0;
	}
	if (key == MODEL_OPTION_KEY + (int)(model_param_by_option("interval") - model_params))
		a->interval_given = true;
	if (key == MODEL_OPTION_KEY + (int)(model_param_by_option("lru") - model_params))
		a->mrc_given |= MRC_GIVEN_LRU;
	if (key == MODEL_OPTION_KEY + (int)(model_param_by_option("policy") - model_params))
		a->mrc_given |= MRC_GIVEN_POLICY;
	if (key == MODEL_OPTION_KEY + (int)(model_param_by_option("no-readahead") - model_params))
		a->mrc_given |= MRC_GIVEN_READAHEAD;
	if (key == MODEL_OPTION_KEY + (int)(model_param_by_option("write-policy") - model_params))
		a->mrc_given |= MRC_GIVEN_WRITE;
	if (key == MODEL_OPTION_KEY + (int)(model_param_by_option("fallback") - model_params))
		a->mrc_given |= MRC_GIVEN_FALLBACK;
	e = model_options_parse(key, arg, &a->base, &a->set);
	if (e == ARGP_ERR_UNKNOWN)
		e = parse_own_opt(a, key, arg);
	return e;
}

/*
 * A folio keeps its pfn in 32 bits: more memory than 2^32 pages is a usage error said before
 * the trace is read, not a failure of the run.
 */
static int check_memory(const struct model_config *cfg, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		uint64_t page = cfg[i].page_size ? cfg[i].page_size : 4096;

		if (cfg[i].memory_bytes / page > (1ull << 32)) {
			ft_warn("--memory: %llu bytes: out of range: the model takes at most 2^32 "
				"pages, %llu bytes with %llu-byte pages",
				(unsigned long long)cfg[i].memory_bytes,
				(unsigned long long)(page << 32), (unsigned long long)page);
			return -1;
		}
	}
	return 0;
}

/* One configuration per order, the options shared. */
static int make_configs(const struct replay_args *a, struct model_config *cfg)
{
	if (order_configs(&a->base, a->orders, a->norders, cfg) < 0)
		return -1;
	return check_memory(cfg, a->norders);
}

/*
 * The instances' estimated memory (model_footprint()) against what this process can take: a
 * run that cannot fit is refused with both figures and how many instances would, before any
 * is made. page_size 0: the default page. Unknown headroom (no /proc, no limit): no bound.
 */
static int check_footprint(const struct replay_args *a, const struct model_config *cfg,
			   unsigned ncfg, uint64_t working_set, uint64_t nfiles)
{
	uint64_t page = cfg[0].page_size ? cfg[0].page_size : 4096, need = 0;
	unsigned fit = 0;
	struct ft_headroom room;
	char why[256], nb[32], rb[32];

	if (!ft_memory_headroom(&room))
		return 0;
	for (unsigned i = 0; i < ncfg; i++) {
		need += model_footprint(&cfg[i], working_set / page, nfiles);
		if (need <= room.bytes)
			fit = i + 1;
	}
	if (need <= room.bytes)
		return 0;
	snprintf(why, sizeof(why), "%u model instances need about %s, more than the %s this "
		 "process can take (%s); %u would fit", ncfg,
		 format_bytes(need, nb, sizeof(nb)), format_bytes(room.bytes, rb, sizeof(rb)),
		 room.bound, fit);
	if (a->mem_arg)
		ft_usage_error(NULL, "memory", a->mem_arg, why);
	else
		ft_warn("%s", why);
	return -1;
}

/*
 * What --mrc needs of the model: the plain LRU a stack algorithm describes, folios of the
 * order alone and no readahead (both depend on what is cached), writes that place folios as
 * reads do and an allocator that always gives the placement's order (reclaiming for it, as
 * the stack assumes, where the page cache's would take a smaller folio when memory is
 * fragmented); given otherwise, the curve counts what it could not follow. What the user did not give,
 * --mrc sets, and the report says so; what the user gave otherwise is named, all of it, in one
 * usage error.
 */
static int check_mrc(struct replay_args *a)
{
	char conflict[256] = "";
	size_t n = 0;

	if ((a->mrc_given & MRC_GIVEN_LRU) && a->base.lru != LRU_PLAIN)
		n += (size_t)snprintf(conflict + n, sizeof(conflict) - n, "%s--lru=%s",
				      n ? ", " : "", model_lru_kinds[a->base.lru]->name);
	if ((a->mrc_given & MRC_GIVEN_POLICY) && a->base.policy != FOLIO_POLICY_FIXED)
		n += (size_t)snprintf(conflict + n, sizeof(conflict) - n, "%s--policy=%s",
				      n ? ", " : "", model_folio_policies[a->base.policy]->name);
	if (n) {
		ft_warn("--mrc: a stack pass follows the plain LRU with folios of the order alone "
			"(--lru=plain --policy=fixed), not %s: leave %s out, or drop --mrc for "
			"instances (--memory=LIST)", conflict,
			strchr(conflict, ',') ? "them" : "it");
		return -1;
	}
	n = 0;
	if (!(a->mrc_given & MRC_GIVEN_LRU))
		n += (size_t)snprintf(a->mrc_set + n, sizeof(a->mrc_set) - n, " --lru=plain");
	if (!(a->mrc_given & MRC_GIVEN_POLICY))
		n += (size_t)snprintf(a->mrc_set + n, sizeof(a->mrc_set) - n, " --policy=fixed");
	if (!(a->mrc_given & MRC_GIVEN_READAHEAD))
		n += (size_t)snprintf(a->mrc_set + n, sizeof(a->mrc_set) - n, " --no-readahead");
	if (!(a->mrc_given & MRC_GIVEN_WRITE)) {
		n += (size_t)snprintf(a->mrc_set + n, sizeof(a->mrc_set) - n,
				      " --write-policy=fixed");
		a->base.write_policy = WRITE_POLICY_FIXED;
	}
	if (!(a->mrc_given & MRC_GIVEN_FALLBACK)) {
		n += (size_t)snprintf(a->mrc_set + n, sizeof(a->mrc_set) - n,
				      " --fallback=compact");
		a->base.fallback = ALLOC_FALLBACK_COMPACT;
	}
	if (n)
		memmove(a->mrc_set, a->mrc_set + 1, n);
	a->base.lru = LRU_PLAIN;
	a->base.policy = FOLIO_POLICY_FIXED;
	a->base.readahead = false;
	/* the recorded kernel's LRU kind must not replace the plain one */
	a->set |= MODEL_REC_LRU;
	return 0;
}

/*
 * The sweep's memory sizes resolved (shares of the working set need a first pass over the
 * trace), then a configuration per order and size, order-major. NULL after a message.
 */
static struct model_config *make_sweep(struct replay_args *a, uint64_t *working_set,
				       unsigned *ncfg, int *status)
{
	bool one_pass_ok = strcmp(a->file, "-") != 0;
	unsigned page = a->base.page_size, nmem = a->mem ? a->mem->n : 0;
	uint64_t nfiles = 0;
	struct model_config base[REPLAY_MAX_CONFIGS], *cfg;
	struct ft_error err;
	const char *why;

	*status = EXIT_USAGE;
	if (a->mrc && check_mrc(a) < 0)
		return NULL;
	if (make_configs(a, base) < 0)
		return NULL;
	if (a->mem && a->mem->any_percent && !one_pass_ok) {
		ft_usage_error(NULL, "memory", a->mem_arg,
			       "shares of the working set need a trace file, not standard input");
		return NULL;
	}
	*working_set = 0;
	if (one_pass_ok && replay_working_set(a->file, 0, working_set, &nfiles, &err) < 0) {
		ft_warn("%s", err.msg);
		*status = EXIT_RUNTIME;
		return NULL;
	}
	if (a->mem && !memory_list_resolve(a->mem, *working_set, page, &why)) {
		ft_usage_error(NULL, "memory", a->mem_arg, why);
		return NULL;
	}
	if (a->mem)
		nmem = a->mem->n;
	if (!a->mrc && (uint64_t)a->norders * nmem > SWEEP_MAX_INSTANCES) {
		ft_usage_error(NULL, "memory", a->mem_arg,
			       "more than 4096 model instances (orders x memory sizes)");
		return NULL;
	}
	if (!a->mrc && (a->timeseries || a->plot || a->heatmap) &&
	    a->norders * nmem > SERIES_MAX_COLS) {
		ft_usage_error(NULL, "memory", a->mem_arg,
			       "--timeseries, --plot and --heatmap take at most 11 configurations");
		return NULL;
	}
	*ncfg = a->mrc ? a->norders : a->norders * nmem;
	cfg = calloc(*ncfg, sizeof(*cfg));
	if (!cfg) {
		ft_warn("out of memory");
		*status = EXIT_RUNTIME;
		return NULL;
	}
	for (unsigned o = 0; o < a->norders; o++) {
		if (a->mrc) {
			cfg[o] = base[o];
			if (a->mem)
				cfg[o].memory_bytes = a->mem->v[0].bytes;
			continue;
		}
		for (unsigned k = 0; k < nmem; k++) {
			cfg[o * nmem + k] = base[o];
			cfg[o * nmem + k].memory_bytes = a->mem->v[k].bytes;
		}
	}
	if (check_memory(cfg, *ncfg) || check_footprint(a, cfg, *ncfg, *working_set, nfiles)) {
		free(cfg);
		return NULL;
	}
	return cfg;
}

/* Is the metric key among those chosen? */
static bool chosen(const struct report_select *sel, const char *key)
{
	const struct report_metric *md = report_metric_find(key);

	return md && sel->metric[md - report_metrics];
}

/*
 * The bookkeeping the report needs (model.h's enum model_keep): what --metrics names, when it
 * is all the run reports. Figures per unit and the curves of a sweep carry every metric.
 */
static unsigned report_keep(const struct replay_args *a)
{
	static const char *const accessed[] = {
		"untouched_evicted_bytes", "untouched_cached_bytes_mean",
		"untouched_cached_bytes_p99", "untouched_cached_bytes_max",
	};
	static const char *const refaults[] = {
		"refaults", "refault_activations", "refault_folios",
	};
	unsigned keep = 0;

	if (!a->have_sel || a->sel.all || a->by || a->mrc || (a->mem && a->mem->n > 1))
		return MODEL_KEEP_ALL;
	if (chosen(&a->sel, "touched_bytes"))
		keep |= MODEL_KEEP_TOUCHED_SET;
	for (size_t i = 0; i < sizeof(accessed) / sizeof(accessed[0]); i++)
		if (chosen(&a->sel, accessed[i]))
			keep |= MODEL_KEEP_ACCESSED_PAGES;
	for (size_t i = 0; i < sizeof(refaults) / sizeof(refaults[0]); i++)
		if (chosen(&a->sel, refaults[i]))
			keep |= MODEL_KEEP_SHADOWS;
	/* the memory section and the free blocks are where the pages lie */
	for (unsigned i = 0; i < report_nr_metrics; i++)
		if (a->sel.metric[i] && !strcmp(report_metrics[i].section, "memory"))
			keep |= MODEL_KEEP_ADDRESSES;
	for (unsigned i = 0; i < report_nr_arrays; i++)
		if (a->sel.array[i] && !strcmp(report_arrays[i].key, "free_blocks"))
			keep |= MODEL_KEEP_ADDRESSES;
	return keep;
}

static int write_report(FILE *f, const struct replay_args *a, const struct report *r)
{
	switch (a->format) {
	case FORMAT_JSON:
		return report_write_json(f, r);
	case FORMAT_CSV:
		return report_write_csv(f, r);
	case FORMAT_CSV_LONG:
		return report_write_csv_long(f, r);
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
	struct report r = { .run = &rp->run, .cols = rp->cols, .ncols = rp->ncfg,
			    .sel = a->have_sel ? &a->sel : NULL, .all_rows = a->all_rows,
			    .why_orders = a->why_orders[0] ? a->why_orders : NULL,
			    .trust = a->trust[0] ? a->trust : NULL,
			    .mrc_set = a->mrc_set[0] ? a->mrc_set : NULL };

	if (rp->no_models)
		r.ncols = 0;
	r.baseline = report_pick_baseline(rp->cols, r.ncols);
	if (a->by) {
		/* the table and JSON carry both; CSV is the rows per unit alone */
		r.units = &a->units;
		if (a->format == FORMAT_CSV)
			return report_units_csv(f, &a->units);
		if (a->format == FORMAT_TABLE && report_write_table(f, &r) < 0)
			return -1;
		if (a->format == FORMAT_TABLE)
			return report_units_table(f, &a->units);
	}
	if (!a->have_curves)
		return write_report(f, a, &r);
	/* with curves: table and CSV show them; JSON and long CSV carry the instances */
	r.curves = &a->curves;
	switch (a->format) {
	case FORMAT_JSON:
		return report_write_json(f, &r);
	case FORMAT_CSV_LONG:
		return report_write_csv_long(f, &r);
	case FORMAT_CSV:
		return curve_write_csv(f, &a->curves);
	default:
		return report_write_curve_table(f, &r);
	}
}

static int emit_curve_csv(FILE *f, const struct replay_args *a, const struct replay *rp)
{
	return curve_write_csv(f, &a->curves);
}

static int emit_curve_plot(FILE *f, const struct replay_args *a, const struct replay *rp)
{
	char title[512];

	snprintf(title, sizeof(title), "folio-trace replay: %s, against memory", a->file);
	return curve_write_svg(f, &a->curves, title);
}

static int emit_timeseries(FILE *f, const struct replay_args *a, const struct replay *rp)
{
	return series_write_csv(f, &rp->series);
}

static int emit_plot(FILE *f, const struct replay_args *a, const struct replay *rp)
{
	char title[512];

	snprintf(title, sizeof(title), "folio-trace replay: %s", a->file);
	return series_write_svg(f, &rp->series, title, a->subtitle);
}

static int emit_heatmap(FILE *f, const struct replay_args *a, const struct replay *rp)
{
	char title[512];

	snprintf(title, sizeof(title), "folio-trace replay: %s, one file by time and offset",
		 a->file);
	return heatmap_write_svg(f, &a->heat, title);
}

/*
 * The time series keep MODEL_SAMPLES_MAX samples in all, over every configuration (each
 * sample is some 256 bytes in memory and a CSV row): a shorter --interval over the trace is
 * refused, saying how many samples it would make and which interval fits. samples: per
 * configuration, over span.
 */
static int check_samples(const struct replay_args *a, uint64_t samples, uint64_t span,
			 unsigned ncfg)
{
	uint64_t fit = span / (MODEL_SAMPLES_MAX / ncfg) + 1;

	if (!(a->timeseries || a->plot) || samples <= MODEL_SAMPLES_MAX / ncfg)
		return 0;
	ft_warn("--interval=%lluns: %llu samples per order over the trace's %.9f s, %u "
		"configuration%s: more than the %u the time series keep in all: give "
		"--interval=%lluns or longer",
		(unsigned long long)a->base.interval_ns, (unsigned long long)samples,
		(double)span / 1e9, ncfg, ncfg > 1 ? "s" : "", MODEL_SAMPLES_MAX,
		(unsigned long long)fit);
	return -1;
}

/*
 * What the plots need before the replay: without --interval, one that gives the time series
 * 200 to 500 samples over the trace's span; for --heatmap, the file it shows and the grid's
 * extent. Both from a first pass over the trace (a file: standard input cannot be read
 * twice). 0, or -1 after a message with *status set.
 */
static int survey_trace(struct replay_args *a, struct survey *sv, int *status)
{
	bool auto_interval = (a->timeseries || a->plot) && !a->interval_given;
	bool seekable = strcmp(a->file, "-") != 0;
	struct survey_target none = { .kind = TARGET_NONE };
	struct ft_error err;

	memset(sv, 0, sizeof(*sv));
	if (a->heat_arg && !a->heatmap) {
		ft_warn("--heatmap-file: says which file --heatmap shows; give --heatmap=FILE too");
		*status = EXIT_USAGE;
		return -1;
	}
	if (a->heatmap && a->mrc) {
		ft_warn("--heatmap: needs model instances, which --mrc does without");
		*status = EXIT_USAGE;
		return -1;
	}
	if (a->heatmap && !seekable) {
		ft_warn("--heatmap: needs a trace file, not standard input (the file and the grid "
			"come from a first pass)");
		*status = EXIT_USAGE;
		return -1;
	}
	if (a->heatmap && a->heat_target.kind == TARGET_NONE)
		a->heat_target.kind = TARGET_BUSIEST;
	if (!a->interval_given && auto_interval && !seekable)
		snprintf(a->subtitle, sizeof(a->subtitle), "a sample every %g s (the default: "
			 "standard input cannot be read twice to fit the interval to the trace)",
			 (double)a->base.interval_ns / 1e9);
	else if (!auto_interval)
		snprintf(a->subtitle, sizeof(a->subtitle), "a sample every %g s (--interval)",
			 (double)a->base.interval_ns / 1e9);
	/* with --interval too: the samples it makes are counted before the replay */
	if (!a->heatmap && !((a->timeseries || a->plot) && seekable))
		return 0;
	if (replay_survey(a->file, a->heatmap ? &a->heat_target : &none, sv, &err) < 0) {
		ft_warn("%s", err.msg);
		*status = EXIT_RUNTIME;
		return -1;
	}
	a->span_ns = sv->last_ts - sv->first_ts;
	if (auto_interval) {
		uint64_t span = sv->last_ts - sv->first_ts;

		a->base.interval_ns = survey_interval(span);
		snprintf(a->subtitle, sizeof(a->subtitle), "a sample every %g s, chosen for the "
			 "trace's %.3f s (no --interval)", (double)a->base.interval_ns / 1e9,
			 (double)span / 1e9);
	}
	if (a->heatmap && !sv->found) {
		if (a->heat_arg)
			ft_warn("--heatmap-file=%s: no data access to that file in the trace",
				a->heat_arg);
		else
			ft_warn("--heatmap: the trace has no data access to show");
		*status = EXIT_USAGE;
		return -1;
	}
	return 0;
}

/*
 * The trace's memory cgroups, from a first pass over a trace file (standard input cannot be
 * read twice: its accesses then all charge one cgroup), with rp's start folios; each
 * --cgroup-limit must name one.
 */
static int survey_cgroups(struct replay_args *a, struct replay *rp)
{
	struct ft_error err;

	if (strcmp(a->file, "-") == 0) {
		if (!a->cgroups.ngiven)
			return EXIT_OK;
		ft_warn("--cgroup-limit: needs a trace file, not standard input (the cgroups come "
			"from a first pass)");
		return EXIT_USAGE;
	}
	/* the replay's start folios in the same pass */
	if (replay_first_pass(a->file, &a->cgroups, replay_start_folios_wanted(rp), &err) < 0) {
		ft_warn("%s", err.msg);
		return EXIT_RUNTIME;
	}
	for (unsigned g = 0; g < a->cgroups.ngiven; g++) {
		if (a->cgroups.given[g].matched)
			continue;
		ft_warn("--cgroup-limit=%s: no memory cgroup of that name has accesses in the "
			"trace (`folio-trace info --by=cgroup` lists them)", a->cgroups.given[g].name);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The heatmap's grid for ncfg configurations, over the span survey_trace() found. */
static int make_heatmap(struct replay_args *a, const struct survey *sv, unsigned ncfg)
{
	struct heatmap *h = &a->heat;

	if (heatmap_init(h, sv->first_ts, sv->last_ts, sv->extent, a->base.page_size, ncfg) < 0) {
		ft_warn("out of memory for the heatmap");
		return -1;
	}
	h->dev = sv->dev;
	h->ino = sv->ino;
	h->expected = sv->accesses;
	snprintf(h->path, sizeof(h->path), "%s", sv->path);
	return 0;
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
		{ a->heatmap, emit_heatmap, false },
		{ a->curve, emit_curve_csv, false },
		{ a->curve_plot, emit_curve_plot, false },
	};
	enum { NFILES = sizeof(files) / sizeof(files[0]) };
	struct ft_output out[NFILES];
	struct ft_error err;
	unsigned n = 0, i;
	int ret = 0;

	for (i = 0; i < NFILES && !ret; i++) {
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

/* The verdict's trust line is only for the table, of a file read again for it. */
static bool trust_wanted(const struct replay_args *a)
{
	return a->format == FORMAT_TABLE && strcmp(a->file, "-") != 0;
}

/*
 * Without --folio-order: base pages beside what the recorded kernel did, its largest order
 * in the trace (a first pass over its page-cache events), else the model's default order.
 */
static void default_orders(struct replay_args *a)
{
	if (trust_wanted(a))
		a->facts = calib_facts_read(a->file);
	a->norders = calib_default_orders(a->file, a->facts, a->base.max_pagecache_order,
					  a->base.min_order, a->orders, a->why_orders,
					  sizeof(a->why_orders));
}

/*
 * The kernel's facts, unless the default orders read them first: gathered along the replay's
 * own read, which spares the trust line's calibration a read of the whole trace.
 */
static void facts_along(struct replay_args *a, struct replay *rp)
{
	if (a->facts || !trust_wanted(a))
		return;
	a->facts = calib_facts_begin();
	if (!a->facts)
		return;
	rp->also_read = calib_facts_note;
	rp->also_read_arg = a->facts;
}

/*
 * The verdict's trust line: calibrate's worst error on this trace. Only on a clean trace (a
 * damaged one would repeat its warnings from the second replay).
 */
static void trust_line(struct replay_args *a, const struct replay *rp)
{
	struct calib_trust t;

	if (!trust_wanted(a))
		return;
	if (rp->run.bad || rp->run.truncated || rp->run.late) {
		snprintf(a->trust, sizeof(a->trust), "trust: not calibrated, the trace is "
			 "damaged or out of order");
		return;
	}
	calib_trust_file(a->file, a->facts, a->quiet, &t);
	calib_trust_text(&t, a->trust, sizeof(a->trust));
}

int cmd_replay(int argc, char **argv)
{
	struct argp argp = {
		NULL, replay_parse, "FILE",
		"Replay the trace FILE (- for stdin) through page-cache models of the given folio "
		"orders in one pass and report LRU lengths, hit ratios, read and write "
		"amplification, writeback, reclaim and fragmentation per order, with ratios to "
		"order 0. A list or range of memory sizes runs every (order, memory) pair in the "
		"same pass and reports curves against memory. SIZE takes K, M, G, T suffixes "
		"(binary, or KiB, MiB...; 1.5G is allowed); durations take ns, us, ms, s, m, h.",
		0, 0, 0
	};
	struct replay_args args = { .norders = 1, .top = UNITS_TOP_DEFAULT,
				    .sort = UNIT_SORT_DEVICE_READ_BYTES };
	struct replay_units units;
	bool have_units = false;
	struct model_config one[REPLAY_MAX_CONFIGS], *cfg = one;
	struct model_options mo;
	struct mrc_run mrc = { 0 };
	uint64_t working_set = 0;
	unsigned ncfg;
	struct replay *rp;
	struct survey sv;
	struct ft_error err;
	int ret;

	model_config_defaults(&args.base);
	args.base.interval_ns = 1000000000;	/* the time series' default */
	args.orders[0] = args.base.max_pagecache_order;	/* the kernel's largest folios */
	if (model_options_init(&mo, replay_options) < 0) {
		ft_warn("out of memory");
		return EXIT_RUNTIME;
	}
	model_options_override(&mo, "memory", "SIZE|LIST|RANGE", memory_help);
	argp.options = mo.options;
	ret = argp_parse(&argp, argc, argv, 0, NULL, &args);
	model_options_release(&mo);
	if (ret) {
		free(args.mem);
		return EXIT_USAGE;
	}
	if (args.metrics_help) {
		free(args.mem);
		return report_metrics_help(stdout) || fflush(stdout) ? EXIT_RUNTIME : EXIT_OK;
	}
	if ((args.top_given || args.sort_given) && !args.by) {
		ft_warn("--%s: only with --by", args.top_given ? "top" : "sort");
		free(args.mem);
		return EXIT_USAGE;
	}
	if (args.by && (args.mem || args.mrc)) {
		ft_warn("--by: one memory size, without --mrc");
		free(args.mem);
		return EXIT_USAGE;
	}
	if (args.by && (args.format == FORMAT_CSV_LONG || args.have_sel)) {
		ft_warn("--by: %s", args.have_sel ? "its rows have their own figures, not --metrics"
						  : "its CSV is one row per unit, not --format=csv-long");
		free(args.mem);
		return EXIT_USAGE;
	}
	if ((args.curve || args.curve_plot) && !args.mem && !args.mrc) {
		ft_warn("--%s: curves need a sweep (--memory=LIST or RANGE) or --mrc",
			args.curve ? "curve" : "curve-plot");
		return EXIT_USAGE;
	}
	if (!args.orders_given)
		default_orders(&args);
	if (survey_trace(&args, &sv, &ret) < 0) {
		free(args.mem);
		calib_facts_free(args.facts);
		return ret;
	}
	ncfg = args.norders;
	if (args.mem || args.mrc) {
		cfg = make_sweep(&args, &working_set, &ncfg, &ret);
		if (!cfg) {
			free(args.mem);
			calib_facts_free(args.facts);
			return ret;
		}
	} else if (make_configs(&args, cfg) < 0) {
		calib_facts_free(args.facts);
		return EXIT_USAGE;
	}
	if (args.span_ns && check_samples(&args, args.span_ns / args.base.interval_ns + 1,
					  args.span_ns, ncfg) < 0) {
		ret = EXIT_USAGE;
		goto out;
	}
	if (args.heatmap && make_heatmap(&args, &sv, ncfg) < 0) {
		ret = EXIT_RUNTIME;
		goto out;
	}
	rp = malloc(sizeof(*rp));
	if (!rp) {
		ft_warn("out of memory");
		ret = EXIT_RUNTIME;
		goto out;
	}
	if (replay_init(rp, cfg, ncfg, args.set, args.timeseries || args.plot) < 0) {
		ft_warn("out of memory");
		ret = EXIT_RUNTIME;
		goto release;
	}
	rp->quiet = args.quiet;
	rp->threads = args.threads;
	if (args.heatmap)
		rp->heat = &args.heat;
	if (args.by) {
		if (replay_units_init(&units, args.by_kind) < 0) {
			ft_warn("out of memory");
			ret = EXIT_RUNTIME;
			goto release;
		}
		have_units = true;
		rp->units = &units;
	}
	rp->sweep_labels = args.mem && args.mem->n > 1;
	rp->keep = report_keep(&args);
	if (args.mrc)
		mrc_attach(&mrc, rp, args.mrc, args.mrc_rate);
	else if ((ret = survey_cgroups(&args, rp)) != EXIT_OK)
		goto release;
	rp->cgroups = &args.cgroups;
	facts_along(&args, rp);
	if (replay_file(rp, args.file, &err) < 0) {
		ft_warn("%s", err.msg);
		ret = EXIT_RUNTIME;
		goto release;
	}
	if (rp->also_read)
		calib_facts_end(args.facts, args.file, &rp->reader_status);
	if (args.mrc || args.mem) {
		if ((args.mrc ? mrc_curves(&mrc, args.mem, working_set, &args.curves) :
		     sweep_curves(rp, args.norders, args.mem->n, working_set, &args.curves)) < 0) {
			ft_warn("out of memory for the curves");
			ret = EXIT_RUNTIME;
			goto release;
		}
		args.have_curves = true;
	}
	if (have_units && replay_units_report(&units, rp, args.sort, (uint32_t)args.top,
					      &args.units) < 0) {
		ft_warn("out of memory for the figures per unit");
		ret = EXIT_RUNTIME;
		goto release;
	}
	if (args.by && args.by_kind == TOP_BY_CGROUP && !units.tasks_with_cgroup)
		ft_warn("--by=cgroup: the trace records no memory cgroup of its tasks (made by "
			"synth or import, or recorded by folio-trace before trace format 1.1): "
			"their figures are under \"?\"");
	trust_line(&args, rp);
	if (check_samples(&args, rp->samples, rp->now - rp->series.t0, ncfg) < 0)
		ret = EXIT_USAGE;
	else if (emit_all(&args, rp) < 0)
		ret = EXIT_RUNTIME;
	else	/* a cut trace or damaged records were reported on stderr: partial results */
		ret = rp->run.truncated || rp->run.bad ? EXIT_RUNTIME : EXIT_OK;
release:
	replay_release(rp);
	replay_cgroups_release(&args.cgroups);
	if (have_units)
		replay_units_release(&units);
	mrc_release(&mrc);
	free(rp);
out:
	heatmap_release(&args.heat);
	curve_set_release(&args.curves);
	if (cfg != one)
		free(cfg);
	free(args.mem);
	calib_facts_free(args.facts);
	return ret;
}
