// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Dirty state and the writeback of folios (mm/page-writeback.c, fs/iomap/buffered-io.c):
 * - a folio is dirty as a whole or per block, as its file's dirty tracking says (variants.h);
 *   NR_FILE_DIRTY counts whole folios' pages either way, as folio_account_dirtied() does;
 * - starting writeback moves the folio from NR_FILE_DIRTY to NR_WRITEBACK and sets
 *   PG_writeback (folio_clear_dirty_for_io(), folio_start_writeback()); what it sends is what
 *   the dirty tracking says: the folio below EOF, or its dirty blocks;
 * - the ranges of one pass over a file that touch merge into one I/O, one extent, for the
 *   modelled device, which does one I/O at a time, each latency + bytes / bandwidth;
 * - a folio's writeback ends when its last I/O completes (folio_end_writeback()); a folio
 *   reclaim marked PG_reclaim then goes to the inactive tail (folio_rotate_reclaimable()).
 * What starts writeback is in flusher.c, thresholds and throttling in throttle.c.
 */
#include <stdlib.h>

#include "model/bitmap.h"
#include "model/lru/kind.h"

#define WBQ_FIRST	256	/* ring entries at first; it doubles when full */

bool wb_init(struct model *m)
{
	m->wb.wbq.mask = WBQ_FIRST - 1;
	m->wb.wbq.q = malloc(WBQ_FIRST * sizeof(*m->wb.wbq.q));
	m->mem.reclaim_pfn = memory_pfn_bitmap_new(m, 0);
	return m->wb.wbq.q && m->mem.reclaim_pfn;
}

void wb_release(struct model *m)
{
	free(m->wb.wbq.q);
	free(m->mem.reclaim_pfn);
	dirty_ranges_free(&m->wb.ranges);
}

bool folio_test_reclaim(const struct model *m, const struct folio *f)
{
	return bitmap_test(m->mem.reclaim_pfn, folio_pfn(f));
}

void folio_set_reclaim(struct model *m, const struct folio *f)
{
	bitmap_set_range(m->mem.reclaim_pfn, folio_pfn(f), folio_pfn(f) + 1);
}

static void folio_clear_reclaim(struct model *m, const struct folio *f)
{
	bitmap_zero_range(m->mem.reclaim_pfn, folio_pfn(f), folio_pfn(f) + 1);
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
	mf->inode_prev = m->wb.inode_tail;
	if (m->wb.inode_tail != INODE_NIL)
		model_file(m, m->wb.inode_tail)->inode_next = file;
	else
		m->wb.inode_head = file;
	m->wb.inode_tail = file;
}

static void inode_mark_clean(struct model *m, uint32_t file)
{
	struct mfile *mf = model_file(m, file);

	if (!mf->on_dirty_list)
		return;
	if (mf->inode_prev != INODE_NIL)
		model_file(m, mf->inode_prev)->inode_next = mf->inode_next;
	else
		m->wb.inode_head = mf->inode_next;
	if (mf->inode_next != INODE_NIL)
		model_file(m, mf->inode_next)->inode_prev = mf->inode_prev;
	else
		m->wb.inode_tail = mf->inode_prev;
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
	mf->dirty_gen++;
	mf->dirty_pages += nr;
	m->wb.dirty_pages += nr;
	folio_memcg(m, f)->nr_dirty += nr;
	/* inode_attach_wb() in __mark_inode_dirty(): the folio's cgroup, once */
	if (!mf->wb_owner)
		mf->wb_owner = (uint8_t)(f->memcg + 1);
	/* balance_dirty_pages_ratelimited() throttles against the inode's wb */
	m->wb.bdp.owner = mf->wb_owner - 1u;
	m->wb.bdp.dirtied += nr;
	m->mx.dirtied_pages += nr;
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
	m->wb.dirty_pages -= nr;
	folio_memcg(m, f)->nr_dirty -= nr;
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

	wb_mark_dirty(m, id, 0, folio_size(m, f));
}

/* ---- I/O: runs, merged while they touch, served by the device in turn ---------------------- */

static unsigned iosize_bucket(uint64_t len)
{
	unsigned b;

	if (len <= 4096)
		return 0;
	b = 64u - (unsigned)__builtin_clzll(len - 1) - 12;	/* ceil(log2) - 12 */
	return b < MODEL_IOSIZE_BUCKETS - 1 ? b : MODEL_IOSIZE_BUCKETS - 1;
}

static void count_cause(struct model_metrics *x, enum wb_cause cause, uint64_t len)
{
	switch (cause) {
	case WB_FSYNC:
		x->wb_fsync_bytes += len;
		break;
	case WB_EXPIRE:
		x->wb_expire_bytes += len;
		break;
	case WB_BACKGROUND:
		x->wb_background_bytes += len;
		break;
	case WB_VMSCAN:
		x->wb_vmscan_bytes += len;
		break;
	case WB_RECLAIM:
		x->wb_reclaim_bytes += len;
		break;
	case WB_SYNC:
		x->wb_sync_bytes += len;
		break;
	case WB_DONTCACHE:
		x->wb_dontcache_bytes += len;
		break;
	case WB_FLUSH:
		x->wb_flush_bytes += len;
		break;
	}
}

/* The device takes the I/O after what it was given: when it completes. */
static uint64_t device_submit(struct model *m, uint64_t len)
{
	double s = m->cfg.device_latency_us * 1e-6;
	uint64_t start = m->wb.dev_busy_until > m->now ? m->wb.dev_busy_until : m->now;

	if (m->cfg.device_bandwidth_mbps > 0)
		s += (double)len / (m->cfg.device_bandwidth_mbps * 1e6);
	m->mx.writeback_time_s += s;
	/*
	 * at least 1 ns: a completion time of 0 means "not submitted yet" (struct wb_inflight);
	 * saturated below UINT64_MAX, which wb_next_completion() keeps for "nothing in flight"
	 */
	m->wb.dev_busy_until = add_sat(start, s * 1e9 >= 1 ? (uint64_t)(s * 1e9) : 1);
	if (m->wb.dev_busy_until == UINT64_MAX)
		m->wb.dev_busy_until = UINT64_MAX - 1;
	return m->wb.dev_busy_until;
}

void wb_run_flush(struct model *m)
{
	struct model_metrics *x = &m->mx;
	uint64_t len = m->wb.run.end - m->wb.run.start, done;

	if (!m->wb.run.open)
		return;
	m->wb.run.open = false;
	x->writeback_ios++;
	x->writeback_bytes += len;
	if (m->units.by)
		units_writeback(m, m->wb.run.file, len);
	count_cause(x, m->wb.run.cause, len);
	x->iosize_hist[iosize_bucket(len)]++;
	x->extents++;
	x->extent_bytes += len;
	done = device_submit(m, len);
	model_file(m, m->wb.run.file)->wb_done = done;
	/* the folios whose last range was in this I/O end their writeback with it */
	for (size_t i = m->wb.wbq.open; i != m->wb.wbq.tail; i = (i + 1) & m->wb.wbq.mask)
		m->wb.wbq.q[i].done = done;
	m->wb.wbq.open = m->wb.wbq.tail;
}

void wb_run_add(struct model *m, uint32_t file, uint64_t start, uint64_t len,
		enum wb_cause cause)
{
	if (m->wb.run.open && m->wb.run.file == file && m->wb.run.end == start && m->wb.run.cause == cause) {
		m->wb.run.end += len;
		return;
	}
	wb_run_flush(m);
	m->wb.run.open = true;
	m->wb.run.file = file;
	m->wb.run.start = start;
	m->wb.run.end = start + len;
	m->wb.run.cause = cause;
}

/*
 * Bytes writeback sends for the folio at this i_size: of what lies below
 * round_up(i_size - pos, block), what the dirty tracking says (the whole of it, or the dirty
 * blocks), as iomap_writepage_handle_eof() clips it. Each contiguous range goes to
 * wb_run_add() when emit is set.
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

/* ---- folios under writeback ----------------------------------------------------------------- */

static bool wbq_grow(struct model *m)
{
	size_t n = m->wb.wbq.mask + 1, used = (m->wb.wbq.tail - m->wb.wbq.head) & m->wb.wbq.mask;
	struct wb_inflight *q = malloc(2 * n * sizeof(*q));

	if (!q)
		return false;
	/* unroll the ring into the new one, keeping open's place relative to head */
	for (size_t i = 0; i < used; i++)
		q[i] = m->wb.wbq.q[(m->wb.wbq.head + i) & m->wb.wbq.mask];
	m->wb.wbq.open = (m->wb.wbq.open - m->wb.wbq.head) & m->wb.wbq.mask;
	free(m->wb.wbq.q);
	m->wb.wbq.q = q;
	m->wb.wbq.head = 0;
	m->wb.wbq.tail = used;
	m->wb.wbq.mask = 2 * n - 1;
	return true;
}

/* folio_end_writeback(): PG_reclaim moves a clean folio to the inactive tail for reclaim. */
static void folio_end_writeback(struct model *m, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);
	uint64_t nr = folio_nr_pages(f);

	folio_clear(f, FOLIO_WRITEBACK);
	m->wb.writeback_pages -= nr;
	folio_memcg(m, f)->nr_writeback -= nr;
	m->wb.bw.written += nr;
	m->mx.written_pages += nr;
	if (folio_test_reclaim(m, f)) {
		folio_clear_reclaim(m, f);
		if (!folio_test(f, FOLIO_DIRTY)) {
			lruvec_rotate(m, id);
			m->mx.rotated_pages += nr;
		}
	}
	/* 6.18 mm/filemap.c folio_end_writeback() -> folio_end_dropbehind() */
	dontcache_end_writeback(m, id);
}

uint64_t wb_start_folio(struct model *m, uint32_t id, enum wb_cause cause)
{
	struct folio *f = folio_at(&m->pool, id);
	uint64_t nr = folio_nr_pages(f), bytes;

	if (!folio_test(f, FOLIO_DIRTY) || folio_test(f, FOLIO_WRITEBACK))
		return 0;
	bytes = folio_wb_ranges(m, f, model_file(m, f->file)->isize, true, cause);
	folio_clear_dirty(m, id);
	/* sync(2) and syncfs(2) write through the flusher's works too (WB_REASON_SYNC) */
	if (cause == WB_EXPIRE || cause == WB_BACKGROUND || cause == WB_VMSCAN || cause == WB_SYNC)
		m->mx.flusher_written_pages += nr;
	/* nothing below EOF to send: the writeback ends as it starts */
	if (!bytes || (((m->wb.wbq.tail + 1) & m->wb.wbq.mask) == m->wb.wbq.head && !wbq_grow(m))) {
		m->mx.written_pages += nr;
		return nr;
	}
	if (m->wb.writeback_pages == 0)
		wb_bandwidth_start(m);
	folio_set(f, FOLIO_WRITEBACK);
	m->wb.writeback_pages += nr;
	folio_memcg(m, f)->nr_writeback += nr;
	m->wb.wbq.q[m->wb.wbq.tail] = (struct wb_inflight){ .id = id, .done = 0 };
	m->wb.wbq.tail = (m->wb.wbq.tail + 1) & m->wb.wbq.mask;
	return nr;
}

uint64_t wb_next_completion(const struct model *m)
{
	if (m->wb.wbq.head == m->wb.wbq.tail || !m->wb.wbq.q[m->wb.wbq.head].done)
		return UINT64_MAX;
	return m->wb.wbq.q[m->wb.wbq.head].done;
}

void wb_complete_until(struct model *m, uint64_t t)
{
	while (wb_completion_due(&m->wb, t)) {
		const struct wb_inflight *e = &m->wb.wbq.q[m->wb.wbq.head];

		wb_bandwidth_update(m, e->done);
		folio_end_writeback(m, e->id);
		m->wb.wbq.head = (m->wb.wbq.head + 1) & m->wb.wbq.mask;
	}
}

void wb_wait_file(struct model *m, uint32_t file)
{
	uint64_t done = model_file(m, file)->wb_done;

	wb_run_flush(m);
	if (done > m->now)
		model_wait_until(m, done);
}

void wb_discard_folio(struct model *m, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);

	if (!folio_test(f, FOLIO_DIRTY))
		return;
	m->mx.wb_truncated_bytes += wb_folio_bytes(m, f, model_file(m, f->file)->isize);
	folio_clear_dirty(m, id);
}

void wb_forget_folio(struct model *m, const struct folio *f)
{
	const struct dirty_tracking *dk = model_file(m, f->file)->dirty_kind;

	if (dk->forget)
		dk->forget(m, f);
	folio_clear_reclaim(m, f);
}
