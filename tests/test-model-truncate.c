// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Truncate and hole punching split large folios (mm/truncate.c truncate_inode_partial_folio()):
 * the folios left of an order-7 folio at page 256, by release and filesystem. Expected by hand
 * from the kernel's rules (src/model/filemap/truncate.c): 6.12 split_folio() makes every page
 * its own folio; 6.18 folio_split() halves as the buddy allocator does, keeping the half
 * without the split page whole, then splits the piece at the range's end the same way; XFS
 * on 6.18 drops the folio a punched hole overlaps whole. The 6.18 figures are the kernel's own,
 * seen live on XFS (truncate to pages 288, 258 and 259; holes at pages 258-261).
 */
#include <stdio.h>
#include <string.h>

#include "model/instance.h"
#include "model/filemap/cache.h"
#include "model-harness.h"
#include "tap.h"

#define KiB	1024ull
#define MiB	(1024 * KiB)
#define FOLIO_AT	256	/* the order-7 folio at 1 MiB */

struct left {
	unsigned by_order[MODEL_MAX_ORDER + 1];
	uint64_t pages;
};

static struct model *read_4m(const struct model_device *d)
{
	struct model_config c;
	struct model *m;

	model_config_defaults(&c);
	/* every folio of order 7, as the kernel's readahead had it at page 256 */
	c.order = 7;
	c.policy = FOLIO_POLICY_FIXED;
	c.memory_bytes = 256 * MiB;
	c.devices = d;
	c.ndevices = 1;
	m = checked_model(&c);
	if (m)
		op_on(m, 1, MODEL_READ, 0, 0, 0, 4 * MiB, 4 * MiB);
	return m;
}

/* The folios cached in pages [256, 384), by order. */
static struct left left_in_folio(struct model *m)
{
	struct left l;
	uint32_t id = model_file(m, 0)->folios;

	memset(&l, 0, sizeof(l));
	for (; id != FOLIO_NIL; id = folio_at(&m->pool, id)->file_next) {
		const struct folio *f = folio_at(&m->pool, id);

		if (f->index >= FOLIO_AT && f->index < FOLIO_AT + 128) {
			l.by_order[f->order]++;
			l.pages += folio_nr_pages(f);
		}
	}
	return l;
}

/* The read left an order-7 folio at page 256. */
static bool folio_7_at_256(struct model *m)
{
	uint32_t id = cache_lookup(m, 0, FOLIO_AT);

	return id != FOLIO_NIL && folio_at(&m->pool, id)->index == FOLIO_AT &&
	       folio_at(&m->pool, id)->order == 7;
}

static struct left after(const char *fs, unsigned release, enum model_op o, uint64_t pos,
			 uint64_t len, const char *what)
{
	struct model_device d = test_device(fs, release, 4096);
	struct model *m = read_4m(&d);
	struct model_access a = { .ts = 2, .file_id = 0, .op = o, .pos = pos, .len = len,
				  .isize = o == MODEL_TRUNCATE ? pos : 4 * MiB, .device = 0,
				  .advice = o == MODEL_FALLOCATE ? MODEL_FALLOC_PUNCH_HOLE : 0 };
	struct left l;

	memset(&l, 0, sizeof(l));
	if (!m)
		return l;
	ok(folio_7_at_256(m), "%s %u.%u: an order-7 folio at page 256 before %s", fs,
	   release / 1000, release % 1000, what);
	model_access(m, &a);
	l = left_in_folio(m);
	model_free(m);
	return l;
}

static void test_truncate(void)
{
	struct left l;

	/* 6.18, live: truncate to page 288 kept one order-5 folio (pages 256-287) */
	l = after("xfs", 6018, MODEL_TRUNCATE, MiB + 128 * KiB, 0, "truncate to page 288");
	is_u64(l.pages, 32, "6.18 truncate to page 288: 32 pages left");
	is_u64(l.by_order[5], 1, "... in one folio of order 5 (folio_split)");
	is_u64(l.by_order[0], 0, "... none of order 0");
	/* live: to page 258 one order-1 folio; to page 259 one of order 1 and one of order 0 */
	l = after("xfs", 6018, MODEL_TRUNCATE, MiB + 8 * KiB, 0, "truncate to page 258");
	is_u64(l.by_order[1] * 10 + l.by_order[0], 10, "6.18 to page 258: one order-1 folio");
	l = after("xfs", 6018, MODEL_TRUNCATE, MiB + 12 * KiB + 100, 0, "truncate in page 259");
	is_u64(l.pages, 4, "6.18 into page 259: pages 256-259 left (259 holds the new EOF)");
	is_u64(l.by_order[1] * 10 + l.by_order[0], 12,
	       "... as one order-1 folio and two order-0 (the split at page 259)");
	/* 6.12: split_folio(), every page its own folio */
	l = after("xfs", 6012, MODEL_TRUNCATE, MiB + 128 * KiB, 0, "truncate to page 288");
	is_u64(l.pages, 32, "6.12 truncate to page 288: 32 pages left");
	is_u64(l.by_order[0], 32, "... as 32 order-0 folios (split_folio)");
}

static void test_punch(void)
{
	struct left l;

	/* XFS 6.18, live: a hole at pages 258-261 dropped the order-7 folio whole */
	l = after("xfs", 6018, MODEL_FALLOCATE, MiB + 8 * KiB, 16 * KiB, "a hole at 258-261");
	is_u64(l.pages, 0, "xfs 6.18 hole in the folio: the whole folio dropped");
	/* XFS 6.12: truncate_pagecache_range(), split_folio(): 124 pages left, order 0 */
	l = after("xfs", 6012, MODEL_FALLOCATE, MiB + 8 * KiB, 16 * KiB, "a hole at 258-261");
	is_u64(l.pages, 124, "xfs 6.12 hole at 258-261: 124 pages left");
	is_u64(l.by_order[0], 124, "... every one its own folio");
	/*
	 * ext4 6.18: split at 258 leaves orders 6, 5, 4, 3 (at 320, 288, 272, 264), 2 at 260,
	 * 1 at 256 and pages 258, 259; the piece at 260 split at 262 into 1 at 260 and pages
	 * 262, 263; pages 258-261 leave: orders 6, 5, 4, 3, 1 and 0, 0 - 124 pages in 7 folios.
	 */
	l = after("ext4", 6018, MODEL_FALLOCATE, MiB + 8 * KiB, 16 * KiB, "a hole at 258-261");
	is_u64(l.pages, 124, "ext4 6.18 hole at 258-261: 124 pages left");
	is_u64(l.by_order[6] + l.by_order[5] + l.by_order[4] + l.by_order[3], 4,
	       "... one folio each of orders 6, 5, 4 and 3");
	is_u64(l.by_order[2], 0, "... none of order 2 (the piece at 260 split at 262)");
	is_u64(l.by_order[1], 1, "... one of order 1 (pages 256-257)");
	is_u64(l.by_order[0], 2, "... pages 262 and 263 of order 0");
}

int main(void)
{
	test_truncate();
	test_punch();
	return tap_done();
}
