/* SPDX-License-Identifier: GPL-2.0-or-later */
/* synth: Zipf sampler frequencies and the exact record streams of the patterns. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/synthetic-host.h"
#include "synth/synth.h"
#include "synth/zipf.h"
#include "tap.h"

#define KEEP 64

/* A sink that counts what it gets and keeps the first KEEP accesses. */
struct count_sink {
	uint64_t files, hosts, accesses;
	uint64_t ops[FT_OP_MAX];
	uint64_t hash;
	struct ft_access first[KEEP];
	uint64_t pos_hits[4096];	/* random patterns: accesses per block (pos / io) */
	uint64_t io;
};

static void hash_bytes(struct count_sink *c, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++)
		c->hash = (c->hash ^ b[i]) * 0x100000001b3ull;
}

static int count_append(void *ctx, const void *rec, struct ft_error *err)
{
	struct count_sink *c = ctx;
	const struct ft_access *a = rec;

	hash_bytes(c, rec, a->hdr.size);
	if (a->hdr.type != FT_ACCESS)
		return 0;
	if (c->accesses < KEEP)
		c->first[c->accesses] = *a;
	c->accesses++;
	if (a->op < FT_OP_MAX)
		c->ops[a->op]++;
	if (c->io && a->op <= FT_OP_WRITE && a->pos / c->io < 4096)
		c->pos_hits[a->pos / c->io]++;
	return 0;
}

static int count_file(void *ctx, __u64 ts, __u32 dev, __u64 ino, __u64 size, const char *path,
		      struct ft_error *err)
{
	struct count_sink *c = ctx;

	hash_bytes(c, &ino, sizeof(ino));
	hash_bytes(c, path, strlen(path));
	c->files++;
	return 0;
}

static int count_host(void *ctx, const struct ft_host *host, const struct ft_host_dev *devs,
		      struct ft_error *err)
{
	struct count_sink *c = ctx;

	c->hosts++;
	ok(host->flags & FT_HOST_SYNTHETIC, "host record is marked synthetic");
	return 0;
}

static void run(struct synth_config *cfg, struct count_sink *c, uint64_t io_hist)
{
	struct ft_sink sink = { count_append, count_file, count_host, c };
	struct ft_error err = { "" };

	memset(c, 0, sizeof(*c));
	c->hash = 0xcbf29ce484222325ull;
	c->io = io_hist;
	synth_config_defaults(cfg);
	ok(synth_config_check(cfg) == NULL, "%s configuration accepted",
	   synth_pattern_name(cfg->pattern));
	ok(synth_run(cfg, &sink, NULL, &err) == 0, "%s generated",
	   synth_pattern_name(cfg->pattern));
}

static struct synth_config base(enum synth_pattern p)
{
	struct synth_config cfg = { .pattern = p, .zipf = SYNTH_ZIPF_UNSET, .seed = 1 };

	return cfg;
}

/* Generalised harmonic number: P(rank 1) = 1 / H(n, theta). */
static double harmonic(uint64_t n, double theta)
{
	double h = 0;

	for (uint64_t k = 1; k <= n; k++)
		h += pow((double)k, -theta);
	return h;
}

static void test_zipf(double theta, uint64_t n)
{
	enum { SAMPLES = 400000 };
	uint64_t *hits = calloc(n + 1, sizeof(*hits));
	struct zipf z;
	struct ft_rng r;
	bool in_range = true;
	char what[96];

	zipf_init(&z, n, theta);
	ft_rng_seed(&r, 42);
	for (int i = 0; i < SAMPLES; i++) {
		uint64_t k = zipf_sample(&z, &r);

		if (k < 1 || k > n)
			in_range = false;
		else
			hits[k]++;
	}
	ok(in_range, "zipf(theta=%g, n=%llu): every rank in [1, n]", theta, (unsigned long long)n);
	for (uint64_t k = 1; k <= 3; k++) {
		snprintf(what, sizeof(what), "zipf(theta=%g, n=%llu): P(rank %llu)", theta,
			 (unsigned long long)n, (unsigned long long)k);
		is_dbl((double)hits[k] / SAMPLES, pow((double)k, -theta) / harmonic(n, theta),
		       0.004, what);
	}
	free(hits);
}

static void test_seq_read(void)
{
	struct synth_config cfg = base(SYNTH_SEQ_READ);
	struct count_sink c;

	cfg.files = 2;
	cfg.file_size = 64 << 10;
	cfg.io_size = 16 << 10;
	cfg.events = 10;
	run(&cfg, &c, 0);
	is_u64(c.accesses, 10, "seq-read: 10 accesses");
	is_u64(c.ops[FT_OP_READ], 10, "seq-read: all reads");
	is_u64(c.files, 2, "seq-read: 2 files");
	is_u64(c.first[3].pos, 48 << 10, "seq-read: 4th read at 48K");
	is_u64(c.first[4].ino, 1000 + 1, "seq-read: 5th read in the second file");
	is_u64(c.first[4].pos, 0, "seq-read: ... at offset 0");
	is_u64(c.first[8].ino, 1000, "seq-read: 9th read back in the first file");
	is_u64(c.first[9].hdr.ts, SYNTH_BASE_TS + 9 * 10000, "seq-read: default 10 us apart");
}

static void test_bytes_limit(void)
{
	struct synth_config cfg = base(SYNTH_SEQ_READ);
	struct count_sink c;

	cfg.io_size = 4096;
	cfg.bytes = 10000;
	run(&cfg, &c, 0);
	is_u64(c.accesses, 3, "--bytes=10000 with 4K reads: 3 reads");
}

static void test_append_fsync(void)
{
	static const __u16 want[] = { FT_OP_WRITE, FT_OP_WRITE, FT_OP_FSYNC, FT_OP_WRITE,
				      FT_OP_WRITE, FT_OP_FSYNC, FT_OP_UNLINK, FT_OP_WRITE,
				      FT_OP_WRITE };
	struct synth_config cfg = base(SYNTH_APPEND_FSYNC);
	struct count_sink c;
	bool same = true;

	cfg.files = 1;
	cfg.file_size = 16 << 10;
	cfg.io_size = 4096;
	cfg.fsync_every = 2;
	cfg.fsync_every_set = true;
	cfg.events = 9;
	run(&cfg, &c, 0);
	for (unsigned i = 0; i < 9; i++)
		same = same && c.first[i].op == want[i];
	ok(same, "append-fsync: W W S W W S(full) U W W");
	is_u64(c.files, 2, "append-fsync: the rotated log is a new file");
	is_u64(c.first[4].isize, 16 << 10, "append-fsync: log full at 16K");
	is_u64(c.first[7].ino, 1000 + 1, "append-fsync: new inode after rotation");
	is_u64(c.first[7].pos, 0, "append-fsync: new log starts at 0");
}

static void test_many_small_files(void)
{
	struct synth_config cfg = base(SYNTH_MANY_SMALL_FILES);
	struct count_sink c;

	cfg.files = 1;
	cfg.file_size = 8192;
	cfg.io_size = 4096;
	cfg.events = 10;
	run(&cfg, &c, 0);
	is_u64(c.files, 2, "many-small-files: 2 files created");
	is_u64(c.ops[FT_OP_WRITE], 4, "many-small-files: 4 writes");
	is_u64(c.ops[FT_OP_READ], 4, "many-small-files: 4 reads");
	is_u64(c.ops[FT_OP_UNLINK], 2, "many-small-files: 2 unlinks");
	is_u64(c.first[4].op, FT_OP_UNLINK, "many-small-files: unlink after read-back");

	cfg = base(SYNTH_MANY_SMALL_FILES);
	cfg.files = 3;
	cfg.file_size = 4096;
	cfg.events = 6;
	run(&cfg, &c, 0);
	is_u64(c.first[3].op, FT_OP_READ, "window of 3: first read after 3 writes");
	is_u64(c.first[3].ino, 1000, "window of 3: reads the oldest file");
	is_u64(c.first[5].ino, 1000 + 3, "window of 3: then writes the 4th file");
}

static void test_random_overwrite(void)
{
	struct synth_config cfg = base(SYNTH_RANDOM_OVERWRITE);
	struct count_sink c;
	bool aligned = true;

	cfg.file_size = 1 << 20;
	cfg.fsync_every = 4;
	cfg.fsync_every_set = true;
	cfg.events = 10;
	run(&cfg, &c, 0);
	is_u64(c.ops[FT_OP_WRITE], 8, "random-overwrite: 8 writes");
	is_u64(c.ops[FT_OP_FDATASYNC], 2, "random-overwrite: fdatasync after every 4th");
	is_u64(c.first[4].op, FT_OP_FDATASYNC, "random-overwrite: 5th access syncs");
	for (unsigned i = 0; i < 10; i++)
		aligned = aligned && c.first[i].pos % 4096 == 0 && c.first[i].pos < (1 << 20);
	ok(aligned, "random-overwrite: block-aligned offsets inside the file");
}

/* The hottest block of random-read gets the share of Zipf rank 1. */
static void test_random_read(void)
{
	struct synth_config cfg = base(SYNTH_RANDOM_READ);
	struct count_sink c, c2;
	uint64_t top = 0;

	cfg.file_size = 1000 * 4096;
	cfg.events = 200000;
	run(&cfg, &c, 4096);
	for (unsigned i = 0; i < 4096; i++)
		if (c.pos_hits[i] > top)
			top = c.pos_hits[i];
	is_dbl((double)top / 200000, 1.0 / harmonic(1000, 0.99), 0.005,
	       "random-read: hottest block share = 1/H(1000, 0.99)");

	run(&cfg, &c2, 4096);
	ok(c.hash == c2.hash, "random-read: same seed, same records");
	cfg.seed = 2;
	run(&cfg, &c2, 4096);
	ok(c.hash != c2.hash, "random-read: another seed, other records");

	cfg = base(SYNTH_RANDOM_READ);
	cfg.file_size = 1000 * 4096;
	cfg.zipf = 0;
	cfg.events = 200000;
	run(&cfg, &c, 4096);
	top = 0;
	for (unsigned i = 0; i < 4096; i++)
		if (c.pos_hits[i] > top)
			top = c.pos_hits[i];
	ok(top < 300, "random-read --zipf=0: no block much above the uniform 200 hits (max %llu)",
	   (unsigned long long)top);
}

static void test_config_check(void)
{
	struct synth_config cfg = base(SYNTH_RANDOM_READ);

	cfg.io_size = 8192;
	cfg.file_size = 4096;
	synth_config_defaults(&cfg);
	ok(synth_config_check(&cfg) != NULL, "io size above file size refused");
}

int main(void)
{
	test_zipf(0.99, 1000);
	test_zipf(1.0, 100);
	test_zipf(1.5, 50);
	test_zipf(0.0, 10);
	test_seq_read();
	test_bytes_limit();
	test_append_fsync();
	test_many_small_files();
	test_random_overwrite();
	test_random_read();
	test_config_check();
	return done_testing();
}
