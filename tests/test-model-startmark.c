// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Readahead marks of the start state (src/model/filemap/startstate.c, filemap_start_mark()):
 * a file read from its start in part before the trace keeps PG_readahead on the first folio
 * of its last window, which no probe sees; the kernel's async readahead there shows it, and
 * the replay driver sends MODEL_START_MARK before the read that hit it. Base pages, a 1 MiB
 * file (256 pages) with its first 64 cached at the start, readahead of 32 pages:
 *   - no mark: a read of page 32 hits and reads nothing ahead;
 *   - the mark on page 32: the read hits it, and page_cache_async_ra() without a window of
 *     its own (6.18) reads from the next missing page, 64, get_next_ra_size(64 - 32 + 1, 32)
 *     = 32 pages: [64, 96) inserted, and no page before 64;
 *   - a mark sent for a folio the trace inserted, or for a page not cached, changes nothing:
 *     the trace's own readahead set its marks itself.
 */
#include "model/model.h"
#include "model-harness.h"
#include "tap.h"

#define MiB	(1024ull * 1024)
#define PAGE	4096ull

static struct model *make(void)
{
	struct model_config c;

	model_config_defaults(&c);
	c.order = 0;
	c.memory_bytes = 256 * MiB;
	c.ra_pages = 32;
	c.start_cache = START_CACHE_RECORDED;
	return checked_model(&c);
}

/* file 0: pages [0, 64) of its 256 cached at the start */
static void start(struct model *m)
{
	struct model_access a = { .ts = 1, .op = MODEL_START_CACHE, .pos = 0, .len = 64,
				  .isize = MiB, .device = MODEL_DEVICE_NONE };

	model_access(m, &a);
}

static void mark(struct model *m, uint64_t ts, uint64_t idx)
{
	struct model_access a = { .ts = ts, .op = MODEL_START_MARK, .pos = idx,
				  .device = MODEL_DEVICE_NONE };

	model_access(m, &a);
}

static void test_no_mark(void)
{
	struct model *m = make();
	struct model_metrics x;

	start(m);
	op(m, 2, MODEL_READ, 0, 32 * PAGE, PAGE, MiB);
	x = metrics(m);
	is_u64(x.read_hit_bytes, PAGE, "no mark: a read of a start page hits");
	is_u64(x.inserted_pages, 0, "... and reads nothing ahead");
	model_free(m);
}

static void test_mark(void)
{
	struct model *m = make();
	struct model_metrics x;

	start(m);
	mark(m, 2, 32);
	op(m, 3, MODEL_READ, 0, 32 * PAGE, PAGE, MiB);
	x = metrics(m);
	is_u64(x.read_hit_bytes, PAGE, "the marked start page is a hit");
	is_u64(x.inserted_pages, 32, "its mark reads 32 pages ahead");
	op(m, 4, MODEL_READ, 0, 0, 64 * PAGE, MiB);
	x = metrics(m);
	is_u64(x.inserted_pages, 32, "... from page 64: a read of [0, 64) inserts nothing more");
	is_u64(x.read_hit_bytes, 65 * PAGE, "... and hits all 64");
	model_free(m);
}

/* reads at pages 200 and 150 after a miss at 200; with_marks: marks sent for both first */
static uint64_t not_start_inserted(bool with_marks)
{
	struct model *m = make();
	uint64_t n;

	start(m);
	op(m, 2, MODEL_READ, 0, 200 * PAGE, PAGE, MiB);
	if (with_marks) {
		mark(m, 3, 200);
		mark(m, 3, 150);
	}
	op(m, 4, MODEL_READ, 0, 200 * PAGE, PAGE, MiB);
	op(m, 5, MODEL_READ, 0, 150 * PAGE, PAGE, MiB);
	n = metrics(m).inserted_pages;
	model_free(m);
	return n;
}

static void test_not_start(void)
{
	uint64_t plain = not_start_inserted(false);

	ok(plain > 0, "misses at pages 200 and 150 read windows in");
	is_u64(not_start_inserted(true), plain,
	       "marks sent for a folio the trace inserted or an uncached page: none set");
}

int main(void)
{
	test_no_mark();
	test_mark();
	test_not_start();
	return done_testing();
}
