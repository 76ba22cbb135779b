// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NFS's one dirty byte range per folio (src/model/writeback/track_range.c, kept by folio id in
 * dirty_ranges.c), after fs/nfs/write.c nfs_update_folio() and nfs_try_to_update_request()
 * (6.12; 6.18 the same).
 * The device: 1 ms a round trip, no bandwidth term, so each figure is a count of round trips.
 * A file is written 2 MiB at once (order 9 where the release allows it: one folio) and
 * synced, then 4 KiB writes land in the cached, uptodate folio:
 *   [0, 4K)        clean folio: range [0, 4K)
 *   [8K, 12K)      8K > 4K, not touching: flush 4K (WRITE + COMMIT, 2 ms), range [8K, 12K)
 *   [12K, 16K)     touches 12K: range [8K, 16K)
 *   [1M, 1M + 4K)  not touching: flush 8K (2 ms), range [1M, 1M + 4K)
 * then an fsync writes 4K. Order 9: 2 flushes of 12K, 4 ms waited, 16K written after the
 * first sync in all. Base pages (6.1, whose NFS has no large folios): every write has a
 * folio of its own, no flush, the same 16K by the fsync.
 */
#include "model/model.h"
#include "model/variants.h"
#include "model/writeback/dirty_ranges.h"
#include "model-harness.h"
#include "tap.h"

#define KiB	1024ull
#define MiB	(1024 * KiB)
#define MS	1000000ull

static struct model *make(const struct model_device *d)
{
	struct model_config c;

	model_config_defaults(&c);
	c.order = 9;
	c.memory_bytes = 256 * MiB;
	c.readahead = false;
	c.device_latency_us = 1000;
	c.device_bandwidth_mbps = 0;
	c.devices = d;
	c.ndevices = 1;
	return checked_model(&c);
}

static void w(struct model *m, uint64_t ts, uint64_t pos, uint64_t len)
{
	op_on(m, ts, MODEL_WRITE, 0, 0, pos, len, 2 * MiB);
}

/* The 2 MiB write, its fsync, the four writes and their fsync. */
static struct model_metrics scatter(const char *fs, unsigned release, struct model_metrics *set)
{
	struct model_device d = test_device(fs, release, 4096);
	struct model *m = make(&d);
	struct model_metrics x;

	w(m, 1 * MS, 0, 2 * MiB);
	op_on(m, 2 * MS, MODEL_FSYNC, 0, 0, 0, 0, 2 * MiB);
	*set = metrics(m);
	w(m, 100 * MS, 0, 4 * KiB);
	w(m, 110 * MS, 8 * KiB, 4 * KiB);
	w(m, 120 * MS, 12 * KiB, 4 * KiB);
	w(m, 130 * MS, MiB, 4 * KiB);
	op_on(m, 140 * MS, MODEL_FSYNC, 0, 0, 0, 0, 2 * MiB);
	x = metrics(m);
	model_free(m);
	return x;
}

static void test_scatter(void)
{
	struct model_metrics set, x = scatter("nfs", 6018, &set);

	is_u64(set.insertions_by_order[9], 1, "nfs 6.18: the 2 MiB write is one order-9 folio");
	is_u64(set.writeback_bytes, 2 * MiB, "... its fsync writes 2 MiB");
	is_u64(x.range_flushes, 2, "two writes not touching the folio's range flush it first");
	is_u64(x.wb_flush_bytes, 12 * KiB, "... 4K, then the 8K range the touching write grew");
	is_dbl(x.range_flush_wait_s, 4e-3, 1e-12, "... a WRITE and a COMMIT round trip each: 4 ms");
	is_u64(x.writeback_bytes - set.writeback_bytes, 16 * KiB, "16K written after the fsync");
	is_u64(x.wb_fsync_bytes - set.wb_fsync_bytes, 4 * KiB, "... the last range by the fsync");
	is_u64(x.write_dirtied_folios - set.write_dirtied_folios, 3,
	       "the folio dirtied three times: at the first write and after each flush");

	x = scatter("nfs", 6001, &set);
	is_u64(set.insertions_by_order[0], 512, "nfs 6.1: base pages, 512 of them");
	is_u64(x.range_flushes, 0, "... each write in a folio of its own: no flush");
	is_u64(x.writeback_bytes - set.writeback_bytes, 16 * KiB, "... the same 16K written");
	is_u64(x.writeback_ios - set.writeback_ios, 3, "... in 3 I/Os: 8K-16K is one");

	x = scatter("nfs4", 6012, &set);
	is_u64(x.range_flushes, 2, "nfs4 6.12: the same two flushes");

	x = scatter("xfs", 6018, &set);
	is_u64(x.range_flushes, 0, "xfs: per-block dirty state, no flush");
	is_u64(x.writeback_bytes - set.writeback_bytes, 16 * KiB, "... the same 16K written");
}

/*
 * In an uptodate folio a write is widened to whole pages below EOF (nfs_can_extend_write()):
 * [100, 200) is [0, 4K), [300, 400) overlaps it, [5000, 5100) is [4K, 8K) and touches it,
 * [9000, 9100) is [8K, 12K): no flush, and the fsync writes [0, 12K). Then [100, 200) again
 * and [1M + 100, 1M + 150), widened to [1M, 1M + 4K), not touching [0, 4K): one flush of 4K,
 * and the fsync writes the other 4K.
 */
static void test_widened(void)
{
	struct model_device d = test_device("nfs", 6018, 4096);
	struct model *m = make(&d);
	struct model_metrics set, x;

	w(m, 1 * MS, 0, 2 * MiB);
	op_on(m, 2 * MS, MODEL_FSYNC, 0, 0, 0, 0, 2 * MiB);
	set = metrics(m);
	w(m, 100 * MS, 100, 100);
	w(m, 110 * MS, 300, 100);
	w(m, 120 * MS, 5000, 100);
	w(m, 130 * MS, 9000, 100);
	op_on(m, 140 * MS, MODEL_FSYNC, 0, 0, 0, 0, 2 * MiB);
	x = metrics(m);
	is_u64(x.range_flushes, 0, "sub-page writes widened to pages: no flush");
	is_u64(x.writeback_bytes - set.writeback_bytes, 12 * KiB, "... the fsync writes [0, 12K)");
	set = x;
	w(m, 200 * MS, 100, 100);
	w(m, 210 * MS, MiB + 100, 50);
	op_on(m, 220 * MS, MODEL_FSYNC, 0, 0, 0, 0, 2 * MiB);
	x = metrics(m);
	is_u64(x.range_flushes, 1, "a sub-page write a page away from the range: one flush");
	is_u64(x.wb_flush_bytes - set.wb_flush_bytes, 4 * KiB, "... of [0, 4K)");
	is_u64(x.wb_fsync_bytes - set.wb_fsync_bytes, 4 * KiB, "... the fsync: [1M, 1M + 4K)");
	model_free(m);
}

/*
 * A partial write into a new folio below EOF reads the folio first (nfs_write_begin(), the
 * file taken as open for reading): 2 MiB known, nothing cached, [8K + 100, 8K + 200) makes an
 * order-0 folio (the write's size) and reads its 4K; [16K, 20K) covers its folio: no read.
 */
static void test_read_modify_write(void)
{
	struct model_device d = test_device("nfs", 6018, 4096);
	struct model *m = make(&d);
	struct model_access size = { .ts = 1, .op = MODEL_FADVISE, .isize = 2 * MiB, .device = 0 };

	model_access(m, &size);
	w(m, 2 * MS, 8 * KiB + 100, 100);
	is_u64(metrics(m).write_read_bytes, 4 * KiB, "a partial write into a new folio reads it");
	w(m, 3 * MS, 16 * KiB, 4 * KiB);
	is_u64(metrics(m).write_read_bytes, 4 * KiB, "a write covering its folio reads nothing");
	model_free(m);
}

/*
 * The folio id -> range table under growth and deletion: 5000 ids inserted (growing it from
 * 64 slots), every third deleted, then each looked up against what it should hold.
 */
static void test_table(void)
{
	struct dirty_ranges r = { 0 };
	unsigned wrong = 0, n = 5000;

	for (uint32_t id = 0; id < n; id++)
		dirty_range_set(&r, id * 7919u, id, id + 1);
	for (uint32_t id = 0; id < n; id += 3)
		dirty_range_del(&r, id * 7919u);
	for (uint32_t id = 0; id < n; id++) {
		const struct dirty_range *e = dirty_range_find(&r, id * 7919u);

		if (id % 3 == 0 ? e != NULL : !e || e->from != id || e->to != id + 1)
			wrong++;
	}
	is_u64(r.used, n - (n + 2) / 3, "the table holds the ids not deleted");
	is_u64(wrong, 0, "each id found with its range, or gone");
	dirty_ranges_free(&r);
}

int main(void)
{
	test_table();
	test_scatter();
	test_widened();
	test_read_modify_write();
	return done_testing();
}
