// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A tmpfs folio at the tail: its only copy is in memory, so reclaim could only write it to
 * swap (shmem_writeout(), once ->writepage) and the model has no swap, as a host without it
 * does not: the folio stays, activated. It is no dirty file folio for the flusher either.
 */
#include "model/lru/kind.h"

static bool swap_tail_folio(struct model *m, uint32_t id)
{
	lruvec_activate(m, id);
	return false;
}

const struct dirty_reclaim dirty_reclaim_swap = {
	.v = {
		.name = "swap",
		.help = "tmpfs: only swap could take it; no swap is modelled",
		.kernel = "mm/vmscan.c pageout() -> shmem_writeout() (mm/shmem.c)",
	},
	.tail_folio = swap_tail_folio,
};
