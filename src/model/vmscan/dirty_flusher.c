// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reclaim never writes a file folio: since 6.17 pageout() calls no filesystem's
 * ->writepage, and before that ext4, xfs and btrfs had none. shrink_folio_list() marks the
 * dirty folio PG_reclaim and activates it (nr_vmscan_immediate_reclaim); the flusher, woken
 * when a whole batch taken from the list was dirty (reclaim.c), writes it with the rest of
 * its inode, and when its writeback ends folio_rotate_reclaimable() puts it at the inactive
 * tail, where reclaim finds it clean.
 */
#include "model/lru/kind.h"

bool reclaim_leave_to_flusher(struct model *m, uint32_t id)
{
	const struct folio *f = folio_at(&m->pool, id);

	reclaim_note_dirty(m, f);
	folio_set_reclaim(m, f);
	m->mx.reclaim_immediate_pages += folio_nr_pages(f);
	lruvec_activate(m, id);
	return false;
}

const struct dirty_reclaim dirty_reclaim_flusher = {
	.v = {
		.name = "flusher",
		.help = "mark it PG_reclaim, activate it, leave it to the flusher (6.17+)",
		.kernel = "mm/vmscan.c shrink_folio_list(): folio_set_reclaim(), activate_locked",
	},
	.tail_folio = reclaim_leave_to_flusher,
};
