// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's two-list LRU for file folios (mm/swap.c folio_mark_accessed(), mm/vmscan.c,
 * mm/workingset.c; the classic LRU, not MGLRU): a read references a folio and a second read
 * activates it, a mapping is seen through the PTE young bit at reclaim, buffered writes do not
 * mark accessed, and a refault within the active list's size comes back active.
 */
#include "model/instance.h"

static void two_list_read(struct model *m, struct lruvec *lruvec, uint32_t id, bool again)
{
	struct folio *f = folio_at(&m->pool, id);

	/* filemap_read() skips folio_mark_accessed() for the folio the last read ended in */
	if (again)
		return;
	if (!folio_test(f, FOLIO_REFERENCED)) {
		folio_set(f, FOLIO_REFERENCED);
	} else if (!folio_test(f, FOLIO_ACTIVE)) {
		lru_activate(&lruvec->lru, id);
		folio_clear(f, FOLIO_REFERENCED);
		lruvec->nonresident_age += folio_nr_pages(f);	/* workingset_activation() */
	}
}

static void two_list_mapped(struct model *m, struct lruvec *lruvec, uint32_t id)
{
	folio_set(folio_at(&m->pool, id), FOLIO_YOUNG);
}

static bool two_list_read_changes_nothing(const struct model *m, uint32_t id)
{
	const unsigned both = FOLIO_REFERENCED | FOLIO_ACTIVE;

	return (folio_at(&m->pool, id)->flags & both) == both;
}

/*
 * workingset_refault(): a refault distance within the workingset size of the cgroup that
 * evicted it (workingset_test_recent() on the shadow's lruvec: its active file list, plus its
 * anon lists while swap is free, 6.1 to 6.18) activates the folio and ages the lruvec it comes
 * back to, as an activation does. The sizes are lruvec_page_state()'s, the counts as last
 * flushed: the flush there is the ratelimited one (6.1 mem_cgroup_flush_stats_delayed(), 6.12
 * and 6.18 mem_cgroup_flush_stats_ratelimited()), which flushes only when the periodic one is
 * late, so the active list is seen as it was at the last flush (at most 2 s old).
 */
static unsigned two_list_refault(struct model *m, struct lruvec *evicted, struct lruvec *lruvec,
				 uint64_t eviction, unsigned order)
{
	uint64_t distance = (evicted->nonresident_age - shadow_age(eviction)) & SHADOW_AGE_MASK;

	memcg_stats_flush_due(m);
	if (distance > evicted->active_file_flushed + evicted->workingset_anon)
		return 0;
	lruvec->nonresident_age += 1ull << order;
	lruvec->activate_file += 1ull << order;		/* WORKINGSET_ACTIVATE_FILE */
	return LRU_REFAULT_ACTIVATE | LRU_REFAULT_ADD_ACTIVE;
}

/*
 * shrink_lruvec(): the active list shrunk in step with the inactive when the reclaim may
 * deactivate (vmscan/refaults.c: the refaults moved or the inactive list was low), then its
 * tail
 */
static uint32_t two_list_reclaim_next(struct model *m, struct lruvec *lruvec)
{
	uint32_t id = lruvec->lru.inactive.tail;

	if (id != FOLIO_NIL && lruvec->deactivate_file)
		reclaim_deactivate_for(lruvec, folio_nr_pages(folio_at(&m->pool, id)));
	return lruvec->lru.inactive.tail;
}

/* the inactive list empty: shrink_active_list() moves the active tail over */
static bool two_list_reclaim_refill(struct model *m, struct lruvec *lruvec)
{
	return lru_deactivate_tail(&lruvec->lru);
}

const struct lru_policy lru_two_list = {
	.v = {
		.name = "two-list",
		.help = "active/inactive as mm/vmscan.c",
		.kernel = "mm/swap.c folio_mark_accessed(), mm/vmscan.c, mm/workingset.c",
	},
	.exec_first_use = true,
	.reclaim_next = two_list_reclaim_next,
	.reclaim_refill = two_list_reclaim_refill,
	.read = two_list_read,
	.mapped = two_list_mapped,
	.read_changes_nothing = two_list_read_changes_nothing,
	.refault = two_list_refault,
};
