/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace: measure what large folios do to a workload's page cache.
 * This file only dispatches: one row per subcommand, each implemented in src/cmd-NAME.c.
 */
#include "config.h"

#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "util/msg.h"

struct subcommand {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
};

static int run_help(int argc, char **argv);

/*
 * At exit, whoever exits (argp's --help too): what went to standard output must have reached
 * it, or the status says so. "info > /dev/full" is a failure, not a silent success. A run
 * that already failed has said why.
 */
static void check_stdout(int status, void *unused)
{
	int e = 0;

	(void)unused;
	if (status != EXIT_OK)
		return;
	errno = 0;
	if (fflush(stdout) || ferror(stdout))
		e = errno ? errno : EIO;
	if (fclose(stdout) && !e)
		e = errno;
	if (e) {
		ft_warn("standard output: write failed: %s", strerror(e));
		_exit(EXIT_RUNTIME);
	}
}

static const struct subcommand subcommands[] = {
	{ "info", cmd_info, "summarise a trace: host, duration, events per type, files, losses" },
	{ "dump", cmd_dump, "print every record of a trace, one line each (text or JSON)" },
	{ "synth", cmd_synth, "write a reproducible synthetic trace of a named access pattern" },
	{ "replay", cmd_replay, "model the page cache of a trace at one or more folio orders" },
	{ "calibrate", cmd_calibrate, "model vs kernel: replay a recorded trace as its host was set up" },
	{ "report", cmd_report, "the whole analysis of a trace as one self-contained HTML page" },
	{ "import", cmd_import, "convert ftrace text, fio iologs or libCacheSim traces into a trace" },
	{ "export", cmd_export, "write a trace as a libCacheSim csv or oracleGeneral request stream" },
	{ "record", cmd_record, "record file accesses and page-cache events live with BPF" },
	{ "top", cmd_top, "a live view of insertions by folio order, writes and writeback, per file" },
	{ "help", run_help, "show the help of a subcommand: help SUBCOMMAND" },
};

#define NR_SUBCOMMANDS (sizeof(subcommands) / sizeof(subcommands[0]))

static const struct subcommand *find_subcommand(const char *name)
{
	for (size_t i = 0; i < NR_SUBCOMMANDS; i++)
		if (strcmp(subcommands[i].name, name) == 0)
			return &subcommands[i];
	return NULL;
}

static void print_usage(FILE *f)
{
	fprintf(f, "Usage: folio-trace [--help] [--version] SUBCOMMAND [ARGS...]\n\n"
		   "Subcommands:\n");
	for (size_t i = 0; i < NR_SUBCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(f, "\n'folio-trace SUBCOMMAND --help' lists its options; man folio-trace-analysis "
		   "walks\nthrough a whole analysis, man folio-trace the rules every subcommand "
		   "shares.\n");
}

/* help SUBCOMMAND runs "SUBCOMMAND --help". */
static int run_help(int argc, char **argv)
{
	const struct subcommand *sc;
	char *help_argv[3], name[64];

	if (argc < 2) {
		print_usage(stdout);
		return EXIT_OK;
	}
	sc = find_subcommand(argv[1]);
	if (!sc) {
		ft_warn("no subcommand '%s' (see folio-trace --help)", argv[1]);
		return EXIT_USAGE;
	}
	snprintf(name, sizeof(name), "folio-trace %s", sc->name);
	help_argv[0] = name;
	help_argv[1] = (char *)"--help";
	help_argv[2] = NULL;
	return sc->fn(2, help_argv);
}

int main(int argc, char **argv)
{
	const struct subcommand *sc;
	char name[64];

	/* Subcommands use argp; make its usage errors exit 2 like ours. */
	argp_err_exit_status = EXIT_USAGE;
	on_exit(check_stdout, NULL);

	if (argc < 2) {
		print_usage(stderr);
		return EXIT_USAGE;
	}
	if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
		print_usage(stdout);
		return EXIT_OK;
	}
	if (strcmp(argv[1], "--version") == 0 || strcmp(argv[1], "-V") == 0) {
		printf("folio-trace %s\n", PACKAGE_VERSION);
		return EXIT_OK;
	}
	if (argv[1][0] == '-') {
		ft_warn("unknown option '%s' before the subcommand (see folio-trace --help)",
			argv[1]);
		return EXIT_USAGE;
	}
	sc = find_subcommand(argv[1]);
	if (!sc) {
		ft_warn("no subcommand '%s' (see folio-trace --help)", argv[1]);
		return EXIT_USAGE;
	}
	/* argp names the program after argv[0]: make messages say "folio-trace SUBCOMMAND". */
	snprintf(name, sizeof(name), "folio-trace %s", sc->name);
	argv[1] = name;
	return sc->fn(argc - 1, argv + 1);
}
