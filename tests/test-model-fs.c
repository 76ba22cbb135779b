// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The filesystem rules: the largest folio order each filesystem of the recorded kernel gives
 * a file (ext4 from 6.16, xfs, tmpfs by huge=, btrfs and unknown filesystems base pages),
 * --large-folios=all, and tmpfs's own paths (PMD folios whatever the write's size, holes
 * read as zeroes without caching, no readahead).
 */
#include <stdio.h>

#include "model/model.h"
#include "model/variants.h"
#include "model-harness.h"
#include "tap.h"

#define MiB	(1024ull * 1024)

static struct model *make(const struct model_device *dev, enum large_folios lf)
{
	struct model_config c;
	const char *why = NULL;
	struct model *m;

	model_config_defaults(&c);
	c.order = 9;
	c.memory_bytes = 256 * MiB;
	c.devices = dev;
	c.ndevices = 1;
	c.large_folios = lf;
	m = model_new(&c, &why);
	if (!m)
		diag("model_new: %s", why);
	return m;
}

static void access_dev(struct model *m, enum model_op o, uint64_t pos, uint64_t len,
		       uint64_t isize)
{
	struct model_access a = { .file_id = 0, .op = o, .pos = pos, .len = len, .isize = isize,
				  .device = 0 };

	model_access(m, &a);
}

static unsigned largest(const struct model_metrics *x)
{
	unsigned o = 0;

	for (unsigned i = 0; i <= MODEL_MAX_ORDER; i++)
		if (x->insertions_by_order[i])
			o = i;
	return o;
}

/* The largest order a cold 16 MiB sequential read in 1 MiB reads reaches on the device. */
static unsigned read_orders(const char *fstype, unsigned release, unsigned huge,
			    enum large_folios lf)
{
	struct model_device d = {
		.fs = model_fs_kind_for(fstype), .release = release, .block_size = 4096,
		.ra_pages = 32, .io_pages = 256, .huge = huge,
	};
	struct model *m = make(&d, lf);
	struct model_metrics x;

	for (uint64_t p = 0; p < 16 * MiB; p += MiB)
		access_dev(m, MODEL_READ, p, MiB, 16 * MiB);
	x = metrics(m);
	model_free(m);
	return largest(&x);
}

static void test_max_orders(void)
{
	is_u64(read_orders("ext4", 6018, 0, LARGE_FOLIOS_AUTO), 8, "ext4 on 6.18: large folios");
	is_u64(read_orders("ext4", 6016, 0, LARGE_FOLIOS_AUTO), 8, "ext4 on 6.16: large folios");
	is_u64(read_orders("ext4", 6015, 0, LARGE_FOLIOS_AUTO), 0, "ext4 on 6.15: base pages");
	is_u64(read_orders("ext4", 6012, 0, LARGE_FOLIOS_ALL), 8,
	       "ext4 on 6.12 with --large-folios=all: the what-if's large folios");
	is_u64(read_orders("xfs", 6006, 0, LARGE_FOLIOS_AUTO), 8, "xfs: large folios");
	is_u64(read_orders("btrfs", 6018, 0, LARGE_FOLIOS_AUTO), 0, "btrfs: base pages");
	is_u64(read_orders("nfs4", 6018, 0, LARGE_FOLIOS_AUTO), 8, "nfs4: large folios");
	is_u64(read_orders("vfat", 6018, 0, LARGE_FOLIOS_AUTO), 0, "a filesystem with no rule: "
	       "base pages");
	is_u64(model_fs_kind_for("vfat"), model_fs_kind_for("other"), "which is the other row");
}

/* A model of a tmpfs file mounted with huge= on a release, 8 MiB written in writes of bs. */
static struct model *tmpfs_written(unsigned huge, unsigned release, uint64_t bs)
{
	struct model_device d = { .fs = model_fs_kind_for("tmpfs"), .release = release,
				  .block_size = 4096, .ra_pages = MODEL_UNKNOWN,
				  .io_pages = MODEL_UNKNOWN, .huge = huge };
	struct model *m = make(&d, LARGE_FOLIOS_AUTO);

	for (uint64_t p = 0; p < 8 * MiB; p += bs)
		access_dev(m, MODEL_WRITE, p, bs, p + bs);
	return m;
}

/* 8 MiB written in writes of bs bytes to tmpfs, then read back and a hole read. */
static void test_tmpfs(unsigned huge, uint64_t bs, uint64_t want_huge)
{
	struct model *m = tmpfs_written(huge, 6018, bs);
	struct model_metrics x;
	char what[80];

	x = metrics(m);
	snprintf(what, sizeof(what), "tmpfs huge=%u, %llu-byte writes: PMD folios", huge,
		 (unsigned long long)bs);
	is_u64(x.insertions_by_order[9], want_huge, what);
	is_u64(x.inserted_pages, 2048, "tmpfs: every page once");
	is_u64(x.write_read_bytes, 0, "tmpfs: a write reads nothing");
	access_dev(m, MODEL_READ, 0, 8 * MiB, 16 * MiB);
	access_dev(m, MODEL_READ, 12 * MiB, MiB, 16 * MiB);
	x = metrics(m);
	is_u64(x.inserted_pages, 2048, "tmpfs: reading a hole caches nothing");
	is_u64(x.read_io_bytes, 0, "tmpfs: nothing is read from a device");
	is_u64(x.read_hit_requests, 1, "tmpfs: the written range hits, the hole does not");
	model_free(m);
}

/*
 * huge=within_size, 8 MiB appended in writes of bs bytes on a release, worked by hand through
 * mm/shmem.c: shmem_huge_global_enabled(), shmem_get_orders_within_size() and
 * shmem_suitable_orders(). 6.18 (any order since 6.14, PMD first): a 1 MiB write at page 0
 * ends at page 256, so order 9 (round_up(1, 512) = 512 > 256) is out and order 8 in; the next
 * at page 256 may take order 9 (it reaches 512) but pages 0-255 are cached, so order 8 again:
 * 8 folios of order 8. A 4 KiB write at page i ends at i + 1: an order k fits only when i + 1
 * is a multiple of 2^k, and then its range holds pages already written: order 0. One 8 MiB
 * write comes in 2 MiB chunks (generic_perform_write()): 4 PMD folios. 6.12 (PMD only): a
 * 1 MiB write never reaches a whole PMD range while it is free: order 0 throughout; the 8 MiB
 * write's chunks do: 4 PMD folios. 6.1 looks at i_size alone, which grows after each chunk:
 * no range ends within it while it is free, so even the 8 MiB write makes base pages.
 */
static void test_tmpfs_within_size(unsigned release, uint64_t bs, unsigned order,
				   uint64_t want)
{
	struct model *m = tmpfs_written(TMPFS_HUGE_WITHIN_SIZE, release, bs);
	struct model_metrics x;
	char what[96];

	x = metrics(m);
	snprintf(what, sizeof(what), "tmpfs huge=within_size on %u.%u, %llu-byte writes: "
		 "folios of order %u", release / 1000, release % 1000, (unsigned long long)bs,
		 order);
	is_u64(x.insertions_by_order[order], want, what);
	is_u64(x.inserted_pages, 2048, "within_size: every page once");
	model_free(m);
}

/*
 * 8 MiB fallocated at the start of a new tmpfs file (mm/shmem.c shmem_fallocate(): the range's
 * end as write_end; on 6.1 i_size, which grows after), then read, written in its first MiB
 * and that read again. The folios are not uptodate until written: reads take them for holes.
 */
static void test_tmpfs_fallocate(unsigned huge, unsigned release, uint64_t want_pmd)
{
	struct model_device d = { .fs = model_fs_kind_for("tmpfs"), .release = release,
				  .block_size = 4096, .ra_pages = MODEL_UNKNOWN,
				  .io_pages = MODEL_UNKNOWN, .huge = huge };
	struct model *m = make(&d, LARGE_FOLIOS_AUTO);
	struct model_metrics x;
	char what[96];

	access_dev(m, MODEL_FALLOCATE, 0, 8 * MiB, 8 * MiB);
	x = metrics(m);
	snprintf(what, sizeof(what), "tmpfs huge=%u on %u.%u, 8 MiB fallocated: %llu PMD folios",
		 huge, release / 1000, release % 1000, (unsigned long long)want_pmd);
	is_u64(x.insertions_by_order[9], want_pmd, what);
	is_u64(x.inserted_pages, 2048, "fallocated: every page once");
	access_dev(m, MODEL_READ, 0, 8 * MiB, 8 * MiB);
	access_dev(m, MODEL_WRITE, 0, MiB, 8 * MiB);
	access_dev(m, MODEL_READ, 0, MiB, 8 * MiB);
	x = metrics(m);
	is_u64(x.read_hit_requests, 1, "read before any write: holes; after the write: a hit");
	is_u64(x.inserted_pages, 2048, "neither the reads nor the write insert");
	model_free(m);
}

int main(void)
{
	test_max_orders();
	test_tmpfs(TMPFS_HUGE_ALWAYS, 4096, 4);
	test_tmpfs(TMPFS_HUGE_ALWAYS, MiB, 4);
	test_tmpfs(TMPFS_HUGE_NEVER, MiB, 0);
	test_tmpfs(TMPFS_HUGE_UNKNOWN, MiB, 0);
	test_tmpfs_within_size(6018, MiB, 8, 8);
	test_tmpfs_within_size(6018, 4096, 0, 2048);
	test_tmpfs_within_size(6018, 8 * MiB, 9, 4);
	test_tmpfs_within_size(6012, MiB, 0, 2048);
	test_tmpfs_within_size(6012, 8 * MiB, 9, 4);
	test_tmpfs_within_size(6001, 8 * MiB, 0, 2048);
	test_tmpfs_fallocate(TMPFS_HUGE_ALWAYS, 6018, 4);
	test_tmpfs_fallocate(TMPFS_HUGE_WITHIN_SIZE, 6018, 4);
	test_tmpfs_fallocate(TMPFS_HUGE_WITHIN_SIZE, 6012, 4);
	test_tmpfs_fallocate(TMPFS_HUGE_WITHIN_SIZE, 6001, 0);
	test_tmpfs_fallocate(TMPFS_HUGE_NEVER, 6018, 0);
	return done_testing();
}
