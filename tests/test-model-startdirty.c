// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Dirty pages of the start state (src/model/filemap/startstate.c): cachestat(2) counted them,
 * the kernel writes them back during the trace as it does the trace's own (a sync(2) through
 * sync_inodes_sb(), the flusher once they expire: fs/fs-writeback.c, wb_writeback(), 6.18).
 * Base pages and no readahead, so a 1 MiB file is 256 folios: with its last 64 pages dirty at
 * the start, a sync writes those 64 and no other, a read of the whole file hits all 256, and
 * nothing of it counts as inserted or dirtied by the trace. Without a sync the flusher writes
 * the same 64 once the expiry interval (30 s) has passed since the start. With order-4 folios
 * a file of 16 pages is one folio: one dirty page of it makes the folio dirty, 16 pages written.
 */
#include "model/model.h"
#include "model-harness.h"
#include "tap.h"

#define MiB	(1024ull * 1024)
#define SEC	1000000000ull
#define PAGE	4096ull

static struct model *make(unsigned order)
{
	struct model_config c;

	model_config_defaults(&c);
	c.order = order;
	c.memory_bytes = 256 * MiB;
	c.readahead = false;
	c.start_cache = START_CACHE_RECORDED;
	return checked_model(&c);
}

/* pages [0, pages) of file 0 cached at the start, the last dirty of them dirty */
static void start(struct model *m, uint64_t pages, uint64_t dirty)
{
	struct model_access a = { .ts = 1, .op = MODEL_START_CACHE, .pos = 0, .len = pages,
				  .isize = pages * PAGE, .dirty = dirty,
				  .device = MODEL_DEVICE_NONE };

	model_access(m, &a);
}

static void sync_all(struct model *m, uint64_t ts)
{
	struct model_access a = { .ts = ts, .op = MODEL_SYNC, .device = MODEL_DEVICE_NONE };

	model_access(m, &a);
}

static void test_sync(void)
{
	struct model *m = make(0);
	struct model_metrics x;

	start(m, 256, 64);
	op(m, 2, MODEL_READ, 0, 0, MiB, MiB);
	sync_all(m, 3);
	model_advance(m, 10 * SEC);
	x = metrics(m);
	is_u64(x.read_hit_bytes, MiB, "a read of the start state hits all 256 pages");
	is_u64(x.inserted_pages, 0, "... none inserted by the trace");
	is_u64(x.dirtied_pages, 0, "the 64 dirty pages are none the trace dirtied");
	is_u64(x.wb_sync_bytes, 64 * PAGE, "sync(2) writes the 64 dirty pages of the start");
	is_u64(x.written_pages, 64, "... and no other page");
	model_free(m);
}

static void test_expire(void)
{
	struct model *m = make(0);
	struct model_metrics x;

	start(m, 256, 64);
	model_advance(m, 20 * SEC);
	is_u64(metrics(m).written_pages, 0, "no writeback before the expiry interval");
	model_advance(m, 40 * SEC);
	x = metrics(m);
	is_u64(x.wb_expire_bytes, 64 * PAGE, "the flusher writes the 64 once they expire");
	is_u64(x.written_pages, 64, "... and no other page");
	model_free(m);
}

static void test_folio(void)
{
	struct model *m = make(4);

	start(m, 16, 1);
	sync_all(m, 2);
	model_advance(m, 10 * SEC);
	is_u64(metrics(m).written_pages, 16, "one dirty page of an order-4 folio: 16 written");
	model_free(m);
}

static void test_clean(void)
{
	struct model *m = make(0);

	start(m, 256, 0);
	sync_all(m, 2);
	model_advance(m, 60 * SEC);
	is_u64(metrics(m).written_pages, 0, "a clean start state writes nothing");
	model_free(m);
}

int main(void)
{
	test_sync();
	test_expire();
	test_folio();
	test_clean();
	return tap_done();
}
