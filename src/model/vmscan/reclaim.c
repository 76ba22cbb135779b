// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reclaim (mm/vmscan.c shrink_folio_list on the file LRU). Large folios are evicted whole.
 * At the inactive tail:
 * - a folio under writeback is marked PG_reclaim and activated (case 2 of
 *   shrink_folio_list()): it comes back to the tail when its writeback ends; met again
 *   before that, folios cycle faster than they are written and reclaim waits for writeback
 *   (case 1, kswapd's nr_immediate throttle, and case 3, legacy memcg's wait);
 * - a folio seen young through a mapping is kept (referenced set, back to the inactive head)
 *   the first time and activated the second, as folio_check_references() does; one mapped
 *   through a VM_EXEC mapping is activated the first time (vmscan/exec.c);
 * - PG_referenced alone does not save an unmapped folio;
 * - a dirty folio goes to its file's dirty reclaim (variants.h): left to the flusher, or
 *   written by reclaim itself;
 * - a batch of SWAP_CLUSTER_MAX pages taken that were all dirty and not queued for writeback
 *   wakes the flusher (shrink_inactive_list(): wakeup_flusher_threads(WB_REASON_VMSCAN));
 * - when a whole pass over the lists found nothing to evict, reclaim waits for writeback to
 *   end, at most HZ/10 at a time (reclaim_throttle(VMSCAN_THROTTLE_WRITEBACK)): a stall in
 *   model time, counted with its length.
 * LRU kinds without young bits (plain) never have FOLIO_YOUNG set.
 */
#include "model/filemap/cache.h"
#include "model/lru/kind.h"

#define THROTTLE_NS		100000000ull	/* reclaim_throttle(): HZ/10 */

void reclaim_evict(struct model *m, uint32_t id)
{
	cache_remove(m, id, true);
}

/*
 * The recording kernel's DAMON pageout evicted pages [first, first + n) of the file
 * (mm/damon/paddr.c damon_pa_pageout() -> reclaim_pages() -> shrink_folio_list(), 6.1 to
 * 6.18): the model's folios over them leave as reclaim evicts them, with shadow entries, when
 * clean and not under writeback; shrink_folio_list() leaves a dirty file folio to the
 * flusher when not in kswapd, so the kernel's deletes were of clean ones.
 */
void reclaim_proactive(struct model *m, uint32_t file, uint64_t first, uint64_t n)
{
	for (uint64_t idx = first; idx < first + n;) {
		uint32_t id = cache_lookup(m, file, idx);
		struct folio *f;

		if (id == FOLIO_NIL) {
			idx++;
			continue;
		}
		f = folio_at(&m->pool, id);
		idx = folio_end(f);
		if (!folio_test(f, FOLIO_DIRTY) && !folio_test(f, FOLIO_WRITEBACK))
			reclaim_evict(m, id);
	}
}

/* The end of an isolation batch: all of it dirty and unqueued wakes the flusher. */
static void batch_end(struct model *m, struct lruvec *lruvec)
{
	bool all_dirty = lruvec->scan.taken && lruvec->scan.unqueued_dirty >= lruvec->scan.taken;

	lruvec->scan.target = lruvec->scan.taken = lruvec->scan.unqueued_dirty = 0;
	if (all_dirty && m->node.kswapd)
		m->node.dirty = true;	/* shrink_node(): set_bit(PGDAT_DIRTY) */
	if (all_dirty)
		wb_wakeup_vmscan(m);
}

/* isolate_lru_folios() takes SWAP_CLUSTER_MAX pages, or what the inactive list has. */
static void batch_begin(struct model *m, struct lruvec *lruvec)
{
	uint64_t entries, inactive;

	lruvec_inactive(m, lruvec, &entries, &inactive);
	if (!lruvec->scan.target)
		lruvec->scan.target = inactive < SWAP_CLUSTER_MAX ? inactive : SWAP_CLUSTER_MAX;
}

static void batch_take(struct model *m, struct lruvec *lruvec, uint64_t nr)
{
	lruvec->scan.taken += nr;
	if (lruvec->scan.taken >= lruvec->scan.target)
		batch_end(m, lruvec);
}

void reclaim_note_dirty(struct model *m, const struct folio *f)
{
	m->mx.reclaim_dirty_folios++;
	folio_memcg(m, f)->lruvec.scan.unqueued_dirty += folio_nr_pages(f);
}

/*
 * Nothing evictable in a whole pass: wait for the next writeback to end (waking the flusher
 * first if nothing is being written). false when nothing is in flight: no waiting helps.
 */
static bool reclaim_stall(struct model *m, struct lruvec *lruvec)
{
	uint64_t t0 = m->now, until;

	batch_end(m, lruvec);
	if (!m->wb.writeback_pages && m->wb.dirty_pages)
		wb_wakeup_vmscan(m);
	until = wb_next_completion(m);
	if (until == UINT64_MAX)
		return false;
	if (until > add_sat(t0, THROTTLE_NS))
		until = add_sat(t0, THROTTLE_NS);
	model_wait_until(m, until);
	m->mx.reclaim_stalls++;
	m->mx.reclaim_stall_time_s += (double)(m->now - t0) * 1e-9;
	return true;
}

/* The tail folio is not evicted: where it goes. false: evict it. */
static bool tail_folio_stays(struct model *m, uint32_t id, struct folio *f)
{
	if (folio_test(f, FOLIO_WRITEBACK)) {
		m->mx.reclaim_writeback_folios++;
		folio_set_reclaim(m, f);
		lruvec_activate(m, id);
		return true;
	}
	if (folio_test(f, FOLIO_YOUNG)) {
		folio_clear(f, FOLIO_YOUNG);
		/* 6.18 folio_check_references(): VM_EXEC file folios after first use (exec.c) */
		if (folio_test(f, FOLIO_REFERENCED) ||
		    (m->lru_kind->exec_first_use && folio_test_exec(m, f))) {
			lruvec_activate(m, id);
		} else {
			folio_set(f, FOLIO_REFERENCED);
			lruvec_keep(m, id);
		}
		return true;
	}
	return folio_test(f, FOLIO_DIRTY) &&
	       !model_file(m, f->file)->reclaim_kind->tail_folio(m, id);
}

bool reclaim_lruvec_one(struct model *m, struct lruvec *lruvec)
{
	const struct lru_policy *kind = m->lru_kind;
	struct lru *l = &lruvec->lru;
	/* young folios take three passes; more than that and only writeback can help */
	uint64_t budget = 3 * lru_pages(l) + SWAP_CLUSTER_MAX, scanned = 0;

	for (;;) {
		uint32_t id = kind->reclaim_next(m, lruvec);
		struct folio *f;
		uint64_t nr;

		if (id == FOLIO_NIL) {
			batch_end(m, lruvec);
			if (!kind->reclaim_refill(m, lruvec))
				return false;
			continue;
		}
		if (scanned > budget) {
			if (!reclaim_stall(m, lruvec))
				return false;
			scanned = 0;
			budget = 3 * lru_pages(l) + SWAP_CLUSTER_MAX;
			continue;
		}
		f = folio_at(&m->pool, id);
		if (folio_test(f, FOLIO_WRITEBACK) && folio_test_reclaim(m, f)) {
			if (!reclaim_stall(m, lruvec))
				return false;
			continue;
		}
		nr = folio_nr_pages(f);
		scanned += nr;
		batch_begin(m, lruvec);
		if (tail_folio_stays(m, id, f)) {
			batch_take(m, lruvec, nr);
			continue;
		}
		batch_take(m, lruvec, nr);
		reclaim_evict(m, id);
		return true;
	}
}

/*
 * The pages of one round of the walk over the cgroups: shrink_node() reclaims a batch of
 * SWAP_CLUSTER_MAX pages, and get_scan_count() scans each lruvec by its size >> priority.
 */
#define WALK_ROUND_PAGES	SWAP_CLUSTER_MAX

/* A new round: each cgroup's share of it by its LRU size, the fractions carried over. */
static void walk_round(struct model *m)
{
	uint64_t total = memcg_lru_pages(m);

	for (uint32_t i = 0; i < m->nr_memcgs && total; i++) {
		struct mem_cgroup *memcg = memcg_of(m, i);
		uint64_t share = lru_pages(&memcg->lruvec.lru) * WALK_ROUND_PAGES + memcg->walk_carry;

		memcg->walk_quota = share / total;
		memcg->walk_carry = share % total;
	}
	m->walk.memcg = 0;
}

/*
 * Global reclaim (shrink_node() -> shrink_node_memcgs(), 6.18): every memory cgroup's lruvec
 * in turn, each by the same fraction of its LRU size (get_scan_count(): size >> priority),
 * so cgroups lose pages in proportion to their size. Limits and protection (memory.low,
 * memory.min) are not weighed: the trace's cgroups are siblings without them.
 */
static bool reclaim_global_one(struct model *m)
{
	uint32_t rounds = 0;

	if (m->nr_memcgs == 1)
		return reclaim_lruvec_one(m, &m->memcgs[0].lruvec);
	if (!memcg_lru_pages(m))
		return false;
	for (;;) {
		struct mem_cgroup *memcg;
		uint64_t before, gone;

		if (m->walk.memcg >= m->nr_memcgs) {
			/*
			 * the shares of a round add up to WALK_ROUND_PAGES, so some cgroup has one;
			 * two rounds with nothing taken: no cgroup can give a page
			 */
			if (++rounds > 2)
				return false;
			walk_round(m);
		}
		memcg = memcg_of(m, m->walk.memcg);
		if (!memcg->walk_quota) {
			m->walk.memcg++;
			continue;
		}
		before = lru_pages(&memcg->lruvec.lru);
		if (!reclaim_lruvec_one(m, &memcg->lruvec)) {
			memcg->walk_quota = 0;
			continue;
		}
		gone = before - lru_pages(&memcg->lruvec.lru);
		memcg->walk_quota -= gone < memcg->walk_quota ? gone : memcg->walk_quota;
		return true;
	}
}

/* One folio as part of a global reclaim (refaults.c: when it begins and ends). */
bool reclaim_one(struct model *m)
{
	uint64_t before = memcg_lru_pages(m);
	bool took;

	reclaim_prepare(m, NULL);
	took = reclaim_global_one(m);
	reclaim_taken(m, NULL, before - memcg_lru_pages(m), took);
	return took;
}

bool reclaim_until_free(struct model *m, uint64_t pages)
{
	while (buddy_free_pages(m->mem.buddy) < pages)
		if (!reclaim_one(m))
			return false;
	return true;
}
