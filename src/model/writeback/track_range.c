// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One dirty byte range per folio, as NFS keeps it (fs/nfs/write.c, 6.1 and 6.12; 6.18 reads
 * the same): the folio's struct nfs_page request holds wb_offset and wb_bytes. The model's
 * "range" dirty granularity, which "auto" picks for nfs and nfs4.
 * - nfs_update_folio() (6.12; nfs_updatepage() in 6.1): a write into an uptodate folio is
 *   widened to whole pages, up to the folio's bytes below EOF (nfs_can_extend_write(),
 *   taken as true: no byte-range locks, no O_DSYNC, a valid cache; 6.1 widened to the whole
 *   page, the same for the base pages it had);
 * - nfs_try_to_update_request(): a range that overlaps or touches the request's extends it;
 *   one that does not is "out_flushme": nfs_wb_folio() writes the old range back at once
 *   (WB_SYNC_ALL), waits for it, then commits (nfs_commit_inode(FLUSH_SYNC), the WRITE being
 *   unstable) - two round trips the writer waits for - and the write starts a new range;
 * - writeback sends the range, clipped to EOF (nfs_do_writepage() sends the request);
 * - nfs_write_begin(): a partial write into a new folio below EOF reads the folio first
 *   (nfs_want_read_modify_write(), when the file is open for reading too: the trace does not
 *   say, and the model takes it so), which leaves it uptodate; a write that covers it from
 *   its start to EOF, or a folio past EOF, reads nothing.
 */
#include "model/instance.h"

/* The folio's bytes below EOF (nfs_folio_length()). */
static uint64_t folio_len_in_file(struct model *m, const struct folio *f)
{
	uint64_t pos = folio_pos(m, f), size = folio_size(m, f);
	uint64_t isize = model_file(m, f->file)->isize;

	if (isize <= pos)
		return 0;
	return isize - pos < size ? isize - pos : size;
}

/*
 * nfs_update_folio(): the range a write of bytes [from, to) of the folio asks for. The file's
 * size is already the write's end: a range that ends below it was below it before.
 */
static void write_range(struct model *m, const struct folio *f, uint64_t from, uint64_t to,
			uint64_t *o, uint64_t *e)
{
	uint64_t ps = model_page_size(m), len = folio_len_in_file(m, f);

	*o = from;
	*e = to;
	if (!folio_test(f, FOLIO_UPTODATE))
		return;
	*o = round_down(from, ps);
	if (to < len)
		*e = round_up(to, ps) < len ? round_up(to, ps) : len;
}

static uint32_t folio_id_of(const struct model *m, const struct folio *f)
{
	return (uint32_t)(f - m->pool.base);
}

/* nfs_write_begin() and nfs_write_end() for a folio the write created. */
static void range_fill_new(struct model *m, uint32_t id, uint64_t ws, uint64_t we,
			   uint64_t old_isize)
{
	struct folio *f = folio_at(&m->pool, id);
	uint64_t fpos = folio_pos(m, f), fend = fpos + folio_size(m, f);
	uint64_t below = old_isize > fpos ? (old_isize < fend ? old_isize : fend) - fpos : 0;

	/* nfs_folio_is_full_write(): past EOF, or from the folio's start to EOF or beyond */
	if (below && !(ws == fpos && we - fpos >= below))
		m->mx.write_read_bytes += below;
	folio_set(f, FOLIO_UPTODATE);
}

/*
 * nfs_wb_folio(): the folio's writeback waited for, its range written with WB_SYNC_ALL and
 * waited for, then a COMMIT, one round trip more.
 */
static void range_flush(struct model *m, uint32_t id)
{
	uint64_t t0 = m->now;
	uint32_t file = folio_at(&m->pool, id)->file;

	if (folio_test(folio_at(&m->pool, id), FOLIO_WRITEBACK))
		wb_wait_file(m, file);
	wb_start_folio(m, id, WB_FLUSH);
	wb_run_flush(m);
	wb_wait_file(m, file);
	model_wait_until(m, add_sat(m->now, (uint64_t)(m->cfg.device_latency_us * 1e3)));
	m->mx.range_flushes++;
	m->mx.range_flush_wait_s += (double)(m->now - t0) * 1e-9;
}

/* nfs_try_to_update_request(): a range neither overlapping nor touching flushes the folio. */
static void range_before_write(struct model *m, uint32_t id, uint64_t from, uint64_t to)
{
	const struct folio *f = folio_at(&m->pool, id);
	const struct dirty_range *r;
	uint64_t o, e;

	if (!folio_test(f, FOLIO_DIRTY))
		return;
	r = dirty_range_find(&m->wb.ranges, id);
	if (!r)
		return;
	write_range(m, f, from, to, &o, &e);
	if (o > r->to || e < r->from)
		range_flush(m, id);
}

/* The request grows to cover the write (a folio the table has no room for has none). */
static void range_mark(struct model *m, const struct folio *f, uint64_t from, uint64_t to)
{
	uint32_t id = folio_id_of(m, f);
	const struct dirty_range *r = dirty_range_find(&m->wb.ranges, id);
	uint64_t o, e;

	write_range(m, f, from, to, &o, &e);
	if (r && folio_test(f, FOLIO_DIRTY)) {
		o = r->from < o ? r->from : o;
		e = r->to > e ? r->to : e;
	}
	dirty_range_set(&m->wb.ranges, id, (uint32_t)o, (uint32_t)e);
}

/* The range below lim; a dirty folio without one (no room in the table) is sent whole. */
static uint64_t range_ranges(struct model *m, const struct folio *f, uint64_t lim, bool emit,
			     enum wb_cause cause)
{
	const struct dirty_range *r = dirty_range_find(&m->wb.ranges, folio_id_of(m, f));
	uint64_t a = r ? r->from : 0, b = r ? r->to : lim;

	if (b > lim)
		b = lim;
	if (b <= a)
		return 0;
	if (emit)
		wb_run_add(m, f->file, folio_pos(m, f) + a, b - a, cause);
	return b - a;
}

static void range_clean(struct model *m, const struct folio *f)
{
	dirty_range_del(&m->wb.ranges, folio_id_of(m, f));
}

const struct dirty_tracking dirty_per_range = {
	.v = {
		.name = "range",
		.help = "one dirty byte range per folio, flushed first when a write does not "
			"touch it (NFS)",
		.kernel = "fs/nfs/write.c nfs_update_folio(), nfs_try_to_update_request()",
	},
	.fill_new = range_fill_new,
	.before_write = range_before_write,
	.mark = range_mark,
	.ranges = range_ranges,
	.clean = range_clean,
	.forget = range_clean,
};
