// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Dirty state per folio: one dirty flag, and writeback sends the whole folio (below EOF,
 * rounded up to the block). What a filesystem without sub-folio state does, and the worry of
 * the 2022 LSFMM folio session; the model's "folio" dirty granularity. A folio is uptodate as
 * a whole, so a write into a new folio must first read the rest of it below the old EOF, and
 * there is no per-block state to keep.
 */
#include "model/instance.h"

/* [fpos, old EOF) minus the blocks the write covers whole is read; the folio is uptodate. */
static void folio_dirty_fill_new(struct model *m, uint32_t id, uint64_t ws, uint64_t we,
				 uint64_t old_isize)
{
	struct folio *f = folio_at(&m->pool, id);
	uint64_t bs = file_block_size(m, f->file), fpos = folio_pos(m, f);
	uint64_t fend = fpos + folio_size(m, f);
	uint64_t cov_a = round_up(ws, bs), cov_b = round_down(we, bs);
	uint64_t old_end = round_up(old_isize, bs), read = 0;

	if (old_end > fend)
		old_end = fend;
	if (old_end > fpos)
		read = old_end - fpos;
	if (cov_b > cov_a) {
		uint64_t a = cov_a, b = cov_b < old_end ? cov_b : old_end;

		if (b > a)
			read -= b - a;
	}
	folio_set(f, FOLIO_UPTODATE);
	m->mx.write_read_bytes += read;
}

static uint64_t folio_dirty_ranges(struct model *m, const struct folio *f, uint64_t lim,
				   bool emit, enum wb_cause cause)
{
	if (emit)
		wb_run_add(m, f->file, folio_pos(m, f), lim, cause);
	return lim;
}

const struct dirty_tracking dirty_per_folio = {
	.v = {
		.name = "folio",
		.help = "writeback sends whole folios",
		.kernel = "mm/page-writeback.c folio_mark_dirty(); filesystems without "
			  "per-block state",
	},
	.fill_new = folio_dirty_fill_new,
	.ranges = folio_dirty_ranges,
};
