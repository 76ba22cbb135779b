// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model unit tests: dirty tracking and writeback. Write amplification by order and dirty
 * granularity, appends, rewrites, flusher expiry timing, truncate, background threshold,
 * I/O merging and the device cost model, dirty tracking per filesystem (auto).
 */
#include <stdio.h>

#include "model/model.h"
#include "model-harness.h"
#include "tap.h"

#define KiB	1024ull
#define MiB	(1024ull * 1024)
#define GiB	(1024ull * MiB)
#define PAGE	4096ull
#define SEC	1000000000ull

static struct model_config config(unsigned order, enum dirty_granularity dirty)
{
	struct model_config c;

	model_config_defaults(&c);
	c.policy = FOLIO_POLICY_FIXED;	/* folios of the order: counts known exactly */
	c.order = order;
	c.dirty = dirty;
	c.memory_bytes = GiB;
	return c;
}

/* One byte into each of K 2 MiB regions of an existing file, then fsync. */
static void test_one_byte_per_region(void)
{
	const uint64_t K = 8, size = K * 2 * MiB;
	static const struct {
		unsigned order;
		enum dirty_granularity dirty;
		enum write_policy wp;
		bool preread;
		uint64_t per_region;
		const char *what;
		unsigned block;
	} cases[] = {
		{ 0, DIRTY_FOLIO, WRITE_POLICY_FIXED, false, 4096, "order 0", 4096 },
		{ 9, DIRTY_FOLIO, WRITE_POLICY_FIXED, false, 2 * MiB, "order 9 folio dirty", 4096 },
		{ 9, DIRTY_BLOCK, WRITE_POLICY_FIXED, false, 4096, "order 9 block dirty", 4096 },
		{ 9, DIRTY_BLOCK, WRITE_POLICY_FIXED, false, 1024, "order 9 block dirty, 1 KiB",
		  1024 },
		{ 0, DIRTY_BLOCK, WRITE_POLICY_FIXED, false, 1024, "order 0 block dirty, 1 KiB",
		  1024 },
		{ 4, DIRTY_BLOCK, WRITE_POLICY_FIXED, false, 16384, "order 4 block dirty, 16 KiB",
		  16384 },
		{ 9, DIRTY_FOLIO, WRITE_POLICY_SIZED, true, 2 * MiB,
		  "order 9, sized writes into cached folios", 4096 },
		{ 9, DIRTY_FOLIO, WRITE_POLICY_SIZED, false, 4096,
		  "order 9, sized writes: 1-byte writes make order-0 folios", 4096 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct model_config c = config(cases[i].order, cases[i].dirty);
		struct model *m;
		struct model_metrics x;
		char what[120];
		uint64_t n;

		c.write_policy = cases[i].wp;
		c.block_size = cases[i].block;
		m = checked_model(&c);
		if (cases[i].preread)
			for (uint64_t p = 0; p < size; p += MiB)
				op(m, 0, MODEL_READ, 0, p, MiB, size);
		for (uint64_t k = 0; k < K; k++)
			op(m, 0, MODEL_WRITE, 0, k * 2 * MiB, 1, size);
		x = metrics(m);
		snprintf(what, sizeof(what), "%s: nothing written before fsync", cases[i].what);
		is_u64(x.writeback_bytes, 0, what);
		op(m, 0, MODEL_FSYNC, 0, 0, 0, size);
		x = metrics(m);
		snprintf(what, sizeof(what), "%s: bytes written back", cases[i].what);
		is_u64(x.writeback_bytes, K * cases[i].per_region, what);
		snprintf(what, sizeof(what), "%s: all by fsync", cases[i].what);
		is_u64(x.wb_fsync_bytes, x.writeback_bytes, what);
		/* whole 2 MiB folios side by side are one I/O; single blocks are not adjacent */
		snprintf(what, sizeof(what), "%s: I/Os and extents", cases[i].what);
		n = cases[i].per_region == 2 * MiB ? 1 : K;
		ok(x.writeback_ios == n && x.extents == n, "%s (%llu)", what,
		   (unsigned long long)x.writeback_ios);
		snprintf(what, sizeof(what), "%s: application wrote K bytes", cases[i].what);
		is_u64(x.write_bytes, K, what);
		if (!cases[i].preread) {
			snprintf(what, sizeof(what), "%s: bytes read to complete the folios",
				 cases[i].what);
			is_u64(x.write_read_bytes, K * cases[i].per_region, what);
		}
		snprintf(what, sizeof(what), "%s: clean after fsync", cases[i].what);
		is_u64(x.dirty_bytes, 0, what);
		model_free(m);
	}
}

/* Appending S bytes in 10000-byte writes then fsync writes S rounded up to the block. */
static void test_append(void)
{
	const uint64_t S = 1000000, chunk = 10000;

	for (unsigned order = 0; order <= 9; order += 3) {
		for (int g = 0; g < 4; g++) {
			for (int wp = 0; wp < 2; wp++) {
				struct model_config c = config(order, g & 1 ? DIRTY_BLOCK : DIRTY_FOLIO);
				uint64_t bs = g & 2 ? 1024 : 4096, want = (S + bs - 1) / bs * bs;
				struct model *m;
				struct model_metrics x;
				char what[100];

				c.block_size = (unsigned)bs;
				c.write_policy = wp ? WRITE_POLICY_FIXED : WRITE_POLICY_SIZED;
				m = checked_model(&c);
				for (uint64_t p = 0; p < S; p += chunk)
					op(m, 0, MODEL_WRITE, 3, p, chunk, p + chunk);
				op(m, 0, MODEL_FSYNC, 3, 0, 0, S);
				x = metrics(m);
				snprintf(what, sizeof(what), "append, order %u, %s, %s writes, %llu B blocks",
					 order, g & 1 ? "block" : "folio", wp ? "fixed" : "sized",
					 (unsigned long long)bs);
				is_u64(x.writeback_bytes, want, what);
				ok(x.write_read_bytes == 0, "%s: nothing read (all past EOF)", what);
				ok(x.extents == 1, "%s: one extent (%llu)", what,
				   (unsigned long long)x.extents);
				model_free(m);
			}
		}
	}
}

/* Rewriting a dirty folio adds no write I/O. */
static void test_rewrite(void)
{
	struct model_config c = config(9, DIRTY_FOLIO);
	struct model *m;
	struct model_metrics x;

	c.write_policy = WRITE_POLICY_FIXED;
	m = checked_model(&c);
	op(m, 0, MODEL_WRITE, 0, 0, 100, 2 * MiB);
	op(m, 0, MODEL_WRITE, 0, 8192, 100, 2 * MiB);
	op(m, 0, MODEL_WRITE, 0, 0, 100, 2 * MiB);
	x = metrics(m);
	is_u64(x.dirty_bytes, 2 * MiB, "one dirty order-9 folio");
	op(m, 0, MODEL_FSYNC, 0, 0, 0, 2 * MiB);
	x = metrics(m);
	is_u64(x.writeback_bytes, 2 * MiB, "three writes into one dirty folio: one folio written");
	is_u64(x.writeback_ios, 1, "one write I/O");
	op(m, 0, MODEL_FSYNC, 0, 0, 0, 2 * MiB);
	is_u64(metrics(m).writeback_ios, 1, "a second fsync of a clean file writes nothing");
	model_free(m);
}

/*
 * O_DSYNC (or RWF_DSYNC) writes: generic_write_sync() writes each call's bytes back and waits
 * (vfs_fsync_range()), so 16 writes of 4 KiB at order 0 are 16 fsync I/Os of one page each,
 * 64 KiB, and nothing stays dirty; the same writes without the flag write nothing within a
 * second (the flusher's 30 s expiry).
 */
static void test_sync_writes(void)
{
	for (int sync = 0; sync <= 1; sync++) {
		struct model_config c = config(0, DIRTY_BLOCK);
		struct model *m = checked_model(&c);
		struct model_metrics x;

		for (uint64_t i = 0; i < 16; i++) {
			struct model_access a = { .ts = i * 1000, .file_id = 0, .op = MODEL_WRITE,
						  .pos = i * PAGE, .len = PAGE,
						  .isize = (i + 1) * PAGE, .sync = sync,
						  .device = MODEL_DEVICE_NONE };

			model_access(m, &a);
		}
		x = metrics(m);
		is_u64(x.wb_fsync_bytes, sync ? 16 * PAGE : 0,
		       sync ? "O_DSYNC writes: each written back by its call" :
		       "plain writes: nothing written back within a second");
		is_u64(x.writeback_ios, sync ? 16 : 0, sync ? "O_DSYNC: one I/O per call" :
		       "plain writes: no I/O");
		is_u64(x.dirty_bytes, sync ? 0 : 16 * PAGE, sync ? "O_DSYNC: nothing left dirty" :
		       "plain writes: all dirty");
		model_free(m);
	}
}

/* Flusher every 5 s, expire 30 s: a folio dirtied at 1 s is written at the 35 s tick. */
static void test_expire(void)
{
	struct model_config c = config(0, DIRTY_FOLIO);
	struct model *m = checked_model(&c);
	struct model_metrics x;

	op(m, 0, MODEL_READ, 1, 0, PAGE, PAGE);	/* the clock starts at 0 */
	op(m, 1 * SEC, MODEL_WRITE, 0, 0, PAGE, PAGE);
	op(m, 12 * SEC, MODEL_WRITE, 2, 0, PAGE, PAGE);
	model_advance(m, 35 * SEC - 1);
	is_u64(metrics(m).writeback_bytes, 0, "not written before the 35 s tick");
	model_advance(m, 35 * SEC);
	x = metrics(m);
	is_u64(x.wb_expire_bytes, PAGE, "written at the 35 s tick, by expiry");
	is_u64(x.dirty_bytes, PAGE, "the file dirtied at 12 s stays dirty");
	model_advance(m, 45 * SEC - 1);
	is_u64(metrics(m).wb_expire_bytes, PAGE, "12 s + 30 s: not at the 40 s tick");
	model_advance(m, 45 * SEC);
	is_u64(metrics(m).wb_expire_bytes, 2 * PAGE, "written at the 45 s tick");
	model_free(m);

	/* expiry is per inode: the inode's recent folios go with the old one */
	m = checked_model(&c);
	op(m, 0, MODEL_WRITE, 0, 0, PAGE, PAGE);
	op(m, 29 * SEC, MODEL_WRITE, 0, PAGE, PAGE, 2 * PAGE);
	model_advance(m, 30 * SEC);
	x = metrics(m);
	is_u64(x.wb_expire_bytes, 2 * PAGE, "both folios of the expired inode at 30 s");
	is_u64(x.writeback_ios, 1, "adjacent folios in one I/O");
	model_free(m);
}

static void test_truncate(void)
{
	struct model_config c = config(0, DIRTY_FOLIO);
	struct model *m = checked_model(&c);
	struct model_metrics x;

	op(m, 0, MODEL_WRITE, 0, 0, MiB, MiB);
	op(m, 0, MODEL_TRUNCATE, 0, 0, 0, 0);
	op(m, 0, MODEL_FSYNC, 0, 0, 0, 0);
	x = metrics(m);
	is_u64(x.wb_truncated_bytes, MiB, "truncate to 0 discards 1 MiB of dirty data");
	is_u64(x.writeback_bytes, 0, "nothing written");
	is_u64(x.lru_pages.max, 256, "it was cached");
	model_free(m);

	m = checked_model(&c);
	op(m, 0, MODEL_WRITE, 0, 0, MiB, MiB);
	op(m, 0, MODEL_TRUNCATE, 0, 100 * KiB + 1, 0, 100 * KiB + 1);
	op(m, 0, MODEL_FSYNC, 0, 0, 0, 100 * KiB + 1);
	x = metrics(m);
	is_u64(x.writeback_bytes, 104 * KiB, "truncate to 100 KiB + 1: 26 blocks written");
	is_u64(x.wb_truncated_bytes, MiB - 104 * KiB, "the rest discarded");
	model_free(m);

	/* unlink drops the file's cache and dirty data */
	m = checked_model(&c);
	op(m, 0, MODEL_WRITE, 0, 0, 64 * KiB, 64 * KiB);
	op(m, 0, MODEL_UNLINK, 0, 0, 0, 0);
	x = metrics(m);
	is_u64(x.wb_truncated_bytes, 64 * KiB, "unlink discards dirty data");
	is_u64(x.dirty_bytes, 0, "nothing dirty after unlink");
	model_free(m);
}

/*
 * 100 MiB: global_dirtyable_memory() is the free pages and the file LRU less the reserve
 * (the high watermark: min_free_kbytes = int_sqrt(102400 * 16) = 1280 KiB = 320 pages, plus
 * twice max(320 / 4, 25600 * 10 / 10000) = 160): 25600 - 480 = 25120 pages. The ratios are
 * kept in 1/4096 (domain_dirty_limits()): background 10% -> 409, 409 * 25120 / 4096 = 2508
 * pages; dirty_ratio 20% -> 819, 5022 pages.
 */
static void test_background(void)
{
	struct model_config c = config(0, DIRTY_FOLIO);
	struct model *m;
	struct model_metrics x;

	c.memory_bytes = 100 * MiB;
	m = checked_model(&c);
	for (uint64_t p = 0; p < 2508; p++)
		op(m, 0, MODEL_WRITE, 0, p * PAGE, PAGE, (p + 1) * PAGE);
	is_u64(metrics(m).writeback_bytes, 0, "2508 dirty pages: at the threshold, no writeback");
	op(m, 0, MODEL_WRITE, 0, 2508 * PAGE, PAGE, 2509 * PAGE);
	x = metrics(m);
	/* writeback_chunk_size(): min(12800, 5022 / 8) + 1024 rounded down to 1024 pages */
	is_u64(x.wb_background_bytes, 1024 * PAGE, "2509 dirty pages: one 4 MiB chunk");
	is_u64(x.writeback_ios, 1, "one sequential I/O");
	is_u64(x.iosize_hist[10], 1, "of 4 MiB");
	is_u64(x.dirty_bytes, 1485 * PAGE, "the rest stays dirty: below the threshold again");
	is_u64(x.throttled, 0, "never near dirty_ratio");
	model_free(m);

	/* the *_bytes forms win over the ratios */
	c.dirty_background_bytes = 8 * PAGE;
	c.dirty_bytes = 64 * PAGE;
	m = checked_model(&c);
	for (uint64_t p = 0; p < 9; p++)
		op(m, 0, MODEL_WRITE, 0, p * PAGE, PAGE, (p + 1) * PAGE);
	is_u64(metrics(m).wb_background_bytes, 9 * PAGE, "dirty_background_bytes = 8 pages");
	model_free(m);

	/*
	 * The recorded host's dirtyable memory (a cgroup v1 limit has no dirty domain of its
	 * own): 1 GiB, 409 * 262144 / 4096 = 26176 pages, beyond the 5044 of the model's 200 MiB.
	 */
	c = config(0, DIRTY_FOLIO);
	c.memory_bytes = 200 * MiB;
	c.dirtyable_bytes = GiB;
	m = checked_model(&c);
	op(m, 0, MODEL_WRITE, 0, 0, 26176 * PAGE, 26176 * PAGE);
	is_u64(metrics(m).writeback_bytes, 0, "at the threshold of the recorded host's memory");
	op(m, 0, MODEL_WRITE, 0, 26176 * PAGE, PAGE, 26177 * PAGE);
	is_u64(metrics(m).wb_background_bytes, 7168 * PAGE, "above it: a chunk of 7168 pages");
	model_free(m);
}

/*
 * The limits follow the dirtyable memory on every balance_dirty_pages() call
 * (mm/page-writeback.c balance_domain_limits() -> global_dirtyable_memory(), 6.18): free
 * pages less the reserve (clamped at 0), plus the file LRU, plus 1. 100 MiB, reserve 480
 * pages (test_background()):
 * - others take 12800 pages: 12800 - 480 + 0 + 1 = 12321 dirtyable, background
 *   409 * 12321 / 4096 = 1230 pages (computed once, at the start, it stayed 2508). Each written
 *   page moves one page from free to the LRU, so it stays 1230: 1230 dirty pages start no
 *   writeback, the 1231st one chunk of min(2463 / 8, 12800) + 1024 -> 1024 pages;
 * - others take 25200 pages and a 300-page file is read: 100 free, below the reserve, count
 *   0, so 300 + 1 dirtyable; k pages written later make 301 + k, and background writeback
 *   starts at the first k above 409 * (301 + k) / 4096: 33 <= 33 (k = 33), 34 > 33 (k = 34).
 *   (Free pages plus LRU less the reserve would have been 1 page, a limit of 0.)
 */
static void test_limits_follow_memory(void)
{
	struct model_config c = config(0, DIRTY_FOLIO);
	struct model *m;

	c.memory_bytes = 100 * MiB;
	m = checked_model(&c);
	op(m, 0, MODEL_OTHERS, 0, 12800, 0, 0);
	for (uint64_t p = 0; p < 1230; p++)
		op(m, 0, MODEL_WRITE, 0, p * PAGE, PAGE, (p + 1) * PAGE);
	is_u64(metrics(m).writeback_bytes, 0, "half the memory taken: 1230 dirty pages, no writeback");
	op(m, 0, MODEL_WRITE, 0, 1230 * PAGE, PAGE, 1231 * PAGE);
	is_u64(metrics(m).wb_background_bytes, 1024 * PAGE, "1231 dirty pages: one 4 MiB chunk");
	model_free(m);

	m = checked_model(&c);
	op(m, 0, MODEL_OTHERS, 0, 25200, 0, 0);
	op(m, 0, MODEL_READ, 1, 0, 300 * PAGE, 300 * PAGE);
	is_u64(metrics(m).zone_free_pages, 100, "100 pages free after the read");
	for (uint64_t p = 0; p < 33; p++)
		op(m, 0, MODEL_WRITE, 0, p * PAGE, PAGE, (p + 1) * PAGE);
	is_u64(metrics(m).writeback_bytes, 0, "free below the reserve: 33 dirty pages, no writeback");
	op(m, 0, MODEL_WRITE, 0, 33 * PAGE, PAGE, 34 * PAGE);
	ok(metrics(m).wb_background_bytes > 0, "the 34th dirty page starts background writeback");
	model_free(m);
}

/* Adjacent dirty ranges merge; gaps split; the device model prices every I/O. */
static void test_io_merge_and_cost(void)
{
	struct model_config c = config(0, DIRTY_FOLIO);
	struct model *m;
	struct model_metrics x;

	c.device_latency_us = 100;
	c.device_bandwidth_mbps = 100;
	m = checked_model(&c);
	for (uint64_t p = 0; p < 3; p++)
		op(m, 0, MODEL_WRITE, 0, p * PAGE, PAGE, 11 * PAGE);
	op(m, 0, MODEL_WRITE, 0, 10 * PAGE, PAGE, 11 * PAGE);
	op(m, 0, MODEL_FSYNC, 0, 0, 0, 11 * PAGE);
	x = metrics(m);
	is_u64(x.writeback_ios, 2, "pages 0-2 and page 10: two I/Os");
	is_u64(x.iosize_hist[2], 1, "one of 12 KiB (16 KiB bucket)");
	is_u64(x.iosize_hist[0], 1, "one of 4 KiB");
	is_u64(x.extent_bytes, 16 * KiB, "16 KiB in extents");
	is_dbl(x.writeback_time_s, 2 * 100e-6 + 16384 / 100e6, 1e-12, "device time");
	model_free(m);

	/* per-block dirty state in one order-9 folio: dirty blocks 0, 1 and 4 */
	c = config(9, DIRTY_BLOCK);
	c.write_policy = WRITE_POLICY_FIXED;
	m = checked_model(&c);
	op(m, 0, MODEL_WRITE, 0, 0, 1, 2 * MiB);
	op(m, 0, MODEL_WRITE, 0, 4096, 1, 2 * MiB);
	op(m, 0, MODEL_WRITE, 0, 16384, 1, 2 * MiB);
	op(m, 0, MODEL_SYNC_RANGE, 0, 0, 1, 2 * MiB);
	x = metrics(m);
	is_u64(x.writeback_bytes, 3 * PAGE, "block dirty: three blocks written");
	is_u64(x.writeback_ios, 2, "blocks 0-1 and 4: two I/Os");
	is_u64(x.write_read_bytes, 3 * PAGE, "each partial block read first");
	model_free(m);

	/* sync_file_range writes only the folios overlapping the range */
	c = config(0, DIRTY_FOLIO);
	m = checked_model(&c);
	op(m, 0, MODEL_WRITE, 0, 0, 10 * PAGE, 10 * PAGE);
	op(m, 0, MODEL_SYNC_RANGE, 0, 2 * PAGE + 1, PAGE, 10 * PAGE);
	x = metrics(m);
	is_u64(x.writeback_bytes, 2 * PAGE, "sync_file_range over pages 2-3");
	is_u64(x.dirty_bytes, 8 * PAGE, "the other 8 stay dirty");
	model_free(m);
}

/*
 * --dirty-granularity=auto: a 2 MiB file written in one write (one order-9 folio), synced,
 * then one byte overwritten and synced again, and one byte stored through a shared mapping
 * (page_mkwrite of the whole folio) and synced: what the second and third syncs write, per
 * filesystem and release, as measured on 6.18 for ext4 and xfs (tests/record-wb-onebyte.sh).
 */
static void test_auto_per_filesystem(void)
{
	static const struct {
		const char *fs;
		unsigned release, block;
		uint64_t first, byte, mmap;
		const char *what;
	} cases[] = {
		{ "ext4", 6018, 4096, 2 * MiB, 4096, 2 * MiB, "ext4 6.18: buffer heads" },
		{ "xfs", 6018, 4096, 2 * MiB, 4096, 2 * MiB, "xfs 6.18: iomap per-block state" },
		{ "xfs", 6005, 4096, 2 * MiB, 2 * MiB, 2 * MiB, "xfs 6.5: before per-block state" },
		{ "tmpfs", 6018, 4096, 0, 0, 0, "tmpfs: no writeback" },
		{ "vfat", 6018, 512, 2 * MiB, 2 * MiB, 2 * MiB, "vfat: per folio" },
		{ "xfs", 6018, 1024, 2 * MiB, 1024, 2 * MiB, "xfs with 1 KiB blocks" },
		{ NULL, 0, 0, 2 * MiB, 2 * MiB, 2 * MiB, "filesystem not known: per folio" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct model_config c = config(9, DIRTY_AUTO);
		struct model_device dev;
		uint64_t size = 2 * MiB, before;
		uint16_t d = MODEL_DEVICE_NONE;
		struct model *m;
		struct model_metrics x;
		char what[120];

		/* large folios everywhere: the question here is what is written of them */
		c.large_folios = LARGE_FOLIOS_ALL;
		if (cases[i].fs) {
			dev = test_device(cases[i].fs, cases[i].release, cases[i].block);
			c.devices = &dev;
			c.ndevices = 1;
			d = 0;
		}
		m = checked_model(&c);
		op_on(m, 0, MODEL_WRITE, 0, d, 0, size, size);
		x = metrics(m);
		snprintf(what, sizeof(what), "%s: the write dirties one order-9 folio",
			 cases[i].what);
		is_u64(x.dirty_bytes, cases[i].first ? size : 0, what);
		op(m, 0, MODEL_FSYNC, 0, 0, 0, size);
		x = metrics(m);
		snprintf(what, sizeof(what), "%s: first fsync", cases[i].what);
		is_u64(x.writeback_bytes, cases[i].first, what);
		before = x.writeback_bytes;
		op(m, SEC, MODEL_WRITE, 0, MiB + 100, 1, size);
		op(m, SEC, MODEL_FSYNC, 0, 0, 0, size);
		x = metrics(m);
		snprintf(what, sizeof(what), "%s: one byte written", cases[i].what);
		is_u64(x.writeback_bytes - before, cases[i].byte, what);
		before = x.writeback_bytes;
		op(m, 2 * SEC, MODEL_MMAP_WRITE, 0, 0, size, size);
		op(m, 2 * SEC, MODEL_FSYNC, 0, 0, 0, size);
		x = metrics(m);
		snprintf(what, sizeof(what), "%s: one byte stored through a mapping",
			 cases[i].what);
		is_u64(x.writeback_bytes - before, cases[i].mmap, what);
		snprintf(what, sizeof(what), "%s: nothing read", cases[i].what);
		is_u64(x.write_read_bytes, 0, what);
		model_free(m);
	}
}

/*
 * io_uring's FSYNC may name a range (io_fsync(): vfs_fsync_range(off, off + len)): only that
 * range is written; fsync(2) (len 0) writes the rest. 8 MiB written in base pages.
 */
static void test_fsync_range(void)
{
	const uint64_t size = 8 * MiB;
	struct model_config c = config(0, DIRTY_FOLIO);
	struct model *m = checked_model(&c);
	struct model_metrics x;

	for (uint64_t p = 0; p < size; p += MiB)
		op(m, 0, MODEL_WRITE, 0, p, MiB, size);
	op(m, 0, MODEL_FSYNC, 0, 2 * MiB, 3 * MiB, size);
	x = metrics(m);
	is_u64(x.wb_fsync_bytes, 3 * MiB, "fsync of [2 MiB, 5 MiB): those 3 MiB written");
	is_u64(x.dirty_bytes, 5 * MiB, "fsync of [2 MiB, 5 MiB): the other 5 MiB still dirty");
	op(m, 0, MODEL_FSYNC, 0, 0, 0, size);
	x = metrics(m);
	is_u64(x.wb_fsync_bytes, size, "then fsync of the file: the rest written");
	is_u64(x.dirty_bytes, 0, "then fsync of the file: clean");
	model_free(m);
}

int main(void)
{
	test_one_byte_per_region();
	test_fsync_range();
	test_append();
	test_rewrite();
	test_sync_writes();
	test_expire();
	test_truncate();
	test_background();
	test_limits_follow_memory();
	test_io_merge_and_cost();
	test_auto_per_filesystem();
	return done_testing();
}
