// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RWF_DONTCACHE in the model (src/model/filemap/dontcache.c, after 6.18 mm/filemap.c), with
 * base pages and no readahead so each MiB is 256 folios: a cold read with the flag inserts 256
 * and drops 256, and a plain read after it misses all 256 again; a read with the flag of pages
 * cached before drops none; a write with the flag to a new file is written back at once (1 MiB
 * under its own cause, none under fsync's) and dropped when the writeback ends; the same write
 * over blocks already written (inside the old size) is dropped on xfs but stays on ext4,
 * whose writeback of them ends in interrupt context; a plain write over a dropbehind folio
 * before its writeback clears the flag, so it stays.
 */
#include "model/model.h"
#include "model/variants.h"
#include "model-harness.h"
#include "tap.h"

#define MiB	(1024ull * 1024)
#define SEC	1000000000ull

static struct model *make(const struct model_device *dev)
{
	struct model_config c;

	model_config_defaults(&c);
	c.order = 0;
	c.memory_bytes = 256 * MiB;
	c.readahead = false;
	if (dev) {
		c.devices = dev;
		c.ndevices = 1;
	}
	return checked_model(&c);
}

static void io(struct model *m, uint64_t ts, enum model_op o, uint64_t len, uint64_t isize,
	       bool dontcache, bool on_dev)
{
	struct model_access a = { .ts = ts, .op = o, .pos = 0, .len = len, .isize = isize,
				  .dontcache = dontcache,
				  .device = on_dev ? 0 : MODEL_DEVICE_NONE };

	model_access(m, &a);
}

/* pages cached now: inserted less evicted less dropped */
static uint64_t cached(struct model *m)
{
	struct model_metrics x = metrics(m);

	return x.inserted_pages - x.evicted_pages - x.dropbehind_pages - x.dontneed_pages;
}

static void test_read(void)
{
	struct model *m = make(NULL);

	io(m, 1, MODEL_READ, MiB, MiB, true, false);
	is_u64(metrics(m).inserted_pages, 256, "cold read with the flag: 256 pages inserted");
	is_u64(metrics(m).dropbehind_pages, 256, "... and 256 dropped after the copy");
	is_u64(cached(m), 0, "... nothing left cached");
	is_u64(metrics(m).evictions, 0, "a drop is not an eviction");
	io(m, 2, MODEL_READ, MiB, MiB, false, false);
	is_u64(metrics(m).read_hit_bytes, 0, "a plain read after it misses every page");
	is_u64(cached(m), 256, "... and keeps its 256");
	io(m, 3, MODEL_READ, MiB, MiB, true, false);
	is_u64(metrics(m).dropbehind_pages, 256, "the flag on pages cached before drops none");
	is_u64(metrics(m).read_hit_bytes, MiB, "... they are hits");
	is_u64(cached(m), 256, "... and stay");
	model_free(m);
}

/* A new file written with the flag, then time for the writeback to end. */
static void test_write_new(void)
{
	struct model *m = make(NULL);
	struct model_metrics x;

	io(m, 1, MODEL_WRITE, MiB, MiB, true, false);
	model_advance(m, 10 * SEC);
	x = metrics(m);
	is_u64(x.wb_dontcache_bytes, MiB, "write with the flag: 1 MiB written back at once");
	is_u64(x.wb_fsync_bytes + x.wb_expire_bytes + x.wb_background_bytes, 0, "... by no other cause");
	is_u64(x.dropbehind_pages, 256, "... its 256 pages dropped when the writeback ended");
	is_u64(cached(m), 0, "... nothing left cached");
	model_free(m);
}

/* The flag over 1 MiB the file already had (its size known first, no page cached). */
static uint64_t overwrite_dropped(const char *fs)
{
	struct model_device d = test_device(fs, 6018, 4096);
	struct model *m = make(&d);
	struct model_access size = { .ts = 1, .op = MODEL_FADVISE, .isize = MiB, .device = 0 };
	uint64_t dropped;

	model_access(m, &size);
	io(m, 2, MODEL_WRITE, MiB, MiB, true, true);
	model_advance(m, 10 * SEC);
	ok(metrics(m).wb_dontcache_bytes == MiB, "%s: the write over old blocks written back", fs);
	dropped = metrics(m).dropbehind_pages;
	model_free(m);
	return dropped;
}

static void test_overwrite(void)
{
	is_u64(overwrite_dropped("xfs"), 256, "xfs: the 256 pages written over dropped");
	is_u64(overwrite_dropped("ext4"), 0, "ext4: kept, its writeback ended in interrupt context");
}

static void test_plain_write_clears(void)
{
	struct model *m = make(NULL);

	io(m, 1, MODEL_WRITE, MiB, MiB, true, false);
	io(m, 1, MODEL_WRITE, MiB, MiB, false, false);
	model_advance(m, 60 * SEC);
	is_u64(metrics(m).dropbehind_pages, 0, "a plain write before the writeback end: nothing dropped");
	is_u64(cached(m), 256, "... all 256 pages stay");
	model_free(m);
}

int main(void)
{
	test_read();
	test_write_new();
	test_overwrite();
	test_plain_write_clears();
	return done_testing();
}
