/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace report: the whole analysis of one trace on one self-contained HTML page. It runs
 * what replay and calibrate run (the default replay with its time series and top files, a
 * sweep of memory sizes, the calibration) and hands each renderer's own output to the page
 * (report/page.h), so the page says what the terminal says.
 */
#include "config.h"

#include <argp.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate/calibrate.h"
#include "calibrate/trust.h"
#include "cmd.h"
#include "replay/firstpass.h"
#include "replay/mrc.h"
#include "replay/replay.h"
#include "replay/survey.h"
#include "replay/sweep.h"
#include "replay/units.h"
#include "report/curve.h"
#include "report/page.h"
#include "report/report.h"
#include "report/series.h"
#include "report/units.h"
#include "util/args.h"
#include "util/msg.h"
#include "util/output.h"

enum { OPT_ORDER = 256, OPT_FORCE, OPT_SWEEP };

/* Curve points when --sweep is not given: about this many round sizes up to the working set. */
#define REPORT_SWEEP_POINTS	20
#define REPORT_TOP_FILES	20

static const struct argp_option report_options[] = {
	{ "folio-order", OPT_ORDER, "N[,N...]", 0,
	  "largest folio order of each model, as replay takes it (default: 0 and the largest "
	  "order the recorded kernel inserted in the trace, else 0 and 9)", PARAM_GROUP_FOLIOS },
	{ "sweep", OPT_SWEEP, "LIST|RANGE", 0,
	  "the memory sizes of the curves, as replay's --memory takes a list or range "
	  "(default: about 20 round sizes from a hundredth of the trace's working set to "
	  "just above it)",
	  PARAM_GROUP_MEMORY },
	{ "output", 'o', "FILE", 0,
	  "write the page to FILE (- or none: standard output, unless it is a terminal)",
	  PARAM_GROUP_OUTPUT },
	{ "quiet", 'q', NULL, 0, "no progress line on stderr, even on a terminal",
	  PARAM_GROUP_OUTPUT },
	{ "force", OPT_FORCE, NULL, 0,
	  "replace a symbolic link at the output (never what it points to)", PARAM_GROUP_OUTPUT },
	{ 0 }
};

struct report_args {
	struct model_config base;
	unsigned set;			/* enum model_recorded: what the user gave */
	unsigned orders[REPLAY_MAX_CONFIGS], norders;
	bool orders_given, interval_given, quiet, force;
	const char *file, *output, *sweep;
	char why_orders[160];
	struct ft_seen seen;
	struct replay_cgroups cgroups;	/* the trace's memory cgroups, as replay has them */
};

/* What the renderers wrote, each into memory, for the page. */
struct report_texts {
	char *verdict, *details, *time_svg, *files, *curves_svg, *curves, *calibration;
	char trust[320];
	char sweep[64];			/* the curves' sizes, as --memory takes them */
	const char *curves_why_not;
};

static error_t report_parse(int key, char *arg, struct argp_state *state)
{
	struct report_args *a = state->input;
	const char *why;
	error_t e;

	if (ft_option_once(&a->seen, state, key))
		return EINVAL;
	switch (key) {
	case ARGP_KEY_ARG:
		if (a->file) {
			ft_warn("one trace file only (see folio-trace report --help)");
			return EINVAL;
		}
		if (strcmp(arg, "-") == 0) {
			ft_warn("-: report reads the trace several times: give a file, not "
				"standard input");
			return EINVAL;
		}
		a->file = arg;
		return 0;
	case ARGP_KEY_END:
		if (!a->file) {
			ft_warn("no trace file given (see folio-trace report --help)");
			return EINVAL;
		}
		return 0;
	case OPT_ORDER:
		if (!parse_order_list(arg, a->orders, &a->norders, &why))
			return ft_usage_error(NULL, "folio-order", arg, why);
		a->orders_given = true;
		return 0;
	case OPT_SWEEP: {
		struct memory_list *l = malloc(sizeof(*l));
		bool ok = l && parse_memory_list(arg, l, &why);

		free(l);
		if (!ok)
			return ft_usage_error(NULL, "sweep", arg, l ? why : "out of memory");
		a->sweep = arg;
		return 0;
	}
	case 'o':
		a->output = arg;
		return 0;
	case 'q':
		a->quiet = true;
		return 0;
	case OPT_FORCE:
		a->force = true;
		return 0;
	}
	if (key == MODEL_OPTION_KEY + (int)(model_param_by_option("interval") - model_params))
		a->interval_given = true;
	e = model_options_parse(key, arg, &a->base, &a->set);
	return e;
}

/* A renderer's output kept in memory; NULL when out of memory or it failed. */
struct capture {
	char *buf;
	size_t len;
	FILE *f;
};

static FILE *capture_begin(struct capture *c)
{
	c->buf = NULL;
	c->len = 0;
	c->f = open_memstream(&c->buf, &c->len);
	return c->f;
}

static char *capture_end(struct capture *c, int status)
{
	if (!c->f)
		return NULL;
	if (fclose(c->f) || status) {
		free(c->buf);
		return NULL;
	}
	return c->buf;
}


/*
 * The calibration's table and the verdict's trust line, as replay says it; from the kernel's
 * facts read for the default orders when there are (facts, else NULL).
 */
static void run_calibration(const struct report_args *a, struct calib_facts *facts,
			    struct report_texts *t)
{
	const struct calibrate_request req = { .quiet = a->quiet };
	struct calibration *c = malloc(sizeof(*c));
	struct calib_trust trust;
	struct capture cap;
	struct ft_error err;

	if (!c) {
		snprintf(t->trust, sizeof(t->trust), "trust: not calibrated, out of memory");
		return;
	}
	if (calib_facts_calibrate(facts, c, a->file, &req, &err) < 0) {
		calib_trust_failed(a->file, &err, &trust);
		calib_trust_text(&trust, t->trust, sizeof(t->trust));
		free(c);
		return;
	}
	calib_trust_of(c, &trust);
	calib_trust_text(&trust, t->trust, sizeof(t->trust));
	if (capture_begin(&cap))
		t->calibration = capture_end(&cap, calib_write_table(cap.f, c));
	free(c);
}

/* The default replay: verdict, table, time series and the files that read the most. */
static int run_replay(struct report_args *a, const struct model_config *cfg,
		      struct report_texts *t)
{
	struct replay *rp = malloc(sizeof(*rp));
	struct replay_units units;
	struct report_units ru;
	struct capture cap;
	struct ft_error err;
	char title[512], subtitle[160];
	int ret = -1;

	if (!rp || replay_units_init(&units, TOP_BY_FILE) < 0) {
		ft_warn("out of memory");
		free(rp);
		return -1;
	}
	if (replay_init(rp, cfg, a->norders, a->set, true) < 0) {
		ft_warn("out of memory");
		goto out;
	}
	rp->quiet = a->quiet;
	rp->units = &units;
	rp->cgroups = &a->cgroups;
	if (replay_file(rp, a->file, &err) < 0) {
		ft_warn("%s", err.msg);
		goto out;
	}
	if (replay_units_report(&units, rp, UNIT_SORT_DEVICE_READ_BYTES, REPORT_TOP_FILES,
				&ru) < 0) {
		ft_warn("out of memory for the figures per file");
		goto out;
	}
	if (rp->run.bad || rp->run.truncated || rp->run.late)
		snprintf(t->trust, sizeof(t->trust), "trust: not calibrated, the trace is "
			 "damaged or out of order");
	{
		struct report r = { .run = &rp->run, .cols = rp->cols, .ncols = rp->ncfg,
				    .why_orders = a->orders_given ? NULL : a->why_orders,
				    .trust = t->trust };

		r.baseline = report_pick_baseline(rp->cols, r.ncols);
		if (capture_begin(&cap))
			t->verdict = capture_end(&cap, report_write_verdict(cap.f, &r));
		if (capture_begin(&cap))
			t->details = capture_end(&cap, report_write_details(cap.f, &r));
	}
	snprintf(title, sizeof(title), "folio-trace replay: %s", a->file);
	snprintf(subtitle, sizeof(subtitle), "a sample every %g s%s",
		 (double)a->base.interval_ns / 1e9,
		 a->interval_given ? " (--interval)" : ", chosen for the trace's length");
	if (capture_begin(&cap))
		t->time_svg = capture_end(&cap, series_write_svg(cap.f, &rp->series, title,
								 subtitle));
	if (capture_begin(&cap))
		t->files = capture_end(&cap, report_units_table(cap.f, &ru));
	ret = t->verdict && t->details && t->time_svg && t->files ? 0 : -1;
	if (ret)
		ft_warn("out of memory for the page");
	/* a cut or damaged trace was reported on stderr: the page shows what was read */
	if (!ret && (rp->run.truncated || rp->run.bad))
		ret = 1;
out:
	replay_release(rp);
	replay_units_release(&units);
	free(rp);
	return ret;
}

/* 1, 2 or 5 times a power of ten: the least at least x, or the largest at most x. */
static uint64_t round125(uint64_t x, bool up)
{
	static const unsigned m[] = { 1, 2, 5 };
	uint64_t p = 1, best = 1;

	for (; p <= UINT64_MAX / 50; p *= 10)
		for (unsigned i = 0; i < 3; i++) {
			if (up && m[i] * p >= x)
				return m[i] * p;
			if (!up && m[i] * p <= x)
				best = m[i] * p;
		}
	return best;
}

/* The largest of K, M, G, T not above bytes (K at least): its letter, its bytes in *unit. */
static char size_unit(uint64_t bytes, uint64_t *unit)
{
	static const char letters[] = "KMGT";
	unsigned i = 0;

	*unit = 1024;
	while (letters[i + 1] && bytes >= *unit * 1024) {
		*unit *= 1024;
		i++;
	}
	return letters[i];
}

/*
 * The default sweep, as --memory would take it: round sizes from a hundredth of the working
 * set's round ceiling to that ceiling ("1M..100M/20" for a 90 MiB working set).
 */
static void default_sweep(uint64_t ws, uint64_t page, char *buf, size_t len)
{
	uint64_t hu, lu, hi, lo;
	char hc = size_unit(ws, &hu), lc;

	/* a working set of a few pages: those sizes, as there are no others */
	if (ws <= 16 * page) {
		snprintf(buf, len, "%" PRIu64 "K,%" PRIu64 "K,%" PRIu64 "K,%" PRIu64 "K",
			 page >> 10, 2 * page >> 10, 4 * page >> 10, 16 * page >> 10);
		return;
	}
	hi = round125((ws + hu - 1) / hu, true);
	lc = size_unit(hi * hu / 100, &lu);
	lo = round125(hi * hu / 100 / lu, false);
	/* never below a page, which no model can be */
	if (lo * lu < page) {
		lc = 'K';
		lo = page >> 10;
	}
	snprintf(buf, len, "%" PRIu64 "%c..%" PRIu64 "%c/%u", lo, lc, hi, hc, REPORT_SWEEP_POINTS);
}

/* The configurations of the sweep, order-major, as replay's --memory=LIST makes them. */
static struct model_config *sweep_configs(const struct model_config *cfg, unsigned norders,
					  const struct memory_list *l)
{
	struct model_config *out = calloc((size_t)norders * l->n, sizeof(*out));

	for (unsigned o = 0; out && o < norders; o++)
		for (unsigned k = 0; k < l->n; k++) {
			out[o * l->n + k] = cfg[o];
			out[o * l->n + k].memory_bytes = l->v[k].bytes;
		}
	return out;
}

/* The curves against memory: each order at each size of the sweep, in one more pass. */
static int run_sweep(struct report_args *a, const struct model_config *cfg,
		     struct report_texts *t)
{
	const char *sweep = a->sweep, *why = NULL;
	struct memory_list *l = malloc(sizeof(*l));
	struct model_config *scfg = NULL;
	struct curve_set curves = { 0 };
	struct replay *rp = NULL;
	uint64_t ws = 0, nfiles = 0;
	struct capture cap;
	struct ft_error err;
	char title[512];
	int ret = -1;

	if (!l) {
		ft_warn("out of memory");
		goto out;
	}
	if (replay_working_set(a->file, 0, &ws, &nfiles, &err) < 0) {
		ft_warn("%s", err.msg);
		goto out;
	}
	if (!ws && !sweep) {
		t->curves_why_not = "The trace touches no page: no curve against memory.";
		ret = 0;
		goto out;
	}
	if (!sweep) {
		default_sweep(ws, a->base.page_size ? a->base.page_size : 4096, t->sweep,
			      sizeof(t->sweep));
		sweep = t->sweep;
	} else {
		snprintf(t->sweep, sizeof(t->sweep), "%s", sweep);
	}
	if (!parse_memory_list(sweep, l, &why)) {
		ft_usage_error(NULL, "sweep", sweep, why);
		goto out;
	}
	if (!memory_list_resolve(l, ws, a->base.page_size, &why)) {
		ft_usage_error(NULL, "sweep", sweep, why);
		goto out;
	}
	scfg = sweep_configs(cfg, a->norders, l);
	rp = scfg ? malloc(sizeof(*rp)) : NULL;
	if (!rp) {
		ft_warn("out of memory");
		goto out;
	}
	/* the sizes are the sweep's, not the recorded host's */
	if (replay_init(rp, scfg, a->norders * l->n, a->set | MODEL_REC_MEMORY, false) < 0) {
		ft_warn("out of memory");
		goto out;
	}
	rp->quiet = a->quiet;
	rp->work = "sweep";
	rp->cgroups = &a->cgroups;
	rp->sweep_labels = l->n > 1;
	if (replay_file(rp, a->file, &err) < 0) {
		ft_warn("%s", err.msg);
		goto out;
	}
	if (sweep_curves(rp, a->norders, l->n, ws, &curves) < 0) {
		ft_warn("out of memory for the curves");
		goto out;
	}
	snprintf(title, sizeof(title), "folio-trace replay: %s, against memory", a->file);
	if (capture_begin(&cap))
		t->curves_svg = capture_end(&cap, curve_write_svg(cap.f, &curves, title));
	if (capture_begin(&cap))
		t->curves = capture_end(&cap, curve_write_table(cap.f, &curves));
	ret = t->curves_svg && t->curves ? 0 : -1;
	if (ret)
		ft_warn("out of memory for the page");
out:
	if (rp)
		replay_release(rp);
	free(rp);
	curve_set_release(&curves);
	free(scfg);
	free(l);
	return ret;
}

static void texts_release(struct report_texts *t)
{
	free(t->verdict);
	free(t->details);
	free(t->time_svg);
	free(t->files);
	free(t->curves_svg);
	free(t->curves);
	free(t->calibration);
}

static int write_page_to(FILE *f, const void *page)
{
	return report_write_page(f, page);
}

/* The page to -o FILE (all or nothing, as every output: util/output.h) or standard output. */
static int write_page(const struct report_args *a, const struct report_page *p)
{
	const struct ft_output_opts oo = { .mode = 0666, .force = a->force, .dash_is_stdout = true,
					   .inputs = &a->file, .ninputs = 1 };

	return ft_output_write(a->output ? a->output : "-", &oo, write_page_to, p);
}

/* Survey for the time series' interval: 200 to 500 samples over the trace, as replay's plot. */
static int fit_interval(struct report_args *a)
{
	struct survey_target none = { .kind = TARGET_NONE };
	struct survey sv;
	struct ft_error err;

	if (a->interval_given)
		return 0;
	if (replay_survey(a->file, &none, &sv, &err) < 0) {
		ft_warn("%s", err.msg);
		return -1;
	}
	a->base.interval_ns = survey_interval(sv.last_ts - sv.first_ts);
	return 0;
}

/* On a terminal, where the page is as a browser takes it: one line to copy. */
static void say_where(const struct report_args *a)
{
	char *abs;

	if (a->quiet || !a->output || strcmp(a->output, "-") == 0 || !isatty(STDERR_FILENO))
		return;
	abs = realpath(a->output, NULL);
	if (abs)
		fprintf(stderr, "folio-trace report: file://%s\n", abs);
	free(abs);
}

static int run_all(struct report_args *a)
{
	struct model_config cfg[REPLAY_MAX_CONFIGS];
	struct report_texts t = { .curves_why_not = NULL };
	struct calib_facts *facts = NULL;
	struct ft_error err;
	int ret, replayed;

	if (!a->orders_given) {
		/* read once for the orders and the calibration below */
		facts = calib_facts_read(a->file);
		a->norders = calib_default_orders(a->file, facts, a->base.max_pagecache_order,
						  a->base.min_order, a->orders, a->why_orders,
						  sizeof(a->why_orders));
	}
	if (order_configs(&a->base, a->orders, a->norders, cfg) < 0) {
		calib_facts_free(facts);
		return EXIT_USAGE;
	}
	if (fit_interval(a) < 0) {
		calib_facts_free(facts);
		return EXIT_RUNTIME;
	}
	for (unsigned i = 0; i < a->norders; i++)
		cfg[i].interval_ns = a->base.interval_ns;
	if (replay_first_pass(a->file, &a->cgroups, NULL, &err) < 0) {
		ft_warn("%s", err.msg);
		calib_facts_free(facts);
		return EXIT_RUNTIME;
	}
	run_calibration(a, facts, &t);
	calib_facts_free(facts);
	replayed = run_replay(a, cfg, &t);
	ret = replayed < 0 || run_sweep(a, cfg, &t) < 0 ? EXIT_RUNTIME : EXIT_OK;
	if (ret == EXIT_OK) {
		const struct report_page p = {
			.trace_path = a->file, .version = PACKAGE_VERSION, .verdict = t.verdict,
			.details = t.details, .curves_svg = t.curves_svg, .curves_text = t.curves,
			.curves_why_not = t.curves_why_not, .time_svg = t.time_svg,
			.files_text = t.files, .trust = t.trust,
			.calibration_text = t.calibration, .cfg = &cfg[0],
			.sweep = t.sweep,
		};

		if (write_page(a, &p) < 0) {
			ret = EXIT_RUNTIME;
		} else {
			say_where(a);
			/* partial figures, said on stderr */
			ret = replayed > 0 ? EXIT_RUNTIME : EXIT_OK;
		}
	}
	texts_release(&t);
	replay_cgroups_release(&a->cgroups);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct argp argp = {
		NULL, report_parse, "FILE",
		"Write the whole analysis of the trace FILE as one self-contained HTML page: the "
		"verdict and the table of each folio order (as folio-trace replay FILE prints "
		"them), curves against memory, the run over time, the files that read the most, "
		"the calibration and how far to trust the model, and the model's settings. The "
		"page loads nothing from elsewhere: open it from a file:// URL. Model options are "
		"replay's; SIZE takes K, M, G, T suffixes, durations ns, us, ms, s, m, h.",
		0, 0, 0
	};
	struct report_args args = { .norders = 0 };
	struct model_options mo;
	int ret;

	model_config_defaults(&args.base);
	args.base.interval_ns = 1000000000;
	if (model_options_init(&mo, report_options) < 0) {
		ft_warn("out of memory");
		return EXIT_RUNTIME;
	}
	argp.options = mo.options;
	ret = argp_parse(&argp, argc, argv, 0, NULL, &args);
	model_options_release(&mo);
	if (ret)
		return EXIT_USAGE;
	if ((!args.output || strcmp(args.output, "-") == 0) && isatty(STDOUT_FILENO)) {
		ft_warn("an HTML page is no text for a terminal: give -o FILE.html, or redirect "
			"standard output");
		return EXIT_USAGE;
	}
	return run_all(&args);
}
