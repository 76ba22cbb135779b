// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What one access does to the cache: the buffered read path (filemap_read with readahead),
 * the buffered write path (iomap/generic_perform_write), mmap faults, sync calls, truncate
 * and unlink. Page indexes are in units of the model's page size.
 */
#include <stdlib.h>
#include <string.h>

#include "model/instance.h"

struct mfile *access_file(struct model *m, uint32_t id)
{
	if (id >= m->nr_files) {
		uint32_t cap = m->cap_files ? m->cap_files : 64;
		struct mfile *f;

		while (cap <= id)
			cap *= 2;
		if (cap != m->cap_files) {
			f = realloc(m->files, cap * sizeof(*f));
			if (!f)
				return NULL;
			m->files = f;
			m->cap_files = cap;
		}
		for (uint32_t i = m->nr_files; i <= id; i++) {
			struct mfile *mf = &m->files[i];

			memset(mf, 0, sizeof(*mf));
			mf->folios = mf->dirty = FOLIO_NIL;
			mf->inode_prev = mf->inode_next = INODE_NIL;
		}
		m->nr_files = id + 1;
	}
	return &m->files[id];
}

static uint64_t page_of(const struct model *m, uint64_t pos)
{
	return pos >> m->page_shift;
}

static uint64_t eof_pages(const struct model *m, const struct mfile *mf)
{
	return place_eof_pages(mf->isize, m->page_shift);
}

/* Bytes the device reads to fill a folio: blocks below EOF (the rest is zeroed). */
static uint64_t folio_read_bytes(const struct model *m, const struct folio *f, uint64_t isize)
{
	uint64_t pos = f->index << m->page_shift, size = folio_nr_pages(f) << m->page_shift;
	uint64_t bs = m->cfg.block_size, n;

	if (pos >= isize)
		return 0;
	n = (isize - pos + bs - 1) / bs * bs;
	return n < size ? n : size;
}

/* ---- allocating a folio for a page that is not cached -------------------------------------- */

/*
 * Adds the folio of the wanted order at start (aligned), stepping down while the range
 * collides with cached folios (-EEXIST) and when the buddy allocator falls back. idx is the
 * page that must end up covered. FOLIO_NIL when nothing could be cached.
 */
static uint32_t folio_create(struct model *m, uint32_t file, uint64_t idx, unsigned order,
			     bool at_idx, bool read)
{
	unsigned min = m->cfg.min_order;
	uint64_t start, pfn;
	bool active = false;
	uint32_t id;

	if (order < min)
		order = min;
	for (;;) {
		start = idx & ~((1ull << order) - 1);
		if (at_idx && start != idx && order > min)
			order = place_ffs(idx) > min ? place_ffs(idx) : min;
		start = idx & ~((1ull << order) - 1);
		if (order <= min || cache_range_empty(m, file, start, 1ull << order))
			break;
		order--;
	}
	pfn = memory_alloc_folio(m, &order);
	if (pfn == BUDDY_NO_PFN)
		return FOLIO_NIL;
	start = idx & ~((1ull << order) - 1);
	/* buffered writes skip refault detection (__GFP_WRITE) */
	if (read)
		active = workingset_refault(m, file, start, order);
	id = cache_add(m, file, start, order, pfn, active);
	if (id == FOLIO_NIL)
		buddy_free(m->buddy, pfn, order);
	return id;
}

/* The order a read miss asks for outside readahead: fixed order, else the minimum. */
static unsigned read_miss_order(struct model *m, struct mfile *mf, uint64_t idx)
{
	if (m->cfg.policy == FOLIO_POLICY_FIXED)
		return place_fixed_order(idx, m->cfg.order, m->cfg.min_order, eof_pages(m, mf));
	return m->cfg.min_order;
}

static uint32_t read_folio_in(struct model *m, uint32_t file, uint64_t idx, unsigned order,
			      bool at_idx)
{
	struct mfile *mf = model_file(m, file);
	uint32_t id = folio_create(m, file, idx, order, at_idx, true);
	struct folio *f;

	if (id == FOLIO_NIL)
		return FOLIO_NIL;
	f = folio_at(&m->pool, id);
	folio_set(f, FOLIO_UPTODATE);
	m->mx.read_io_bytes += folio_read_bytes(m, f, mf->isize);
	return id;
}

/* ---- readahead ----------------------------------------------------------------------------- */

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
			id = read_folio_in(m, file, i, read_miss_order(m, mf, i), false);
		} else {
			unsigned o = collided ? min : order;

			if (i & ((1ull << o) - 1))
				o = place_ffs(i) > min ? place_ffs(i) : min;
			while (o > min && i + (1ull << o) > end)
				o--;
			id = read_folio_in(m, file, i, o, true);
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

/*
 * page_cache_sync_ra(): a read miss at idx for req pages. A miss at the expected index of
 * the current window ramps it up; a start of file, an oversized read or a miss right after
 * the previous read starts a new window; a miss after a run of cached pages longer than the
 * request is a stream found from its history (context readahead); anything else is a small
 * random read, read as is without touching the readahead state.
 */
static void ra_sync(struct model *m, uint32_t file, uint64_t idx, uint64_t req)
{
	struct mfile *mf = model_file(m, file);
	struct ra_state *ra = &mf->ra;
	uint32_t max = m->cfg.ra_pages;
	uint64_t prev = mf->prev_read_end >> m->page_shift, contig;

	ra->rule_6_17 = m->cfg.ra_rule == RA_RULE_6_17;
	if (ra->valid && idx && (idx == ra->start + ra->size || idx == ra_mark_index(ra))) {
		/* a sequential miss: the sync path asks for order 0 (+2 before 6.17) */
		ra->order = 0;
		ra_advance(ra, max, m->cfg.order, m->cfg.min_order);
		if (ra->rule_6_17) {
			ra->ra_order = 0;
			ra->order = (uint8_t)m->cfg.min_order;
		}
	} else if (!idx || req > max || (mf->prev_read_end && idx >= prev && idx - prev <= 1)) {
		ra_start_initial(ra, idx, (uint32_t)(req > max ? max : req), max, m->cfg.order,
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
		ra->order = (uint8_t)(ra->rule_6_17 ? m->cfg.min_order :
				      ra_window_order(0, ra->size, m->cfg.order, m->cfg.min_order));
		ra->ra_order = 0;
		ra->valid = true;
	}
	ra_read_window(m, file, ra, true);
}

/* page_cache_async_ra(): a read reached the PG_readahead folio. */
static void ra_async(struct model *m, uint32_t file)
{
	struct ra_state *ra = &model_file(m, file)->ra;

	if (!ra->valid)
		return;
	ra_advance(ra, m->cfg.ra_pages, m->cfg.order, m->cfg.min_order);
	ra_read_window(m, file, ra, true);
}

static bool ra_enabled(const struct model *m)
{
	return m->cfg.readahead && m->cfg.ra_pages;
}

/* ---- buffered read ------------------------------------------------------------------------ */

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

static void mark_accessed(struct model *m, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);
	bool was_active = folio_test(f, FOLIO_ACTIVE);

	lru_mark_accessed(&m->lru, id);
	if (!was_active && folio_test(f, FOLIO_ACTIVE))
		m->nonresident_age += folio_nr_pages(f);	/* workingset_activation() */
}

/* DIRTY_BLOCK: a folio a partial write left with blocks not uptodate is read in full. */
static bool read_fill_blocks(struct model *m, struct mfile *mf, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);
	uint64_t size = folio_nr_pages(f) << m->page_shift;
	uint64_t want = folio_read_bytes(m, f, mf->isize);
	uint64_t have = blocks_count(m, m->uptodate_units, f, 0, want) << m->unit_shift;

	folio_set(f, FOLIO_UPTODATE);
	blocks_mark(m, m->uptodate_units, f, 0, size);
	if (want <= have)
		return false;
	m->mx.read_io_bytes += want - have;
	m->mx.read_ios++;
	return true;
}

static void do_read(struct model *m, const struct model_access *a, struct mfile *mf)
{
	uint64_t first = page_of(m, a->pos), last = page_of(m, a->pos + a->len - 1);
	uint64_t hit_bytes = 0;
	bool all_hit = true;

	m->mx.read_requests++;
	m->mx.read_bytes += a->len;
	for (uint64_t idx = first; idx <= last;) {
		uint32_t id = cache_lookup(m, a->file_id, idx);
		struct folio *f;
		uint64_t hi;
		bool fresh, async;

		if (id == FOLIO_NIL) {
			if (ra_enabled(m))
				ra_sync(m, a->file_id, idx, last - idx + 1);
			id = cache_lookup(m, a->file_id, idx);
			if (id == FOLIO_NIL) {
				id = read_folio_in(m, a->file_id, idx, read_miss_order(m, mf, idx),
						   m->cfg.policy != FOLIO_POLICY_FIXED);
				if (id != FOLIO_NIL)
					m->mx.read_ios++;
			}
			if (id == FOLIO_NIL) {	/* nothing cacheable: read the page through */
				m->mx.read_io_bytes += model_page_size(m);
				m->mx.read_ios++;
				all_hit = false;
				idx++;
				continue;
			}
		}
		f = folio_at(&m->pool, id);
		hi = folio_end(f) - 1 < last ? folio_end(f) - 1 : last;
		fresh = f->born == m->seq;
		if (!folio_test(f, FOLIO_UPTODATE) && read_fill_blocks(m, mf, id))
			fresh = true;
		if (fresh)
			all_hit = false;
		else
			hit_bytes += overlap_bytes(m, a->pos, a->len, idx, hi);
		if (m->lru.plain || idx != first || !read_same_folio(m, mf, a->pos, f))
			mark_accessed(m, id);
		cache_touch(m, id, idx, hi);
		async = folio_test(f, FOLIO_READAHEAD);
		folio_clear(f, FOLIO_READAHEAD);
		idx = hi + 1;
		if (async && ra_enabled(m))
			ra_async(m, a->file_id);
	}
	if (all_hit)
		m->mx.read_hit_requests++;
	m->mx.read_hit_bytes += hit_bytes;
	mf->prev_read_end = a->pos + a->len;
}

/* ---- mmap faults ---------------------------------------------------------------------------- */

/* do_sync_mmap_readahead(): read around the fault, ra_pages centred on it, minimum order. */
static void mmap_read_around(struct model *m, uint32_t file, uint64_t idx)
{
	struct ra_state *ra = &model_file(m, file)->ra;
	uint32_t max = m->cfg.ra_pages;

	ra->start = idx > max / 2 ? idx - max / 2 : 0;
	ra->size = max;
	ra->async_size = 0;
	ra->order = (uint8_t)m->cfg.min_order;
	ra->valid = true;
	ra_read_window(m, file, ra, false);	/* no marker: a read-around is not a stream */
	ra->valid = false;
}

static uint32_t mmap_fault_in(struct model *m, uint32_t file, struct mfile *mf, uint64_t idx,
			      bool *fresh)
{
	uint32_t id = cache_lookup(m, file, idx);

	*fresh = false;
	if (id != FOLIO_NIL)
		return id;
	*fresh = true;
	if (ra_enabled(m))
		mmap_read_around(m, file, idx);
	id = cache_lookup(m, file, idx);
	if (id == FOLIO_NIL) {
		id = read_folio_in(m, file, idx, read_miss_order(m, mf, idx),
				   m->cfg.policy != FOLIO_POLICY_FIXED);
		if (id != FOLIO_NIL)
			m->mx.read_ios++;
	}
	return id;
}

static void do_mmap(struct model *m, const struct model_access *a, struct mfile *mf, bool write)
{
	uint64_t first = page_of(m, a->pos), last = page_of(m, a->pos + a->len - 1);
	uint64_t hit_bytes = 0;
	bool all_hit = true;

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
			idx++;
			continue;
		}
		f = folio_at(&m->pool, id);
		hi = folio_end(f) - 1 < last ? folio_end(f) - 1 : last;
		if (!folio_test(f, FOLIO_UPTODATE) && read_fill_blocks(m, mf, id))
			fresh = true;
		if (fresh || f->born == m->seq)
			all_hit = false;
		else
			hit_bytes += overlap_bytes(m, a->pos, a->len, idx, hi);
		/* mappings are seen by reclaim only through the PTE young bit */
		if (m->lru.plain)
			lru_mark_accessed(&m->lru, id);
		else
			folio_set(f, FOLIO_YOUNG);
		cache_touch(m, id, idx, hi);
		if (write)	/* page_mkwrite dirties the whole folio */
			wb_mark_dirty_all(m, id);
		idx = hi + 1;
	}
	if (!write) {
		if (all_hit)
			m->mx.read_hit_requests++;
		m->mx.read_hit_bytes += hit_bytes;
	} else {
		wb_balance_dirty(m);
	}
}

/* ---- buffered write ------------------------------------------------------------------------ */

static uint64_t round_down_to(uint64_t v, uint64_t a)
{
	return v - v % a;
}

static uint64_t round_up_to(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/*
 * The blocks a write of [ws, we) covers only partly: the head block when ws is not aligned,
 * the tail block when we is not (once if they are the same block). Returns how many.
 */
static unsigned partial_blocks(uint64_t ws, uint64_t we, uint64_t bs, uint64_t blk[2])
{
	unsigned n = 0;

	if (ws % bs)
		blk[n++] = round_down_to(ws, bs);
	if (we % bs && !(n && blk[0] == round_down_to(we, bs)))
		blk[n++] = round_down_to(we, bs);
	return n;
}

/*
 * A write of [ws, we) into a folio that was just created. Data beyond the old EOF is zeroed.
 * Without per-block state the rest of the folio below the old EOF must be read (the folio
 * becomes uptodate as a whole); with it only the partial head and tail blocks are read.
 */
static void write_fill_new(struct model *m, uint32_t id, uint64_t ws, uint64_t we,
			   uint64_t old_isize)
{
	struct folio *f = folio_at(&m->pool, id);
	uint64_t bs = m->cfg.block_size, fpos = f->index << m->page_shift;
	uint64_t fend = fpos + (folio_nr_pages(f) << m->page_shift);
	uint64_t cov_a = round_up_to(ws, bs), cov_b = round_down_to(we, bs);
	uint64_t old_end = round_up_to(old_isize, bs);
	uint64_t read = 0, blk[2];
	unsigned n;

	if (old_end > fend)
		old_end = fend;
	if (!m->dirty_units) {
		/* [fpos, old_end) minus the blocks the write covers whole */
		if (old_end > fpos)
			read = old_end - fpos;
		if (cov_b > cov_a) {
			uint64_t a = cov_a, b = cov_b < old_end ? cov_b : old_end;

			if (b > a)
				read -= b - a;
		}
		folio_set(f, FOLIO_UPTODATE);
		m->mx.write_read_bytes += read;
		return;
	}
	/* per-block state: read the partial edge blocks below the old EOF only */
	n = partial_blocks(ws, we, bs, blk);
	for (unsigned i = 0; i < n; i++)
		if (blk[i] < old_isize)
			read += bs;
	m->mx.write_read_bytes += read;
	blocks_mark(m, m->uptodate_units, f, ws - fpos, we - fpos);
	if (old_end < fend)	/* past the old EOF: zeroed, uptodate */
		blocks_mark(m, m->uptodate_units, f, old_end > fpos ? old_end - fpos : 0,
			    fend - fpos);
	if (blocks_all(m, m->uptodate_units, f))
		folio_set(f, FOLIO_UPTODATE);
}

/* A write into a cached folio whose blocks are not all uptodate (per-block state). */
static void write_fill_partial(struct model *m, uint32_t id, uint64_t ws, uint64_t we,
			       uint64_t old_isize)
{
	struct folio *f = folio_at(&m->pool, id);
	uint64_t bs = m->cfg.block_size, fpos = f->index << m->page_shift, blk[2];
	unsigned n = partial_blocks(ws, we, bs, blk);

	for (unsigned i = 0; i < n; i++)
		if (blk[i] < old_isize &&
		    !blocks_count(m, m->uptodate_units, f, blk[i] - fpos, blk[i] - fpos + 1))
			m->mx.write_read_bytes += bs;
	blocks_mark(m, m->uptodate_units, f, ws - fpos, we - fpos);
	if (blocks_all(m, m->uptodate_units, f))
		folio_set(f, FOLIO_UPTODATE);
}

static unsigned write_order(struct model *m, struct mfile *mf, uint64_t p, uint64_t end,
			    bool *at_idx)
{
	*at_idx = m->cfg.write_policy == WRITE_POLICY_SIZED;
	if (*at_idx)
		return place_write_order(p, end, m->cfg.order, m->cfg.min_order, m->page_shift);
	if (m->cfg.policy == FOLIO_POLICY_FIXED)
		return place_fixed_order(page_of(m, p), m->cfg.order, m->cfg.min_order,
					 eof_pages(m, mf));
	*at_idx = true;
	return m->cfg.min_order;
}

static void do_write(struct model *m, const struct model_access *a, struct mfile *mf)
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
			unsigned order = write_order(m, mf, p, end, &at_idx);

			id = folio_create(m, a->file_id, idx, order, at_idx, false);
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
			write_fill_new(m, id, p, we, old_isize);
		else if (!folio_test(f, FOLIO_UPTODATE) && m->uptodate_units)
			write_fill_partial(m, id, p, we, old_isize);
		wb_mark_dirty(m, id, p - fpos, we - fpos);
		if (m->lru.plain)	/* two-list: buffered writes do not mark accessed */
			lru_mark_accessed(&m->lru, id);
		cache_touch(m, id, idx, page_of(m, we - 1));
		p = we;
	}
	wb_balance_dirty(m);
}

/* ---- truncate, unlink, sync ------------------------------------------------------------------ */

static void do_truncate(struct model *m, uint32_t file, struct mfile *mf, uint64_t size)
{
	uint64_t keep = (size + model_page_size(m) - 1) >> m->page_shift;
	uint32_t id = mf->folios;

	while (id != FOLIO_NIL) {
		struct folio *f = folio_at(&m->pool, id);
		uint32_t next = f->file_next;

		if (f->index >= keep) {
			wb_discard_folio(m, id);
			cache_remove(m, id, false);
		} else if ((folio_end(f) << m->page_shift) > size) {
			/* the folio across the new EOF keeps its head; bytes past it are lost */
			uint64_t before = wb_folio_bytes(m, f, mf->isize);
			uint64_t after = wb_folio_bytes(m, f, size);

			if (before > after)
				m->mx.wb_truncated_bytes += before - after;
		}
		id = next;
	}
	mf->isize = size;
	mf->ra.valid = false;
}

static void do_sync(struct model *m, const struct model_access *a, bool range)
{
	uint64_t first = 0, last = UINT64_MAX;

	if (range) {
		first = page_of(m, a->pos);
		if (a->len)
			last = page_of(m, a->pos + a->len - 1);
	}
	wb_write_file(m, a->file_id, first, last, WB_FSYNC);
}

static void do_direct(struct model *m, const struct model_access *a, struct mfile *mf)
{
	if (a->op == MODEL_WRITE) {
		m->mx.direct_write_bytes += a->len;
		/* the kernel writes back cached dirty data of the range first */
		if (a->len)
			wb_write_file(m, a->file_id, page_of(m, a->pos),
				      page_of(m, a->pos + a->len - 1), WB_FSYNC);
		if (mf->isize < a->pos + a->len)
			mf->isize = a->pos + a->len;
	} else {
		m->mx.direct_read_bytes += a->len;
	}
}

void access_apply(struct model *m, const struct model_access *a)
{
	struct mfile *mf = access_file(m, a->file_id);

	if (!mf)
		return;
	m->seq++;
	if (a->direct && (a->op == MODEL_READ || a->op == MODEL_WRITE)) {
		do_direct(m, a, mf);
		return;
	}
	switch (a->op) {
	case MODEL_READ:
	case MODEL_MMAP_READ:
	case MODEL_MMAP_WRITE:
		if (a->isize || !mf->known)
			mf->isize = a->isize;
		mf->known = true;
		if (!a->len)
			break;
		/* the bytes returned prove the size, whatever the driver knew */
		if (a->op == MODEL_READ && mf->isize < a->pos + a->len)
			mf->isize = a->pos + a->len;
		if (a->op == MODEL_READ)
			do_read(m, a, mf);
		else
			do_mmap(m, a, mf, a->op == MODEL_MMAP_WRITE);
		break;
	case MODEL_WRITE:
		if (!mf->known && a->isize) {
			/* first sight of the file: a write that extends it started at its end */
			mf->isize = a->isize > a->pos + a->len ? a->isize : a->pos;
		}
		mf->known = true;
		if (a->len)
			do_write(m, a, mf);
		if (a->isize > mf->isize)
			mf->isize = a->isize;
		break;
	case MODEL_FSYNC:
		do_sync(m, a, false);
		break;
	case MODEL_SYNC_RANGE:
		do_sync(m, a, true);
		break;
	case MODEL_TRUNCATE:
		mf->known = true;
		do_truncate(m, a->file_id, mf, a->pos);
		break;
	case MODEL_FALLOCATE:
		if (a->isize > mf->isize)
			mf->isize = a->isize;
		break;
	case MODEL_UNLINK:
		do_truncate(m, a->file_id, mf, 0);
		mf->gen++;	/* its shadow entries and touched pages belong to the old file */
		mf->known = false;
		mf->prev_read_end = 0;
		mf->shadow_mask = 0;
		break;
	}
}
