/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace synth: write a reproducible synthetic trace of a named access pattern, for
 * tests, benchmarks and what-if studies without a recording.
 */
#include <argp.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "import/sink.h"
#include "synth/synth.h"
#include "util/args.h"
#include "util/msg.h"
#include "util/parse.h"
#include "util/progress.h"

enum {
	OPT_FILES = 0x100, OPT_FILE_SIZE, OPT_IO_SIZE, OPT_EVENTS, OPT_BYTES, OPT_DURATION,
	OPT_RATE, OPT_SEED, OPT_ZIPF, OPT_FSYNC_EVERY, OPT_MEMORY, OPT_FSTYPE, OPT_FORCE,
};

/*
 * 2^32 access records: about a minute and some 30 GB of trace on a 2025 machine (synth writes
 * some 70 million a second); more would run for hours unasked.
 */
#define SYNTH_MAX_EVENTS	(1ull << 32)

static const struct argp_option synth_options[] = {
	{ "output", 'o', "FILE", 0, "write the trace to FILE (- for stdout); required", 0 },
	{ "files", OPT_FILES, "N", 0, "number of files (many-small-files: files alive at once)",
	  0 },
	{ "file-size", OPT_FILE_SIZE, "SIZE", 0,
	  "bytes per file (append-fsync: size at which a log is rotated)", 0 },
	{ "io-size", OPT_IO_SIZE, "SIZE", 0, "bytes per read or write", 0 },
	{ "events", OPT_EVENTS, "N", 0,
	  "stop after N access records (default 1000000, at most 2^32)", 0 },
	{ "bytes", OPT_BYTES, "SIZE", 0, "stop once SIZE bytes were read and written", 0 },
	{ "duration", OPT_DURATION, "TIME", 0,
	  "spread the timestamps evenly over TIME (needs --events)", 0 },
	{ "rate", OPT_RATE, "R", 0, "R access records per second (default 100000)", 0 },
	{ "seed", OPT_SEED, "N", 0, "random seed (default 1)", 0 },
	{ "zipf", OPT_ZIPF, "THETA", 0,
	  "block popularity skew for random-read, random-overwrite and zipf-scan, 0 = uniform", 0 },
	{ "fsync-every", OPT_FSYNC_EVERY, "N", 0,
	  "sync a file after N writes to it, 0 = never (default 16)", 0 },
	{ "memory", OPT_MEMORY, "SIZE", 0, "memory size for the host record (default 4G)",
	  0 },
	{ "fstype", OPT_FSTYPE, "NAME", 0, "filesystem type of the device (default xfs)", 0 },
	{ "verbose", 'v', NULL, 0, "print what was written, and how fast, on stderr", 0 },
	{ "quiet", 'q', NULL, 0, "no progress line on stderr, even on a terminal", 0 },
	{ "force", OPT_FORCE, NULL, 0,
	  "replace a symbolic link at the output (never what it points to)", 0 },
	{ NULL, 0, NULL, 0, NULL, 0 },
};

struct synth_args {
	struct synth_config cfg;
	const char *output;
	const char *pattern;
	uint64_t duration_ns;
	double rate;
	bool verbose, quiet, force;
	struct ft_seen seen;
};

static error_t parse_size_arg(struct argp_state *state, const char *opt, const char *arg,
			      uint64_t *out)
{
	const char *why;

	if (!parse_size(arg, out, &why))
		return ft_usage_error(state, opt, arg, why);
	if (*out == 0)
		return ft_usage_error(state, opt, arg, "must be positive");
	return 0;
}

static error_t parse_count_arg(struct argp_state *state, const char *opt, const char *arg,
			       uint64_t min, uint64_t max, uint64_t *out)
{
	return ft_parse_u64_arg(state, opt, arg, min, max, out);
}

static error_t synth_parse_opt(int key, char *arg, struct argp_state *state)
{
	struct synth_args *a = state->input;
	const char *why;

	if (ft_option_once(&a->seen, state, key))
		return EINVAL;
	switch (key) {
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
	case OPT_FILES:
		return parse_count_arg(state, "files", arg, 1, UINT64_MAX, &a->cfg.files);
	case OPT_FILE_SIZE:
		return parse_size_arg(state, "file-size", arg, &a->cfg.file_size);
	case OPT_IO_SIZE:
		return parse_size_arg(state, "io-size", arg, &a->cfg.io_size);
	case OPT_EVENTS:
		return parse_count_arg(state, "events", arg, 1, SYNTH_MAX_EVENTS, &a->cfg.events);
	case OPT_BYTES:
		return parse_size_arg(state, "bytes", arg, &a->cfg.bytes);
	case OPT_DURATION:
		if (!parse_duration_ns(arg, &a->duration_ns, &why))
			return ft_usage_error(state, "duration", arg, why);
		break;
	case OPT_RATE:
		if (!parse_double_range(arg, 1e-3, 1e9, &a->rate, &why))
			return ft_usage_error(state, "rate", arg, why);
		break;
	case OPT_SEED:
		return parse_count_arg(state, "seed", arg, 0, UINT64_MAX, &a->cfg.seed);
	case OPT_ZIPF:
		if (!parse_double_range(arg, 0.0, 10.0, &a->cfg.zipf, &why))
			return ft_usage_error(state, "zipf", arg, why);
		break;
	case OPT_FSYNC_EVERY:
		a->cfg.fsync_every_set = true;
		return parse_count_arg(state, "fsync-every", arg, 0, UINT64_MAX,
				       &a->cfg.fsync_every);
	case OPT_MEMORY:
		return parse_size_arg(state, "memory", arg, &a->cfg.mem_bytes);
	case OPT_FSTYPE:
		a->cfg.fstype = arg;
		break;
	case ARGP_KEY_ARG:
		if (a->pattern)
			argp_error(state, "one PATTERN only ('%s' and '%s')", a->pattern, arg);
		a->pattern = arg;
		break;
	case ARGP_KEY_END:
		if (!a->pattern)
			argp_error(state, "PATTERN missing");
		if (!a->output)
			argp_error(state, "--output=FILE missing");
		break;
	default:
		return ARGP_ERR_UNKNOWN;
	}
	return 0;
}

static const char synth_doc[] =
	"Write a reproducible synthetic trace of PATTERN: the same options and --seed give a "
	"byte-identical file.\v"
	"Patterns (default files x size, I/O size):\n"
	"  seq-read          read each file front to back (1 x 256M, 128K)\n"
	"  random-read       preads of Zipf-popular blocks (1 x 1G, 4K, --zipf=0.99)\n"
	"  random-overwrite  pwrites of random blocks, fdatasync every N (1 x 1G, 4K)\n"
	"  append-fsync      appends round-robin over logs, fsync every N, rotation\n"
	"                    at --file-size (4 x 64M, 4K)\n"
	"  many-small-files  create and write a file, read back the oldest and\n"
	"                    unlink it (100 x 16K alive, 4K)\n"
	"  zipf-scan         random-read with a fifth of the reads from sequential\n"
	"                    scans of 1024 blocks from random places\n"
	"                    (1 x 8G, 4K, --zipf=0.9)\n"
	"SIZE takes the binary suffixes K, M, G, T (or KiB...; 1.5G is allowed).\n"
	"TIME takes ns, us, ms, s, m, h.";

static const struct argp synth_argp = { synth_options, synth_parse_opt, "PATTERN", synth_doc,
					NULL, NULL, NULL };

/* Timestamps: --duration over the events, else --rate, else the default rate. */
static int synth_set_step(struct synth_args *a)
{
	if (a->duration_ns && a->rate > 0) {
		ft_warn("--duration and --rate exclude each other");
		return -1;
	}
	if (a->duration_ns) {
		if (!a->cfg.events) {
			ft_warn("--duration needs --events (the number of events to spread)");
			return -1;
		}
		a->cfg.step_ns = a->duration_ns / a->cfg.events;
		if (!a->cfg.step_ns)
			a->cfg.step_ns = 1;
	} else if (a->rate > 0) {
		double step = llround(1e9 / a->rate);

		a->cfg.step_ns = step < 1 ? 1 : (uint64_t)step;
	}
	return 0;
}

static int synth_check_args(struct synth_args *a)
{
	const char *why;

	if (synth_pattern_parse(a->pattern, &a->cfg.pattern)) {
		ft_warn("unknown pattern '%s' (see folio-trace synth --help)", a->pattern);
		return -1;
	}
	if (a->cfg.events && a->cfg.bytes) {
		ft_warn("--events and --bytes exclude each other");
		return -1;
	}
	if (synth_set_step(a))
		return -1;
	synth_config_defaults(&a->cfg);
	why = synth_config_check(&a->cfg);
	if (why) {
		ft_warn("%s", why);
		return -1;
	}
	return 0;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void synth_report(const struct synth_args *a, const struct synth_stats *st, double secs)
{
	char rd[32], wr[32];

	fprintf(stderr, "folio-trace: %s: %llu accesses, %llu files, %s read, %s written "
		"in %.2f s (%.2f M events/s)\n", a->output, (unsigned long long)st->accesses,
		(unsigned long long)st->files, format_bytes(st->bytes_read, rd, sizeof(rd)),
		format_bytes(st->bytes_written, wr, sizeof(wr)), secs,
		secs > 0 ? (double)st->accesses / secs / 1e6 : 0.0);
}

int cmd_synth(int argc, char **argv)
{
	struct ft_writer_options wo = { .no_timestamp = true };
	struct synth_args a = { .cfg = { .zipf = SYNTH_ZIPF_UNSET, .seed = 1 } };
	struct synth_stats st = { 0 };
	struct ft_error err = { "" };
	struct ft_writer *w;
	struct ft_sink writer, sink;
	struct ft_progress_sink counted;
	struct ft_progress progress;
	double t0;
	int ret;

	if (argp_parse(&synth_argp, argc, argv, 0, NULL, &a))
		return EXIT_USAGE;
	if (synth_check_args(&a))
		return EXIT_USAGE;
	t0 = now_s();
	/* no creation time: the same options and seed give the same bytes */
	wo.force = a.force;
	w = ft_writer_open_with(a.output, &wo, &err);
	if (!w) {
		ft_warn("%s", err.msg);
		return EXIT_RUNTIME;
	}
	ft_sink_init_writer(&writer, w);
	/* --bytes: the number of records is not known ahead, so no percentage */
	ft_progress_start(&progress, "synth", "records", a.cfg.bytes ? 0 : a.cfg.events, a.quiet);
	ft_sink_init_progress(&sink, &counted, &writer, &progress, -1);
	ret = synth_run(&a.cfg, &sink, &st, &err);
	ft_progress_end(&progress);
	if (ret) {
		ft_warn("%s", err.msg);
		ft_writer_abort(w);
		return EXIT_RUNTIME;
	}
	if (ft_writer_close(w, &err)) {
		ft_warn("%s", err.msg);
		return EXIT_RUNTIME;
	}
	if (a.verbose)
		synth_report(&a, &st, now_s() - t0);
	return EXIT_OK;
}
