// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Physical memory for folios: every folio is a MOVABLE buddy block of its order (buddy.c) in
 * the model's one zone. This file keeps what each used page holds (a folio, a page of
 * others) and the state that moves with it; alloc.c finds room for an allocation, init.c
 * sets the zone up at the start.
 */
#include <stdlib.h>
#include <string.h>

#include "model/bitmap.h"
#include "model/instance.h"
#include "util/msg.h"
#include "util/rng.h"

/* ---- tags: what a used page holds (buddy.h's BUDDY_TAG_* and these) --------------------- */

/* a folio: 2 * (id + 1); a page of others: 2 * index + 1; above BUDDY_TAG_MAX: untagged */
static uint32_t folio_tag(uint32_t id)
{
	uint64_t t = 2 * ((uint64_t)id + 1);

	return t < BUDDY_TAG_MAX ? (uint32_t)t : BUDDY_TAG_NONE;
}

uint32_t memory_others_tag(uint64_t i)
{
	uint64_t t = 2 * i + 1;

	return t < BUDDY_TAG_MAX ? (uint32_t)t : BUDDY_TAG_NONE;
}

static bool tag_is_folio(uint32_t t)
{
	return t != BUDDY_TAG_NONE && t < BUDDY_TAG_MAX && !(t & 1);
}

bool memory_tag_is_folio(uint32_t tag)
{
	return tag_is_folio(tag);
}

static bool tag_is_others(uint32_t t)
{
	return t < BUDDY_TAG_MAX && (t & 1);
}

int memory_movable_order(struct model *m, uint32_t tag)
{
	if (tag_is_folio(tag))
		return folio_at(&m->pool, tag / 2 - 1)->order;
	if (tag_is_others(tag) || tag == BUDDY_TAG_MOVABLE)
		return 0;
	return -1;
}

/* ---- the bitmaps by pfn ------------------------------------------------------------------- */

#define PFN_COVER_MIN	65536ull	/* pages a bitmap covers at first: 8 KiB of bits */

static size_t pfn_bitmap_bytes(uint64_t pages, unsigned shift)
{
	/* one word beyond the last: bitmap.h's range loops may read it */
	return (size_t)(((pages << shift) + 63) / 64 + 1) * sizeof(uint64_t);
}

uint64_t *memory_pfn_bitmap_new(const struct model *m, unsigned shift)
{
	return calloc(1, pfn_bitmap_bytes(m->mem.pfn_cover, shift));
}

/* The bitmap *map, covering old pages, grown to cover pages; false on ENOMEM. */
static bool pfn_bitmap_grow(uint64_t **map, uint64_t old, uint64_t pages, unsigned shift)
{
	size_t was = pfn_bitmap_bytes(old, shift), now = pfn_bitmap_bytes(pages, shift);
	uint64_t *p;

	if (!*map)
		return true;
	p = realloc(*map, now);
	if (!p)
		return false;
	memset((char *)p + was, 0, now - was);
	*map = p;
	return true;
}

/*
 * Every bitmap by pfn covers the pfns below end, doubling: a zone of 2^32 pages whose cache
 * uses a gigabyte keeps a gigabyte's bits. Running out of memory ends the run, as the buddy
 * allocator's own bitmaps do.
 */
static void memory_cover_pfns(struct model *m, uint64_t end)
{
	struct memory *mem = &m->mem;
	uint64_t old = mem->pfn_cover, pages = old ? old : PFN_COVER_MIN;

	if (end <= old)
		return;
	while (pages < end)
		pages *= 2;
	if (pages > mem->nr_pages)
		pages = mem->nr_pages > end ? mem->nr_pages : end;
	if (!pfn_bitmap_grow(&mem->touched_pfn, old, pages, 0) ||
	    !pfn_bitmap_grow(&mem->reclaim_pfn, old, pages, 0) ||
	    !pfn_bitmap_grow(&mem->dropbehind_pfn, old, pages, 0) ||
	    !pfn_bitmap_grow(&mem->dropbehind_wb_pfn, old, pages, 0) ||
	    !pfn_bitmap_grow(&mem->exec_pfn, old, pages, 0) ||
	    !pfn_bitmap_grow(&mem->dirty_units, old, pages, m->upp_shift) ||
	    !pfn_bitmap_grow(&mem->uptodate_units, old, pages, m->upp_shift)) {
		ft_warn("out of memory for the modelled cache's page state");
		exit(1);
	}
	mem->pfn_cover = pages;
}

void memory_prefetch_movable(const struct model *m, uint64_t pfn)
{
	uint32_t tag = buddy_tag(m->mem.buddy, pfn);

	if (tag_is_folio(tag))
		__builtin_prefetch(folio_at(&m->pool, tag / 2 - 1));
}

void memory_folio_added(struct model *m, uint32_t id)
{
	const struct folio *f = folio_at(&m->pool, id);

	uint32_t tag = folio_tag(id);

	memory_cover_pfns(m, folio_pfn(f) + folio_nr_pages(f));
	buddy_set_tag(m->mem.buddy, folio_pfn(f), tag, tag_is_folio(tag) ? f->order : -1);
}

void memory_free_folio(struct model *m, const struct folio *f)
{
	buddy_free(m->mem.buddy, folio_pfn(f), f->order);
}

void memory_free_pages(struct model *m, uint64_t pfn, unsigned order)
{
	buddy_free(m->mem.buddy, pfn, order);
}


/* ---- migration ---------------------------------------------------------------------------- */

/*
 * Bits [from, from + n) moved to [to, to + n), the source's cleared. A block's: n a power of
 * two and both ends aligned to it, so the bits lie in one word or fill whole words, moved a
 * word at a time; anything else bit by bit.
 */
static void bits_move(uint64_t *map, uint64_t from, uint64_t to, uint64_t n)
{
	if (n && !(n & (n - 1)) && !((from | to) & (n - 1))) {
		if (n < 64) {
			uint64_t mask = (1ull << n) - 1, *src = &map[from >> 6], *dst = &map[to >> 6];
			uint64_t bits = *src >> (from & 63) & mask;

			*src &= ~(mask << (from & 63));
			*dst = (*dst & ~(mask << (to & 63))) | bits << (to & 63);
			return;
		}
		for (uint64_t i = 0; i < n >> 6; i++) {
			map[(to >> 6) + i] = map[(from >> 6) + i];
			map[(from >> 6) + i] = 0;
		}
		return;
	}
	for (uint64_t i = 0; i < n; i++) {
		if (bitmap_test(map, from + i))
			bitmap_set_range(map, to + i, to + i + 1);
		else
			bitmap_zero_range(map, to + i, to + i + 1);
	}
	bitmap_zero_range(map, from, from + n);
}

/* Everything the model keeps by pfn goes with a folio that moves (instance.h lists it). */
static void memory_move_pfn_state(struct model *m, uint64_t from, uint64_t to, uint64_t n)
{
	bits_move(m->mem.touched_pfn, from, to, n);
	bits_move(m->mem.dropbehind_pfn, from, to, n);
	bits_move(m->mem.dropbehind_wb_pfn, from, to, n);
	bits_move(m->mem.exec_pfn, from, to, n);
	if (m->mem.dirty_units)
		bits_move(m->mem.dirty_units, from << m->upp_shift, to << m->upp_shift,
			  n << m->upp_shift);
	if (m->mem.uptodate_units)
		bits_move(m->mem.uptodate_units, from << m->upp_shift, to << m->upp_shift,
			  n << m->upp_shift);
}

bool memory_migrate(struct model *m, uint64_t from, uint64_t to, unsigned order, uint32_t tag)
{
	if (!buddy_take(m->mem.buddy, to, order, MT_MOVABLE))
		return false;
	if (tag_is_folio(tag)) {
		memory_cover_pfns(m, to + (1ull << order));
		folio_at(&m->pool, tag / 2 - 1)->pfn = (uint32_t)to;
		memory_move_pfn_state(m, from, to, 1ull << order);
	} else if (tag_is_others(tag)) {
		m->mem.others[tag / 2] = (uint32_t)to;
	}
	buddy_set_tag(m->mem.buddy, to, tag, memory_movable_order(m, tag));
	buddy_free(m->mem.buddy, from, order);
	return true;
}

bool memory_track_heads(struct model *m, uint64_t pfn)
{
	uint64_t start = pfn & ~(uint64_t)(PAGEBLOCK_PAGES - 1), end = start + PAGEBLOCK_PAGES;

	if (!buddy_track_heads(m->mem.buddy, start))
		return buddy_heads_kept(m->mem.buddy, start);
	/* every page tagged heads a block in use: a freed block's tag goes with it */
	if (end > m->mem.nr_pages)
		end = m->mem.nr_pages;
	for (uint64_t p = start; p < end; p++) {
		uint32_t tag = buddy_tag(m->mem.buddy, p);

		if (tag != BUDDY_TAG_NONE)
			buddy_mark_head(m->mem.buddy, p, memory_movable_order(m, tag));
	}
	return true;
}

void memory_sample_fragmentation(struct model *m)
{
	uint64_t nr_free[BUDDY_MAX_ORDER + 1];
	int idx;

	if (!(m->keep & MODEL_KEEP_ADDRESSES))
		return;
	buddy_free_counts(m->mem.buddy, nr_free);
	idx = buddy_unusable_free_index(nr_free, m->cfg.order);
	dist_add(&m->d_unusable, idx < 0 ? 0 : (uint64_t)idx);
}

/*
 * Placement decides nothing when every allocation is a MOVABLE page of order 0 (the largest
 * folio order 0; others' pages are order 0 too) in a zone that starts with every page free and
 * every pageblock MOVABLE, without watermarks (not a recorded zone): then an allocation fails
 * exactly when no page is free, as __rmqueue_smallest() at order 0 does (mm/page_alloc.c),
 * and compaction, for higher orders and proactive only in a zone with watermarks
 * (compaction.c), never runs. What is kept by pfn needs a pfn per page in use, any one.
 */
bool memory_count_pages(struct model *m, bool count)
{
	if (count && (m->cfg.order || m->mem.zone.watermarks))	/* a recorded zone has them */
		return false;
	return buddy_count_only(m->mem.buddy, count);
}
