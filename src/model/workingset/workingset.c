// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The working set (mm/workingset.c): the shadow entries evictions leave, the shrinker that
 * frees them, and refault detection against the lruvec's nonresident age. Large folios
 * leave one shadow over all their pages.
 */
#include "model/instance.h"

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

		shadow_store(&m->workingset.shadow, file, mf->gen, other, o, eviction);
		mf->shadow_mask |= (uint16_t)(1u << o);
		if (idx & half)
			start += half;
	}
}

void memcg_stats_flush_one(struct mem_cgroup *memcg)
{
	memcg->lruvec.shadow_bound_pages = lru_pages(&memcg->lruvec.lru);
	memcg->lruvec.activate_file_flushed = memcg->lruvec.activate_file;
	memcg->lruvec.active_file_flushed = memcg->lruvec.lru.active.pages;
}

void memcg_stats_flush(struct model *m)
{
	for (uint32_t i = 0; i < m->nr_memcgs; i++)
		memcg_stats_flush_one(memcg_of(m, i));
}

/*
 * The periodic flush (flush_memcg_stats_dwork()) when one is due: every cgroup's at once. Its
 * phase is not known: the model's first comes 2 s after the trace starts, unless the trace
 * gives the kernel's own flushes.
 */
void memcg_stats_flush_due(struct model *m)
{
	struct lruvec *first = &memcg_of(m, 0)->lruvec;

	if (m->cfg.memcg_flushes || m->now < first->next_stats_flush)
		return;
	memcg_stats_flush(m);
	first->next_stats_flush = m->now - (m->now - first->next_stats_flush) % STATS_FLUSH_NS +
				  STATS_FLUSH_NS;
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
 * folios, 42436 of 40960 pages (node-cheap shadows). Each cgroup's shadows sit on its own
 * list_lru and are counted against its own LRU size: the lruvec keeps its own counts.
 */
void shadow_shrink(struct model *m, struct lruvec *lruvec)
{
	uint64_t bound = m->mem.nr_pages, freed;
	double units, excess;

	if (m->cfg.memcg || m->nr_memcgs > 1) {
		memcg_stats_flush_due(m);
		/* the first cgroup is the root's memory when the trace ran under no limit */
		if (m->cfg.memcg || lruvec != &memcg_of(m, 0)->lruvec)
			bound = lruvec->shadow_bound_pages;
	}
	if (!lruvec->evicted_pages)
		return;
	/* slot units a page (4096 a node): 64 for small folios, 1 for large, the run's mix */
	units = (double)lruvec->slot_units / (double)lruvec->evicted_pages;
	excess = (double)(lruvec->nonresident_age - lruvec->shadow_horizon) * units / 4096.0 -
		 (double)(bound >> 3);
	freed = (uint64_t)(excess / 2 / SHRINK_BATCH) * SHRINK_BATCH;
	if (excess >= 2 * SHRINK_BATCH && freed)
		lruvec->shadow_horizon += (uint64_t)((double)freed * 4096.0 / units);
}

/*
 * A refault of the folio [idx, idx + 2^order) on the shadow it took (eviction): judged on the
 * evicting cgroup's lruvec (workingset_test_recent(), memcgid in the shadow), and counted.
 */
static bool refault_judge(struct model *m, uint64_t eviction, unsigned order)
{
	struct lruvec *lruvec = &memcg_of(m, shadow_memcg(eviction))->lruvec;
	uint64_t nr = 1ull << order;
	unsigned what;

	if (shadow_age(eviction) < lruvec->shadow_horizon)	/* the shrinker freed it */
		return false;
	if (eviction & SHADOW_START_OLD) {	/* counted, too far to activate */
		m->mx.refaults += nr;
		m->mx.refault_folios++;
		return false;
	}
	/* the folio comes back to the cgroup of the access that faults it in */
	what = m->lru_kind->refault ?
	       m->lru_kind->refault(m, lruvec, &memcg_of(m, m->charging)->lruvec, eviction,
				    order) : 0;
	if (what & LRU_REFAULT_UNCOUNTED)
		return false;
	m->mx.refaults += nr;
	m->mx.refault_folios++;
	if (what & LRU_REFAULT_ACTIVATE) {
		m->mx.refault_activations += nr;
		m->mx.refault_activation_folios++;
	}
	return what & LRU_REFAULT_ADD_ACTIVE;
}

/* The shadow with the highest start a range held so far. */
struct shadow_last {
	bool found;
	uint64_t index, eviction;
};

/* Takes the shadow of the block (index, order) if any: the highest-starting one found kept. */
static void take_block(struct model *m, struct mfile *mf, uint32_t file, uint64_t index,
		       unsigned order, struct shadow_last *last)
{
	uint64_t e;

	if (!shadow_take(&m->workingset.shadow, file, mf->gen, index, order, &e))
		return;
	if (!last->found || index >= last->index) {
		last->eviction = e;
		last->index = index;
	}
	last->found = true;
}

/*
 * __filemap_add_folio() (mm/filemap.c, 6.1 to 6.18): xas_for_each_conflict() visits every
 * entry of the new folio's range in index order, the folio replaces them all, and the last one
 * visited is the shadow workingset_refault() judges. So a readahead folio over base pages
 * evicted at random refaults when any of them left a shadow, not only its first (a file read
 * at odd pages, evicted, then read through, live on 6.18: 3979 pages refaulted, the folios'
 * first pages alone gave 395). The blocks of the orders below the folio's inside it are
 * taken; true with the highest-starting one's age in *eviction.
 */
static bool shadow_take_inside(struct model *m, struct mfile *mf, uint32_t file, uint64_t idx,
			       unsigned order, uint64_t *eviction)
{
	const struct shadow_table *t = &m->workingset.shadow;
	uint64_t end = idx + (1ull << order), region = 1ull << SHADOW_HINT_SHIFT;
	unsigned below = mf->shadow_mask & ((1u << order) - 1);
	unsigned small = below & ((1u << SHADOW_HINT_SHIFT) - 1);
	struct shadow_last last = { .found = false };

	/* blocks of a region or more: no hint */
	for (unsigned large = below & ~small; large; large &= large - 1) {
		unsigned o = (unsigned)__builtin_ctz(large);

		for (uint64_t i = idx; i < end; i += 1ull << o)
			take_block(m, mf, file, i, o, &last);
	}
	/* smaller ones region by region, orders 1..5 where the region's hint has their bit */
	for (uint64_t r = idx; small && r < end; r += region) {
		uint64_t hint = shadow_hint_bits(t, file, mf->gen, r);
		uint64_t stop = end - r < region ? end : r + region;

		for (unsigned k = small; k; k &= k - 1) {
			unsigned o = (unsigned)__builtin_ctz(k);

			for (uint64_t i = r; i < stop; i += 1ull << o)
				if (!o || (hint >> shadow_hint_bit(i, o) & 1))
					take_block(m, mf, file, i, o, &last);
		}
	}
	*eviction = last.eviction;
	return last.found;
}

/*
 * Counted in pages of the new folio, as workingset_refault() adds folio_nr_pages() to
 * workingset_refault_file and workingset_activate_file; the folio counts are kept beside.
 * An entry of the folio's order or larger over idx is the only one its range can hold
 * ("a larger entry ... will be the first and only entry iterated"); else the smaller ones
 * inside it.
 */
bool workingset_refault(struct model *m, uint32_t file, uint64_t idx, unsigned order)
{
	struct mfile *mf = model_file(m, file);
	unsigned below = (1u << order) - 1;
	unsigned mask = shadow_orders_at(&m->workingset.shadow, file, mf->gen, idx,
					 mf->shadow_mask & ~below);
	uint64_t eviction;

	while (mask) {
		unsigned o = 31u - (unsigned)__builtin_clz(mask);
		uint64_t start = idx & ~((1ull << o) - 1);

		mask &= ~(1u << o);
		if (!shadow_take(&m->workingset.shadow, file, mf->gen, start, o, &eviction))
			continue;
		if (shadow_age(eviction) >= memcg_of(m, shadow_memcg(eviction))->lruvec.shadow_horizon &&
		    o > order)
			shadow_split_around(m, file, start, o, idx, order, eviction);
		return refault_judge(m, eviction, order);
	}
	if ((mf->shadow_mask & below) && shadow_take_inside(m, mf, file, idx, order, &eviction))
		return refault_judge(m, eviction, order);
	return false;
}

/*
 * The pages of file evicted before the trace whose shadow entries cachestat(2) found
 * (FT_START_SHADOWS), stored as the lruvec of the start cache's cgroup would have left them,
 * in the largest aligned blocks (the folios they were are not known). Recently evicted ones
 * (cachestat's nr_recently_evicted: workingset_test_recent() true at the probe) at the age of
 * the start, so their refault distance is what the trace evicts before it; the others with
 * SHADOW_START_OLD, refaults that no distance activates. The lruvec's age does not move:
 * a recent one's distance is what the replay evicts and activates before its read. The
 * shadow shrinker does not count them (the kernel's may free some before the trace reads
 * them).
 */
void workingset_start_shadows(struct model *m, uint32_t file, uint64_t first, uint64_t n,
			      bool recent)
{
	struct mfile *mf = model_file(m, file);
	unsigned memcg = m->cfg.start_cache_memcg;
	struct lruvec *lruvec;
	uint64_t eviction;

	if (memcg == MODEL_MEMCG_NONE || memcg >= m->nr_memcgs)
		return;		/* the start cache's cgroup is not modelled: nor its shadows */
	if (!(m->keep & MODEL_KEEP_SHADOWS))
		return;		/* refaults neither decide nor are reported */
	lruvec = &memcg_of(m, memcg)->lruvec;
	eviction = shadow_pack(lruvec->nonresident_age, memcg, 0);
	while (n) {
		unsigned o = first ? (unsigned)__builtin_ctzll(first) : 63;
		uint64_t nr;

		while (o && (1ull << o) > n)
			o--;
		if (o > MODEL_MAX_ORDER)
			o = MODEL_MAX_ORDER;
		nr = 1ull << o;
		shadow_store(&m->workingset.shadow, file, mf->gen, first, o,
			     recent ? eviction : eviction | SHADOW_START_OLD);
		mf->shadow_mask |= (uint16_t)(1u << o);
		first += nr;
		n -= nr;
	}
}
