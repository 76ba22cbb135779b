// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reclaim writes the dirty folio itself: mm/vmscan.c pageout() calling the filesystem's
 * ->writepage(), as kernels before 6.17 did for filesystems that had one (not ext4 since
 * 6.3, xfs since 5.17, nor btrfs in 6.12). shrink_folio_list() (6.1 and 6.12 alike) lets
 * only kswapd do it, and only to a folio met again with PG_reclaim set while the node is
 * PGDAT_DIRTY (kswapd took a batch all dirty and unqueued); every other dirty folio is left
 * to the flusher, as from 6.17 on. pageout() starts the folio's writeback on its own, one
 * folio per I/O; the folio stays on the inactive list and is evicted once
 * folio_end_writeback() has rotated it to the tail.
 */
#include "model/lru/kind.h"

static bool pageout_tail_folio(struct model *m, uint32_t id)
{
	const struct folio *f = folio_at(&m->pool, id);

	if (!m->node.kswapd || !m->node.dirty || !folio_test_reclaim(m, f))
		return reclaim_leave_to_flusher(m, id);
	reclaim_note_dirty(m, f);
	wb_start_folio(m, id, WB_RECLAIM);
	wb_run_flush(m);
	m->mx.reclaim_pageout_pages += folio_nr_pages(f);
	/* nothing below EOF to write: clean at once, as after a synchronous write */
	if (!folio_test(f, FOLIO_WRITEBACK))
		return true;
	lruvec_keep(m, id);
	return false;
}

const struct dirty_reclaim dirty_reclaim_pageout = {
	.v = {
		.name = "pageout",
		.help = "reclaim writes it through ->writepage (before 6.17, where the "
			"filesystem had one)",
		.kernel = "mm/vmscan.c shrink_folio_list() -> pageout() -> ->writepage()",
	},
	.tail_folio = pageout_tail_folio,
};
