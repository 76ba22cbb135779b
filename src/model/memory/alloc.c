// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Allocation of a folio's pages (mm/page_alloc.c, the slow path): room made by reclaim and
 * compaction. Every folio is a MOVABLE buddy block of its order (buddy.c) in the model's one
 * zone.
 *
 * The zone starts empty (every page free, every pageblock MOVABLE: the memory is a budget,
 * as before the model had pageblocks) or as the recorded kernel had it (START_RECORDED: the
 * trace's first /proc/pagetypeinfo sample, its zones together): pageblocks of each type,
 * their free blocks per order, the rest used by others - movable pages in MOVABLE pageblocks
 * (compaction can move them), unmovable ones elsewhere. A recorded zone has the kernel's
 * watermarks (mm/page_alloc.c __setup_per_zone_wmarks(), min_free_kbytes as
 * calculate_min_free_kbytes() and, with THP, mm/khugepaged.c set_recommended_min_free_kbytes()
 * make it): the cache gets free pages down to the min watermark, and below the low one kswapd
 * reclaims up to the high one. Under a memory cgroup the zone is the host's and the limit
 * is a budget of its own (the cache and the others of the cgroup are charged to it).
 *
 * When no block of a folio's order is free although enough pages are (fragmentation), the
 * allocation takes the slow path of a __GFP_NORETRY allocation once (alloc_slowpath():
 * compaction first only above PAGE_ALLOC_COSTLY_ORDER, reclaim first below); failing that
 * the page cache takes a smaller order: counted as compaction demand and a fallback. With
 * ALLOC_FALLBACK_COMPACT the model instead reclaims until a block of the order is free.
 * Readahead's allocations (mem.no_smaller) take no smaller order: they fail, and readahead
 * reads on in base pages.
 */
#include <stdlib.h>

#include "model/instance.h"

/* ---- room for an allocation --------------------------------------------------------------- */

static bool zone_room(struct model *m, uint64_t need)
{
	const struct zone *z = &m->mem.zone;
	uint64_t free = buddy_free_pages(m->mem.buddy);

	if (!z->watermarks)
		return free >= need || reclaim_until_free(m, need);
	/*
	 * kswapd: woken below the low watermark, it reclaims up to the high one; the node
	 * balanced, prepare_kswapd_sleep() clears PGDAT_DIRTY
	 */
	if (free < need + z->wmark_low) {
		m->node.kswapd = true;
		while (buddy_free_pages(m->mem.buddy) < need + z->wmark_high && reclaim_one(m))
			;
		m->node.kswapd = false;
		reclaim_snapshot_refaults(m, NULL);	/* balance_pgdat() ends */
		if (buddy_free_pages(m->mem.buddy) >= need + z->wmark_high)
			m->node.dirty = false;
	}
	/* the slow path's ALLOC_WMARK_MIN */
	return buddy_free_pages(m->mem.buddy) >= need + z->wmark_min;
}

static bool memory_room(struct model *m, uint64_t need)
{
	return memcg_try_charge(m, memcg_of(m, m->charging), need) && zone_room(m, need);
}

static uint64_t memory_got(struct model *m, uint64_t pfn, unsigned order, bool fell_back)
{
	m->mx.alloc_by_order[order]++;
	if (fell_back)
		m->mx.alloc_fallbacks++;
	if ((++m->mem.allocs & 255) == 0)
		memory_sample_fragmentation(m);
	return pfn;
}

/*
 * The memory the cache shares with others (in a cgroup: its anonymous memory, the files the
 * model leaves out), as the trace's samples say: their pages are taken from the buddy
 * allocator, reclaiming the cache for them as the kernel's charge would, and given back as
 * they go. A page that cannot be had stays out of the count. They are movable (anonymous).
 */
void memory_set_others(struct model *m, uint64_t pages)
{
	const struct mem_cgroup *memcg = memcg_of(m, 0);	/* the recorded command's */
	uint64_t most = memcg->max_pages ? memcg->max_pages : m->mem.nr_pages;

	if (pages > most)
		pages = most;
	if (pages > m->mem.cap_others) {
		uint32_t *p = realloc(m->mem.others, pages * sizeof(*p));

		if (!p)
			return;
		m->mem.others = p;
		m->mem.cap_others = pages;
	}
	while (m->mem.nr_others > pages)
		buddy_free(m->mem.buddy, m->mem.others[--m->mem.nr_others], 0);
	while (m->mem.nr_others < pages) {
		uint32_t tag;
		uint64_t pfn;

		if (!memcg_try_charge(m, memcg_of(m, 0), 1))
			break;
		if (!buddy_free_pages(m->mem.buddy) && !reclaim_one(m))
			break;
		pfn = buddy_alloc(m->mem.buddy, 0);
		if (pfn == BUDDY_NO_PFN)
			break;
		tag = memory_others_tag(m->mem.nr_others);
		buddy_set_tag(m->mem.buddy, pfn, tag, memory_movable_order(m, tag));
		m->mem.others[m->mem.nr_others++] = (uint32_t)pfn;
	}
}

/* try_to_free_pages(): direct reclaim aims at SWAP_CLUSTER_MAX pages */
#define DIRECT_RECLAIM_PAGES	32

/*
 * __alloc_pages_direct_reclaim(): reclaim SWAP_CLUSTER_MAX pages, then the free lists. For a
 * costly order shrink_zones() leaves the zone alone when compaction_ready() (mm/vmscan.c).
 */
static uint64_t alloc_direct_reclaim(struct model *m, unsigned order)
{
	if (order > PAGE_ALLOC_COSTLY_ORDER && compaction_ready(m, order))
		return BUDDY_NO_PFN;
	reclaim_until_free(m, buddy_free_pages(m->mem.buddy) + DIRECT_RECLAIM_PAGES);
	return buddy_alloc(m->mem.buddy, order);
}

/*
 * __alloc_pages_slowpath() (mm/page_alloc.c, 6.18) for a page-cache folio of an order above 0
 * that no free block holds, although the watermark does: a movable __GFP_NORETRY allocation
 * (filemap_alloc_folio() as __filemap_get_folio() and readahead call it for large folios).
 * kcompactd is woken; an order above PAGE_ALLOC_COSTLY_ORDER tries async direct compaction
 * first and gives up when compaction was skipped or deferred (the __GFP_NORETRY check); then
 * direct reclaim, and direct compaction once more, async for a costly order, sync-light
 * (DEF_COMPACT_PRIORITY) for orders 1 to 3, which so reclaim before they compact.
 * __GFP_NORETRY: no second round.
 */
static uint64_t alloc_slowpath(struct model *m, unsigned order)
{
	bool costly = order > PAGE_ALLOC_COSTLY_ORDER;
	enum compact_result rc;
	uint64_t pfn;

	wakeup_kcompactd(m, order);
	if (costly) {
		pfn = compact_direct(m, order, true, &rc);
		if (pfn != BUDDY_NO_PFN || rc == COMPACT_SKIPPED || rc == COMPACT_DEFERRED)
			return pfn;
	}
	pfn = alloc_direct_reclaim(m, order);
	if (pfn != BUDDY_NO_PFN)
		return pfn;
	return compact_direct(m, order, costly, &rc);
}

/*
 * Readahead's folio of an order above the minimum failed: the kernel does not retry smaller
 * (mm/readahead.c page_cache_ra_order(), 6.18: the loop breaks on -ENOMEM and
 * do_page_cache_ra() reads the rest of the window at the minimum order). Counted as a fallback,
 * which it is for the window.
 */
static uint64_t alloc_no_smaller(struct model *m)
{
	m->mx.alloc_fallbacks++;
	return BUDDY_NO_PFN;
}

static uint64_t alloc_folio(struct model *m, unsigned *orderp)
{
	unsigned order = *orderp, min = m->cfg.min_order;
	bool fell_back = false, counted = false, compacted = false;

	for (;;) {
		uint64_t need = 1ull << order, pfn;

		if (!memory_room(m, need)) {
			/* nothing left to reclaim: only a smaller folio can fit */
			if (order <= min)
				break;
			if (m->mem.no_smaller)
				return alloc_no_smaller(m);
			order--;
			fell_back = true;
			compacted = false;
			continue;
		}
		pfn = buddy_alloc(m->mem.buddy, order);
		if (pfn != BUDDY_NO_PFN) {
			*orderp = order;
			return memory_got(m, pfn, order, fell_back);
		}
		/* enough free pages, no free block of the order: once per allocation */
		if (!counted)
			m->mx.compaction_demand++;
		counted = true;
		/* the slow path, once per order */
		if (!compacted && order) {
			compacted = true;
			pfn = alloc_slowpath(m, order);
			if (pfn != BUDDY_NO_PFN) {
				*orderp = order;
				return memory_got(m, pfn, order, fell_back);
			}
		}
		if ((m->cfg.fallback == ALLOC_FALLBACK_COMPACT || order <= min) && reclaim_one(m))
			continue;
		if (order <= min)
			break;
		if (m->mem.no_smaller)
			return alloc_no_smaller(m);
		order--;
		fell_back = true;
		compacted = false;
	}
	m->mx.alloc_failures++;
	return BUDDY_NO_PFN;
}

uint64_t memory_alloc_folio(struct model *m, unsigned *orderp)
{
	uint64_t pfn = alloc_folio(m, orderp);

	kcompactd_run(m);
	return pfn;
}
