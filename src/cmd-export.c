/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace export: a trace's accesses as a page- or folio-granular request stream in
 * libCacheSim's csv or oracleGeneral layout, so other cache simulators can replay it.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "export/export.h"
#include "model/model.h"
#include "util/args.h"
#include "util/error.h"
#include "util/msg.h"
#include "util/parse.h"
#include "util/progress.h"

enum export_format { EXPORT_NONE, EXPORT_CSV, EXPORT_ORACLE };

enum { OPT_TO = 0x100, OPT_ORDER, OPT_FORCE };

static const struct argp_option export_options[] = {
	{ "to", OPT_TO, "FORMAT", 0, "csv or oraclegeneral; required", 0 },
	{ "order", OPT_ORDER, "N", 0, "one request per folio of 2^N pages (default 0: per page)",
	  0 },
	{ "output", 'o', "FILE", 0, "write to FILE (default - : stdout)", 0 },
	{ "verbose", 'v', NULL, 0, "print how many accesses became how many requests", 0 },
	{ "quiet", 'q', NULL, 0, "no progress line on stderr, even on a terminal", 0 },
	{ "force", OPT_FORCE, NULL, 0,
	  "replace a symbolic link at the output (never what it points to)", 0 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

struct export_args {
	enum export_format format;
	uint64_t order;
	const char *output;
	const char *input;
	bool verbose, quiet, force;
	struct ft_seen seen;
};

static error_t export_parse_opt(int key, char *arg, struct argp_state *state)
{
	struct export_args *a = state->input;

	if (ft_option_once(&a->seen, state, key))
		return EINVAL;
	switch (key) {
	case OPT_TO:
		if (strcmp(arg, "csv") == 0)
			a->format = EXPORT_CSV;
		else if (strcmp(arg, "oraclegeneral") == 0 || strcmp(arg, "oracleGeneral") == 0)
			a->format = EXPORT_ORACLE;
		else
			return ft_usage_error(state, "to", arg,
					      "unknown format (csv or oraclegeneral)");
		break;
	case OPT_ORDER:
		if (ft_parse_u64_arg(state, "order", arg, 0, MODEL_MAX_ORDER, &a->order))
			return EINVAL;
		break;
	case 'o':
		a->output = arg;
		break;
	case 'v':
		a->verbose = true;
		break;
	case 'q':
		a->quiet = true;
		break;
	case OPT_FORCE:
		a->force = true;
		break;
	case ARGP_KEY_END:
		if (a->format == EXPORT_NONE)
			argp_error(state, "--to=FORMAT missing (csv or oraclegeneral)");
		return argp_one_operand(key, arg, state, &a->input, "TRACE");
	default:
		return argp_one_operand(key, arg, state, &a->input, "TRACE");
	}
	return 0;
}

static const char export_doc[] =
	"Write the accesses of TRACE as a libCacheSim request stream: one request per page (or "
	"folio, --order) that a buffered read, write or mmap access touches.\v"
	"Object ids are file number << 40 | page index of the folio's first page; object sizes "
	"are the folio size; times are whole seconds since the first access. O_DIRECT accesses, "
	"syncs, truncates and unlinks make no request.";

static const struct argp export_argp = { export_options, export_parse_opt, "TRACE", export_doc,
					 NULL, NULL, NULL };

/* The requests into the output, which takes its name only when all of them are there. */
static int export_to(struct req_stream *s, const struct export_args *a, struct ft_error *err)
{
	const struct ft_output_opts oo = { .mode = 0666, .force = a->force, .dash_is_stdout = true,
					   .inputs = &a->input, .ninputs = 1 };
	struct ft_output out;
	FILE *f;
	int ret;

	if (ft_output_open(&out, a->output, &oo, err))
		return -1;
	if (a->format == EXPORT_CSV) {
		f = ft_output_stdio(&out, err);
		ret = f ? export_csv(s, f, ft_output_name(&out), err) : -1;
	} else {
		ret = export_oracle(s, &out, err);
	}
	if (ret) {
		ft_output_abort(&out, false);
		return -1;
	}
	return ft_output_commit(&out, err);
}

/* The summary of skipped damaged accesses, after the first few were named. */
static void report_damaged(const struct req_stream *s)
{
	if (s->damaged > EXPORT_SHOW_DAMAGED)
		ft_warn("%s: %llu damaged access records skipped (%u shown)", s->path,
			(unsigned long long)s->damaged, EXPORT_SHOW_DAMAGED);
}

int cmd_export(int argc, char **argv)
{
	struct export_args a = { .output = "-" };
	struct ft_error err = { "" };
	struct req_stream s;
	struct ft_progress progress;
	char why[512];
	bool written;
	int ret;

	if (argp_parse(&export_argp, argc, argv, 0, NULL, &a))
		return EXIT_USAGE;
	if (req_stream_open(&s, a.input, (unsigned)a.order, &err)) {
		ft_warn("%s", err.msg);
		return EXIT_RUNTIME;
	}
	ft_reader_progress(s.reader, &progress, "export", a.quiet);
	written = export_to(&s, &a, &err) == 0;
	ft_progress_end(&progress);
	ret = written ? EXIT_OK : EXIT_RUNTIME;
	if (!written) {
		ft_warn("%s", err.msg);
	} else {
		report_damaged(&s);
		/* what was readable is exported; a cut or damaged trace still ends in 1 */
		if (req_stream_truncated(&s, why, sizeof(why))) {
			ft_warn("%s", why);
			ret = EXIT_RUNTIME;
		}
		if (s.damaged)
			ret = EXIT_RUNTIME;
	}
	if (written && a.verbose)
		fprintf(stderr, "folio-trace: %s: %llu accesses -> %llu requests of %u bytes "
			"(%llu O_DIRECT, %llu of procfs/sysfs files and %llu other records "
			"skipped)\n", a.input,
			(unsigned long long)s.accesses, (unsigned long long)s.requests,
			s.page_size << a.order, (unsigned long long)s.direct_skipped,
			(unsigned long long)s.uncached_skipped, (unsigned long long)s.other_skipped);
	req_stream_close(&s);
	return ret;
}
