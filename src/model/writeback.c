// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Dirty tracking and writeback (mm/page-writeback.c, fs/fs-writeback.c, iomap):
 * - a folio is dirty as a whole or per block, as its file's dirty tracking says (variants.h);
 *   NR_FILE_DIRTY counts whole folios' pages either way, as folio_account_dirtied() does;
 * - an inode records dirtied_when when it goes clean -> dirty; the flusher, every
 *   writeback_period, writes every inode dirtied at least dirty_expire ago, all of its dirty
 *   folios; over the background threshold the oldest inodes are written until below it;
 * - writeback sends a folio whole (clipped to EOF, rounded to the block) or its dirty blocks;
 *   the ranges of one pass over a file that touch merge into one I/O, one extent;
 * - each I/O costs latency + bytes / bandwidth on the modelled device.
 * Writeback completes at once: the model has no folios under writeback.
 */
#include <stdlib.h>

#include "model/instance.h"

void wb_init_thresholds(struct model *m)
{
	const struct model_config *c = &m->cfg;
	uint64_t dirtyable = buddy_free_pages(m->buddy);	/* pinned pages excluded */
	uint64_t ps = model_page_size(m), bg, th;

	bg = c->dirty_background_bytes ? (c->dirty_background_bytes + ps - 1) / ps :
					 dirtyable * c->dirty_background_ratio / 100;
	th = c->dirty_bytes ? (c->dirty_bytes + ps - 1) / ps : dirtyable * c->dirty_ratio / 100;
	if (bg >= th)
		bg = th / 2;	/* domain_dirty_limits() */
	m->bg_thresh_pages = bg;
	m->thresh_pages = th;
}

/* ---- the dirty inode list (b_dirty), oldest dirtied_when first ---------------------------- */

static void inode_mark_dirty(struct model *m, uint32_t file)
{
	struct mfile *mf = model_file(m, file);

	if (mf->on_dirty_list)
		return;
	mf->dirtied_when = m->now;
	mf->on_dirty_list = true;
	mf->inode_next = INODE_NIL;
	mf->inode_prev = m->inode_tail;
	if (m->inode_tail != INODE_NIL)
		model_file(m, m->inode_tail)->inode_next = file;
	else
		m->inode_head = file;
	m->inode_tail = file;
}

static void inode_mark_clean(struct model *m, uint32_t file)
{
	struct mfile *mf = model_file(m, file);

	if (!mf->on_dirty_list)
		return;
	if (mf->inode_prev != INODE_NIL)
		model_file(m, mf->inode_prev)->inode_next = mf->inode_next;
	else
		m->inode_head = mf->inode_next;
	if (mf->inode_next != INODE_NIL)
		model_file(m, mf->inode_next)->inode_prev = mf->inode_prev;
	else
		m->inode_tail = mf->inode_prev;
	mf->on_dirty_list = false;
}

/* ---- folio dirty state ------------------------------------------------------------------- */

static void folio_account_dirtied(struct model *m, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);
	struct mfile *mf = model_file(m, f->file);
	uint64_t nr = folio_nr_pages(f);

	folio_set(f, FOLIO_DIRTY);
	f->dirty_prev = FOLIO_NIL;
	f->dirty_next = mf->dirty;
	if (mf->dirty != FOLIO_NIL)
		folio_at(&m->pool, mf->dirty)->dirty_prev = id;
	mf->dirty = id;
	mf->nr_dirty++;
	mf->dirty_pages += nr;
	m->dirty_pages += nr;
	inode_mark_dirty(m, f->file);
}

static void folio_clear_dirty(struct model *m, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);
	struct mfile *mf = model_file(m, f->file);
	uint64_t nr = folio_nr_pages(f);

	if (!folio_test(f, FOLIO_DIRTY))
		return;
	folio_clear(f, FOLIO_DIRTY);
	if (mf->dirty_kind->clean)
		mf->dirty_kind->clean(m, f);
	if (mf->dirty_kind->unaccounted)
		return;
	if (f->dirty_prev != FOLIO_NIL)
		folio_at(&m->pool, f->dirty_prev)->dirty_next = f->dirty_next;
	else
		mf->dirty = f->dirty_next;
	if (f->dirty_next != FOLIO_NIL)
		folio_at(&m->pool, f->dirty_next)->dirty_prev = f->dirty_prev;
	f->dirty_prev = f->dirty_next = FOLIO_NIL;
	mf->nr_dirty--;
	mf->dirty_pages -= nr;
	m->dirty_pages -= nr;
	if (!mf->nr_dirty)
		inode_mark_clean(m, f->file);
}

void wb_mark_dirty(struct model *m, uint32_t id, uint64_t from, uint64_t to)
{
	struct folio *f = folio_at(&m->pool, id);
	const struct dirty_tracking *dk = model_file(m, f->file)->dirty_kind;

	if (dk->mark)
		dk->mark(m, f, from, to);
	if (folio_test(f, FOLIO_DIRTY))
		return;
	/* noop_dirty_folio(): the flag alone, nothing counted or queued for writeback */
	if (dk->unaccounted)
		folio_set(f, FOLIO_DIRTY);
	else
		folio_account_dirtied(m, id);
}

void wb_mark_dirty_all(struct model *m, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);

	wb_mark_dirty(m, id, 0, folio_nr_pages(f) << m->page_shift);
}

/* ---- I/O: runs, merged while they touch ------------------------------------------------- */

static unsigned iosize_bucket(uint64_t len)
{
	unsigned b;

	if (len <= 4096)
		return 0;
	b = 64u - (unsigned)__builtin_clzll(len - 1) - 12;	/* ceil(log2) - 12 */
	return b < MODEL_IOSIZE_BUCKETS - 1 ? b : MODEL_IOSIZE_BUCKETS - 1;
}

static void run_flush(struct model *m)
{
	struct model_metrics *x = &m->mx;
	uint64_t len = m->run.end - m->run.start;

	if (!m->run.open)
		return;
	m->run.open = false;
	x->writeback_ios++;
	x->writeback_bytes += len;
	switch (m->run.cause) {
	case WB_FSYNC:
		x->wb_fsync_bytes += len;
		break;
	case WB_EXPIRE:
		x->wb_expire_bytes += len;
		break;
	case WB_BACKGROUND:
		x->wb_background_bytes += len;
		break;
	case WB_RECLAIM:
		x->wb_reclaim_bytes += len;
		break;
	}
	x->iosize_hist[iosize_bucket(len)]++;
	x->extents++;
	x->extent_bytes += len;
	x->writeback_time_s += m->cfg.device_latency_us * 1e-6;
	if (m->cfg.device_bandwidth_mbps > 0)
		x->writeback_time_s += (double)len / (m->cfg.device_bandwidth_mbps * 1e6);
}

void wb_run_add(struct model *m, uint32_t file, uint64_t start, uint64_t len,
		enum wb_cause cause)
{
	if (m->run.open && m->run.file == file && m->run.end == start && m->run.cause == cause) {
		m->run.end += len;
		return;
	}
	run_flush(m);
	m->run.open = true;
	m->run.file = file;
	m->run.start = start;
	m->run.end = start + len;
	m->run.cause = cause;
}

/*
 * Bytes writeback sends for the folio at this i_size: of what lies below
 * round_up(i_size - pos, block), what the dirty tracking says (the whole of it, or the dirty
 * blocks). Each contiguous range goes to wb_run_add() when emit is set.
 */
static uint64_t folio_wb_ranges(struct model *m, const struct folio *f, uint64_t isize,
				bool emit, enum wb_cause cause)
{
	const struct mfile *mf = model_file(m, f->file);
	uint64_t pos = folio_pos(m, f), size = folio_size(m, f), lim;

	if (pos >= isize)
		return 0;
	lim = round_up(isize - pos < size ? isize - pos : size, file_block_size(m, f->file));
	if (lim > size)
		lim = size;
	return mf->dirty_kind->ranges(m, f, lim, emit, cause);
}

uint64_t wb_folio_bytes(struct model *m, const struct folio *f, uint64_t isize)
{
	if (!folio_test(f, FOLIO_DIRTY))
		return 0;
	return folio_wb_ranges(m, f, isize, false, WB_FSYNC);
}

void wb_write_folio_now(struct model *m, uint32_t id, enum wb_cause cause)
{
	struct folio *f = folio_at(&m->pool, id);

	if (!folio_test(f, FOLIO_DIRTY))
		return;
	folio_wb_ranges(m, f, model_file(m, f->file)->isize, true, cause);
	run_flush(m);
	folio_clear_dirty(m, id);
}

void wb_forget_folio(struct model *m, const struct folio *f)
{
	const struct dirty_tracking *dk = model_file(m, f->file)->dirty_kind;

	if (dk->forget)
		dk->forget(m, f);
}

void wb_discard_folio(struct model *m, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);

	if (!folio_test(f, FOLIO_DIRTY))
		return;
	m->mx.wb_truncated_bytes += wb_folio_bytes(m, f, model_file(m, f->file)->isize);
	folio_clear_dirty(m, id);
}

/* ---- writing a file: its dirty folios in index order -------------------------------------- */

struct wb_item {
	uint64_t index;
	uint32_t id;
};

static int wb_item_cmp(const void *a, const void *b)
{
	const struct wb_item *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

static struct wb_item *wb_scratch(struct model *m, size_t n)
{
	size_t bytes = n * sizeof(struct wb_item);

	if (bytes > m->scratch_cap) {
		void *p = realloc(m->scratch, bytes);

		if (!p)
			return NULL;
		m->scratch = p;
		m->scratch_cap = bytes;
	}
	return (struct wb_item *)m->scratch;
}

void wb_write_file(struct model *m, uint32_t file, uint64_t first, uint64_t last,
		   enum wb_cause cause)
{
	struct mfile *mf = model_file(m, file);
	struct wb_item *items = wb_scratch(m, mf->nr_dirty);
	size_t n = 0;

	if (!mf->nr_dirty)
		return;
	if (!items) {
		/* no memory to sort: write folio by folio, unmerged */
		while (mf->dirty != FOLIO_NIL)
			wb_write_folio_now(m, mf->dirty, cause);
		return;
	}
	for (uint32_t id = mf->dirty; id != FOLIO_NIL; id = folio_at(&m->pool, id)->dirty_next) {
		const struct folio *f = folio_at(&m->pool, id);

		/* every folio overlapping the range, in full (sync_file_range) */
		if (folio_end(f) > first && f->index <= last)
			items[n++] = (struct wb_item){ .index = f->index, .id = id };
	}
	qsort(items, n, sizeof(*items), wb_item_cmp);
	for (size_t i = 0; i < n; i++)
		folio_wb_ranges(m, folio_at(&m->pool, items[i].id), mf->isize, true, cause);
	run_flush(m);
	for (size_t i = 0; i < n; i++)
		folio_clear_dirty(m, items[i].id);
}

/* ---- triggers ------------------------------------------------------------------------------ */

static void wb_background(struct model *m)
{
	while (m->dirty_pages > m->bg_thresh_pages && m->inode_head != INODE_NIL)
		wb_write_file(m, m->inode_head, 0, UINT64_MAX, WB_BACKGROUND);
}

void wb_flusher_tick(struct model *m, uint64_t t)
{
	uint64_t expire = m->cfg.dirty_expire_ns;

	/* kupdate: inodes dirtied at or before t - dirty_expire, oldest first */
	while (m->inode_head != INODE_NIL && t >= expire &&
	       model_file(m, m->inode_head)->dirtied_when <= t - expire)
		wb_write_file(m, m->inode_head, 0, UINT64_MAX, WB_EXPIRE);
	wb_background(m);
}

void wb_balance_dirty(struct model *m)
{
	/* balance_dirty_pages() throttles above the midpoint of the two thresholds */
	if (m->dirty_pages > (m->bg_thresh_pages + m->thresh_pages) / 2)
		m->mx.throttled++;
	wb_background(m);
}
