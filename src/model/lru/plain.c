// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A plain LRU: one strict list, every access moves the folio to its head, eviction takes the
 * tail, refaults are counted but never activate (no refault op). Not a kernel's: it is
 * the textbook policy other cache simulators implement, for cross-checking against them.
 * Its accesses are the application's: reads, writes and faults. Fault-around maps what
 * happens to be cached at this memory size and is no access: moving those folios would make
 * the recency order depend on the size, which no stack pass (model/stack.h) can follow.
 */
#include "model/instance.h"

static void plain_touch(struct model *m, struct lruvec *lruvec, uint32_t id)
{
	if (lruvec->lru.inactive.head != id)
		lru_rotate_inactive(&lruvec->lru, id);
}

static void plain_read(struct model *m, struct lruvec *lruvec, uint32_t id, bool again)
{
	(void)again;
	plain_touch(m, lruvec, id);
}

/*
 * Reclaim takes the tail. The folios reclaim itself keeps (under writeback, left to the
 * flusher: reclaim.c) go to the second list as in the kernel, and come back as it shrinks.
 */
static uint32_t plain_reclaim_next(struct model *m, struct lruvec *lruvec)
{
	return lru_inactive_tail_balanced(&lruvec->lru);
}

static bool plain_reclaim_refill(struct model *m, struct lruvec *lruvec)
{
	return lru_deactivate_tail(&lruvec->lru);
}

const struct lru_policy lru_plain = {
	.v = {
		.name = "plain",
		.help = "one strict LRU",
		.kernel = "none: the textbook LRU of cache simulators",
		.what_if = true,
	},
	.reclaim_next = plain_reclaim_next,
	.reclaim_refill = plain_reclaim_refill,
	.read = plain_read,
	.mapped = plain_touch,
	.faults_only = true,
	.written = plain_touch,
};
