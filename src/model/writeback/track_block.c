// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Dirty and uptodate state per block, as iomap keeps it in struct iomap_folio_state since 6.6
 * ("iomap: Add per-block dirty state tracking"; fs/iomap/buffered-io.c) and as ext4 keeps it
 * in buffer heads: a write marks the blocks it touches dirty, and needs to read only the
 * partial head and tail blocks; writeback sends runs of dirty blocks. The model's "block"
 * dirty granularity. The bits live in two bitmaps indexed by pfn, in units of
 * min(block, page): a block larger than a page is a run of page units, set and cleared
 * together.
 */
#include <stdlib.h>

#include "model/bitmap.h"
#include "model/instance.h"

/* The unit range covering the blocks that overlap bytes [from, to) of the folio. */
static void blocks_units(const struct model *m, const struct folio *f, uint64_t from,
			 uint64_t to, uint64_t *ufrom, uint64_t *uto)
{
	uint64_t bs = file_block_size(m, f->file), size = folio_size(m, f);
	uint64_t base = folio_pfn(f) << m->upp_shift;

	from = round_down(from, bs);
	to = round_up(to, bs);
	if (to > size)
		to = size;
	*ufrom = base + (from >> m->unit_shift);
	*uto = base + ((to + (1ull << m->unit_shift) - 1) >> m->unit_shift);
}

static uint64_t blocks_mark(struct model *m, uint64_t *map, const struct folio *f, uint64_t from,
			    uint64_t to)
{
	uint64_t a, b;

	if (from >= to)
		return 0;
	blocks_units(m, f, from, to, &a, &b);
	model_file(m, f->file)->has_units = true;
	return bitmap_set_range(map, a, b);
}

static uint64_t blocks_count(struct model *m, const uint64_t *map, const struct folio *f,
			     uint64_t from, uint64_t to)
{
	uint64_t a, b;

	if (from >= to)
		return 0;
	blocks_units(m, f, from, to, &a, &b);
	return bitmap_count_range(map, a, b);
}

static bool blocks_all(struct model *m, const uint64_t *map, const struct folio *f)
{
	uint64_t base = folio_pfn(f) << m->upp_shift;
	uint64_t units = folio_nr_pages(f) << m->upp_shift;

	return bitmap_count_range(map, base, base + units) == units;
}

/*
 * A folio's bits are set only by blocks_mark() (and moved with it by compaction), so the
 * folios of a file it never marked, as every file a trace only reads, have none to clear.
 */
static void blocks_clear(struct model *m, uint64_t *map, const struct folio *f)
{
	if (!model_file(m, f->file)->has_units)
		return;
	bitmap_zero_range(map, folio_pfn(f) << m->upp_shift,
			  (folio_pfn(f) + folio_nr_pages(f)) << m->upp_shift);
}

static bool block_dirty_init(struct model *m)
{
	m->mem.dirty_units = memory_pfn_bitmap_new(m, m->upp_shift);
	m->mem.uptodate_units = memory_pfn_bitmap_new(m, m->upp_shift);
	return m->mem.dirty_units && m->mem.uptodate_units;
}

/*
 * The blocks a write of [ws, we) covers only partly: the head block when ws is not aligned,
 * the tail block when we is not (once if they are the same block). Returns how many.
 */
static unsigned partial_blocks(uint64_t ws, uint64_t we, uint64_t bs, uint64_t blk[2])
{
	unsigned n = 0;

	if (ws % bs)
		blk[n++] = round_down(ws, bs);
	if (we % bs && !(n && blk[0] == round_down(we, bs)))
		blk[n++] = round_down(we, bs);
	return n;
}

/* A new folio: the partial edge blocks below the old EOF are read, past it zeroed. */
static void block_dirty_fill_new(struct model *m, uint32_t id, uint64_t ws, uint64_t we,
				 uint64_t old_isize)
{
	struct folio *f = folio_at(&m->pool, id);
	uint64_t bs = file_block_size(m, f->file), fpos = folio_pos(m, f);
	uint64_t fend = fpos + folio_size(m, f);
	uint64_t old_end = round_up(old_isize, bs), read = 0, blk[2];
	unsigned n = partial_blocks(ws, we, bs, blk);

	if (old_end > fend)
		old_end = fend;
	for (unsigned i = 0; i < n; i++)
		if (blk[i] < old_isize)
			read += bs;
	m->mx.write_read_bytes += read;
	blocks_mark(m, m->mem.uptodate_units, f, ws - fpos, we - fpos);
	if (old_end < fend)	/* past the old EOF: zeroed, uptodate */
		blocks_mark(m, m->mem.uptodate_units, f, old_end > fpos ? old_end - fpos : 0,
			    fend - fpos);
	if (blocks_all(m, m->mem.uptodate_units, f))
		folio_set(f, FOLIO_UPTODATE);
}

/* A cached folio with blocks not uptodate: the partial edge blocks not uptodate are read. */
static void block_dirty_fill_cached(struct model *m, uint32_t id, uint64_t ws, uint64_t we,
				    uint64_t old_isize)
{
	struct folio *f = folio_at(&m->pool, id);
	uint64_t bs = file_block_size(m, f->file), fpos = folio_pos(m, f), blk[2];
	unsigned n = partial_blocks(ws, we, bs, blk);

	for (unsigned i = 0; i < n; i++)
		if (blk[i] < old_isize &&
		    !blocks_count(m, m->mem.uptodate_units, f, blk[i] - fpos, blk[i] - fpos + 1))
			m->mx.write_read_bytes += bs;
	blocks_mark(m, m->mem.uptodate_units, f, ws - fpos, we - fpos);
	if (blocks_all(m, m->mem.uptodate_units, f))
		folio_set(f, FOLIO_UPTODATE);
}

/* A read of a folio a partial write left with blocks not uptodate reads it in full. */
static bool block_dirty_fill_read(struct model *m, struct mfile *mf, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);
	uint64_t want = filemap_read_bytes(m, f, mf->isize);
	uint64_t have = blocks_count(m, m->mem.uptodate_units, f, 0, want) << m->unit_shift;

	folio_set(f, FOLIO_UPTODATE);
	blocks_mark(m, m->mem.uptodate_units, f, 0, folio_size(m, f));
	if (want <= have)
		return false;
	m->mx.read_io_bytes += want - have;
	m->mx.read_ios++;
	return true;
}

static void block_dirty_mark(struct model *m, const struct folio *f, uint64_t from, uint64_t to)
{
	blocks_mark(m, m->mem.dirty_units, f, from, to);
}

/* Runs of dirty units below lim, each one range of the writeback. */
static uint64_t block_dirty_ranges(struct model *m, const struct folio *f, uint64_t lim,
				   bool emit, enum wb_cause cause)
{
	uint64_t base = folio_pfn(f) << m->upp_shift, pos = folio_pos(m, f), total = 0;
	unsigned us = m->unit_shift;
	uint64_t nunits = (lim + (1ull << us) - 1) >> us;

	for (uint64_t u = 0; u < nunits;) {
		uint64_t v;

		if (!bitmap_test(m->mem.dirty_units, base + u)) {
			u++;
			continue;
		}
		for (v = u + 1; v < nunits && bitmap_test(m->mem.dirty_units, base + v); v++)
			;
		total += (v - u) << us;
		if (emit)
			wb_run_add(m, f->file, pos + (u << us), (v - u) << us, cause);
		u = v;
	}
	return total;
}

static void block_dirty_clean(struct model *m, const struct folio *f)
{
	blocks_clear(m, m->mem.dirty_units, f);
}

static void block_dirty_forget(struct model *m, const struct folio *f)
{
	blocks_clear(m, m->mem.dirty_units, f);
	blocks_clear(m, m->mem.uptodate_units, f);
}

const struct dirty_tracking dirty_per_block = {
	.v = {
		.name = "block",
		.help = "only dirty blocks, as iomap",
		.kernel = "fs/iomap/buffered-io.c iomap_folio_state (6.6+); ext4 buffer heads",
	},
	.init = block_dirty_init,
	.fill_new = block_dirty_fill_new,
	.fill_cached = block_dirty_fill_cached,
	.fill_read = block_dirty_fill_read,
	.mark = block_dirty_mark,
	.ranges = block_dirty_ranges,
	.clean = block_dirty_clean,
	.forget = block_dirty_forget,
};
