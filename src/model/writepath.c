// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The buffered write path (iomap/generic_perform_write): the folio each chunk of a write
 * lands in, the reads a partial write needs, and the dirtying.
 */
#include "model/instance.h"

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

static unsigned write_order(struct model *m, uint32_t file, struct mfile *mf, uint64_t p,
			    uint64_t end, bool *at_idx)
{
	unsigned order = model_file_order(&m->cfg, file);

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
			unsigned order = write_order(m, a->file_id, mf, p, end, &at_idx);

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
			write_fill_new(m, id, p, we, old_isize);
		else if (!folio_test(f, FOLIO_UPTODATE) && m->uptodate_units)
			write_fill_partial(m, id, p, we, old_isize);
		if (!folio_test(f, FOLIO_DIRTY)) {
			m->mx.write_dirtied_folios++;
			m->mx.write_dirtied_pages += folio_nr_pages(f);
		}
		wb_mark_dirty(m, id, p - fpos, we - fpos);
		if (m->lru.plain)	/* two-list: buffered writes do not mark accessed */
			lru_mark_accessed(&m->lru, id);
		cache_touch(m, id, idx, page_of(m, we - 1));
		p = we;
	}
	wb_balance_dirty(m);
}
