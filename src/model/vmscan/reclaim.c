// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reclaim (mm/vmscan.c shrink_folio_list on the file LRU) and refault detection
 * (mm/workingset.c). Large folios are evicted whole. At the inactive tail:
 * - a folio under writeback is marked PG_reclaim and activated (case 2 of
 *   shrink_folio_list()): it comes back to the tail when its writeback ends; met again
 *   before that, folios cycle faster than they are written and reclaim waits for writeback
 *   (case 1, kswapd's nr_immediate throttle, and case 3, legacy memcg's wait);
 * - a folio seen young through a mapping is kept (referenced set, back to the inactive head)
 *   the first time and activated the second, as folio_check_references() does;
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
#include "model/instance.h"

#define SWAP_CLUSTER_MAX	32
#define THROTTLE_NS		100000000ull	/* reclaim_throttle(): HZ/10 */

void reclaim_evict(struct model *m, uint32_t id)
{
	cache_remove(m, id, true);
}

/* The end of an isolation batch: all of it dirty and unqueued wakes the flusher. */
static void batch_end(struct model *m)
{
	bool all_dirty = m->lruvec.scan.taken && m->lruvec.scan.unqueued_dirty >= m->lruvec.scan.taken;

	m->lruvec.scan.target = m->lruvec.scan.taken = m->lruvec.scan.unqueued_dirty = 0;
	if (all_dirty && m->node.kswapd)
		m->node.dirty = true;	/* shrink_node(): set_bit(PGDAT_DIRTY) */
	if (all_dirty)
		wb_wakeup_vmscan(m);
}

/* isolate_lru_folios() takes SWAP_CLUSTER_MAX pages, or what the inactive list has. */
static void batch_begin(struct model *m)
{
	uint64_t inactive = m->lruvec.lru.inactive.pages;

	if (!m->lruvec.scan.target)
		m->lruvec.scan.target = inactive < SWAP_CLUSTER_MAX ? inactive : SWAP_CLUSTER_MAX;
}

static void batch_take(struct model *m, uint64_t nr)
{
	m->lruvec.scan.taken += nr;
	if (m->lruvec.scan.taken >= m->lruvec.scan.target)
		batch_end(m);
}

void reclaim_note_dirty(struct model *m, const struct folio *f)
{
	m->mx.reclaim_dirty_folios++;
	m->lruvec.scan.unqueued_dirty += folio_nr_pages(f);
}

/*
 * Nothing evictable in a whole pass: wait for the next writeback to end (waking the flusher
 * first if nothing is being written). false when nothing is in flight: no waiting helps.
 */
static bool reclaim_stall(struct model *m)
{
	uint64_t t0 = m->now, until;

	batch_end(m);
	if (!m->writeback_pages && m->dirty_pages)
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
		lru_activate(&m->lruvec.lru, id);
		return true;
	}
	if (folio_test(f, FOLIO_YOUNG)) {
		folio_clear(f, FOLIO_YOUNG);
		if (folio_test(f, FOLIO_REFERENCED)) {
			lru_activate(&m->lruvec.lru, id);
		} else {
			folio_set(f, FOLIO_REFERENCED);
			lru_rotate_inactive(&m->lruvec.lru, id);
		}
		return true;
	}
	return folio_test(f, FOLIO_DIRTY) &&
	       !model_file(m, f->file)->reclaim_kind->tail_folio(m, id);
}

bool reclaim_one(struct model *m)
{
	const struct lru_policy *kind = m->lru_kind;
	struct lru *l = &m->lruvec.lru;
	/* young folios take three passes; more than that and only writeback can help */
	uint64_t budget = 3 * lru_pages(l) + SWAP_CLUSTER_MAX, scanned = 0;

	for (;;) {
		uint32_t id = kind->reclaim_next(m);
		struct folio *f;
		uint64_t nr;

		if (id == FOLIO_NIL) {
			batch_end(m);
			if (!kind->reclaim_refill(m))
				return false;
			continue;
		}
		if (scanned > budget) {
			if (!reclaim_stall(m))
				return false;
			scanned = 0;
			budget = 3 * lru_pages(l) + SWAP_CLUSTER_MAX;
			continue;
		}
		f = folio_at(&m->pool, id);
		if (folio_test(f, FOLIO_WRITEBACK) && folio_test_reclaim(m, f)) {
			if (!reclaim_stall(m))
				return false;
			continue;
		}
		nr = folio_nr_pages(f);
		scanned += nr;
		batch_begin(m);
		if (tail_folio_stays(m, id, f)) {
			batch_take(m, nr);
			continue;
		}
		batch_take(m, nr);
		reclaim_evict(m, id);
		return true;
	}
}

bool reclaim_until_free(struct model *m, uint64_t pages)
{
	while (buddy_free_pages(m->buddy) < pages)
		if (!reclaim_one(m))
			return false;
	return true;
}

/*
 * The kernel keeps an evicted large folio's shadow in one multi-index entry over all its
 * indices; a smaller folio added inside splits it (xas_split) and the other indices keep the
 * shadow. Here: the pieces of [start, start + 2^o) around the new folio's range are stored
 * again, aligned power-of-two blocks with the same eviction age.
 */
static void shadow_split_around(struct model *m, uint32_t file, uint64_t start, unsigned o,
				uint64_t idx, unsigned order, uint64_t eviction)
{
	struct mfile *mf = model_file(m, file);

	while (o > order) {
		uint64_t half = 1ull << --o;
		uint64_t other = (idx & half) ? start : start + half;

		shadow_store(&m->shadow, file, mf->gen, other, o, eviction);
		mf->shadow_mask |= (uint16_t)(1u << o);
		if (idx & half)
			start += half;
	}
}

void memcg_stats_flush(struct model *m)
{
	m->lruvec.shadow_bound_pages = lru_pages(&m->lruvec.lru);
}

/*
 * The shadow shrinker (mm/workingset.c): count_shadow_nodes() lets it free xarray nodes holding
 * only shadows above pages / 8 of them, pages being the memory outside a cgroup and the memory
 * cgroup's LRU size as its statistics were last flushed inside one (every 2 s by
 * flush_memcg_stats_dwork(), and when memory.stat is read). With seeks 0, do_shrink_slab()
 * scans half the excess in batches of SHRINK_BATCH, none below a batch: the oldest nodes go,
 * 128 at a time, once the excess reaches 256. A node holds 64 slots: shadows of folios below
 * order 6 take a slot a page, larger ones a slot per 64 pages one level up, so 64 evicted
 * pages of small folios fill a node and 4096 of large ones do (the run's mix of the two sets
 * the nodes a page of evictions makes). The shadows freed are those evicted before
 * shadow_horizon, which moves forward, never back. Right after a cgroup is made its
 * statistics still say it is empty, so the small folios' shadows go at once and a reread can
 * refault nothing. Seen on this 6.18 machine, a 160 MiB file read twice in 1 MiB reads with
 * POSIX_FADV_RANDOM in a 96 MiB cgroup: no pause, 0 refaults; 3 s between the reads, 32768
 * (the shrinker freed 128 nodes of the first pass as its excess reached 256); with large
 * folios, 42436 of 40960 pages (node-cheap shadows).
 */
void shadow_shrink(struct model *m)
{
	uint64_t bound = m->nr_pages, freed;
	double units, excess;

	if (m->cfg.memcg) {
		if (m->now >= m->lruvec.next_stats_flush) {
			memcg_stats_flush(m);
			m->lruvec.next_stats_flush = m->now -
					      (m->now - m->lruvec.next_stats_flush) % STATS_FLUSH_NS +
					      STATS_FLUSH_NS;
		}
		bound = m->lruvec.shadow_bound_pages;
	}
	if (!m->mx.evicted_pages)
		return;
	/* slot units a page (4096 a node): 64 for small folios, 1 for large, the run's mix */
	units = (double)m->shadow_slot_units / (double)m->mx.evicted_pages;
	excess = (double)(m->lruvec.nonresident_age - m->shadow_horizon) * units / 4096.0 -
		 (double)(bound >> 3);
	freed = (uint64_t)(excess / 2 / SHRINK_BATCH) * SHRINK_BATCH;
	if (excess >= 2 * SHRINK_BATCH && freed)
		m->shadow_horizon += (uint64_t)((double)freed * 4096.0 / units);
}

/*
 * Counted in pages of the new folio, as workingset_refault() adds folio_nr_pages() to
 * workingset_refault_file and workingset_activate_file; the folio counts are kept beside.
 */
bool workingset_refault(struct model *m, uint32_t file, uint64_t idx, unsigned order)
{
	struct mfile *mf = model_file(m, file);
	unsigned mask = mf->shadow_mask;
	uint64_t eviction, nr = 1ull << order;

	while (mask) {
		unsigned o = 31u - (unsigned)__builtin_clz(mask);
		uint64_t start = idx & ~((1ull << o) - 1);

		mask &= ~(1u << o);
		if (!shadow_take(&m->shadow, file, mf->gen, start, o, &eviction))
			continue;
		if (eviction < m->shadow_horizon)	/* the shrinker freed it */
			return false;
		if (o > order)
			shadow_split_around(m, file, start, o, idx, order, eviction);
		m->mx.refaults += nr;
		m->mx.refault_folios++;
		if (m->lru_kind->refault_activates && m->lru_kind->refault_activates(m, eviction)) {
			m->mx.refault_activations += nr;
			m->mx.refault_activation_folios++;
			m->lruvec.nonresident_age += nr;
			return true;
		}
		return false;
	}
	return false;
}
