// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A dirty folio at the inactive tail is written by reclaim itself: mm/vmscan.c pageout()
 * calling the filesystem's ->writepage(), as kernels did where the filesystem had one. The
 * model's writeback completes at once, so the folio is clean and evicted right away; the
 * kernel would set PG_reclaim and rotate it to the tail when its writeback ends.
 */
#include "model/instance.h"

static bool pageout_tail_folio(struct model *m, uint32_t id)
{
	wb_write_folio_now(m, id, WB_RECLAIM);
	return true;
}

const struct dirty_reclaim dirty_reclaim_pageout = {
	.v = {
		.name = "pageout",
		.help = "reclaim writes the dirty folio and evicts it",
		.kernel = "mm/vmscan.c shrink_folio_list() -> pageout() -> ->writepage()",
	},
	.tail_folio = pageout_tail_folio,
};
