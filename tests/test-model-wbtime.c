// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model unit tests: writeback in model time. The device serves one I/O at a time, folios are
 * under writeback until their I/O completes, fsync waits for it, the flusher writes in
 * writeback_chunk_size() chunks, balance_dirty_pages() pauses the writer, and reclaim meets
 * dirty folios as the release's row says (flusher or pageout), stalling on writeback.
 */
#include <stdio.h>

#include "model/model.h"
#include "model/instance.h"
#include "model/variants.h"
#include "model-harness.h"
#include "tap.h"

#define KiB	1024ull
#define MiB	(1024ull * 1024)
#define GiB	(1024ull * MiB)
#define PAGE	4096ull
#define SEC	1000000000ull
#define MSEC	1000000ull

static struct model_config config(unsigned order)
{
	struct model_config c;

	model_config_defaults(&c);
	c.order = order;
	c.dirty = DIRTY_FOLIO;
	c.memory_bytes = GiB;
	return c;
}

/* 100 us + bytes / 100 MB/s per I/O, one at a time. */
static double io_s(uint64_t bytes)
{
	return 100e-6 + (double)bytes / 100e6;
}

/*
 * fsync waits for its I/O; a folio redirtied under writeback is skipped by WB_SYNC_NONE
 * writeback (sync_file_range) and written again by fsync once the first I/O ended.
 */
static void test_device_time(void)
{
	struct model_config c = config(0);
	struct model *m;
	struct model_metrics x;

	c.device_latency_us = 100;
	c.device_bandwidth_mbps = 100;
	m = checked_model(&c);
	op(m, 0, MODEL_WRITE, 0, 0, MiB, MiB);
	op(m, SEC, MODEL_FSYNC, 0, 0, 0, MiB);
	x = metrics(m);
	is_dbl(x.sync_wait_time_s, io_s(MiB), 1e-9, "fsync waits latency + 1 MiB / bandwidth");
	is_u64(x.last_ts, SEC + (uint64_t)(io_s(MiB) * 1e9), "the writer resumes when it ends");
	model_free(m);

	m = checked_model(&c);
	op(m, 0, MODEL_WRITE, 0, 0, MiB, MiB);
	op(m, 0, MODEL_SYNC_RANGE, 0, 0, MiB, MiB);
	op(m, 0, MODEL_WRITE, 0, 0, MiB, MiB);
	op(m, 0, MODEL_SYNC_RANGE, 0, 0, MiB, MiB);
	x = metrics(m);
	is_u64(x.writeback_ios, 1, "folios under writeback are skipped by WB_SYNC_NONE");
	is_u64(x.dirty_bytes, MiB, "redirtied under writeback: dirty again");
	is_dbl(x.sync_wait_time_s, 0, 0, "sync_file_range does not wait");
	op(m, 0, MODEL_FSYNC, 0, 0, 0, MiB);
	x = metrics(m);
	is_u64(x.writeback_bytes, 2 * MiB, "fsync waits for the first I/O and writes again");
	is_u64(x.writeback_ios, 2, "two I/Os");
	is_dbl(x.sync_wait_time_s, 2 * io_s(MiB), 1e-9, "and waits for both");
	model_free(m);
}

/*
 * 1 GiB: dirtyable 262144 - 1548 reserved = 260596 pages, dirty limit 819 * 260596 / 4096 =
 * 52106, background 26021. writeback_chunk_size(): min(25600 / 2, 52106 / 8) = 6513, + 1024
 * rounded down to 1024: 7168 pages; the last chunk of a work is what is left, rounded up.
 */
static void test_chunks(void)
{
	struct model_config c = config(9);
	struct model *m = checked_model(&c);
	struct model_metrics x;

	for (uint64_t p = 0; p < 64 * MiB; p += MiB)
		op(m, 0, MODEL_WRITE, 0, p, MiB, p + MiB);
	model_advance(m, 30 * SEC - 1);
	is_u64(metrics(m).writeback_bytes, 0, "64 MiB: below the background threshold");
	model_advance(m, 30 * SEC);
	x = metrics(m);
	is_u64(x.wb_expire_bytes, 64 * MiB, "written at the 30 s tick");
	is_u64(x.writeback_ios, 3, "in three chunks of 7168, 7168 and 2048 pages");
	is_u64(x.extent_bytes, 64 * MiB, "one extent each");
	model_free(m);

	/*
	 * Several inodes: a chunk each in turn, oldest first. The work is the 16384 pages
	 * dirty: 7168 of each, then of the 2048 left 1024 + 1024 rounded down (the rest of
	 * the first) and 1024 + 1024 (the rest of the second).
	 */
	m = checked_model(&c);
	for (uint32_t f = 0; f < 2; f++)
		for (uint64_t p = 0; p < 32 * MiB; p += MiB)
			op(m, 0, MODEL_WRITE, f, p, MiB, p + MiB);
	model_advance(m, 30 * SEC);
	x = metrics(m);
	is_u64(x.wb_expire_bytes, 64 * MiB, "two inodes: both expired");
	is_u64(x.writeback_ios, 4, "28 MiB of each, then the 4 MiB left of each");
	is_u64(x.iosize_hist[10], 2, "two of 4 MiB");
	model_free(m);
}

/*
 * balance_dirty_pages(): dirty_bytes 8 MiB (2048 pages), background 4 MiB (1024). One write
 * of 2000 pages: background writeback takes 1024 of them, 976 + 1024 = 2000 stay above the
 * freerun ceiling (1024 + 2048) / 2 = 1536. pos_ratio at 2000 around the setpoint 1792:
 * 1 + ((1792 - 2000) / 257)^3 = 483/1024, task rate 25600 * 483 / 1024 = 12075 pages/s, so
 * 2000 pages ask 165 ms; max_pause is 2000 / (1 + 25600 / 128) + 1 = 10 ms.
 */
static void test_throttle(void)
{
	struct model_config c = config(9);
	struct model *m;
	struct model_metrics x;

	c.dirty_bytes = 2048 * PAGE;
	c.dirty_background_bytes = 1024 * PAGE;
	m = checked_model(&c);
	op(m, 0, MODEL_WRITE, 0, 0, 2000 * PAGE, 2000 * PAGE);
	x = metrics(m);
	is_u64(x.wb_background_bytes, 1024 * PAGE, "background writeback of one chunk");
	is_u64(x.throttled, 1, "the writer pauses once");
	is_dbl(x.throttle_time_s, 0.010, 1e-12, "for max_pause, 10 ms");
	is_u64(x.last_ts, 10 * MSEC, "in model time");
	model_free(m);

	m = checked_model(&c);
	op(m, 0, MODEL_WRITE, 0, 0, 1536 * PAGE, 1536 * PAGE);
	x = metrics(m);
	is_u64(x.throttled, 0, "at the freerun ceiling: no pause");
	is_u64(x.wb_background_bytes, 1024 * PAGE, "but background writeback");
	model_free(m);
}

/* An access of len bytes at pos of file by memory cgroup memcg. */
static void op_in(struct model *m, uint8_t memcg, enum model_op o, uint32_t file, uint64_t pos,
		  uint64_t len, uint64_t isize)
{
	struct model_access a = { .ts = 0, .file_id = file, .op = o, .pos = pos, .len = len,
				  .isize = isize, .device = MODEL_DEVICE_NONE, .memcg = memcg };

	model_access(m, &a);
}

/*
 * A 64 MiB cgroup (memory.max) holding 40 MiB of file pages, all clean, has 24 MiB of headroom;
 * with the global domain's 20 GiB dirtyable, the clean pages elsewhere are far more, so its
 * avail is 40 + 24 MiB = 16384 pages (mdtc_calc_avail()). Ratios in 1/4096: 10% is 409, 20% is
 * 819, so bg_thresh = 409 * 16384 / 4096 = 1636 and thresh = 819 * 16384 / 4096 = 3276 pages.
 * The *_bytes sysctls as ratios of the global avail (5242880 pages): 2 GiB gives
 * DIV_ROUND_UP(2^31, 5242880) = 410, 1 GiB 205, so 1640 and 820 pages.
 */
static struct model *memcg_64m(uint32_t dirty_domains, uint64_t dirty_bytes, uint64_t bg_bytes)
{
	static const struct model_memcg cg[] = { { 64 * MiB, UINT64_MAX } };
	struct model_config c = config(0);

	c.dirtyable_bytes = 20 * GiB;
	c.readahead = false;
	c.memcgs = cg;
	c.nr_memcgs = 1;
	c.dirty_domains = dirty_domains;
	c.dirty_bytes = dirty_bytes;
	c.dirty_background_bytes = bg_bytes;
	return checked_model(&c);
}

static void test_memcg_domain_limits(void)
{
	uint64_t avail, bg, th;
	struct model *m = memcg_64m(1u << 1, 0, 0);

	op_in(m, 1, MODEL_READ, 0, 0, 40 * MiB, 40 * MiB);
	is_u64(lru_pages(&m->memcgs[1].lruvec.lru), 10240, "the cgroup holds 40 MiB of file pages");
	wb_memcg_limits(m, 1, &avail, &bg, &th);
	is_u64(avail, 16384, "its avail: file pages + headroom");
	is_u64(bg, 1636, "bg_thresh: 409/4096 of it");
	is_u64(th, 3276, "thresh: 819/4096 of it");
	model_free(m);

	m = memcg_64m(1u << 1, 2 * GiB, GiB);
	op_in(m, 1, MODEL_READ, 0, 0, 40 * MiB, 40 * MiB);
	wb_memcg_limits(m, 1, &avail, &bg, &th);
	is_u64(th, 1640, "dirty_bytes: a ratio of the global avail, 410/4096");
	is_u64(bg, 820, "dirty_background_bytes: 205/4096");
	model_free(m);
}

/*
 * 32 MiB written a page at a time in the 64 MiB cgroup: with cgroup v2 writeback its own domain
 * (avail about 64 MiB) starts background writeback of its file and its dirty pages end at most
 * at its freerun ceiling; under v1 the global 20 GiB domain alone: nothing written back.
 */
static void test_memcg_domain_writeback(void)
{
	for (int v2 = 0; v2 <= 1; v2++) {
		struct model *m = memcg_64m(v2 ? 1u << 1 : 0, 0, 0);
		struct model_metrics x;
		uint64_t avail, bg, th;

		for (uint64_t p = 0; p < 8192; p++)
			op_in(m, 1, MODEL_WRITE, 0, p * PAGE, PAGE, (p + 1) * PAGE);
		x = metrics(m);
		if (!v2) {
			is_u64(x.wb_background_bytes, 0, "v1: the global domain alone: none");
			is_u64(m->memcgs[1].nr_dirty, 8192, "v1: every page still dirty");
			model_free(m);
			continue;
		}
		wb_memcg_limits(m, 1, &avail, &bg, &th);
		ok(x.wb_background_bytes > 0, "v2: the cgroup's background writeback ran");
		ok(m->memcgs[1].nr_dirty + m->memcgs[1].nr_writeback <= (bg + th) / 2,
		   "v2: dirty + writeback at most its freerun ceiling (%llu <= %llu)",
		   (unsigned long long)(m->memcgs[1].nr_dirty + m->memcgs[1].nr_writeback),
		   (unsigned long long)((bg + th) / 2));
		ok(th < 3400 && th > 3000, "v2: its thresh about 20%% of 64 MiB (%llu)",
		   (unsigned long long)th);
		model_free(m);
	}
}

/* 16 pages of memory and one-page writes, thresholds far away: dirty folios reach the tail. */
static struct model *small_memory(enum reclaim_writeback how, const char *fstype,
				  unsigned release, unsigned writes)
{
	static struct model_device dev;
	struct model_config c = config(0);
	struct model *m;

	dev = test_device(fstype, release, 4096);
	c.memory_bytes = 16 * PAGE;
	c.dirty_background_bytes = GiB;
	c.dirty_bytes = 2 * GiB;
	c.reclaim_wb = how;
	c.devices = &dev;
	c.ndevices = 1;
	m = checked_model(&c);
	for (uint64_t p = 0; p < writes; p++)
		op_on(m, 0, MODEL_WRITE, 0, 0, p * PAGE, PAGE, (p + 1) * PAGE);
	return m;
}

/*
 * The 17th write needs a page. With the flusher (6.17+) reclaim marks the 16 dirty folios
 * PG_reclaim and activates them; the batch of 16 pages all dirty wakes the flusher, which
 * writes them as one I/O (20 us + 64 KiB / 2 GB/s = 52.768 us on nvme); reclaim finds
 * nothing clean, waits for it (one stall) and evicts the folios clean as their writeback
 * ends and rotates them to the tail. With pageout (before 6.17) the same: reclaim writes a
 * folio itself only as kswapd, met again with PG_reclaim on a PGDAT_DIRTY node, and these
 * are met once, by the allocation's own reclaim.
 */
static void test_reclaim_rows(void)
{
	struct model *m = small_memory(RECLAIM_WB_FLUSHER, "ext4", 6018, 17);
	struct model_metrics x = metrics(m);

	is_u64(x.reclaim_dirty_folios, 16, "flusher: 16 dirty folios at the inactive tail");
	is_u64(x.reclaim_immediate_pages, 16, "marked PG_reclaim");
	is_u64(x.flusher_wakeups, 1, "one batch all dirty: the flusher is woken once");
	is_u64(x.wb_vmscan_bytes, 16 * PAGE, "it writes them");
	is_u64(x.writeback_ios, 1, "in one I/O");
	is_u64(x.wb_reclaim_bytes, 0, "reclaim writes nothing");
	is_u64(x.reclaim_stalls, 1, "reclaim waits once");
	is_dbl(x.reclaim_stall_time_s, 52.768e-6, 1e-12, "until the I/O completes");
	is_u64(x.rotated_pages, 16, "the folios rotate to the tail as it ends");
	is_u64(x.evictions, 1, "and one is evicted");
	model_free(m);

	m = small_memory(RECLAIM_WB_FLUSHER, "ext4", 6018, 32);
	x = metrics(m);
	is_u64(x.evictions, 16, "15 more writes evict the 15 other clean folios");
	is_u64(x.reclaim_dirty_folios, 16, "without meeting a dirty folio again");
	is_u64(x.dirty_bytes, 16 * PAGE, "the last 16 pages stay dirty");
	model_free(m);

	m = small_memory(RECLAIM_WB_PAGEOUT, "ext4", 6018, 17);
	x = metrics(m);
	is_u64(x.reclaim_dirty_folios, 16, "pageout: 16 dirty folios at the inactive tail");
	is_u64(x.reclaim_immediate_pages, 16, "met once: marked PG_reclaim");
	is_u64(x.wb_reclaim_bytes, 0, "reclaim writes none of them itself");
	is_u64(x.wb_vmscan_bytes, 16 * PAGE, "the flusher writes them");
	is_u64(x.writeback_ios, 1, "in one I/O");
	is_dbl(x.reclaim_stall_time_s, 52.768e-6, 1e-12, "reclaim waits for it");
	is_u64(x.evictions, 1, "then evicts a folio");
	model_free(m);
}

/*
 * pageout()'s own conditions in shrink_folio_list() (6.1 to 6.16): a dirty folio at the tail
 * is written by reclaim only when kswapd meets it again with PG_reclaim set while the node is
 * PGDAT_DIRTY; missing any of the three it is left to the flusher (and marked PG_reclaim).
 */
static void test_pageout_conditions(void)
{
	for (unsigned miss = 0; miss < 4; miss++) {
		struct model *m = small_memory(RECLAIM_WB_PAGEOUT, "vfat", 6012, 16);
		const struct dirty_reclaim *row = model_reclaim_row_for(&m->cfg, &m->cfg.devices[0]);
		uint32_t id = m->memcgs[0].lruvec.lru.inactive.tail;
		const struct folio *f = folio_at(&m->pool, id);
		static const char *const what[] = {
			"kswapd, PGDAT_DIRTY, met again: reclaim writes the folio",
			"not kswapd: left to the flusher",
			"node not PGDAT_DIRTY: left to the flusher",
			"met for the first time: left to the flusher",
		};

		m->node.kswapd = miss != 1;
		m->node.dirty = miss != 2;
		if (miss != 3)
			folio_set_reclaim(m, f);
		row->tail_folio(m, id);
		is_u64(metrics(m).wb_reclaim_bytes, miss ? 0 : PAGE, what[miss]);
		ok(folio_test_reclaim(m, f), "and it has PG_reclaim");
		model_free(m);
	}
}

/*
 * auto: as the release handled the file's filesystem. A filesystem with ->writepage (vfat
 * until 6.16 here) on 6.12: pageout; on 6.18, or ext4 (none since 6.3) on 6.12: the flusher.
 */
static void test_reclaim_auto(void)
{
	static const struct {
		const char *fs;
		unsigned release;
		const char *row;
	} cases[] = {
		{ "vfat", 6012, "pageout" }, { "vfat", 6018, "flusher" }, { "ext4", 6012, "flusher" },
		{ "ext4", 6001, "pageout" }, { "xfs", 6006, "flusher" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct model_config c = config(0);
		struct model_device d = test_device(cases[i].fs, cases[i].release, 4096);
		char what[80];

		c.reclaim_wb = RECLAIM_WB_AUTO;
		snprintf(what, sizeof(what), "auto, %s on %u.%u: the %s row", cases[i].fs,
			 cases[i].release / 1000, cases[i].release % 1000, cases[i].row);
		is_str(model_reclaim_row_for(&c, &d)->v.name, cases[i].row, what);
	}
}

/* tmpfs: nothing accounted dirty, nothing written, nothing evictable without swap. */
static void test_tmpfs(void)
{
	struct model *m = small_memory(RECLAIM_WB_AUTO, "tmpfs", 6018, 32);
	struct model_metrics x = metrics(m);

	is_u64(x.dirty_bytes, 0, "tmpfs: no page counted dirty");
	is_u64(x.write_dirtied_folios, 0, "no accounted dirtying");
	is_u64(x.writeback_bytes, 0, "nothing written back");
	is_u64(x.evictions, 0, "nothing evicted");
	is_u64(x.reclaim_dirty_folios, 0, "no dirty file folio at the tail");
	is_u64(x.direct_write_bytes, 16 * PAGE, "writes past memory bypass the model's cache");
	op(m, SEC, MODEL_FSYNC, 0, 0, 0, 32 * PAGE);
	is_u64(metrics(m).writeback_bytes, 0, "fsync writes nothing");
	model_free(m);
}

int main(void)
{
	test_device_time();
	test_chunks();
	test_throttle();
	test_memcg_domain_limits();
	test_memcg_domain_writeback();
	test_reclaim_rows();
	test_pageout_conditions();
	test_reclaim_auto();
	test_tmpfs();
	return done_testing();
}
