// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The buffered write path (iomap/generic_perform_write): the folio each chunk of a write
 * lands in, the reads a partial write needs (the dirty tracking's fill_new and fill_cached),
 * and the dirtying.
 */
#include "model/filemap/cache.h"
#include "model/lru/kind.h"

static unsigned write_order(struct model *m, uint32_t file, struct mfile *mf, uint64_t p,
			    uint64_t end, uint64_t old_isize, bool *at_idx)
{
	unsigned order = mf->max_order;

	if (mf->shmem) {
		/* generic_perform_write(): chunks of the mapping's largest folio, aligned */
		uint64_t chunk = 1ull << (mf->max_order + m->page_shift);
		uint64_t chunk_end = round_down(p, chunk) + chunk;

		uint64_t size = old_isize > p ? old_isize : p;

		*at_idx = false;
		return filemap_shmem_write_order(m, mf, page_of(m, p),
						 page_of(m, (end < chunk_end ? end : chunk_end) +
							    model_page_size(m) - 1),
						 page_of(m, size + model_page_size(m) - 1));
	}
	*at_idx = m->cfg.write_policy == WRITE_POLICY_SIZED;
	if (*at_idx)
		return place_write_order(p, end, order, m->cfg.min_order, m->page_shift);
	if (m->cfg.policy == FOLIO_POLICY_FIXED)
		return place_fixed_order(page_of(m, p), order, m->cfg.min_order,
					 eof_pages(m, mf));
	*at_idx = true;
	return m->cfg.min_order;
}

void write_buffered(struct model *m, const struct model_access *a, struct mfile *mf)
{
	uint64_t old_isize = mf->isize, end = a->pos + a->len;

	m->mx.write_requests++;
	m->mx.write_bytes += a->len;
	if (mf->isize < end)
		mf->isize = end;
	for (uint64_t p = a->pos; p < end;) {
		uint64_t idx = page_of(m, p), fpos, we;
		uint32_t id = cache_lookup(m, a->file_id, idx);
		bool created = false, at_idx;
		struct folio *f;

		if (id == FOLIO_NIL) {
			unsigned order = write_order(m, a->file_id, mf, p, end, old_isize, &at_idx);

			id = filemap_create(m, a->file_id, idx, order, at_idx, false);
			created = true;
		}
		if (id == FOLIO_NIL) {	/* nothing cacheable: it bypasses the cache */
			uint64_t next = (idx + 1) << m->page_shift;

			m->mx.direct_write_bytes += (next < end ? next : end) - p;
			p = next;
			continue;
		}
		f = folio_at(&m->pool, id);
		fpos = f->index << m->page_shift;
		we = fpos + (folio_nr_pages(f) << m->page_shift);
		if (we > end)
			we = end;
		if (created)
			mf->dirty_kind->fill_new(m, id, p, we, old_isize);
		else if (!folio_test(f, FOLIO_UPTODATE) && mf->dirty_kind->fill_cached)
			mf->dirty_kind->fill_cached(m, id, p, we, old_isize);
		if (mf->dirty_kind->before_write)
			mf->dirty_kind->before_write(m, id, p - fpos, we - fpos);
		/* writeback_dirty_folio fires for accounted dirtying only */
		if (!folio_test(f, FOLIO_DIRTY) && !mf->dirty_kind->unaccounted) {
			m->mx.write_dirtied_folios++;
			m->mx.write_dirtied_pages += folio_nr_pages(f);
		}
		wb_mark_dirty(m, id, p - fpos, we - fpos);
		if (a->dontcache || m->mem.dropbehind_folios)
			dontcache_write(m, mf, id, created, a->dontcache, old_isize);
		lruvec_written(m, id);
		cache_touch(m, id, idx, page_of(m, we - 1));
		p = we;
	}
	wb_balance_dirty(m);
}

/*
 * shmem_fallocate() (mm/shmem.c, 6.1-6.18): each page of the range without a folio gets one,
 * of the order a write of the whole range would take (shmem_get_folio() with the range's end
 * as write_end, SGP_FALLOC; on 6.1 the huge= rules saw i_size, which grows only after), not
 * uptodate and clean: reads take it for a hole, a write or a fault zeroes it first (the
 * shmem row's fill_cached, fill_read). Other filesystems allocate blocks, no page cache.
 */
void write_fallocate(struct model *m, const struct model_access *a, struct mfile *mf)
{
	uint64_t last = page_of(m, a->pos + a->len - 1);
	uint64_t size = page_of(m, mf->isize + model_page_size(m) - 1);

	for (uint64_t idx = page_of(m, a->pos); idx <= last;) {
		uint32_t id = cache_lookup(m, a->file_id, idx);

		if (id == FOLIO_NIL) {
			unsigned order = filemap_shmem_write_order(m, mf, idx, last + 1, size);

			id = filemap_create(m, a->file_id, idx, order, false, false);
			if (id == FOLIO_NIL)
				return;	/* no memory: the kernel's call fails, undoing nothing here */
		}
		idx = folio_end(folio_at(&m->pool, id));
	}
}
