/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace import: traces from other tools (ftrace text, fio iolog, libCacheSim) as a
 * folio-trace trace, for kernels and hosts where the BPF recorder cannot run.
 */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "import/import.h"
#include "import/synthetic-host.h"
#include "util/args.h"
#include "util/msg.h"
#include "util/parse.h"
#include "util/progress.h"

enum import_format { FROM_NONE, FROM_FTRACE, FROM_FIO, FROM_CSV, FROM_ORACLE };

static const struct {
	const char *name;
	enum import_format format;
	int (*fn)(struct import_ctx *c, FILE *in);
} import_formats[] = {
	{ "ftrace", FROM_FTRACE, import_ftrace },
	{ "fio-iolog", FROM_FIO, import_fio_iolog },
	{ "csv", FROM_CSV, import_lcs_csv },
	{ "oraclegeneral", FROM_ORACLE, import_lcs_oracle },
};

#define NR_FORMATS (sizeof(import_formats) / sizeof(import_formats[0]))

enum { OPT_FROM = 0x100, OPT_STRICT, OPT_MEMORY, OPT_DIRECT, OPT_FSTYPE, OPT_FORCE };

static const struct argp_option import_options[] = {
	{ "from", OPT_FROM, "FORMAT", 0, "ftrace, fio-iolog, csv or oraclegeneral; required", 0 },
	{ "output", 'o', "FILE", 0, "write the trace to FILE (- for stdout); required", 0 },
	{ "strict", OPT_STRICT, NULL, 0, "stop at the first bad or unsupported line, exit 1",
	  0 },
	{ "memory", OPT_MEMORY, "SIZE", 0, "memory size for the host record (default 4G)",
	  0 },
	{ "direct", OPT_DIRECT, NULL, 0, "fio-iolog: the job used O_DIRECT (direct=1)", 0 },
	{ "fstype", OPT_FSTYPE, "NAME", 0,
	  "filesystem type of the device, for fio-iolog, csv and oraclegeneral (default "
	  "xfs)", 0 },
	{ "verbose", 'v', NULL, 0, "print the lines read and the records written", 0 },
	{ "quiet", 'q', NULL, 0, "no progress line on stderr, even on a terminal", 0 },
	{ "force", OPT_FORCE, NULL, 0,
	  "replace a symbolic link at the output (never what it points to)", 0 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

struct import_args {
	int format;		/* index in import_formats, -1 unset */
	const char *output;
	const char *input;
	const char *fstype;
	uint64_t memory;
	bool strict, direct, verbose, quiet, force;
	struct ft_seen seen;
};

static error_t import_parse_opt(int key, char *arg, struct argp_state *state)
{
	struct import_args *a = state->input;
	const char *why;

	if (ft_option_once(&a->seen, state, key))
		return EINVAL;
	switch (key) {
	case OPT_FROM:
		a->format = -1;
		for (unsigned i = 0; i < NR_FORMATS; i++)
			if (strcmp(arg, import_formats[i].name) == 0)
				a->format = (int)i;
		if (a->format < 0)
			return ft_usage_error(state, "from", arg, "unknown format "
					      "(ftrace, fio-iolog, csv or oraclegeneral)");
		break;
	case 'o':
		a->output = arg;
		break;
	case OPT_STRICT:
		a->strict = true;
		break;
	case OPT_MEMORY:
		if (!parse_size(arg, &a->memory, &why))
			return ft_usage_error(state, "memory", arg, why);
		if (!a->memory)
			return ft_usage_error(state, "memory", arg, "must be > 0");
		break;
	case OPT_DIRECT:
		a->direct = true;
		break;
	case OPT_FSTYPE:
		if (strlen(arg) >= FT_FSTYPE_LEN)
			return ft_usage_error(state, "fstype", arg, "too long");
		a->fstype = arg;
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
		if (a->format < 0)
			argp_error(state, "--from=FORMAT missing");
		if (!a->output)
			argp_error(state, "--output=FILE missing");
		return argp_one_operand(key, arg, state, &a->input, "INPUT (- for stdin)");
	default:
		return argp_one_operand(key, arg, state, &a->input, "INPUT (- for stdin)");
	}
	return 0;
}

static const char import_doc[] =
	"Convert INPUT (- for stdin) into a folio-trace trace.\v"
	"Formats:\n"
	"  ftrace         trace_pipe, trace-cmd report or perf script text of the\n"
	"                 filemap, writeback and vmscan tracepoints\n"
	"  fio-iolog      fio iolog version 2 or 3 (write_iolog=)\n"
	"  csv            libCacheSim csv as folio-trace export writes it\n"
	"  oraclegeneral  libCacheSim oracleGeneral binary\n"
	"Lines that cannot be used are counted and the first few shown with their line numbers; "
	"--strict makes the first one fatal.";

static const struct argp import_argp = { import_options, import_parse_opt, "INPUT", import_doc,
					 NULL, NULL, NULL };

static int write_host(struct ft_sink *sink, const struct import_args *a, struct ft_error *err)
{
	struct ft_host host;
	struct ft_host_dev dev;
	bool ftrace = import_formats[a->format].format == FROM_FTRACE;

	/* ftrace lines carry real devices whose filesystems we cannot know: list none. */
	synthetic_host_init(&host, ftrace ? NULL : &dev,
			    a->memory ? a->memory : SYNTH_DEFAULT_MEMORY,
			    a->fstype ? a->fstype : "xfs", "imported");
	if (ftrace) {
		host.hdr.ts = 0;
		host.start_mono_ns = 0;
		strncpy(host.release, "unknown", sizeof(host.release) - 1);
	}
	return ft_sink_host(sink, &host, &dev, err);
}

static void report_bad_lines(const struct import_ctx *c)
{
	uint64_t shown = c->bad < IMPORT_SHOW_BAD ? c->bad : IMPORT_SHOW_BAD;

	for (uint64_t i = 0; i < shown; i++)
		ft_warn("%s:%llu: %s", c->name, (unsigned long long)c->shown[i].line,
			c->shown[i].why);
	if (c->bad)
		ft_warn("%s: %llu of %llu lines skipped as bad or unsupported (%llu shown); "
			"--strict makes them fatal", c->name, (unsigned long long)c->bad,
			(unsigned long long)c->lines, (unsigned long long)shown);
}

static void report_stats(const struct import_ctx *c, const char *output)
{
	fprintf(stderr, "folio-trace: %s: %llu lines: %llu used, %llu ignored, %llu bad\n",
		c->name, (unsigned long long)c->lines, (unsigned long long)c->used,
		(unsigned long long)c->ignored, (unsigned long long)c->bad);
	fprintf(stderr, "folio-trace: %s:", output);
	for (unsigned t = 1; t < FT_TYPE_MAX; t++)
		if (c->records[t])
			fprintf(stderr, " %s=%llu", ft_type_name((__u16)t),
				(unsigned long long)c->records[t]);
	fputc('\n', stderr);
}

static FILE *open_input(const char *path)
{
	if (strcmp(path, "-") == 0)
		return stdin;
	return fopen(path, "rb");
}

/* Converts; on failure nothing takes the output's name (ft_writer_abort). */
static int run_import(const struct import_args *a, FILE *in, struct import_ctx *c)
{
	/* no creation time: the same input gives the same bytes */
	const struct ft_writer_options wo = { .no_timestamp = true, .force = a->force,
					      .inputs = &a->input, .ninputs = 1 };
	struct ft_error err = { "" };
	struct ft_writer *w;
	struct ft_sink writer, sink;
	struct ft_progress_sink counted;
	struct ft_progress progress;
	int ret;

	w = ft_writer_open_with(a->output, &wo, &err);
	if (!w) {
		ft_warn("%s", err.msg);
		return EXIT_RUNTIME;
	}
	ft_sink_init_writer(&writer, w);
	/* how far by the input's position: the lines or records it holds are not known ahead */
	ft_progress_start(&progress, "import", "records", ft_progress_file_size(fileno(in)),
			  a->quiet);
	ft_sink_init_progress(&sink, &counted, &writer, &progress, fileno(in));
	ret = import_ctx_init(c, &sink, strcmp(a->input, "-") ? a->input : "(stdin)", &err);
	if (ret) {
		ft_writer_abort(w);
		ft_warn("%s", err.msg);
		return EXIT_RUNTIME;
	}
	c->strict = a->strict;
	c->direct = a->direct;
	ret = write_host(&sink, a, &err);
	if (!ret)
		ret = import_formats[a->format].fn(c, in);
	ft_progress_end(&progress);
	/* a trace of nothing would replay as a table of "-": an empty input is an error */
	if (!ret && c->lines == 0) {
		ft_error_set(&err, c->name, "empty input: nothing to import");
		ret = -1;
	}
	if (!ret)
		ret = ft_writer_close(w, &err);
	else
		ft_writer_abort(w);
	if (ret) {
		if (!c->strict)
			report_bad_lines(c);
		ft_warn("%s", err.msg);
		return EXIT_RUNTIME;
	}
	report_bad_lines(c);
	if (import_formats[a->format].format == FROM_FTRACE && !c->records[FT_ACCESS])
		ft_warn("%s: no mm_filemap_get_pages, mm_filemap_map_pages or mm_filemap_fault "
			"events: the trace holds no accesses and replays nothing; record with those "
			"events enabled (folio-trace-import(1))", c->name);
	return EXIT_OK;
}

int cmd_import(int argc, char **argv)
{
	struct import_args a = { .format = -1 };
	struct import_ctx c;
	FILE *in;
	int ret;

	if (argp_parse(&import_argp, argc, argv, 0, NULL, &a))
		return EXIT_USAGE;
	in = open_input(a.input);
	if (!in) {
		ft_warn("%s: cannot open: %s", a.input, strerror(errno));
		return EXIT_RUNTIME;
	}
	memset(&c, 0, sizeof(c));
	ret = run_import(&a, in, &c);
	if (ret == EXIT_OK && a.verbose)
		report_stats(&c, a.output);
	import_ctx_free(&c);
	if (in != stdin)
		fclose(in);
	return ret;
}
