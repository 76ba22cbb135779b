// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The read side of an access: buffered reads (filemap_read: lookups, readahead, accessed
 * marks, hit accounting), mmap faults (read-around, young bits, page_mkwrite) and
 * fault-around (maps cached pages only).
 */
#include "model/filemap/cache.h"
#include "model/lru/kind.h"

/* filemap_read() skips folio_mark_accessed() when the read starts in the folio it ended in. */
static bool read_same_folio(const struct model *m, const struct mfile *mf, uint64_t pos,
			    const struct folio *f)
{
	unsigned shift = m->page_shift + f->order;

	return mf->prev_read_end && pos >> shift == (mf->prev_read_end - 1) >> shift;
}

static uint64_t overlap_bytes(const struct model *m, uint64_t pos, uint64_t len, uint64_t lo,
			      uint64_t hi)
{
	uint64_t a = lo << m->page_shift, b = (hi + 1) << m->page_shift;

	if (a < pos)
		a = pos;
	if (b > pos + len)
		b = pos + len;
	return b > a ? b - a : 0;
}

/*
 * The common hit: an old, uptodate folio without the readahead mark, every page touched
 * already, that the LRU kind would not move. Reading it changes nothing then, so only the
 * hit bytes are counted.
 */
static bool read_hit_is_noop(const struct model *m, const struct mfile *mf, uint32_t id,
			     const struct folio *f)
{
	return (f->flags & (FOLIO_UPTODATE | FOLIO_READAHEAD)) == FOLIO_UPTODATE &&
	       f->born != m->seq && f->touched == folio_nr_pages(f) &&
	       !(m->mem.dropbehind_folios && folio_test_dropbehind(m, f)) &&
	       m->lru_kind->read_changes_nothing && m->lru_kind->read_changes_nothing(m, id) &&
	       !read_waits(m, mf, f->index);
}

/* A folio not uptodate (dirty tracking with per-block state) is read in before it is used. */
static bool read_fill(struct model *m, struct mfile *mf, uint32_t id)
{
	return mf->dirty_kind->fill_read && mf->dirty_kind->fill_read(m, mf, id);
}

void read_buffered(struct model *m, const struct model_access *a, struct mfile *mf)
{
	uint64_t first = page_of(m, a->pos), last = page_of(m, a->pos + a->len - 1);
	uint64_t hit_bytes = 0, waited_bytes = 0;
	bool all_hit = true, missed = false;

	m->mx.read_requests++;
	m->mx.read_bytes += a->len;
	if (last > first)
		cache_prefetch(m, a->file_id, first, last);
	for (uint64_t idx = first; idx <= last;) {
		uint32_t id = cache_lookup(m, a->file_id, idx);
		struct folio *f;
		uint64_t hi;
		bool fresh;

		/* shmem_get_folio(SGP_READ) takes a fallocated folio (not uptodate) for a hole */
		if (id != FOLIO_NIL && mf->shmem && !folio_test(folio_at(&m->pool, id), FOLIO_UPTODATE))
			id = FOLIO_NIL;
		if (id == FOLIO_NIL && mf->shmem) {
			/* shmem_file_read_iter(): a hole reads as zeroes, nothing is cached */
			all_hit = false;
			missed = true;
			idx++;
			continue;
		}
		if (id == FOLIO_NIL) {
			if (readahead_on(m))
				readahead_sync(m, a->file_id, idx, last - idx + 1);
			id = cache_lookup(m, a->file_id, idx);
			if (id == FOLIO_NIL) {
				id = filemap_read_in(m, a->file_id, idx, filemap_read_order(m, mf, idx),
						   m->cfg.policy != FOLIO_POLICY_FIXED);
				if (id != FOLIO_NIL)
					m->mx.read_ios++;
			}
			if (id == FOLIO_NIL) {	/* nothing cacheable: read the page through */
				m->mx.read_io_bytes += model_page_size(m);
				m->mx.read_ios++;
				all_hit = false;
				missed = true;
				idx++;
				continue;
			}
		}
		f = folio_at(&m->pool, id);
		hi = folio_end(f) - 1 < last ? folio_end(f) - 1 : last;
		if (read_hit_is_noop(m, mf, id, f)) {
			hit_bytes += overlap_bytes(m, a->pos, a->len, idx, hi);
			idx = hi + 1;
			continue;
		}
		fresh = f->born == m->seq;
		if (!folio_test(f, FOLIO_UPTODATE) && read_fill(m, mf, id))
			fresh = true;
		if (fresh) {
			all_hit = false;
			missed = true;
		} else if (read_waits(m, mf, f->index)) {
			/* cached, but its readahead I/O is still in flight: the read waits */
			all_hit = false;
			waited_bytes += overlap_bytes(m, a->pos, a->len, idx, hi);
		} else {
			hit_bytes += overlap_bytes(m, a->pos, a->len, idx, hi);
		}
		/* folio_mark_accessed() leaves a dropbehind folio as it is */
		if (!folio_test_dropbehind(m, f))
			lruvec_read(m, id, idx == first && read_same_folio(m, mf, a->pos, f));
		cache_touch(m, id, idx, hi);
		idx = hi + 1;
		if (folio_test(f, FOLIO_READAHEAD))
			readahead_async(m, a->file_id, id, last + 1);
		/* 6.18 mm/filemap.c filemap_read(): filemap_end_dropbehind_read() after the copy */
		if (m->mem.dropbehind_folios)
			dontcache_end_read(m, id);
	}
	if (all_hit)
		m->mx.read_hit_requests++;
	else if (!missed)
		m->mx.read_waited_requests++;
	m->mx.read_hit_bytes += hit_bytes;
	m->mx.read_waited_bytes += waited_bytes;
	mf->prev_read_end = a->pos + a->len;
}

/* ---- mmap faults ------------------------------------------------------------------------- */

/*
 * filemap_fault() for page idx: a cached folio is a hit (do_async_mmap_readahead), a missing
 * one is read with read-around (do_sync_mmap_readahead), else alone.
 */
static uint32_t mmap_fault_in(struct model *m, uint32_t file, struct mfile *mf, uint64_t idx,
			      bool *fresh)
{
	uint32_t id = cache_lookup(m, file, idx);

	*fresh = false;
	if (id != FOLIO_NIL) {
		if (readahead_on(m))
			readahead_mmap_hit(m, file, id, idx);
		/*
		 * The kernel holds a reference on the folio it faults on; the model does not, and
		 * in a small memory the async readahead's reclaim can evict it: then the fault
		 * finds nothing, as if it had come a moment later, rather than a freed folio.
		 */
		if (cache_lookup(m, file, idx) == id)
			return id;
	}
	*fresh = true;
	if (readahead_on(m) && !mf->shmem)
		readahead_mmap_around(m, file, idx);
	id = cache_lookup(m, file, idx);
	if (id == FOLIO_NIL) {
		/* shmem_get_folio_gfp() aligns its folio around the fault, whatever the order */
		id = filemap_read_in(m, file, idx, filemap_fault_order(m, mf, idx),
				   m->cfg.policy != FOLIO_POLICY_FIXED && !mf->shmem);
		if (id != FOLIO_NIL)
			m->mx.read_ios++;
	}
	return id;
}

/*
 * The access mapped the folio: its PTE young (not for the plain LRU when only fault-around
 * mapped it), and VM_EXEC noted for reclaim (vmscan/exec.c).
 */
static void folio_mapped_by(struct model *m, const struct model_access *a, uint32_t id,
			    bool around)
{
	if (around)
		lruvec_mapped_around(m, id);
	else
		lruvec_mapped(m, id);
	if (a->exec)
		folio_set_exec(m, folio_at(&m->pool, id));
}

/*
 * filemap_map_pages() (fault-around): maps the cached, uptodate folios of the range and reads
 * nothing; next_uptodate_folio() skips PG_readahead folios so that the fault on them starts
 * the async readahead. Mapped pages pay back mmap_miss, one each. The record is the range the
 * kernel tried, not what the application read: it is no read request (the application's
 * reads are the read() calls and the faults, the same at every order); its mapped pages are
 * counted apart, and a page it could not map comes back as a fault record of its own.
 */
static void mmap_map_pages(struct model *m, const struct model_access *a, struct mfile *mf)
{
	uint64_t first = page_of(m, a->pos), last = page_of(m, a->pos + a->len - 1);
	uint64_t mapped = 0;

	for (uint64_t idx = first; idx <= last;) {
		uint32_t id = cache_lookup(m, a->file_id, idx);
		struct folio *f;
		uint64_t hi;

		if (id == FOLIO_NIL) {
			idx++;
			continue;
		}
		f = folio_at(&m->pool, id);
		hi = folio_end(f) - 1 < last ? folio_end(f) - 1 : last;
		if (folio_test(f, FOLIO_UPTODATE) && !folio_test(f, FOLIO_READAHEAD)) {
			if (advice_mapping_has_recency(mf))
				folio_mapped_by(m, a, id, true);
			cache_touch(m, id, idx, hi);
			mapped += hi - idx + 1;
		}
		idx = hi + 1;
	}
	mf->mmap_miss = mapped >= mf->mmap_miss ? 0 : (uint16_t)(mf->mmap_miss - mapped);
	m->mx.faultaround_pages += mapped;
}

void read_mmap(struct model *m, const struct model_access *a, struct mfile *mf, bool write)
{
	uint64_t first = page_of(m, a->pos), last = page_of(m, a->pos + a->len - 1);
	uint64_t hit_bytes = 0, waited_bytes = 0;
	bool all_hit = true, missed = false;

	if (!write && a->fault_around) {
		mmap_map_pages(m, a, mf);
		return;
	}
	if (write) {
		m->mx.write_requests++;
		m->mx.write_bytes += a->len;
	} else {
		m->mx.read_requests++;
		m->mx.read_bytes += a->len;
	}
	for (uint64_t idx = first; idx <= last;) {
		bool fresh;
		uint32_t id = mmap_fault_in(m, a->file_id, mf, idx, &fresh);
		struct folio *f;
		uint64_t hi;

		if (id == FOLIO_NIL) {
			all_hit = false;
			missed = true;
			idx++;
			continue;
		}
		f = folio_at(&m->pool, id);
		hi = folio_end(f) - 1 < last ? folio_end(f) - 1 : last;
		/* filemap_fault() looks it up without FGP_DONTCACHE: PG_dropbehind cleared */
		if (m->mem.dropbehind_folios)
			folio_clear_dropbehind(m, f);
		if (!folio_test(f, FOLIO_UPTODATE) && read_fill(m, mf, id))
			fresh = true;
		if (fresh || f->born == m->seq) {
			all_hit = false;
			missed = true;
		} else if (read_waits(m, mf, f->index)) {
			all_hit = false;
			waited_bytes += overlap_bytes(m, a->pos, a->len, idx, hi);
		} else {
			hit_bytes += overlap_bytes(m, a->pos, a->len, idx, hi);
		}
		if (advice_mapping_has_recency(mf))
			folio_mapped_by(m, a, id, false);
		cache_touch(m, id, idx, hi);
		if (write)	/* page_mkwrite dirties the whole folio */
			wb_mark_dirty_all(m, id);
		idx = hi + 1;
	}
	if (!write) {
		if (all_hit)
			m->mx.read_hit_requests++;
		else if (!missed)
			m->mx.read_waited_requests++;
		m->mx.read_hit_bytes += hit_bytes;
		m->mx.read_waited_bytes += waited_bytes;
	} else {
		wb_balance_dirty(m);
	}
}
