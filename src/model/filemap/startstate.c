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
 * stands in. Most cached pages were read in, and a file is mostly read from its start to its
 * end: a file's clean runs of cached pages are read in as cat(1) reads it (coreutils:
 * POSIX_FADV_SEQUENTIAL, which doubles the window, mm/fadvise.c generic_fadvise(); then
 * read(2)s of 128 KiB from the file's first page to the end of its last run), through the
 * model's own readahead (readahead.c and the release's rule, ra_rule_*.c: on 6.18
 * page_cache_sync_ra(), page_cache_async_ra(), page_cache_ra_order() and get_next_ra_size()
 * of mm/readahead.c). What it reads outside the runs is dropped again, and the pages of a run
 * under a folio that was not wholly inside it are cut as below. A file read whole gets the
 * ramp of orders the kernel's readahead gave it (0, 2, 4, ... up to the file's largest,
 * mapping_max_folio_order(), within each window's size and alignment), a file with holes
 * reclaim made the same folios but those, a lone page a base page. Where the model reads
 * without readahead (--no-readahead, the fixed policy), for tmpfs (whose folios are its
 * writes'), for a device without a readahead window, for runs with dirty pages (written, so
 * their folios are the writes', whose sizes no probe sees) and past a long gap, the run is cut
 * into the largest naturally aligned folios that lie wholly inside it, below the file's end,
 * no larger than the file may have and no smaller than the configuration's minimum.
 *
 * Pages the trace found dirty (cachestat's count; the replay driver names which, startcache.c)
 * go in dirty, a folio with any of them dirty as a whole, as folio_mark_dirty() marks it: the
 * kernel writes them back during the trace (a sync, the flusher, an fsync) as it does the
 * trace's own. Their inode is dirtied at the replay's start: how long before the trace they
 * were dirtied is not known, so expiry counts from there. They are no page the trace dirtied.
 */
#include <string.h>

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

/* The read(2) size of the reader the rule stands on: coreutils' IO_BUFSIZE (cat, cp) */
#define START_READ_BYTES	(128u << 10)
/*
 * The reader reads through a gap between runs of at most this many bytes; past it, a run is
 * cut as the rule's other half cuts it (the readahead ramp has long reached its largest folios
 * there: from 30 MiB on in a file read whole on ext4, 6.18, with an 8 MiB window)
 */
#define START_GAP_BYTES		(1ull << 30)
/* born of a folio the reader read that no run has taken yet */
#define START_READ_BORN		UINT32_MAX

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

/*
 * One folio of the start state, of a smaller order if smaller and the order cannot be had;
 * FOLIO_NIL when memory or the cache has no room. The reader's are kept or dropped later.
 */
static uint32_t start_state_folio(struct model *m, uint32_t file, uint64_t idx, unsigned order,
				  bool smaller)
{
	uint64_t pfn = BUDDY_NO_PFN;
	uint32_t id;

	while (pfn == BUDDY_NO_PFN) {
		if (start_state_room(m, 1ull << order))
			pfn = buddy_alloc(m->mem.buddy, order);
		if (pfn != BUDDY_NO_PFN || !smaller || order <= m->cfg.min_order)
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
	m->mx.insertions--;
	m->mx.inserted_pages -= 1ull << order;
	m->mx.insertions_by_order[order]--;
	/* born before any access: what filemap_start_mark() asks */
	if (m->start_read.reading) {
		folio_at(&m->pool, id)->born = START_READ_BORN;
	} else {
		folio_at(&m->pool, id)->born = 0;
		m->mx.start_cache_pages += 1ull << order;
	}
	folio_set(folio_at(&m->pool, id), FOLIO_UPTODATE);
	return id;
}

/*
 * readahead.c's ra_alloc_folio() while the start reader reads: the order or nothing, as the
 * kernel's readahead allocates (the read path then reads the page alone).
 */
uint32_t filemap_start_folio(struct model *m, uint32_t file, uint64_t idx, unsigned order)
{
	return start_state_folio(m, file, idx, order, false);
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

/*
 * The rule's other half: pages [idx, end) in the largest aligned folios wholly inside, those
 * with pages at or past dirty_from dirty; the pages memory had no room for counted left out.
 */
static void start_state_cut(struct model *m, uint32_t file, uint64_t idx, uint64_t end,
			    uint64_t dirty_from)
{
	struct mfile *mf = model_file(m, file);
	uint64_t min_pages = 1ull << m->cfg.min_order;

	for (idx &= ~(min_pages - 1); idx < end;) {
		uint32_t id = cache_lookup(m, file, idx);
		unsigned order;

		if (id != FOLIO_NIL) {	/* runs of several records may meet */
			idx = folio_end(folio_at(&m->pool, id));
			continue;
		}
		order = start_order(m, mf, idx, end > idx + min_pages ? end : idx + min_pages);
		while (order > m->cfg.min_order && !cache_range_empty(m, file, idx, 1ull << order))
			order--;
		id = start_state_folio(m, file, idx, order, true);
		if (id == FOLIO_NIL) {
			m->mx.start_cache_left_pages += end - idx;
			return;
		}
		start_state_dirty(m, id, dirty_from);
		idx = folio_end(folio_at(&m->pool, id));
	}
}

/*
 * One read(2) of the reader, pages [idx, last): filemap_get_pages() (mm/filemap.c, 6.18)
 * calls page_cache_sync_ra() for a missing page and page_cache_async_ra() at a PG_readahead
 * folio. A page readahead did not read is read alone, as filemap_read_folio() does. Only the
 * reader's folios' marks count: a folio the trace inserted is none of its reading. Returns
 * where it stopped: last, or the first page memory had no room for.
 */
static uint64_t start_read_call(struct model *m, uint32_t file, uint64_t idx, uint64_t last)
{
	uint64_t min_mask = (1ull << m->cfg.min_order) - 1;

	while (idx < last) {
		uint32_t id = cache_lookup(m, file, idx);
		struct folio *f;

		if (id == FOLIO_NIL) {
			m->ra_rule->sync(m, file, idx, last - idx);
			id = cache_lookup(m, file, idx);
		}
		if (id == FOLIO_NIL)
			id = start_state_folio(m, file, idx & ~min_mask, m->cfg.min_order, false);
		if (id == FOLIO_NIL)
			return idx;
		f = folio_at(&m->pool, id);
		if (f->born == START_READ_BORN && folio_test(f, FOLIO_READAHEAD)) {
			folio_clear(f, FOLIO_READAHEAD);
			m->ra_rule->async(m, file, id, f->index, last - f->index);
		}
		idx = folio_end(f);
	}
	return last;
}

/* A folio of the reader's that lies in a run is a start folio, its mark gone (see below). */
static void start_reader_keep(struct model *m, struct folio *f)
{
	f->born = 0;
	folio_clear(f, FOLIO_READAHEAD);
	m->mx.start_cache_pages += folio_nr_pages(f);
}

/*
 * One it read outside the runs goes (without a shadow: it never was in the cache); the last
 * pages of a run under it are cut as the rule's other half cuts them.
 */
static void start_reader_drop(struct model *m, uint32_t id)
{
	struct start_reader *r = &m->start_read;
	struct folio *f = folio_at(&m->pool, id);
	uint64_t lo = f->index, hi = folio_end(f), tlo = r->tail_lo, thi = r->tail_hi;

	cache_remove(m, id, false);
	if (thi && lo < thi && hi > tlo) {
		r->tail_lo = r->tail_hi = 0;
		start_state_cut(m, r->file, tlo, thi, UINT64_MAX);
	}
}

/*
 * The reader's folios from where it settled up to upto, after it read run [first, end): those
 * wholly in the run are kept, those before it dropped (the part of the run one of them held
 * is cut); the one reaching past the run's end is left for the reader, which may need its
 * mark, and the run's pages under it are cut once it goes. Pages of the run memory had no
 * room for are counted left out.
 */
static void start_reader_settle(struct model *m, uint64_t first, uint64_t end, uint64_t upto)
{
	struct start_reader *r = &m->start_read;
	uint64_t idx = r->settled;

	while (idx < upto) {
		uint32_t id = cache_lookup(m, r->file, idx);
		struct folio *f;
		uint64_t lo, hi;

		if (id == FOLIO_NIL) {
			m->mx.start_cache_left_pages += idx >= first && idx < end;
			idx++;
			continue;
		}
		f = folio_at(&m->pool, id);
		lo = f->index;
		hi = folio_end(f);
		if (f->born != START_READ_BORN) {
			idx = hi;
			continue;
		}
		if (hi > upto) {
			if (end == upto && lo < end) {
				r->tail_lo = lo > first ? lo : first;
				r->tail_hi = end;
			}
			r->settled = lo;
			return;
		}
		if (lo >= first && hi <= end) {
			start_reader_keep(m, f);
		} else {
			start_reader_drop(m, id);
			if (lo < first && hi > first)
				start_state_cut(m, r->file, first, hi < end ? hi : end, UINT64_MAX);
		}
		idx = hi;
	}
	r->settled = idx;
}

/*
 * The reader for a file, from its first page: no readahead state, the window doubled as
 * POSIX_FADV_SEQUENTIAL doubles it (mm/fadvise.c generic_fadvise()). The file's own state
 * is given back when it is done: a process of the trace opens the file itself.
 */
static void start_reader_begin(struct model *m, uint32_t file)
{
	struct start_reader *r = &m->start_read;
	struct mfile *mf = model_file(m, file);

	r->file = file;
	r->memcg = m->charging;
	r->read_to = r->settled = r->tail_lo = r->tail_hi = 0;
	r->ra = mf->ra;
	r->prev_read_end = mf->prev_read_end;
	r->ra_pages = mf->ra_pages;
	memset(&mf->ra, 0, sizeof(mf->ra));
	mf->prev_read_end = 0;
	mf->ra_pages = mf->dev_ra_pages * 2;
}

void filemap_start_state_done(struct model *m)
{
	struct start_reader *r = &m->start_read;
	uint32_t id, was = m->charging;
	struct mfile *mf;

	if (r->file == FOLIO_NIL)
		return;
	mf = model_file(m, r->file);
	m->charging = r->memcg;
	for (id = mf->folios; id != FOLIO_NIL;) {	/* what it read past the last run */
		struct folio *f = folio_at(&m->pool, id);
		uint32_t next = f->file_next;

		if (f->born == START_READ_BORN)
			start_reader_drop(m, id);
		id = next;
	}
	m->charging = was;
	r->tail_lo = r->tail_hi = 0;
	mf->ra = r->ra;
	mf->prev_read_end = r->prev_read_end;
	mf->ra_pages = r->ra_pages;
	r->file = FOLIO_NIL;
}

/*
 * The reader's read(2)s of 128 KiB on from where it stopped to the run's end, through the gap
 * before it (settled as it goes, so that what it reads there never holds more than a few
 * windows of memory).
 */
static void start_reader_read(struct model *m, uint32_t file, uint64_t first, uint64_t end)
{
	struct start_reader *r = &m->start_read;
	struct mfile *mf = model_file(m, file);
	uint64_t req = START_READ_BYTES >> m->page_shift, keep = 4ull * mf->ra_pages, idx;

	if (!req)
		req = 1;
	for (idx = r->read_to; idx < end;) {
		uint64_t last = end - idx > req ? idx + req : end;

		r->reading = true;
		idx = start_read_call(m, file, idx, last);
		r->reading = false;
		if (idx < last)
			break;
		mf->prev_read_end = last << m->page_shift;
		if (idx < first && idx - r->settled > 2 * keep)
			start_reader_settle(m, first, end, idx - keep);
	}
	r->read_to = idx;
	start_reader_settle(m, first, end, end);
}

/*
 * Whether the run is read in by the reader (the rule above), or cut into the largest folios:
 * a clean run of a file with a readahead window, in a model that reads ahead.
 */
static bool start_state_reads(const struct model *m, const struct mfile *mf, uint64_t dirty)
{
	return readahead_on(m) && m->cfg.policy != FOLIO_POLICY_FIXED && !mf->shmem &&
	       mf->dev_ra_pages && !dirty;
}

/* Run [first, end) of a file through the reader, the file's earlier runs read before it. */
static void start_state_read(struct model *m, uint32_t file, uint64_t first, uint64_t end)
{
	struct start_reader *r = &m->start_read;
	uint64_t gap = START_GAP_BYTES >> m->page_shift;

	if (r->file != file || first < r->read_to)
		filemap_start_state_done(m);
	if (r->file == FOLIO_NIL) {
		if (first > gap) {	/* far from the file's start: past the ramp */
			start_state_cut(m, file, first, end, UINT64_MAX);
			return;
		}
		start_reader_begin(m, file);
	}
	if (first - r->read_to > gap) {
		filemap_start_state_done(m);
		start_state_cut(m, file, first, end, UINT64_MAX);
		return;
	}
	start_reader_read(m, file, first, end);
}

uint64_t filemap_add_start_state(struct model *m, uint32_t file, uint64_t first, uint64_t n,
				 uint64_t dirty)
{
	struct mfile *mf = model_file(m, file);
	uint64_t end = first + n, eof = eof_pages(m, mf), had = m->mx.start_cache_pages;
	uint64_t dirty_from = end - (dirty < n ? dirty : n);
	uint32_t memcg, was = m->charging;

	if (!start_state_memcg(m, &memcg)) {
		m->mx.start_cache_left_pages += n;
		return 0;
	}
	if (end > eof)
		end = eof;
	if (first >= end)		/* all past the file's end */
		return 0;
	m->charging = memcg;
	if (start_state_reads(m, mf, dirty)) {
		start_state_read(m, file, first, end);
	} else {
		filemap_start_state_done(m);
		start_state_cut(m, file, first, end, dirty_from);
	}
	m->charging = was;
	return m->mx.start_cache_pages - had;
}

/*
 * A folio the kernel's first delete of a start page showed (replay/startfolios.h): in as it
 * was, before the file's ranges, which the rule then fills around it. A model whose file
 * may not have the order takes the folio's pages in its largest aligned folios (those that
 * readahead would have made of them); pages memory has no room for are left to the ranges,
 * which count them left out.
 */
uint64_t filemap_add_start_folio(struct model *m, uint32_t file, uint64_t idx, uint64_t n,
				 uint64_t dirty)
{
	struct mfile *mf = model_file(m, file);
	uint64_t end = idx + n, eof = eof_pages(m, mf), had = m->mx.start_cache_pages;
	uint64_t dirty_from = end - (dirty < n ? dirty : n);
	uint64_t min_pages = 1ull << m->cfg.min_order;
	uint32_t memcg, was = m->charging;

	if (!start_state_memcg(m, &memcg) || idx & (min_pages - 1) || end > eof)
		return 0;
	filemap_start_state_done(m);
	m->charging = memcg;
	while (idx < end) {
		unsigned order = start_order(m, mf, idx, end);
		uint32_t id = FOLIO_NIL;

		if (cache_range_empty(m, file, idx, 1ull << order))
			id = start_state_folio(m, file, idx, order, false);
		if (id != FOLIO_NIL)
			start_state_dirty(m, id, dirty_from);
		idx += 1ull << order;
	}
	m->charging = was;
	return m->mx.start_cache_pages - had;
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
