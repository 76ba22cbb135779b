// SPDX-License-Identifier: GPL-2.0-or-later
/* Readahead (mm/readahead.c): which windows a read miss or a marker hit reads, and reading them. */
#include "model/instance.h"

/*
 * Reads the window [w->start, w->start + w->size) (capped at EOF): folios of the window
 * order (aligned by __ffs, not crossing the window end), or of the fixed order. Cached pages
 * are skipped; after a collision the rest of the window uses the minimum order, as
 * page_cache_ra_order() falls back to do_page_cache_ra(). With mark, the folio covering the
 * mark index gets PG_readahead. Contiguous new folios are one read I/O.
 */
static void ra_read_window(struct model *m, uint32_t file, const struct ra_state *w, bool mark)
{
	struct mfile *mf = model_file(m, file);
	uint64_t end = w->start + w->size, mark_idx = ra_mark_index(w), eof = eof_pages(m, mf);
	unsigned min = m->cfg.min_order, order = w->order;
	bool collided = false, in_run = false;

	if (end > eof)
		end = eof;
	for (uint64_t i = w->start; i < end;) {
		uint32_t id = cache_lookup(m, file, i);
		struct folio *f;

		if (id != FOLIO_NIL) {
			i = folio_end(folio_at(&m->pool, id));
			collided = true;
			in_run = false;
			continue;
		}
		if (m->cfg.policy == FOLIO_POLICY_FIXED) {
			id = filemap_read_in(m, file, i, filemap_read_order(m, mf, i), false);
		} else {
			unsigned o = collided ? min : order;

			if (i & ((1ull << o) - 1))
				o = place_ffs(i) > min ? place_ffs(i) : min;
			while (o > min && i + (1ull << o) > end)
				o--;
			id = filemap_read_in(m, file, i, o, true);
		}
		if (id == FOLIO_NIL)
			return;	/* no memory: the rest is read on demand */
		f = folio_at(&m->pool, id);
		if (!in_run)
			m->mx.read_ios++;
		in_run = true;
		if (mark && mark_idx >= f->index && mark_idx < folio_end(f))
			folio_set(f, FOLIO_READAHEAD);
		i = folio_end(f);
	}
}

/* page_cache_prev_miss(): cached pages just before idx, at most max. */
static uint64_t ra_cached_before(struct model *m, uint32_t file, uint64_t idx, uint64_t max)
{
	uint64_t n = 0;

	while (n < max && idx > n) {
		uint32_t id = cache_lookup(m, file, idx - n - 1);

		if (id == FOLIO_NIL)
			break;
		n = idx - folio_at(&m->pool, id)->index;
	}
	return n < max ? n : max;
}

static bool file_ra_off(const struct model *m, uint32_t file)
{
	return m->cfg.file_ra_off && file < m->cfg.nfile_orders && m->cfg.file_ra_off[file];
}

/*
 * page_cache_sync_ra(): a read miss at idx for req pages. A miss at the expected index of
 * the current window ramps it up; a start of file, an oversized read or a miss right after
 * the previous read starts a new window; a miss after a run of cached pages longer than the
 * request is a stream found from its history (context readahead); anything else is a small
 * random read, read as is without touching the readahead state.
 */
void readahead_sync(struct model *m, uint32_t file, uint64_t idx, uint64_t req)
{
	struct mfile *mf = model_file(m, file);
	struct ra_state *ra = &mf->ra;
	uint32_t max = m->cfg.ra_pages;
	uint64_t prev = mf->prev_read_end >> m->page_shift, contig;
	unsigned order = model_file_order(&m->cfg, file);

	if (file_ra_off(m, file)) {
		struct ra_state as_is = { .start = idx, .size = (uint32_t)req,
					  .order = (uint8_t)m->cfg.min_order };

		ra_read_window(m, file, &as_is, false);
		return;
	}
	if (ra->valid && idx && (idx == ra->start + ra->size || idx == ra_mark_index(ra))) {
		/* a sequential miss: the sync path asks for order 0 (the rule may add to it) */
		ra->order = 0;
		ra_advance(ra, m->ra_rule, max, order, m->cfg.min_order);
		if (m->ra_rule->sync_miss_done)
			m->ra_rule->sync_miss_done(ra, m->cfg.min_order);
	} else if (!idx || req > max || (mf->prev_read_end && idx >= prev && idx - prev <= 1)) {
		ra_start_initial(ra, m->ra_rule, idx, (uint32_t)(req > max ? max : req), max, order,
				 m->cfg.min_order);
	} else {
		contig = ra_cached_before(m, file, idx, max);
		if (contig <= req) {
			struct ra_state as_is = { .start = idx, .size = (uint32_t)req,
						  .order = (uint8_t)m->cfg.min_order };

			ra_read_window(m, file, &as_is, false);
			return;
		}
		if (contig == idx)	/* cached from the file start: a long stream */
			contig *= 2;
		ra->start = idx;
		ra->size = (uint32_t)(contig + req < max ? contig + req : max);
		ra->async_size = 1;
		m->ra_rule->start(ra, order, m->cfg.min_order);
		ra->valid = true;
	}
	ra_read_window(m, file, ra, true);
}

/* page_cache_async_ra(): a read reached the PG_readahead folio. */
void readahead_async(struct model *m, uint32_t file)
{
	struct ra_state *ra = &model_file(m, file)->ra;

	if (!ra->valid)
		return;
	ra_advance(ra, m->ra_rule, m->cfg.ra_pages, model_file_order(&m->cfg, file),
		   m->cfg.min_order);
	ra_read_window(m, file, ra, true);
}

/* mm/filemap.c: after this many fault misses more than hits, faults stop reading around */
#define MMAP_LOTSAMISS	100

/*
 * do_sync_mmap_readahead() on a fault miss: mmap_miss counts the miss; below MMAP_LOTSAMISS
 * ra_pages are read around the fault at the minimum order, the last quarter marked
 * (async_size = ra_pages / 4) so a fault on it reads ahead. The window stays the file's
 * readahead state, as the kernel's file_ra_state is shared with read().
 */
void readahead_mmap_around(struct model *m, uint32_t file, uint64_t idx)
{
	struct mfile *mf = model_file(m, file);
	struct ra_state *ra = &mf->ra;
	uint32_t max = m->cfg.ra_pages;

	if (mf->mmap_miss < MMAP_LOTSAMISS * 10)
		mf->mmap_miss++;
	if (mf->mmap_miss > MMAP_LOTSAMISS)
		return;
	ra->start = idx > max / 2 ? idx - max / 2 : 0;
	ra->size = max;
	ra->async_size = max / 4;
	ra->order = (uint8_t)m->cfg.min_order;
	ra->ra_order = 0;
	ra->valid = true;
	ra_read_window(m, file, ra, ra->async_size != 0);
}

/*
 * do_async_mmap_readahead(): a fault found folio id cached. The hit pays back one miss; a
 * PG_readahead folio starts the next window (page_cache_async_ra).
 */
void readahead_mmap_hit(struct model *m, uint32_t file, uint32_t id)
{
	struct mfile *mf = model_file(m, file);
	struct folio *f = folio_at(&m->pool, id);

	if (mf->mmap_miss)
		mf->mmap_miss--;
	if (!folio_test(f, FOLIO_READAHEAD))
		return;
	folio_clear(f, FOLIO_READAHEAD);
	readahead_async(m, file);
}
