/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace calibrate: replay a recorded trace with the recording kernel's configuration
 * and show, per metric, how far the model is from what that kernel did.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "cmd.h"
#include "model/params.h"
#include "util/args.h"
#include "util/msg.h"
#include "util/output.h"

enum calib_format { CALIB_FORMAT_TABLE, CALIB_FORMAT_JSON };

enum { OPT_FORMAT = 256, OPT_FILES, OPT_MEMORY, OPT_FORCE, OPT_BY, OPT_TOP, OPT_START_FOLIOS };

static const struct argp_option calibrate_options[] = {
	{ "files", OPT_FILES, "WHICH", 0,
	  "all (default): every accessed file; syscalls: leave out the files the trace maps "
	  "(executables, libraries), whose faults the model reads differently", 0 },
	{ "by", OPT_BY, "UNIT", 0,
	  "file: also each file's inserted pages, refaults and bytes written back, the model's "
	  "beside the kernel's, most inserted by the kernel first", 0 },
	{ "top", OPT_TOP, "N", 0, "with --by: the first N files (default 20)", 0 },
	{ "format", OPT_FORMAT, "FMT", 0, "table (default) or json", 0 },
	{ "memory", OPT_MEMORY, "SIZE", 0,
	  "page-cache memory instead of the recorded cgroup limit or host memory (what the "
	  "kernel's workload had beside the traced files, such as other processes' caches, "
	  "is then the caller's to take out)", 0 },
	{ "start-folios", OPT_START_FOLIOS, "HOW", 0,
	  "deleted (default): the folios of the start cache the trace's deletes show, the rest "
	  "by rule; rule: all by rule, to check the rule against those deletes", 0 },
	{ "output", 'o', "FILE", 0, "write the report to FILE instead of standard output", 0 },
	{ "quiet", 'q', NULL, 0, "no progress line on stderr, even on a terminal", 0 },
	{ "force", OPT_FORCE, NULL, 0,
	  "replace a symbolic link at the output (never what it points to)", 0 },
	{ 0 }
};

struct calibrate_args {
	enum calib_format format;
	struct calibrate_request req;
	bool force;
	bool by_file;
	uint32_t top;			/* --top; 0: not given */
	struct model_config memory;	/* its memory_bytes (--memory), start_folios */
	const char *file, *output;
	struct ft_seen seen;
};

static error_t calibrate_parse(int key, char *arg, struct argp_state *state)
{
	struct calibrate_args *a = state->input;

	if (ft_option_once(&a->seen, state, key))
		return EINVAL;
	switch (key) {
	case OPT_FORMAT:
		if (strcmp(arg, "table") == 0) {
			a->format = CALIB_FORMAT_TABLE;
		} else if (strcmp(arg, "json") == 0) {
			a->format = CALIB_FORMAT_JSON;
		} else {
			ft_warn("--format=%s: expected table or json", arg);
			return EINVAL;
		}
		return 0;
	case OPT_MEMORY: {
		const char *why = model_param_set(model_param_by_key("memory_bytes"), arg,
						  &a->memory);

		return why ? ft_usage_error(NULL, "memory", arg, why) : 0;
	}
	case OPT_START_FOLIOS: {
		const char *why = model_param_set(model_param_by_key("start_folios"), arg,
						  &a->memory);

		return why ? ft_usage_error(NULL, "start-folios", arg, why) : 0;
	}
	case OPT_FILES:
		if (strcmp(arg, "all") != 0 && strcmp(arg, "syscalls") != 0) {
			ft_warn("--files=%s: expected all or syscalls", arg);
			return EINVAL;
		}
		a->req.skip_mmapped = strcmp(arg, "syscalls") == 0;
		return 0;
	case OPT_BY:
		if (strcmp(arg, "file") != 0) {
			ft_warn("--by=%s: expected file", arg);
			return EINVAL;
		}
		a->by_file = true;
		return 0;
	case OPT_TOP: {
		uint64_t n;

		if (ft_parse_u64_arg(NULL, "top", arg, 1, UINT32_MAX, &n))
			return EINVAL;
		a->top = (uint32_t)n;
		return 0;
	}
	case 'o':
		a->output = arg;
		return 0;
	case 'q':
		a->req.quiet = true;
		return 0;
	case OPT_FORCE:
		a->force = true;
		return 0;
	case ARGP_KEY_ARG:
		if (a->file) {
			ft_warn("one trace file only (see folio-trace calibrate --help)");
			return EINVAL;
		}
		/* the kernel's figures are read in a first pass, the model runs in a second */
		if (strcmp(arg, "-") == 0) {
			ft_warn("-: calibrate reads the trace twice: give a file, not standard input");
			return EINVAL;
		}
		a->file = arg;
		return 0;
	case ARGP_KEY_END:
		if (!a->file) {
			ft_warn("no trace file given (see folio-trace calibrate --help)");
			return EINVAL;
		}
		return 0;
	}
	return ARGP_ERR_UNKNOWN;
}

static int write_report(FILE *f, const struct calibrate_args *a, const struct calibration *c)
{
	return a->format == CALIB_FORMAT_JSON ? calib_write_json(f, c) : calib_write_table(f, c);
}

/* What write_report() needs, as ft_output_write() hands it over. */
struct calib_output {
	const struct calibrate_args *a;
	const struct calibration *c;
};

static int write_report_to(FILE *f, const void *arg)
{
	const struct calib_output *o = arg;

	return write_report(f, o->a, o->c);
}

/* To standard output, or to -o FILE as every output is written (util/output.h). */
static int write_calibration(const struct calibrate_args *a, const struct calibration *c)
{
	const struct ft_output_opts oo = { .mode = 0666, .force = a->force, .dash_is_stdout = true,
					   .inputs = &a->file, .ninputs = 1 };
	const struct calib_output out = { .a = a, .c = c };

	if (!a->output) {
		if (write_report(stdout, a, c) || fflush(stdout)) {
			ft_warn("standard output: write failed: %s", strerror(errno));
			return -1;
		}
		return 0;
	}
	return ft_output_write(a->output, &oo, write_report_to, &out);
}

int cmd_calibrate(int argc, char **argv)
{
	static const struct argp argp = {
		calibrate_options, calibrate_parse, "FILE",
		"Replay the recorded trace FILE with the configuration of the host that recorded "
		"it (memory or cgroup limit, vm.dirty_* sysctls, readahead window and rule, the "
		"folio orders the kernel used per file) and print, per metric, the model's figure, "
		"the kernel's and the relative error.",
		0, 0, 0
	};
	struct calibrate_args args = { .format = CALIB_FORMAT_TABLE };
	struct calibration c;
	struct ft_error err;
	int rc;

	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	args.req.memory_bytes = args.memory.memory_bytes;
	args.req.start_folios = args.memory.start_folios;
	if (args.top && !args.by_file) {
		ft_warn("--top needs --by=file (see folio-trace calibrate --help)");
		return EXIT_USAGE;
	}
	args.req.by_file = args.by_file ? (args.top ? args.top : 20) : 0;
	if (calibrate_file(&c, args.file, &args.req, &err) < 0) {
		ft_warn("%s", err.msg);
		calibration_release(&c);
		return EXIT_RUNTIME;
	}
	rc = write_calibration(&args, &c) < 0 ? EXIT_RUNTIME :
	     c.truncated ? EXIT_RUNTIME : EXIT_OK;	/* a cut trace's figures are partial */
	calibration_release(&c);
	return rc;
}
