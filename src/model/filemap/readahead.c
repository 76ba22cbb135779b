// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Readahead (mm/readahead.c, mm/filemap.c): the mechanics every release shares - window sizes,
 * reading a window in folios of an order, reading pages one by one, the history lookups -
 * and the entry points of the read and fault paths, which hand the decisions to the
 * release's rule (ra_rule_*.c, variants.h).
 */
#include "model/filemap/cache.h"

/* mm/filemap.c: after this many fault misses more than hits, faults stop reading around */
#define MMAP_LOTSAMISS	100

/* ractl_max_pages(): a request above the window may read up to the device's optimal I/O. */
uint64_t ra_max_pages(const struct model *m, const struct mfile *mf, uint64_t req)
{
	uint64_t max = mf->ra_pages, io = mf->io_pages;

	if (req > max && io > max)
		max = req < io ? req : io;
	return max;
}

/* The last page index below EOF. */
static uint64_t ra_last_page(const struct model *m, const struct mfile *mf)
{
	return eof_pages(m, mf) - 1;
}

/*
 * A folio a readahead call adds: counted as one read I/O with the folios next to it.
 * ra_alloc_folio() (mm/readahead.c, 6.18) allocates with readahead_gfp_mask(), and a folio of
 * the order that cannot be had is -ENOMEM, never a smaller folio: FOLIO_NIL, and the caller
 * stops.
 */
static uint32_t ra_add_folio(struct model *m, uint32_t file, uint64_t idx, unsigned order,
			     uint64_t mark, bool *in_run)
{
	uint32_t id;

	if (m->start_read.reading) {	/* the start state's reader: no I/O, no insertion */
		id = filemap_start_folio(m, file, idx, order);
		if (id != FOLIO_NIL && folio_covers(folio_at(&m->pool, id), mark))
			folio_set(folio_at(&m->pool, id), FOLIO_READAHEAD);
		return id;
	}
	if (m->cfg.policy == FOLIO_POLICY_FIXED) {
		id = filemap_read_in(m, file, idx, filemap_read_order(m, model_file(m, file), idx),
				     false);
	} else {
		m->mem.no_smaller = true;
		id = filemap_read_in(m, file, idx, order, true);
		m->mem.no_smaller = false;
	}
	if (id == FOLIO_NIL)
		return FOLIO_NIL;
	if (!*in_run)
		m->mx.read_ios++;
	*in_run = true;
	read_batch_add(m, folio_at(&m->pool, id));
	/* ra_alloc_folio(): the folio whose index is the mark rounded down to its order */
	if (folio_covers(folio_at(&m->pool, id), mark))
		folio_set(folio_at(&m->pool, id), FOLIO_READAHEAD);
	return id;
}

/*
 * do_page_cache_ra() and page_cache_ra_unbounded(): nr pages from idx (not past EOF) in
 * folios of the minimum order, skipping pages already cached; the folio at
 * idx + nr - lookahead gets PG_readahead.
 */
void ra_read_unbounded(struct model *m, uint32_t file, uint64_t idx, uint64_t nr,
		       uint64_t lookahead)
{
	struct mfile *mf = model_file(m, file);
	uint64_t last = ra_last_page(m, mf), step = 1ull << m->cfg.min_order, end, mark;
	bool in_run = false;

	if (idx > last)
		return;
	if (nr > last - idx)
		nr = last - idx + 1;
	mark = lookahead <= nr ? round_up(idx + nr - lookahead, step) : UINT64_MAX;
	end = idx + nr;
	idx &= ~(step - 1);
	for (uint64_t i = idx; i < end;) {
		uint32_t id = cache_lookup(m, file, i);

		if (id != FOLIO_NIL) {
			i = folio_end(folio_at(&m->pool, id));
			in_run = false;
			continue;
		}
		id = ra_add_folio(m, file, i, m->cfg.min_order, mark == i ? i : UINT64_MAX,
				  &in_run);
		if (id == FOLIO_NIL)
			return;	/* no memory: the rest is read on demand */
		i = folio_end(folio_at(&m->pool, id));
	}
}

/*
 * The loop of page_cache_ra_order(): the window [ra->start, ra->start + ra->size), up to
 * EOF, in folios of new_order, each lowered to the alignment of its index (__ffs) and so it
 * does not cross the window's end; the folio holding start + size - async_size gets
 * PG_readahead. Returns the index where it stopped: past the window, or at a page already
 * cached (-EEXIST) or where a folio of the order could not be allocated (-ENOMEM: the kernel
 * breaks out and its caller reads the rest at the minimum order, do_page_cache_ra()).
 * no_order1: before 6.10 the page cache had no order-1 folios, order 0 was used instead.
 */
uint64_t ra_read_folios(struct model *m, uint32_t file, unsigned new_order, bool no_order1,
			bool *stopped)
{
	struct mfile *mf = model_file(m, file);
	struct ra_state *ra = &mf->ra;
	uint64_t limit = ra_last_page(m, mf), mark = ra->start + ra->size - ra->async_size;
	unsigned min = m->cfg.min_order;
	uint64_t idx = ra->start & ~((1ull << min) - 1);
	bool in_run = false;

	if (ra->start + ra->size - 1 < limit)
		limit = ra->start + ra->size - 1;
	*stopped = false;
	while (idx <= limit) {
		unsigned order = new_order;

		if (idx & ((1ull << order) - 1))
			order = place_ffs(idx);
		while (order > min && idx + (1ull << order) - 1 > limit)
			order--;
		if (no_order1 && order == 1)
			order = 0;
		if (!cache_range_empty(m, file, idx, 1ull << order) ||
		    ra_add_folio(m, file, idx, order, mark, &in_run) == FOLIO_NIL) {
			*stopped = true;
			break;
		}
		idx += 1ull << order;
	}
	return idx;
}

/*
 * The order of every cached folio of the file when they all have one, else -1. A folio found
 * starting at a page's aligned index is then the one covering the page: a walk over pages need
 * not read each folio's descriptor (a cache miss of its own) to learn where the folio ends.
 */
static int file_single_order(struct model *m, uint32_t file)
{
	unsigned mask = model_file(m, file)->order_mask;

	return mask && !(mask & (mask - 1)) ? __builtin_ctz(mask) : -1;
}

/* Is page idx cached? Then [*start, *end) is the folio covering it. order: file_single_order() */
static bool ra_cached_folio(struct model *m, uint32_t file, int order, uint64_t idx,
			    uint64_t *start, uint64_t *end)
{
	const struct folio *f;
	uint32_t id;

	if (order >= 0) {
		*start = idx & ~((1ull << order) - 1);
		*end = *start + (1ull << order);
		return pagecache_get(&m->pc, file, *start) != FOLIO_NIL;
	}
	id = cache_lookup(m, file, idx);
	if (id == FOLIO_NIL)
		return false;
	f = folio_at(&m->pool, id);
	*start = f->index;
	*end = folio_end(f);
	return true;
}

/* page_cache_prev_miss(): cached pages just before idx, at most max. */
uint64_t ra_cached_before(struct model *m, uint32_t file, uint64_t idx, uint64_t max)
{
	int order = file_single_order(m, file);
	uint64_t n = 0, start, end;

	while (n < max && idx > n) {
		if (!ra_cached_folio(m, file, order, idx - n - 1, &start, &end))
			break;
		n = idx - start;
	}
	return n < max ? n : max;
}

/* page_cache_next_miss(): the first page from idx that is not cached, looking max pages. */
uint64_t ra_next_miss(struct model *m, uint32_t file, uint64_t idx, uint64_t max)
{
	int order = file_single_order(m, file);
	uint64_t i = idx, start, end;

	while (i - idx < max) {
		if (!ra_cached_folio(m, file, order, i, &start, &end))
			return i;
		i = end;
	}
	return i;
}

/*
 * force_page_cache_ra(): FMODE_RANDOM (POSIX_FADV_RANDOM) or no readahead window: the
 * request alone, at most max(io_pages, ra_pages), in 2 MiB chunks of minimum-order folios.
 */
static void ra_force(struct model *m, uint32_t file, uint64_t idx, uint64_t req)
{
	struct mfile *mf = model_file(m, file);
	uint64_t max = mf->io_pages > mf->ra_pages ? mf->io_pages : mf->ra_pages;
	uint64_t chunk = (2ull << 20) >> m->page_shift;

	if (req > max)
		req = max;
	while (req) {
		uint64_t n = req < chunk ? req : chunk;

		ra_read_unbounded(m, file, idx, n, 0);
		idx += n;
		req -= n;
	}
}

/*
 * page_cache_sync_ra()'s window since 6.11: a miss at the start of the file, a request above
 * the window or a miss just after the previous read starts one of get_init_ra_size(); after
 * a run of cached pages longer than the request, one from that history (the run doubled when
 * it reaches back to the file's start). false when the miss is a lone random read, which this
 * reads as is without touching the readahead state.
 */
bool ra_sync_window(struct model *m, uint32_t file, uint64_t idx, uint64_t req)
{
	struct mfile *mf = model_file(m, file);
	struct ra_state *ra = &mf->ra;
	uint64_t max = ra_max_pages(m, mf, req), prev = mf->prev_read_end >> m->page_shift;
	uint64_t contig;

	if (!idx || req > max || (mf->prev_read_end && idx >= prev && idx - prev <= 1)) {
		ra->start = idx;
		ra->size = ra_init_size((uint32_t)(req < UINT32_MAX ? req : UINT32_MAX),
					(uint32_t)max);
		ra->async_size = ra->size > req ? (uint32_t)(ra->size - req) : ra->size >> 1;
		return true;
	}
	contig = ra_cached_before(m, file, idx, max);
	if (contig <= req) {
		ra_read_unbounded(m, file, idx, req, 0);
		return false;
	}
	if (contig == idx)
		contig *= 2;
	ra->start = idx;
	ra->size = (uint32_t)(contig + req < max ? contig + req : max);
	ra->async_size = 1;
	return true;
}

/*
 * page_cache_async_ra()'s window: a marker hit at the expected index (the mark rounded down
 * to the marked folio's nr pages) pushes the window forward and ramps it up; a marker with
 * no state to match (interleaved streams) starts one after the cached run it ends. false when
 * there is nothing to read.
 */
bool ra_async_window(struct model *m, uint32_t file, uint64_t idx, uint64_t folio_pages,
		     uint64_t req)
{
	struct mfile *mf = model_file(m, file);
	struct ra_state *ra = &mf->ra;
	uint64_t max = ra_max_pages(m, mf, req), start;
	uint32_t next = ra_next_size(ra->size, (uint32_t)max);

	if (idx == round_down(ra->start + ra->size - ra->async_size, folio_pages)) {
		ra->start += ra->size;
		/* with MADV_HUGEPAGE the window may exceed the next size */
		ra->size = next > ra->size ? next : ra->size;
	} else {
		start = ra_next_miss(m, file, idx + 1, max);
		if (!start || start - idx > max)
			return false;
		ra->start = start;
		ra->size = ra_next_size((uint32_t)(start - idx + req), (uint32_t)max);
	}
	ra->async_size = ra->size;
	return true;
}

static bool file_ra_off(const struct model *m, uint32_t file)
{
	return m->cfg.file_ra_off && file < m->cfg.nfile_orders && m->cfg.file_ra_off[file];
}

/* page_cache_sync_readahead(): read() found page idx missing, wanting req pages from it. */
void readahead_sync(struct model *m, uint32_t file, uint64_t idx, uint64_t req)
{
	struct mfile *mf = model_file(m, file);

	read_batch_begin(m, file);
	if (file_ra_off(m, file) || mf->ra_random || !mf->ra_pages)
		ra_force(m, file, idx, mf->ra_pages ? req : 1);
	else
		m->ra_rule->sync(m, file, idx, req);
	read_batch_end(m);
}

/* filemap_readahead(): a read of pages up to last (exclusive) reached the marked folio id. */
void readahead_async(struct model *m, uint32_t file, uint32_t id, uint64_t last)
{
	struct mfile *mf = model_file(m, file);
	struct folio *f = folio_at(&m->pool, id);

	folio_clear(f, FOLIO_READAHEAD);
	if (!mf->ra_pages)
		return;
	read_batch_begin(m, file);
	m->ra_rule->async(m, file, id, f->index, last - f->index);
	read_batch_end(m);
}

/*
 * do_sync_mmap_readahead() for a VM_HUGEPAGE mapping, readahead window or not: the PMD-aligned
 * range around the fault in PMD folios, two of them (the second marked) unless the mapping is
 * also VM_RAND_READ. Without large folios the same pages are read in base pages. The kernel
 * reads from ractl's index and leaves ra->start as it was, so a fault on the marked folio
 * rarely matches the window and reads nothing more (seen on 6.18: faults at 5, 6 and 8 MiB
 * of a fresh file read PMD folios at 4, 6, 8 and 10 MiB, none at the second).
 */
static bool mmap_read_hugepage(struct model *m, uint32_t file, uint64_t idx)
{
	struct mfile *mf = model_file(m, file);
	struct ra_state *ra = &mf->ra;
	unsigned pmd = model_pmd_order(m);
	uint64_t start = ra->start;

	if (!mf->vm_hugepage || pmd > m->cfg.max_pagecache_order)
		return false;
	ra->start = idx & ~((1ull << pmd) - 1);
	ra->size = (uint32_t)1 << pmd;
	if (!mf->vm_rand_read)
		ra->size *= 2;
	ra->async_size = (uint32_t)1 << pmd;
	read_batch_begin(m, file);
	m->ra_rule->read_at_order(m, file, pmd);
	read_batch_end(m);
	ra->start = start;
	return true;
}

/*
 * do_sync_mmap_readahead() on a fault miss at idx: VM_HUGEPAGE reads PMD folios; VM_RAND_READ
 * reads nothing ahead; VM_SEQ_READ reads as read() would, ra_pages wanted; else mmap_miss
 * counts the miss and, below MMAP_LOTSAMISS, ra_pages are read around the fault, the last
 * quarter marked (async_size = ra_pages / 4) so a fault on it reads ahead. The window is the
 * file's readahead state, as the kernel's file_ra_state is shared with read().
 */
void readahead_mmap_around(struct model *m, uint32_t file, uint64_t idx)
{
	struct mfile *mf = model_file(m, file);
	struct ra_state *ra = &mf->ra;
	uint32_t max = mf->ra_pages;

	if (mmap_read_hugepage(m, file, idx))
		return;
	if (mf->vm_rand_read || !max)
		return;
	if (mf->vm_seq_read) {
		readahead_sync(m, file, idx, max);
		return;
	}
	if (mf->mmap_miss < MMAP_LOTSAMISS * 10)
		mf->mmap_miss++;
	if (mf->mmap_miss > MMAP_LOTSAMISS)
		return;
	ra->start = idx > max / 2 ? idx - max / 2 : 0;
	ra->size = max;
	ra->async_size = max / 4;
	read_batch_begin(m, file);
	m->ra_rule->read_around(m, file);
	read_batch_end(m);
}

/*
 * do_async_mmap_readahead(): a fault at page idx found folio id cached. The hit pays back one
 * miss; a PG_readahead folio starts the next window with the fault's index and ra_pages as
 * the request (page_cache_async_ra).
 */
void readahead_mmap_hit(struct model *m, uint32_t file, uint32_t id, uint64_t idx)
{
	struct mfile *mf = model_file(m, file);
	struct folio *f = folio_at(&m->pool, id);

	if (mf->vm_rand_read || !mf->ra_pages)
		return;
	if (mf->mmap_miss)
		mf->mmap_miss--;
	if (!folio_test(f, FOLIO_READAHEAD))
		return;
	folio_clear(f, FOLIO_READAHEAD);
	read_batch_begin(m, file);
	m->ra_rule->async(m, file, id, idx, mf->ra_pages);
	read_batch_end(m);
}
