// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * RWF_DONTCACHE (6.14+): uncached buffered I/O, as 6.18 mm/filemap.c does it. A read or write
 * with the flag marks the folios it creates PG_dropbehind (filemap_create_folio(),
 * ractl->dropbehind for its readahead, __filemap_get_folio(FGP_DONTCACHE)); a folio already
 * cached is left as it is. folio_mark_accessed() (mm/swap.c) does nothing to a dropbehind
 * folio. A read drops each dropbehind folio it copied from, clean and not under writeback,
 * once the copy is done (filemap_end_dropbehind_read(), whatever flag that read had); a
 * write kicks writeback of its range (generic_write_sync(): filemap_fdatawrite_range_kick())
 * and folio_end_writeback() -> folio_end_dropbehind() drops the folio when its writeback
 * ends, if it is clean by then and the completion runs in task context (in_task()). A lookup
 * without the flag (a plain buffered write, a fault: __filemap_get_folio()) clears
 * PG_dropbehind.
 * Dropped folios leave no shadow entry (folio_unmap_invalidate(): not reclaim); a mapped one
 * is unmapped first, so mapping does not keep it.
 *
 * ext4 completes the writeback of blocks already written in the bio's interrupt
 * (ext4_end_bio() -> ext4_finish_bio()) and only that of unwritten extents, which delayed
 * allocation makes of new blocks, in a workqueue (ext4_end_io_rsv_work()): checked on 6.18,
 * 16 MiB written to a new file with the flag leave no page cached, the same 16 MiB written
 * over leave all 4096. The model takes a folio that starts at or past the file's size before
 * the write as new blocks (holes and fallocated ranges are not known to it: taken as written).
 */
#include <stdlib.h>

#include "model/bitmap.h"
#include "model/filemap/cache.h"

bool dontcache_init(struct model *m)
{
	m->mem.dropbehind_pfn = memory_pfn_bitmap_new(m, 0);
	m->mem.dropbehind_wb_pfn = memory_pfn_bitmap_new(m, 0);
	return m->mem.dropbehind_pfn && m->mem.dropbehind_wb_pfn;
}

void dontcache_release(struct model *m)
{
	free(m->mem.dropbehind_pfn);
	free(m->mem.dropbehind_wb_pfn);
}

bool folio_test_dropbehind(const struct model *m, const struct folio *f)
{
	return m->mem.dropbehind_folios && bitmap_test(m->mem.dropbehind_pfn, folio_pfn(f));
}

/* wb_drops: the end of its writeback runs in task context, where it can be dropped */
void folio_set_dropbehind(struct model *m, const struct folio *f, bool wb_drops)
{
	uint64_t pfn = folio_pfn(f);

	if (!bitmap_test(m->mem.dropbehind_pfn, pfn))
		m->mem.dropbehind_folios++;
	bitmap_set_range(m->mem.dropbehind_pfn, pfn, pfn + 1);
	if (wb_drops)
		bitmap_set_range(m->mem.dropbehind_wb_pfn, pfn, pfn + 1);
	else
		bitmap_zero_range(m->mem.dropbehind_wb_pfn, pfn, pfn + 1);
}

bool folio_dropbehind_wb_drops(const struct model *m, const struct folio *f)
{
	return folio_test_dropbehind(m, f) &&
	       bitmap_test(m->mem.dropbehind_wb_pfn, folio_pfn(f));
}

void folio_clear_dropbehind(struct model *m, const struct folio *f)
{
	uint64_t pfn = folio_pfn(f);

	if (!folio_test_dropbehind(m, f))
		return;
	m->mem.dropbehind_folios--;
	bitmap_zero_range(m->mem.dropbehind_pfn, pfn, pfn + 1);
	bitmap_zero_range(m->mem.dropbehind_wb_pfn, pfn, pfn + 1);
}

/* filemap_end_dropbehind(): clean and not under writeback, it leaves without a shadow. */
static void end_dropbehind(struct model *m, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);

	if (folio_test(f, FOLIO_DIRTY) || folio_test(f, FOLIO_WRITEBACK))
		return;
	m->mx.dropbehind_pages += folio_nr_pages(f);
	cache_remove(m, id, false);
}

void dontcache_end_read(struct model *m, uint32_t id)
{
	if (folio_test_dropbehind(m, folio_at(&m->pool, id)))
		end_dropbehind(m, id);
}

void dontcache_end_writeback(struct model *m, uint32_t id)
{
	const struct folio *f = folio_at(&m->pool, id);

	if (folio_dropbehind_wb_drops(m, f))
		end_dropbehind(m, id);
}

void dontcache_write(struct model *m, const struct mfile *mf, uint32_t id, bool created,
		     bool dontcache, uint64_t old_isize)
{
	const struct folio *f = folio_at(&m->pool, id);

	if (!dontcache)
		folio_clear_dropbehind(m, f);
	else if (created)
		folio_set_dropbehind(m, f, !mf->dropbehind_irq ||
					   f->index << m->page_shift >= old_isize);
}
