// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page cache as the trace found it (FT_START_CACHE): each file's pages cached before its
 * first event go in as the replay starts, uptodate, clean, untouched and on the inactive list,
 * older than anything the trace inserts. They are no insertion of the trace's (not counted as
 * one), take free memory only above the high watermark (a start state never reclaims), and are
 * charged to the root cgroup: they were charged to whoever held them before the trace
 * (mm/memcontrol.c charges a folio once, when it is added: __filemap_add_folio(), and a later
 * reader in another cgroup only hits it).
 *
 * User space cannot see folio orders (cachestat(2) and mincore(2) count pages), so a rule
 * stands in: each run of cached pages is cut into the largest naturally aligned folios that lie
 * wholly inside it, below the file's end, no larger than the file may have
 * (mapping_max_folio_order(): its filesystem and the configuration) and no smaller than the
 * configuration's minimum. That is the layout readahead of a whole file gives once its
 * windows reach the largest order; a file read a little at a time had smaller folios.
 *
 * Pages the trace found dirty (cachestat's count; the replay driver names which, startcache.c)
 * go in dirty, a folio with any of them dirty as a whole, as folio_mark_dirty() marks it: the
 * kernel writes them back during the trace (a sync, the flusher, an fsync) as it does the
 * trace's own. Their inode is dirtied at the replay's start: how long before the trace they
 * were dirtied is not known, so expiry counts from there. They are no page the trace dirtied.
 */
#include "model/filemap/cache.h"

/*
 * The cgroup the start state is charged to: the root, as the configuration names it (the
 * first cgroup where the trace ran in no limited one); MODEL_MEMCG_NONE where there is none
 * but a limited cgroup, whose limit reclaim would take the pages first: they are left out.
 */
static bool start_state_memcg(const struct model *m, uint32_t *memcg)
{
	*memcg = m->cfg.start_cache_memcg;
	return *memcg < m->nr_memcgs;
}

/* The largest allowed order of a folio at idx lying wholly in [idx, end). */
static unsigned start_order(const struct model *m, const struct mfile *mf, uint64_t idx,
			    uint64_t end)
{
	unsigned order = mf->max_order, min = m->cfg.min_order;

	while (order > min && ((idx & ((1ull << order) - 1)) || idx + (1ull << order) > end))
		order--;
	return order;
}

/* Free memory above the high watermark for pages more, without reclaim. */
static bool start_state_room(struct model *m, uint64_t pages)
{
	return buddy_free_pages(m->mem.buddy) >= pages + m->mem.zone.wmark_high;
}

/* One folio of the start state; FOLIO_NIL when memory or the cache has no room. */
static uint32_t start_state_folio(struct model *m, uint32_t file, uint64_t idx, unsigned order)
{
	uint64_t pfn = BUDDY_NO_PFN;
	uint32_t id;

	while (pfn == BUDDY_NO_PFN) {
		if (start_state_room(m, 1ull << order))
			pfn = buddy_alloc(m->mem.buddy, order);
		if (pfn != BUDDY_NO_PFN || order <= m->cfg.min_order)
			break;
		order--;
	}
	if (pfn == BUDDY_NO_PFN)
		return FOLIO_NIL;
	id = cache_add(m, file, idx, order, pfn, false);	/* charged to m->charging */
	if (id == FOLIO_NIL) {
		memory_free_pages(m, pfn, order);
		return FOLIO_NIL;
	}
	/* the trace did not insert it: cache_add() counted it as though it had */
	folio_at(&m->pool, id)->born = 0;	/* before any access: what filemap_start_mark() asks */
	m->mx.insertions--;
	m->mx.inserted_pages -= 1ull << order;
	m->mx.insertions_by_order[order]--;
	folio_set(folio_at(&m->pool, id), FOLIO_UPTODATE);
	return id;
}

/* A start folio with pages at or past dirty_from goes in dirty, not counted as dirtied. */
static void start_state_dirty(struct model *m, uint32_t id, uint64_t dirty_from)
{
	struct folio *f = folio_at(&m->pool, id);
	uint64_t nr = folio_nr_pages(f);

	if (folio_end(f) <= dirty_from)
		return;
	wb_mark_dirty_all(m, id);
	/* folio_account_dirtied() counted the pages as the trace's (nr_dirtied, throttling) */
	m->mx.dirtied_pages -= nr;
	m->wb.bdp.dirtied = m->wb.bdp.dirtied > nr ? m->wb.bdp.dirtied - nr : 0;
}

uint64_t filemap_add_start_state(struct model *m, uint32_t file, uint64_t first, uint64_t n,
				 uint64_t dirty)
{
	struct mfile *mf = model_file(m, file);
	uint64_t min_pages = 1ull << m->cfg.min_order, end = first + n, added = 0;
	uint64_t eof = eof_pages(m, mf), dirty_from = end - (dirty < n ? dirty : n);
	uint32_t memcg, was = m->charging;

	if (!start_state_memcg(m, &memcg)) {
		m->mx.start_cache_left_pages += n;
		return 0;
	}
	m->charging = memcg;
	if (end > eof)
		end = eof;
	for (uint64_t idx = first & ~(min_pages - 1); idx < end;) {
		uint32_t id = cache_lookup(m, file, idx);
		unsigned order;

		if (id != FOLIO_NIL) {	/* runs of several records may meet */
			idx = folio_end(folio_at(&m->pool, id));
			continue;
		}
		order = start_order(m, mf, idx, end > idx + min_pages ? end : idx + min_pages);
		while (order > m->cfg.min_order && !cache_range_empty(m, file, idx, 1ull << order))
			order--;
		id = start_state_folio(m, file, idx, order);
		if (id == FOLIO_NIL) {
			m->mx.start_cache_left_pages += end - idx;
			break;
		}
		start_state_dirty(m, id, dirty_from);
		added += folio_nr_pages(folio_at(&m->pool, id));
		idx = folio_end(folio_at(&m->pool, id));
	}
	m->charging = was;
	m->mx.start_cache_pages += added;
	return added;
}

/*
 * A PG_readahead mark of before the trace: a file read from its start in part keeps one on the
 * first folio of its last readahead window (page_cache_async_ra(), 6.18: async_size is the
 * window), and the trace's first read of it starts an async window from the next missing
 * page. Neither mincore(2) nor cachestat(2) shows page flags, so the probe cannot record it;
 * the kernel's async readahead from a folio it had cached since before the trace shows where
 * it was, and the replay driver sends the page the read reached in it (replay.c,
 * note_start_marks()) before the read. The model's folio over that page takes the mark while
 * it is still a start folio the trace has not replaced, uptodate and not under writeback
 * (PG_readahead is PG_reclaim's bit).
 */
void filemap_start_mark(struct model *m, uint32_t file, uint64_t idx)
{
	uint32_t id = cache_lookup(m, file, idx);
	struct folio *f;

	if (id == FOLIO_NIL)
		return;
	f = folio_at(&m->pool, id);
	if (f->born || !folio_test(f, FOLIO_UPTODATE) || folio_test(f, FOLIO_WRITEBACK))
		return;
	folio_set(f, FOLIO_READAHEAD);
}
