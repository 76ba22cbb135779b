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
 * (its page cache slot, its shadow set when the file has shadows of the order, and the shadow
 * hint of a new region) while reclaim makes room for this one. Changes no state.
 */
static inline __attribute__((always_inline)) void
filemap_prefetch_next(struct model *m, uint32_t file, uint64_t idx, unsigned order, bool read)
{
	const struct mfile *mf = model_file(m, file);
	uint64_t next = (idx | ((1ull << order) - 1)) + 1;

	pagecache_prefetch(&m->pc, file, next);
	if (read && (mf->shadow_mask & (1u << order)))
		shadow_prefetch(&m->workingset.shadow, file, mf->gen, next, order);
	/* its refault check reads the shadow hint of its region, when that is a new one */
	if (read && (mf->shadow_mask & SHADOW_HINT_ORDERS) && (next ^ idx) >> SHADOW_HINT_SHIFT)
		shadow_hint_prefetch(&m->workingset.shadow, file, mf->gen, next);
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

/*
 * shmem_get_orders_within_size(): of the orders in mask, those at or below the largest whose
 * aligned folio around idx ends within the file, as far as the write reaches (end, pages) or
 * i_size does (size, pages).
 */
static unsigned shmem_orders_within_size(const struct mfile *mf, unsigned mask, uint64_t idx,
					 uint64_t end, uint64_t size)
{
	if (mf->shmem_write_end && end > size)
		size = end;
	while (mask) {
		unsigned order = 31u - (unsigned)__builtin_clz(mask);

		if (round_up(idx + 1, 1ull << order) <= size)
			return mask;
		mask &= ~(1u << order);
	}
	return 0;
}

/*
 * shmem_huge_global_enabled() (mm/shmem.c): the orders a new tmpfs folio at idx may take.
 * end: the pages the write reaches (generic_perform_write()'s chunk), 0 for a fault; 6.1
 * looked at i_size alone, and i_size grows after the write (the model's before). A
 * fault, or a release before 6.14, asks for the PMD order only; since 6.14 a write may take
 * any order (6.18: PMD first, then smaller, as the "huge=" strategy fix has it; 6.14 to 6.17
 * took the write's size as the hint, which the model leaves out); within_size keeps those
 * that end within the file; advise gives PMD folios to the faults of VM_HUGEPAGE mappings.
 */
static unsigned shmem_allowed_orders(struct model *m, const struct mfile *mf, uint64_t idx,
				     uint64_t end, uint64_t size, bool fault)
{
	unsigned pmd = model_pmd_order(m), top = mf->max_order, any, mask, pmd_bit = 0;

	/* the largest order the configuration lets any folio take (--folio-order) */
	if (pmd <= m->cfg.max_pagecache_order && pmd <= m->cfg.order)
		pmd_bit = 1u << pmd;
	if (top > pmd)
		top = pmd;
	any = top > 0 ? ((2u << top) - 1) & ~1u : 0;	/* THP_ORDERS_ALL_FILE_DEFAULT */
	mask = fault || !mf->shmem_any_order ? pmd_bit : any;
	switch (mf->shmem_huge) {
	case TMPFS_HUGE_ALWAYS:
		return mask;
	case TMPFS_HUGE_WITHIN_SIZE:
		mask = shmem_orders_within_size(mf, mask, idx, end, size);
		if (mask)
			return mask;
		/* fall through */
	case TMPFS_HUGE_ADVISE:
		/* the VMA's VM_HUGEPAGE: a write(2) has no VMA (vm_flags 0) */
		return fault && mf->vm_hugepage ? pmd_bit : 0;
	default:
		return 0;
	}
}

/*
 * shmem_suitable_orders(): the largest allowed order whose aligned range is free, else a
 * base page (the kernel falls back to order 0 when none is).
 */
static unsigned shmem_order(struct model *m, const struct mfile *mf, uint64_t idx,
			    uint64_t end, uint64_t size, bool fault)
{
	unsigned mask = shmem_allowed_orders(m, mf, idx, end, size, fault);

	while (mask) {
		unsigned order = 31u - (unsigned)__builtin_clz(mask);
		uint64_t n = 1ull << order;

		if (cache_range_empty(m, (uint32_t)(mf - m->files), idx & ~(n - 1), n))
			return order;
		mask &= ~(1u << order);
	}
	return m->cfg.min_order;
}

/*
 * A buffered write's new folio on tmpfs; end: the page after the write's chunk; size: the
 * file's pages before it (i_size grows at each chunk's write_end).
 */
unsigned filemap_shmem_write_order(struct model *m, struct mfile *mf, uint64_t idx,
				   uint64_t end, uint64_t size)
{
	return shmem_order(m, mf, idx, end, size, false);
}

/* The order a read miss asks for outside readahead: fixed order, else the minimum. */
unsigned filemap_read_order(struct model *m, struct mfile *mf, uint64_t idx)
{
	if (mf->shmem)
		return shmem_order(m, mf, idx, 0, eof_pages(m, mf), true);
	if (m->cfg.policy == FOLIO_POLICY_FIXED)
		return place_fixed_order(idx, mf->max_order, m->cfg.min_order, eof_pages(m, mf));
	return m->cfg.min_order;
}

/* A fault on a missing page: tmpfs's PMD rules, else the read order. */
unsigned filemap_fault_order(struct model *m, struct mfile *mf, uint64_t idx)
{
	if (mf->shmem)
		return shmem_order(m, mf, idx, 0, eof_pages(m, mf), true);
	return filemap_read_order(m, mf, idx);
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
