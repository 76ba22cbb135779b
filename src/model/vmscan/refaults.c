// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Deactivation when the working set changes (mm/vmscan.c, two-list LRU; the same in 6.1 as
 * prepare_scan_count(), in 6.12 and 6.18 as prepare_scan_control()): a reclaim lets the active
 * file list be scanned (sc->may_deactivate |= DEACTIVATE_FILE) when inactive_is_low() or when
 * lruvec_page_state(target_lruvec, WORKINGSET_ACTIVATE_FILE) differs from
 * target_lruvec->refaults[WORKINGSET_FILE], which snapshot_refaults() sets at the end of each
 * reclaim: do_try_to_free_pages() for direct and memory cgroup limit reclaim (here: once
 * SWAP_CLUSTER_MAX pages are taken, nr_to_reclaim), balance_pgdat() when kswapd stops. The
 * target lruvec is the limit's cgroup's, or the root's for global reclaim, whose count is
 * every cgroup's (the model's cgroups are the root's children).
 *
 * The count compared is the flushed one. 6.12 and 6.18 flush there only when the periodic
 * flush is a cycle late (mem_cgroup_flush_stats_ratelimited()), so a change shows after the
 * next flush (every 2 s, a memory.stat read, or the trace's recorded flushes); 6.1 to 6.11
 * flush there whenever enough updates are pending (mem_cgroup_flush_stats(), 64 per CPU),
 * which a reclaiming workload always has (a batch of SWAP_CLUSTER_MAX pages reclaimed and
 * refilled moves each page's NR_FILE_PAGES and LRU size): there every reclaim pass flushes,
 * and the refault distances until the next pass compare with the active list as it flushed.
 *
 * With the inactive list low the model keeps deactivating until it is not (lru.c); this adds
 * the case it is not: get_scan_count() scans each list by its size >> priority, SWAP_CLUSTER_MAX
 * at a time from each in turn (shrink_lruvec()), so every inactive page scanned brings
 * active / inactive active pages to the inactive list, one at most.
 */
#include "model/instance.h"

#define SWAP_CLUSTER_MAX	32
#define DEF_PRIORITY		12
#define CREDIT_SHIFT		16

/* The release of the recording kernel (its first device's), MODEL_UNKNOWN when not known */
static unsigned recorded_release(const struct model *m)
{
	return m->cfg.ndevices ? m->cfg.devices[0].release : MODEL_UNKNOWN;
}

/* The recording kernel flushes at every reclaim pass (6.1 to 6.11: not checked between) */
static bool reclaim_flushes(const struct model *m)
{
	unsigned release = recorded_release(m);

	return release != MODEL_UNKNOWN && release < 6012;
}

/*
 * prepare_scan_count()'s mem_cgroup_flush_stats(): 6.1 to 6.7 flush the whole tree, 6.8 to
 * 6.11 the target's subtree (memcg NULL: the root's, every cgroup)
 */
static void reclaim_flush_stats(struct model *m, struct mem_cgroup *memcg)
{
	unsigned release = recorded_release(m);

	if (memcg && release != MODEL_UNKNOWN && release >= 6008)
		memcg_stats_flush_one(memcg);
	else
		memcg_stats_flush(m);
}

/* lruvec_page_state(target_lruvec, WORKINGSET_ACTIVATE_FILE); memcg NULL: the root's */
static uint64_t target_activate_file(const struct model *m, const struct mem_cgroup *memcg)
{
	uint64_t sum = 0;

	if (memcg)
		return memcg->lruvec.activate_file_flushed;
	for (uint32_t i = 0; i < m->nr_memcgs; i++)
		sum += m->memcgs[i].lruvec.activate_file_flushed;
	return sum;
}

/*
 * prepare_scan_control()'s inactive_is_low(target_lruvec, LRU_INACTIVE_FILE) (mm/vmscan.c,
 * 6.12 to 6.18; prepare_scan_count() in 6.1): on the sizes as last flushed, which
 * lruvec_page_state() reads, not as they are. memcg NULL: the root's, every cgroup's.
 */
static bool target_inactive_is_low(const struct model *m, const struct mem_cgroup *memcg)
{
	uint64_t all = 0, active = 0;

	if (memcg) {
		all = memcg->lruvec.shadow_bound_pages;
		active = memcg->lruvec.active_file_flushed;
	} else {
		for (uint32_t i = 0; i < m->nr_memcgs; i++) {
			all += m->memcgs[i].lruvec.shadow_bound_pages;
			active += m->memcgs[i].lruvec.active_file_flushed;
		}
	}
	return lru_sizes_inactive_is_low(&m->memcgs[0].lruvec.lru, all - active, active);
}

static struct reclaim_target *target_of(struct model *m, struct mem_cgroup *memcg)
{
	return memcg ? &memcg->lruvec.limit_reclaim : &m->node.reclaim;
}

void reclaim_prepare(struct model *m, struct mem_cgroup *memcg)
{
	struct reclaim_target *t = target_of(m, memcg);
	bool deactivate;

	if (m->cfg.lru != LRU_TWO_LIST)
		return;
	/* every shrink_node() of the reclaim prepares again: a flush may come between */
	if (!t->running) {
		t->running = true;
		t->reclaimed = 0;
	}
	memcg_stats_flush_due(m);
	if (reclaim_flushes(m))
		reclaim_flush_stats(m, memcg);
	deactivate = target_activate_file(m, memcg) != t->refaults ||
		     target_inactive_is_low(m, memcg);
	if (memcg) {
		memcg->lruvec.deactivate_file = deactivate;
		return;
	}
	for (uint32_t i = 0; i < m->nr_memcgs; i++)
		m->memcgs[i].lruvec.deactivate_file = deactivate;
}

void reclaim_snapshot_refaults(struct model *m, struct mem_cgroup *memcg)
{
	struct reclaim_target *t = target_of(m, memcg);

	if (!t->running)
		return;
	t->running = false;
	t->refaults = target_activate_file(m, memcg);
}

void reclaim_taken(struct model *m, struct mem_cgroup *memcg, uint64_t pages, bool more)
{
	struct reclaim_target *t = target_of(m, memcg);

	t->reclaimed += pages;
	/* kswapd's reclaim ends when it stops (reclaim_snapshot_refaults() then) */
	if (!more || (t->reclaimed >= SWAP_CLUSTER_MAX && (memcg || !m->node.kswapd)))
		reclaim_snapshot_refaults(m, memcg);
}

/*
 * Active pages a reclaim deactivates per inactive page it takes, in CREDIT_SHIFT fixed point:
 * do_try_to_free_pages() runs shrink_lruvec() from DEF_PRIORITY down until SWAP_CLUSTER_MAX
 * pages are taken; at each priority each file list is scanned by its size >> priority,
 * SWAP_CLUSTER_MAX at a time from each in turn, until the pages taken there reach
 * SWAP_CLUSTER_MAX (with no anon to scan it stops then). A large inactive list gives one
 * active page per page taken (the lists in step), a small one more: its size >> priority
 * reaches a batch only at low priorities, where the active list's share is its size's. Every
 * inactive page scanned is taken (the model's tail is reclaimable); kswapd's larger target is
 * read as SWAP_CLUSTER_MAX (not checked). The inactive tail's folios are taken whole, each
 * of folio_pages pages (the one at the tail stands for them): isolate_lru_folios() counts the
 * pages it takes against the scan, so a folio of SWAP_CLUSTER_MAX pages or more fills the
 * batch at the first priority whose scan is not empty, and the active list gives that
 * priority's share alone (none at DEF_PRIORITY below 4096 active pages). Seen on 6.18: a
 * 96 MiB file read in order-9 folios through a 64 MiB cgroup whose flushed lists said the
 * inactive one was low, 18 reclaims: the 13 that took a 2 MiB folio at priority 11 or 12
 * deactivated nothing, the 5 that met small folios first 338 pages.
 * *shift: the lowest priority the scan reached (0 when it went through them all). The answer
 * depends on the sizes shifted by it alone: a priority's pages taken are min(inactive >>
 * prio, SWAP_CLUSTER_MAX) rounded up to whole folios, so where the scan stops is the inactive
 * size's doing, and the sizes at the priorities above are the shifted ones shifted further.
 */
static uint64_t deactivate_ratio(uint64_t active, uint64_t inactive, uint64_t folio_pages,
				 unsigned *shift)
{
	uint64_t taken = 0, deactivated = 0;
	int prio;

	for (prio = DEF_PRIORITY; prio >= 0 && taken < SWAP_CLUSTER_MAX; prio--) {
		uint64_t ni = inactive >> prio, na = active >> prio, here = 0;

		while ((ni || na) && here < SWAP_CLUSTER_MAX) {
			uint64_t si = ni < SWAP_CLUSTER_MAX ? ni : SWAP_CLUSTER_MAX;
			uint64_t sa = na < SWAP_CLUSTER_MAX ? na : SWAP_CLUSTER_MAX;

			ni -= si;
			na -= sa;
			here += (si + folio_pages - 1) / folio_pages * folio_pages;
			deactivated += sa;
		}
		taken += here;
	}
	*shift = (unsigned)(prio + 1);
	return taken ? (deactivated << CREDIT_SHIFT) / taken : 0;
}

/*
 * deactivate_ratio() of the lists' sizes, kept while their sizes shifted by the priority its
 * scan reached and the folio size stay the same (the same answer, see there): reclaim asks for
 * it at every folio it takes while deactivating, and the sizes move by a folio at a time.
 */
static uint64_t deactivate_ratio_kept(struct lruvec *lruvec, uint64_t active, uint64_t inactive,
				      uint64_t folio_pages)
{
	struct deactivate_kept *k = &lruvec->deactivate_kept;

	if (k->valid && active >> k->shift == k->active && inactive >> k->shift == k->inactive &&
	    folio_pages == k->folio_pages)
		return k->ratio;
	k->ratio = deactivate_ratio(active, inactive, folio_pages, &k->shift);
	k->active = active >> k->shift;
	k->inactive = inactive >> k->shift;
	k->folio_pages = folio_pages;
	k->valid = true;
	return k->ratio;
}

void reclaim_deactivate_for(struct lruvec *lruvec, uint64_t scanned)
{
	struct lru *l = &lruvec->lru;

	if (!l->inactive.pages)
		return;
	lruvec->deactivate_credit += scanned * deactivate_ratio_kept(lruvec, l->active.pages,
								       l->inactive.pages, scanned);
	while (l->active.tail != FOLIO_NIL) {
		uint64_t nr = folio_nr_pages(folio_at(l->pool, l->active.tail)) << CREDIT_SHIFT;

		if (lruvec->deactivate_credit < nr)
			return;
		lruvec->deactivate_credit -= nr;
		lru_deactivate_tail(l);
	}
	lruvec->deactivate_credit = 0;
}
