// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model throughput: accesses per second of one model instance on generated access streams
 * (no trace file, no I/O), for a few orders.
 * Usage: bench-model [MILLION_ACCESSES [WORKLOAD [ORDER]]] (a workload or order alone: profiling)
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "model/model.h"

#define KiB	1024ull
#define MiB	(1024ull * KiB)
#define GiB	(1024ull * MiB)

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* CPU time, not wall time: accesses per CPU second is the per-core rate on a busy machine too */
static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

enum workload { RANDOM_READ, SEQ_READ, HOT_READ, RANDOM_WRITE, MIXED, NR_WORKLOADS };

static const char *const names[] = {
	"random-read", "seq-read", "hot-read", "random-write", "mixed",
};

/* 4-64 KiB accesses over 16 files of 256 MiB (4 GiB) with 1 GiB of memory. */
static void next_access(enum workload w, uint64_t *seed, uint64_t i, uint64_t *seq_pos,
			struct model_access *a)
{
	uint64_t v = xorshift(seed), len = 4 * KiB << (v >> 60) % 5;
	const uint64_t fsize = 256 * MiB;

	a->ts = i * 1000;	/* 1 M accesses/s of trace time */
	a->file_id = (uint32_t)(v >> 56) % 16;
	a->isize = fsize;
	a->len = len;
	a->pos = (v >> 8) % (fsize / len) * len;
	a->op = MODEL_READ;
	switch (w) {
	case SEQ_READ:
		a->file_id = 0;
		a->pos = *seq_pos % fsize;
		*seq_pos += len;
		break;
	case HOT_READ:	/* 7/8 of the reads in the first 16 MiB of each file (256 MiB) */
		if ((v & 15) < 14)
			a->pos %= 16 * MiB;
		break;
	case RANDOM_WRITE:
		a->op = MODEL_WRITE;
		break;
	case MIXED:
		if ((v & 7) == 0)
			a->op = MODEL_WRITE;
		else if ((v & 1023) == 1)
			a->op = MODEL_FSYNC;
		break;
	default:
		break;
	}
}

int main(int argc, char **argv)
{
	uint64_t n = (argc > 1 ? strtoull(argv[1], NULL, 10) : 10) * 1000000;
	static const unsigned orders[] = { 0, 4, 9 };
	double base[NR_WORKLOADS] = { 0 };
	const char *only_w = argc > 2 ? argv[2] : NULL;
	int only_o = argc > 3 ? atoi(argv[3]) : -1;

	printf("%-13s %5s %14s %10s %8s\n", "workload", "order", "accesses/s", "hit%", "ratio");
	for (unsigned w = 0; w < NR_WORKLOADS; w++) {
		if (only_w && strcmp(only_w, names[w]))
			continue;
		for (unsigned o = 0; o < 3; o++) {
			struct model_config c;
			struct model_metrics x;
			const char *why;
			struct model *m;
			uint64_t seed = 42, seq = 0;
			double t0, dt, rate;

			if (only_o >= 0 && (unsigned)only_o != orders[o])
				continue;
			model_config_defaults(&c);
			c.order = orders[o];
			c.memory_bytes = GiB;
			m = model_new(&c, &why);
			if (!m) {
				fprintf(stderr, "bench-model: %s\n", why);
				return 1;
			}
			t0 = now_s();
			for (uint64_t i = 0; i < n; i++) {
				struct model_access a = { 0 };

				next_access(w, &seed, i, &seq, &a);
				model_access(m, &a);
			}
			model_finish(m, n * 1000);
			dt = now_s() - t0;
			model_metrics(m, &x);
			rate = (double)n / dt;
			if (!o)
				base[w] = rate;
			printf("%-13s %5u %14.0f %9.1f%% ", names[w], orders[o], rate,
			       x.read_requests ? 100.0 * x.read_hit_requests / x.read_requests : 0);
			if (base[w] > 0)
				printf("%8.2f\n", rate / base[w]);
			else
				printf("%8s\n", "-");	/* order 0 not run */
			model_free(m);
		}
	}
	return 0;
}
