// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Truncate and hole punching in the page cache (mm/truncate.c truncate_inode_pages_range()):
 * folios wholly inside the range leave; a large folio the range covers only in part goes
 * through truncate_inode_partial_folio(), which splits it, and its pieces inside the range
 * leave while the others stay as smaller folios. How it splits depends on the release:
 *   6.1 - 6.14: try_folio_split_or_unmap() -> split_folio(): every page its own folio
 *     (a uniform split to mapping_min_folio_order(); read in the 6.1 and 6.12 sources, and
 *     seen in the lab: tests/lab/cases/truncate-split.sh);
 *   6.15+: try_folio_split_to_order() -> folio_split() at the first page of the range: the
 *     folio halved as the buddy allocator halves a block, the half without that page kept
 *     whole each time; then the piece at the range's end is split the same way.
 * Live on 6.18 (XFS, a clean order-7 folio at page 256, truncated to page 288, 258 and 259):
 * the kernel kept one folio of order 5; one of order 1; one of order 1 and one of order 0 -
 * the buddy split.
 * A hole punched on XFS 6.18 takes another path: the folio across it (pages 258-261 of an
 * order-7 folio at 256, or one page at its end) was released whole (iomap_release_folio,
 * no iomap_invalidate_folio) and deleted as one order-7 folio every time - the folios the
 * range overlaps are invalidated whole after writeback, not truncated (--punch on XFS before
 * 6.18 follows xfs_flush_unmap_range() -> truncate_pagecache_range() of the 6.1/6.12 source).
 * A dirty or writeback folio stays whole, as the kernel keeps a dirty folio it cannot split
 * (its pieces' dirty state per block is not modelled: the model's approximation).
 */
#include "model/filemap/cache.h"
#include "model/filemap/filemap.h"
#include "model/writeback/writeback.h"

/* truncate_inode_partial_folio() for the folio holding byte at, of the range [lstart, lend] */
static void split_partial(struct model *m, uint32_t file, uint64_t at, uint64_t lstart,
			  uint64_t lend, bool punch)
{
	uint32_t id = cache_lookup(m, file, at >> m->page_shift), id2;
	const struct mfile *mf = model_file(m, file);
	unsigned min = m->cfg.min_order;
	uint64_t pos, size, offset, length, at2;
	struct folio *f;

	if (id == FOLIO_NIL)
		return;
	f = folio_at(&m->pool, id);
	pos = f->index << m->page_shift;
	size = folio_nr_pages(f) << m->page_shift;
	offset = pos < lstart ? lstart - pos : 0;
	length = pos + size - 1 <= lend ? size - offset : lend + 1 - pos - offset;
	/* wholly inside: the range's removal takes it */
	if (length == size || f->order <= min)
		return;
	if (punch && mf->punch_whole) {
		if (!folio_test(f, FOLIO_DIRTY | FOLIO_WRITEBACK))
			cache_remove(m, id, false);
		return;
	}
	at = f->index + (offset >> m->page_shift);
	/* the pieces take the folio's slot in the pool: f is gone once it is split */
	at2 = f->index + ((offset + length) >> m->page_shift);
	if (!mf->split_buddy) {
		cache_split(m, id, at, min, true);
		return;
	}
	if (!cache_split(m, id, at, min, false) || offset + length == size)
		return;
	/* "try to split at offset + length to make sure folios within the range can be dropped" */
	id2 = cache_lookup(m, file, at2);
	if (id2 != FOLIO_NIL)
		cache_split(m, id2, at2, min, false);
}

void truncate_split_range(struct model *m, uint32_t file, uint64_t lstart, uint64_t lend,
			  bool punch)
{
	split_partial(m, file, lstart, lstart, lend, punch);
	/* truncate_inode_pages_range(): the folio at lend when it is not the same one */
	if (lend != UINT64_MAX && cache_lookup(m, file, lend >> m->page_shift) !=
				  cache_lookup(m, file, lstart >> m->page_shift))
		split_partial(m, file, lend, lstart, lend, punch);
}

/* The folios wholly inside pages [first, end): dirty data in them is discarded. */
static void remove_pages(struct model *m, uint32_t file, uint64_t first, uint64_t end)
{
	uint32_t id = model_file(m, file)->folios;

	while (id != FOLIO_NIL) {
		struct folio *f = folio_at(&m->pool, id);
		uint32_t next = f->file_next;

		if (f->index >= first && folio_end(f) <= end) {
			wb_discard_folio(m, id);
			cache_remove(m, id, false);
		}
		id = next;
	}
}

/*
 * fallocate(FALLOC_FL_PUNCH_HOLE) of [pos, pos + len): truncate_pagecache_range() of the
 * bytes, or on XFS of the range rounded out to its allocation unit and at least a page,
 * written back first (fs/xfs/xfs_bmap_util.c xfs_flush_unmap_range(), 6.1 and 6.12), and
 * from 6.18 the folios it overlaps dropped whole (seen live, above).
 */
void truncate_punch_hole(struct model *m, uint32_t file, uint64_t pos, uint64_t len)
{
	const struct mfile *mf = model_file(m, file);
	uint64_t lstart = pos, lend = pos + len - 1, page = 1ull << m->page_shift;

	if (!len || pos > UINT64_MAX - len)
		return;
	if (mf->punch_rounds_out) {
		uint64_t r = file_block_size(m, file) > page ? file_block_size(m, file) : page;

		lstart = pos / r * r;
		lend = lend / r * r <= UINT64_MAX - r ? (lend / r + 1) * r - 1 : UINT64_MAX - 1;
		wb_sync_file(m, file, lstart >> m->page_shift, lend >> m->page_shift);
	}
	wb_wait_file(m, file);
	truncate_split_range(m, file, lstart, lend, true);
	remove_pages(m, file, (lstart + page - 1) >> m->page_shift, (lend + 1) >> m->page_shift);
}
