// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writes the seeds of fuzz-model (its 32-byte record form, see fuzz-model.c): everyday
 * workloads into CORPUS-DIR, and into REGRESS-DIR the reproducers of the hangs this target
 * was written for: a timestamp of 2^64 - 1, random 64-bit timestamps, a 1 TiB read.
 * Usage: make-model-corpus CORPUS-DIR REGRESS-DIR   (make fuzz-corpus refreshes both)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/types.h>

#include "trace/events.h"
#include "util/rng.h"

#define REC_BYTES	32
#define MAX_RECORDS	256

/* fuzz-model.c's kinds and flags */
#define KIND_FILE	10
#define KIND_KERNEL	11
#define F_RAW_TS	(1 << 0)
#define F_RAW_POS	(1 << 1)
#define F_RAW_LEN	(1 << 2)
#define F_DIRECT	(1 << 3)
#define F_ISIZE		(1 << 4)
#define F_AROUND	(1 << 5)
#define F_ADVICE	(1 << 6)	/* fadvise (kind even), madvise (odd); advice: file >> 8 */

struct seed {
	unsigned char buf[1 + MAX_RECORDS * REC_BYTES];
	size_t len;
};

static void put_le(unsigned char *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++, v >>= 8)
		p[i] = (unsigned char)v;
}

static void seed_start(struct seed *s, unsigned char host)
{
	s->buf[0] = host;
	s->len = 1;
}

/* One record; kind 0..9 is an access of FT_OP_READ + kind. */
static void rec(struct seed *s, unsigned kind, unsigned flags, unsigned file, uint32_t dt,
		uint64_t ts, uint64_t pos, uint64_t len)
{
	unsigned char *p = s->buf + s->len;

	if (s->len + REC_BYTES > sizeof(s->buf)) {
		fprintf(stderr, "make-model-corpus: seed too long\n");
		exit(1);
	}
	p[0] = (unsigned char)kind;
	p[1] = (unsigned char)flags;
	put_le(p + 2, file, 2);
	put_le(p + 4, dt, 4);
	put_le(p + 8, ts, 8);
	put_le(p + 16, pos, 8);
	put_le(p + 24, len, 8);
	s->len += REC_BYTES;
}

static unsigned op(__u16 ft_op)
{
	return ft_op - FT_OP_READ;
}

static void spit(const char *dir, const char *name, const struct seed *s)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(s->buf, 1, s->len, f) != s->len || fclose(f)) {
		fprintf(stderr, "make-model-corpus: cannot write %s\n", path);
		exit(1);
	}
}

/* Write a file in 64 KiB pieces, sync it, read it back: writeback, readahead, hits. */
static void seq_write_read(const char *dir)
{
	struct seed s;

	seed_start(&s, 2);
	for (unsigned i = 0; i < 48; i++)
		rec(&s, op(FT_OP_WRITE), F_ISIZE, 1, 1000000, 0, 65536ull * i, 65536);
	rec(&s, op(FT_OP_FSYNC), 0, 1, 1000, 0, 0, 0);
	for (unsigned i = 0; i < 48; i++)
		rec(&s, op(FT_OP_READ), 0, 1, 500000, 0, 65536ull * i, 65536);
	spit(dir, "seq-write-read.bin", &s);
}

/* Every operation on four files, more data than the 4 MiB of memory: reclaim, refaults. */
static void mixed(const char *dir)
{
	static const __u16 ops[] = { FT_OP_READ, FT_OP_WRITE, FT_OP_MMAP_READ, FT_OP_MMAP_WRITE,
				     FT_OP_READ, FT_OP_WRITE, FT_OP_SYNC_RANGE, FT_OP_FDATASYNC };
	uint64_t x = 7;
	struct seed s;

	seed_start(&s, 1);
	for (unsigned f = 1; f <= 4; f++)
		rec(&s, KIND_FILE, 0, f, 0, 0, 8u << 20, 0);
	for (unsigned i = 0; i < 160; i++) {
		unsigned f = 1 + (unsigned)ft_splitmix64_below(&x, 4);
		uint64_t pos = ft_splitmix64_below(&x, 2048) * 4096;
		__u16 o = ops[ft_splitmix64_below(&x, sizeof(ops) / sizeof(ops[0]))];

		rec(&s, op(o), (i % 7 == 0 ? F_DIRECT : 0) | (i % 5 == 0 ? F_AROUND : 0) | F_ISIZE,
		    f, 200000000, 0, pos, 4096 << ft_splitmix64_below(&x, 6));
		if (i % 16 == 15)
			rec(&s, KIND_KERNEL, 0, f, 1000, 0, 0, 0);
	}
	rec(&s, op(FT_OP_TRUNCATE), 0, 2, 1000, 0, 4096, 0);
	rec(&s, op(FT_OP_FALLOCATE), 0, 3, 1000, 0, 0, 1u << 20);
	rec(&s, op(FT_OP_UNLINK), 0, 4, 1000, 0, 0, 0);
	spit(dir, "mixed.bin", &s);
}

/* Dirty data, then time runs on alone: the flusher and the samples over a long quiet gap. */
static void quiet_gap(const char *dir)
{
	struct seed s;

	seed_start(&s, 0);
	for (unsigned i = 0; i < 16; i++)
		rec(&s, op(FT_OP_WRITE), F_ISIZE, 1 + i % 3, 1000, 0, 4096ull * i, 4096);
	rec(&s, KIND_KERNEL, 0, 1, 4000000000u, 0, 0, 0);
	rec(&s, op(FT_OP_READ), 0, 1, 3000000000u, 0, 0, 65536);
	spit(dir, "quiet-gap.bin", &s);
}

/* fadvise and madvise: each advice between reads and mapped faults of two files. */
static void advice(const char *dir)
{
	static const unsigned fadv[] = { 0, 1, 2, 3, 4, 5 }, madv[] = { 0, 1, 2, 3, 4, 14, 15 };
	struct seed s;

	seed_start(&s, 2);
	rec(&s, KIND_FILE, 0, 1, 0, 0, 16u << 20, 0);
	rec(&s, KIND_FILE, 0, 2, 0, 0, 16u << 20, 0);
	for (unsigned i = 0; i < sizeof(fadv) / sizeof(fadv[0]); i++) {
		rec(&s, 0, F_ADVICE, 1 | fadv[i] << 8, 1000, 0, 0, i == 4 ? 0 : 8u << 20);
		rec(&s, op(FT_OP_READ), 0, 1, 1000000, 0, 1048576ull * i, 65536);
	}
	for (unsigned i = 0; i < sizeof(madv) / sizeof(madv[0]); i++) {
		rec(&s, 1, F_ADVICE, 2 | madv[i] << 8, 1000, 0, 0, 4u << 20);
		rec(&s, op(FT_OP_MMAP_READ), 0, 2, 1000000, 0, 1048576ull * i, 4096);
	}
	spit(dir, "advice.bin", &s);
}

/* Item 1 of the hardening issue: one access at the last nanosecond of time. */
static void ts_max(const char *dir)
{
	struct seed s;

	seed_start(&s, 2);
	for (unsigned i = 0; i < 16; i++)
		rec(&s, op(FT_OP_WRITE), F_ISIZE, 1, 1000000, 0, 4096ull * i, 4096);
	rec(&s, op(FT_OP_READ), F_RAW_TS, 1, 0, UINT64_MAX, 0, 4096);
	rec(&s, op(FT_OP_WRITE), F_RAW_TS | F_ISIZE, 2, 0, 2000000000, 0, 65536);
	rec(&s, op(FT_OP_FSYNC), F_RAW_TS, 2, 0, UINT64_MAX, 0, 0);
	spit(dir, "ts-max.bin", &s);
}

/* Item 1 too: random 64-bit times, writes among them so the flusher has work. */
static void ts_random(const char *dir)
{
	uint64_t x = 19;
	struct seed s;

	seed_start(&s, 1);
	for (unsigned i = 0; i < 64; i++)
		rec(&s, op(i % 3 ? FT_OP_WRITE : FT_OP_READ), F_RAW_TS | F_ISIZE,
		    1 + i % 4, 0, ft_splitmix64(&x), ft_splitmix64_below(&x, 1024) * 4096, 8192);
	spit(dir, "ts-random.bin", &s);
}

/* Item 2: a 1 TiB read, an access ending past 2^63, one byte over MAX_RW_COUNT. */
static void huge_len(const char *dir)
{
	struct seed s;

	seed_start(&s, 2);
	rec(&s, op(FT_OP_READ), 0, 1, 1000, 0, 0, 4096);
	rec(&s, op(FT_OP_READ), F_RAW_LEN, 1, 1000, 0, 0, 1ull << 40);
	rec(&s, op(FT_OP_WRITE), F_RAW_POS | F_RAW_LEN, 1, 1000, 0, 1ull << 62, 1ull << 62);
	rec(&s, op(FT_OP_WRITE), F_RAW_LEN, 2, 1000, 0, 0, 0x7ffff001);
	rec(&s, op(FT_OP_READ), 0, 1, 1000, 0, 4096, 4096);
	spit(dir, "huge-len.bin", &s);
}

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: make-model-corpus CORPUS-DIR REGRESS-DIR\n");
		return 2;
	}
	seq_write_read(argv[1]);
	mixed(argv[1]);
	quiet_gap(argv[1]);
	advice(argv[1]);
	ts_max(argv[2]);
	ts_random(argv[2]);
	huge_len(argv[2]);
	return 0;
}
