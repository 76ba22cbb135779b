// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Physical memory for folios: every folio is a buddy block of its order. When no block of the
 * order is free although enough pages are (fragmentation), the kernel's __GFP_NORETRY
 * large-folio allocation gives up after one compaction attempt and the page cache takes a
 * smaller order: that is counted as compaction demand and a fallback. With
 * ALLOC_FALLBACK_COMPACT the model instead reclaims until a block of the order is free.
 */
#include <stdlib.h>

#include "model/instance.h"

void memory_sample_fragmentation(struct model *m)
{
	uint64_t nr_free[BUDDY_MAX_ORDER + 1];
	int idx;

	buddy_free_counts(m->buddy, nr_free);
	idx = buddy_unusable_free_index(nr_free, m->cfg.order);
	dist_add(&m->d_unusable, idx < 0 ? 0 : (uint64_t)idx);
}

static uint64_t memory_got(struct model *m, uint64_t pfn, unsigned order, bool fell_back)
{
	m->mx.alloc_by_order[order]++;
	if (fell_back)
		m->mx.alloc_fallbacks++;
	if ((++m->allocs & 255) == 0)
		memory_sample_fragmentation(m);
	return pfn;
}

/*
 * The memory the cache shares with others (in a cgroup: its anonymous memory, the files the
 * model leaves out), as the trace's samples say: their pages are taken from the buddy
 * allocator, reclaiming the cache for them as the kernel's charge would, and given back as
 * they go. A page that cannot be had stays out of the count.
 */
void memory_set_others(struct model *m, uint64_t pages)
{
	if (pages > m->nr_pages)
		pages = m->nr_pages;
	if (pages > m->cap_others) {
		uint32_t *p = realloc(m->others, pages * sizeof(*p));

		if (!p)
			return;
		m->others = p;
		m->cap_others = pages;
	}
	while (m->nr_others > pages)
		buddy_free(m->buddy, m->others[--m->nr_others], 0);
	while (m->nr_others < pages) {
		uint64_t pfn;

		if (!buddy_free_pages(m->buddy) && !reclaim_one(m))
			break;
		pfn = buddy_alloc(m->buddy, 0);
		if (pfn == BUDDY_NO_PFN)
			break;
		m->others[m->nr_others++] = (uint32_t)pfn;
	}
}

uint64_t memory_alloc_folio(struct model *m, unsigned *orderp)
{
	unsigned order = *orderp, min = m->cfg.min_order;
	bool fell_back = false, counted = false;

	for (;;) {
		uint64_t need = 1ull << order, pfn;

		if (buddy_free_pages(m->buddy) < need && !reclaim_until_free(m, need)) {
			/* nothing left to reclaim: only a smaller folio can fit */
			if (order <= min)
				break;
			order--;
			fell_back = true;
			continue;
		}
		pfn = buddy_alloc(m->buddy, order);
		if (pfn != BUDDY_NO_PFN) {
			*orderp = order;
			return memory_got(m, pfn, order, fell_back);
		}
		/* enough free pages, no free block of the order: once per allocation */
		if (!counted)
			m->mx.compaction_demand++;
		counted = true;
		if ((m->cfg.fallback == ALLOC_FALLBACK_COMPACT || order <= min) && reclaim_one(m))
			continue;
		if (order <= min)
			break;
		order--;
		fell_back = true;
	}
	m->mx.alloc_failures++;
	return BUDDY_NO_PFN;
}
