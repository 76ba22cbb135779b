/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Generation rate of each synth pattern without the trace writer (records go to a sink that
 * only counts them), to tell the generator's cost from compression's.
 * Usage: bench-synth [EVENTS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "synth/synth.h"

static int count_append(void *ctx, const void *rec, struct ft_error *err)
{
	++*(unsigned long long *)ctx;
	return 0;
}

static int count_file(void *ctx, __u64 ts, __u32 dev, __u64 ino, __u64 size, const char *path,
		      struct ft_error *err)
{
	return 0;
}

static int count_host(void *ctx, const struct ft_host *host, const struct ft_host_dev *devs,
		      struct ft_error *err)
{
	return 0;
}

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
	unsigned long long events = argc > 1 ? strtoull(argv[1], NULL, 10) : 20000000ull;

	for (int p = 0; p < SYNTH_NR_PATTERNS; p++) {
		struct synth_config cfg = { .pattern = (enum synth_pattern)p, .events = events,
					    .zipf = SYNTH_ZIPF_UNSET, .seed = 1 };
		unsigned long long n = 0;
		struct ft_sink sink = { count_append, count_file, count_host, &n };
		struct ft_error err;
		double t0, t;

		synth_config_defaults(&cfg);
		t0 = now_s();
		if (synth_run(&cfg, &sink, NULL, &err)) {
			fprintf(stderr, "bench-synth: %s\n", err.msg);
			return 1;
		}
		t = now_s() - t0;
		printf("generate %-17s %llu records in %.2f s: %.1f M events/s (no writer)\n",
		       synth_pattern_name(cfg.pattern), n, t, (double)n / t / 1e6);
	}
	return 0;
}
