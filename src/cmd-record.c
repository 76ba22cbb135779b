/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace record: live capture of file accesses and page-cache events with BPF, whole
 * system or one command, into a .ftr trace. This file parses the options; the recorder
 * (src/record/recorder.c) does the rest.
 */
#define _GNU_SOURCE
#include "config.h"

#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "util/args.h"
#include "util/msg.h"
#include "util/parse.h"

#ifndef HAVE_BPF
#include "src/record/bpf-missing.h"	/* generated in the build tree */

int cmd_record(int argc, char **argv)
{
	if (argc >= 2 && strcmp(argv[1], "--help") == 0) {
		printf("Usage: folio-trace record [OPTION...] [-- COMMAND [ARG...]]\n"
		       "This folio-trace was built without BPF support: record is unavailable.\n");
		return EXIT_OK;
	}
	ft_warn("record: built without BPF support: %s", FT_BPF_MISSING);
	return EXIT_RUNTIME;
}

#else /* HAVE_BPF */

#include "record/record.h"	/* ft_kdev */
#include "record/recorder.h"

#define DEFAULT_RING_BYTES	(64ull << 20)

enum {
	OPT_CGROUP = 256,
	OPT_DEV,
	OPT_COMM,
	OPT_INTERVAL,
	OPT_BUFFER,
	OPT_NO_PATHS,
	OPT_NO_START_CACHE,
	OPT_MEMLIMIT,
	OPT_FORCE,
};

static const struct argp_option record_options[] = {
	{ "output", 'o', "FILE", 0, "trace file to write (default folio-trace.ftr; - for stdout)",
	  0 },
	{ "pid", 'p', "PID", 0, "trace only this process (repeatable)", 0 },
	{ "cgroup", OPT_CGROUP, "PATH", 0, "trace only tasks under this cgroup v2 directory", 0 },
	{ "dev", OPT_DEV, "DEV", 0,
	  "only files on this device: MAJ:MIN, a block device or a path on the filesystem", 0 },
	{ "comm", OPT_COMM, "NAME", 0, "trace only tasks with this command name", 0 },
	{ "duration", 'd', "SECONDS", 0, "stop after this long (units ms, s, m, h allowed)", 0 },
	{ "interval", OPT_INTERVAL, "DURATION", 0,
	  "sample /proc/vmstat, meminfo, buddyinfo this often (default 1s)", 0 },
	{ "buffer-size", OPT_BUFFER, "SIZE", 0,
	  "BPF ring buffer size, rounded up to a power of two (default 64M)", 0 },
	{ "no-paths", OPT_NO_PATHS, NULL, 0, "do not record file paths", 0 },
	{ "no-start-cache", OPT_NO_START_CACHE, NULL, 0,
	  "do not record which pages of each file were cached before the trace", 0 },
	{ "memory-limit", OPT_MEMLIMIT, "SIZE", 0,
	  "run COMMAND in a memory cgroup limited to SIZE (needs -- COMMAND)", 0 },
	{ "quiet", 'q', NULL, 0,
	  "no progress line on stderr, even on a terminal, and no summary at the end unless "
	  "events were lost", 0 },
	{ "force", OPT_FORCE, NULL, 0,
	  "replace a symbolic link at the output (never what it points to)", 0 },
	{ 0 }
};

static int usage_error(struct argp_state *state, const char *opt, const char *arg,
		       const char *why)
{
	argp_error(state, "%s '%s': %s", opt, arg, why);
	return EINVAL;
}

/* --dev: "MAJ:MIN", a block device node, or any path on the filesystem. */
static bool parse_dev(const char *s, __u32 *dev, const char **why)
{
	unsigned maj, min;
	char junk;
	struct stat st;

	if (sscanf(s, "%u:%u%c", &maj, &min, &junk) == 2) {
		*dev = maj << 20 | min;
		return true;
	}
	if (stat(s, &st) < 0) {
		*why = strerror(errno);
		return false;
	}
	*dev = ft_kdev(S_ISBLK(st.st_mode) ? st.st_rdev : st.st_dev);
	return true;
}

static __u64 round_pow2(__u64 v)
{
	__u64 p = 4096;

	while (p < v)
		p <<= 1;
	return p;
}

/* The recorder's options and what the parser needs besides. */
struct record_cli {
	struct record_opts o;
	struct ft_seen seen;
};

static error_t record_parse_opt(int key, char *arg, struct argp_state *state)
{
	struct record_cli *cli = state->input;
	struct record_opts *o = &cli->o;
	const char *why = NULL;
	uint64_t v;

	/* -p is the one option that may come again: each names another process */
	if (key != 'p' && ft_option_once(&cli->seen, state, key))
		return EINVAL;
	switch (key) {
	case 'o':
		o->output = arg;
		break;
	case 'p':
		if (ft_parse_u64_arg(state, "pid", arg, 1, FT_PID_MAX, &v))
			return EINVAL;
		if (o->npids == RECORD_MAX_PIDS)
			return usage_error(state, "--pid", arg, "too many processes");
		o->pids[o->npids++] = (__u32)v;
		break;
	case OPT_CGROUP:
		o->cgroup = arg;
		break;
	case OPT_DEV:
		if (!parse_dev(arg, &o->dev, &why))
			return usage_error(state, "--dev", arg, why);
		o->dev_set = true;
		break;
	case OPT_COMM:
		if (strlen(arg) == 0 || strlen(arg) >= 16)
			return usage_error(state, "--comm", arg, "must be 1 to 15 characters");
		o->comm = arg;
		break;
	case 'd':
		if (!parse_duration_ns(arg, &o->duration_ns, &why))
			return usage_error(state, "--duration", arg, why);
		if (!o->duration_ns)
			return usage_error(state, "--duration", arg, "must be more than 0");
		break;
	case OPT_INTERVAL:
		if (!parse_duration_ns(arg, &o->interval_ns, &why))
			return usage_error(state, "--interval", arg, why);
		if (o->interval_ns < 10000000ull)
			return usage_error(state, "--interval", arg, "must be at least 10ms");
		break;
	case OPT_BUFFER:
		if (!parse_size(arg, &v, &why))
			return usage_error(state, "--buffer-size", arg, why);
		if (v < 4096 || v > (1ull << 30))
			return usage_error(state, "--buffer-size", arg, "must be 4K to 1G");
		o->ring_bytes = round_pow2(v);
		break;
	case OPT_NO_PATHS:
		o->no_paths = true;
		break;
	case OPT_NO_START_CACHE:
		o->no_start_cache = true;
		break;
	case 'q':
		o->quiet = true;
		break;
	case OPT_FORCE:
		o->force = true;
		break;
	case OPT_MEMLIMIT:
		if (!parse_size(arg, &v, &why))
			return usage_error(state, "--memory-limit", arg, why);
		if (v < (1ull << 20))
			return usage_error(state, "--memory-limit", arg, "must be at least 1M");
		o->memory_limit = v;
		break;
	case ARGP_KEY_ARG:
		/* The command starts here: everything after belongs to it. */
		o->cmd = &state->argv[state->next - 1];
		state->next = state->argc;
		break;
	case ARGP_KEY_END:
		if (o->memory_limit && !o->cmd)
			argp_error(state, "--memory-limit needs a command: -- COMMAND [ARG...]");
		if (o->cmd && (o->npids || o->cgroup))
			argp_error(state, "-p/--cgroup and -- COMMAND cannot be combined");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

int cmd_record(int argc, char **argv)
{
	static const struct argp argp = {
		record_options, record_parse_opt, "[-- COMMAND [ARG...]]",
		"Record file accesses and page-cache events of the running kernel with BPF.\v"
		"Without a command the whole system is traced until SIGINT/SIGTERM or --duration; "
		"with one, it runs traced (with its children) and recording stops when it exits. "
		"The trace file is created mode 0600. See folio-trace-record(1).",
		NULL, NULL, NULL
	};
	struct record_cli cli = { .o = { .output = "folio-trace.ftr", .interval_ns = 1000000000ull,
					 .ring_bytes = DEFAULT_RING_BYTES } };

	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &cli))
		return EXIT_USAGE;
	return ft_record_run(&cli.o) ? EXIT_RUNTIME : EXIT_OK;
}

#endif /* HAVE_BPF */
