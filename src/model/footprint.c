// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What one model instance costs in memory, estimated before it is made: a sweep of a thousand
 * sizes is a thousand instances, and a run that cannot fit should be refused with the figure,
 * not end in the OOM killer. The terms follow what model_new() allocates (model.c) and what
 * grows with the folios the instance caches.
 */
#include "model/folio.h"
#include "model/instance.h"
#include "model/filemap/cache.h"
#include "model/filemap/pagecache.h"
#include "model/workingset/shadow.h"
#include "model/workingset/workingset.h"

/* The small tables every instance starts with (touched regions, occupancy, shadows, queues). */
#define FOOTPRINT_FIXED		(256u << 10)
/* ft_table_alloc() maps a table of 2 MiB or more on its own, rounded up to 2 MiB. */
#define FOOTPRINT_TABLE_HUGE	(2ull << 20)

static uint64_t pow2_at_least(uint64_t n)
{
	uint64_t p = 1024;

	while (p < n && p < (1ull << 40))
		p <<= 1;
	return p;
}

static uint64_t table_bytes(uint64_t bytes)
{
	if (bytes < FOOTPRINT_TABLE_HUGE)
		return bytes;
	return (bytes + FOOTPRINT_TABLE_HUGE - 1) & ~(FOOTPRINT_TABLE_HUGE - 1);
}

/*
 * The page-cache index for entries folios: pagecache_init() sizes it for twice the entries
 * it expects (cache_index_expected()), and pc_insert() doubles it once half full, the old
 * table alive while the new one fills.
 */
static uint64_t index_bytes(const struct model_config *c, uint64_t nr_pages, uint64_t entries)
{
	uint64_t first = pow2_at_least(2 * cache_index_expected(c, nr_pages));
	uint64_t grown = pow2_at_least(2 * entries + 2);

	if (grown <= first)
		return table_bytes(first * sizeof(struct pc_slot));
	return table_bytes(grown * sizeof(struct pc_slot)) +
	       table_bytes(grown / 2 * sizeof(struct pc_slot));
}

/*
 * Bitmaps over every page frame: touched_pfn and reclaim_pfn (model.c, writeback.c), the
 * block tracker's dirty and uptodate units (track_block.c), and the allocator's free areas,
 * whose bits over all orders come to about two per page (buddy.c).
 */
static uint64_t frame_bitmap_bytes(uint64_t nr_pages, uint64_t units_per_page)
{
	return (2 * nr_pages + 2 * nr_pages * units_per_page + 2 * nr_pages) / 8;
}

uint64_t model_footprint(const struct model_config *c, uint64_t working_set_pages,
			 uint64_t nfiles)
{
	uint64_t page = c->page_size ? c->page_size : 4096;
	uint64_t nr = c->memory_bytes / page, bs = model_min_block_size(c);
	uint64_t upp = bs && bs < page ? page / bs : 1, ws = working_set_pages;
	/* the working set and an eighth more read ahead of it; all memory when unknown */
	uint64_t cached = ws && ws + ws / 8 <= nr ? ws + ws / 8 : nr;
	/* a shadow entry for each page of the working set evicted, in a table half full */
	uint64_t shadows = ws > nr ? ws - nr : (ws ? 0 : nr * SHADOWS_PER_PAGE);
	/* per cached page at order 0: its folio, its tag in its pageblock */
	uint64_t per_page = sizeof(struct folio) + sizeof(uint32_t);

	/* the files' array, doubled as it grows (access_new_file()) */
	uint64_t files = 2 * nfiles * sizeof(struct mfile);

	return FOOTPRINT_FIXED + sizeof(struct model) + files + index_bytes(c, nr, cached) +
	       frame_bitmap_bytes(nr, upp) + cached * per_page +
	       shadows * 2 * sizeof(struct shadow_entry);
}
