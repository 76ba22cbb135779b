// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filling the cache for a missing page (mm/filemap.c): the folio for it at the wanted order,
 * stepped down on collisions and allocation fallbacks, its refault check, and what reading it
 * from the device costs.
 */
#include <stdlib.h>

#include "model/filemap/cache.h"
#include "util/checks.h"

/* Bytes the device reads to fill a folio: blocks below EOF (the rest is zeroed; all on tmpfs). */
uint64_t filemap_read_bytes(const struct model *m, const struct folio *f, uint64_t isize)
{
	if (m->files[f->file].shmem)
		return 0;
	return place_read_bytes(f->index << m->page_shift, folio_nr_pages(f) << m->page_shift,
				isize, m->cfg.block_size);
}

/*
 * Readahead and long reads fill consecutive folios: hint the lines the next one will need
 * (its page cache slot, and its shadow set when the file has shadows of the order) while
 * reclaim makes room for this one. Changes no state.
 */
static inline __attribute__((always_inline)) void
filemap_prefetch_next(struct model *m, uint32_t file, uint64_t idx, unsigned order, bool read)
{
	const struct mfile *mf = model_file(m, file);
	uint64_t next = (idx | ((1ull << order) - 1)) + 1;

	pagecache_prefetch(&m->pc, file, next);
	if (read && (mf->shadow_mask & (1u << order)))
		shadow_prefetch(&m->workingset.shadow, file, mf->gen, next, order);
}

/*
 * Adds the folio of the wanted order at start (aligned), stepping down while the range
 * collides with cached folios (-EEXIST) and when the buddy allocator falls back. idx is the
 * page that must end up covered, and no folio covers it yet (every caller looked it up).
 * FOLIO_NIL when nothing could be cached.
 */
uint32_t filemap_create(struct model *m, uint32_t file, uint64_t idx, unsigned order,
			     bool at_idx, bool read)
{
	unsigned min = m->cfg.min_order;
	uint64_t start, pfn;
	bool active = false;
	uint32_t id;

#ifdef FT_EXPENSIVE_CHECKS	/* the sanitizer builds hold every caller to it */
	if (cache_lookup(m, file, idx) != FOLIO_NIL)
		abort();
#endif
	if (order < min)
		order = min;
	for (;;) {
		start = idx & ~((1ull << order) - 1);
		if (at_idx && start != idx && order > min)
			order = place_ffs(idx) > min ? place_ffs(idx) : min;
		start = idx & ~((1ull << order) - 1);
		if (order <= min || cache_range_empty_around(m, file, start, order))
			break;
		order--;
	}
	filemap_prefetch_next(m, file, idx, order, read);
	pfn = memory_alloc_folio(m, &order);
	if (pfn == BUDDY_NO_PFN)
		return FOLIO_NIL;
	start = idx & ~((1ull << order) - 1);
	/* buffered writes skip refault detection (__GFP_WRITE) */
	if (read)
		active = workingset_refault(m, file, start, order);
	id = cache_add(m, file, start, order, pfn, active);
	if (id == FOLIO_NIL)
		memory_free_pages(m, pfn, order);
	return id;
}

/* shmem_alloc_and_add_folio(): the largest order where its aligned range is free, else base. */
static unsigned shmem_order(struct model *m, const struct mfile *mf, uint64_t idx)
{
	uint64_t n = 1ull << mf->max_order;

	return cache_range_empty(m, (uint32_t)(mf - m->files), idx & ~(n - 1), n) ?
	       mf->max_order : m->cfg.min_order;
}

/* The order a read miss asks for outside readahead: fixed order, else the minimum. */
unsigned filemap_read_order(struct model *m, struct mfile *mf, uint64_t idx)
{
	if (mf->shmem)
		return shmem_order(m, mf, idx);
	if (m->cfg.policy == FOLIO_POLICY_FIXED)
		return place_fixed_order(idx, mf->max_order, m->cfg.min_order, eof_pages(m, mf));
	return m->cfg.min_order;
}

/*
 * shmem_allowable_huge_orders(): a fault on a VM_HUGEPAGE mapping of a huge=advise tmpfs may
 * take a PMD folio; anything else is the read order.
 */
unsigned filemap_fault_order(struct model *m, struct mfile *mf, uint64_t idx)
{
	unsigned pmd = model_pmd_order(m), order;
	uint64_t n;

	if (!mf->shmem || !mf->vm_hugepage || !mf->shmem_huge_advise ||
	    pmd > m->cfg.max_pagecache_order || pmd > m->cfg.order || pmd <= mf->max_order)
		return filemap_read_order(m, mf, idx);
	order = pmd;
	n = 1ull << order;
	return cache_range_empty(m, (uint32_t)(mf - m->files), idx & ~(n - 1), n) ?
	       order : m->cfg.min_order;
}

uint32_t filemap_read_in(struct model *m, uint32_t file, uint64_t idx, unsigned order,
			      bool at_idx)
{
	struct mfile *mf = model_file(m, file);
	uint32_t id = filemap_create(m, file, idx, order, at_idx, true);
	struct folio *f;

	if (id == FOLIO_NIL)
		return FOLIO_NIL;
	f = folio_at(&m->pool, id);
	folio_set(f, FOLIO_UPTODATE);
	m->mx.read_io_bytes += filemap_read_bytes(m, f, mf->isize);
	return id;
}
