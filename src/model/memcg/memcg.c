// SPDX-License-Identifier: GPL-2.0-or-later
/* Memory cgroups' charges and limit reclaim (mm/memcontrol.c): see memcg.h. */
#include <stdlib.h>

#include "model/lru/kind.h"

/* A limit in bytes as pages: 0 for none (UINT64_MAX), at least a page otherwise. */
static uint64_t limit_pages(const struct model *m, uint64_t bytes)
{
	uint64_t pages = bytes >> m->page_shift;

	if (bytes == UINT64_MAX)
		return 0;
	return pages ? pages : 1;
}

bool memcg_init(struct model *m)
{
	const struct model_config *c = &m->cfg;
	uint32_t n = 1 + (c->nr_memcgs < MODEL_MAX_MEMCGS ? c->nr_memcgs : MODEL_MAX_MEMCGS - 1);

	m->memcgs = calloc(n, sizeof(*m->memcgs));
	if (!m->memcgs)
		return false;
	m->nr_memcgs = n;
	for (uint32_t i = 0; i < n; i++) {
		struct lruvec *lruvec = &m->memcgs[i].lruvec;

		lru_init(&lruvec->lru, &m->pool, m->page_shift);
		lruvec->gen.max_seq = MIN_NR_GENS + 1;	/* lru_gen_init_lruvec() */
		m->memcgs[i].dirty_domain = c->dirty_domains >> i & 1;
		if (!i)	/* the trace samples the anon memory of the first */
			lruvec->workingset_anon = c->swap == SWAP_ON ? c->workingset_anon_pages : 0;
		if (i) {
			m->memcgs[i].follows_limits = true;
			m->memcgs[i].max_pages = limit_pages(m, c->memcgs[i - 1].max_bytes);
			m->memcgs[i].high_pages = limit_pages(m, c->memcgs[i - 1].high_bytes);
		}
	}
	return true;
}

void memcg_set_anon(struct model *m, uint64_t pages, bool swap)
{
	memcg_of(m, 0)->lruvec.workingset_anon = swap ? pages : 0;
}

uint64_t memcg_charged(const struct model *m, const struct mem_cgroup *memcg)
{
	/* what others hold is sampled for the recorded command's cgroup, the first */
	return lru_pages(&memcg->lruvec.lru) + (memcg == m->memcgs ? m->mem.nr_others :
						 memcg->others);
}

/* One folio of the cgroup's limit reclaim (vmscan/refaults.c: when it begins and ends). */
static bool memcg_reclaim_one(struct model *m, struct mem_cgroup *memcg)
{
	uint64_t before = lru_pages(&memcg->lruvec.lru);
	bool took;

	reclaim_prepare(m, memcg);
	took = reclaim_lruvec_one(m, &memcg->lruvec);
	reclaim_taken(m, memcg, before - lru_pages(&memcg->lruvec.lru), took);
	return took;
}

/*
 * The rest of the batch the LRU kind began (try_to_free_mem_cgroup_pages() asks for
 * SWAP_CLUSTER_MAX pages, but MGLRU's evict_folios() reclaims all it isolated).
 */
static void memcg_reclaim_batch_rest(struct model *m, struct mem_cgroup *memcg)
{
	bool (*open)(const struct lruvec *lruvec) = m->lru_kind->reclaim_batch_open;

	while (open && open(&memcg->lruvec) && memcg_reclaim_one(m, memcg))
		;
}

bool memcg_try_charge(struct model *m, struct mem_cgroup *memcg, uint64_t pages)
{
	uint64_t limit = memcg->max_pages;
	bool reclaimed = false;

	if (!limit)
		return true;
	while (memcg_charged(m, memcg) + pages > limit) {
		if (!memcg_reclaim_one(m, memcg))
			return false;
		reclaimed = true;
	}
	if (reclaimed)
		memcg_reclaim_batch_rest(m, memcg);
	return true;
}

void memcg_set_others(struct model *m, struct mem_cgroup *memcg, uint64_t pages)
{
	memcg->others = pages;
	memcg_try_charge(m, memcg, 0);
}

void memcg_handle_over_high(struct model *m, struct mem_cgroup *memcg)
{
	uint64_t high = memcg->high_pages;
	bool reclaimed = false;

	while (high && memcg_charged(m, memcg) > high) {
		if (!memcg_reclaim_one(m, memcg))
			return;
		reclaimed = true;
	}
	if (reclaimed)
		memcg_reclaim_batch_rest(m, memcg);
}

#define DEF_PRIORITY		12	/* mm/vmscan.c: a level scans size >> priority */
#define MAX_RECLAIM_RETRIES	16	/* mm/memcontrol.c: rounds that may reclaim nothing */

/*
 * try_to_free_mem_cgroup_pages() of goal pages on the two-list LRU (do_try_to_free_pages(),
 * shrink_lruvec(), 6.1-6.18): priority levels from DEF_PRIORITY down, each taking the
 * lruvec's size >> priority, the goal checked after each level; within one, shrink_lruvec()
 * stops once it alone reclaimed the goal. So a goal past what the levels down to priority 1
 * take (about 71% of the list) takes the whole list at priority 0: what 6.1 did when a 32
 * MiB cgroup's max went to 8 MiB (every page of its file dropped). The pages a level takes
 * are counted as evicted, not as scanned. MGLRU and the plain list reclaim the goal itself
 * (try_to_shrink_lruvec() stops at nr_to_reclaim).
 */
static uint64_t reclaim_by_priority(struct model *m, struct mem_cgroup *memcg, uint64_t goal)
{
	struct lru *l = &memcg->lruvec.lru;
	uint64_t before = lru_pages(l), done = 0;

	if (m->cfg.lru != LRU_TWO_LIST) {
		while (done < goal && reclaim_lruvec_one(m, &memcg->lruvec))
			done = before - lru_pages(l);
		return done;
	}
	for (int prio = DEF_PRIORITY; prio >= 0 && done < goal; prio--) {
		uint64_t level_start = lru_pages(l), quota = level_start >> prio, taken = 0;

		while (taken < quota && taken < goal && reclaim_lruvec_one(m, &memcg->lruvec))
			taken = level_start - lru_pages(l);
		done = before - lru_pages(l);
	}
	return done;
}

/*
 * The writer of a limit: while the cgroup is over it, try_to_free_mem_cgroup_pages() of the
 * excess (v2: memory_max_write(), memory_high_write()), or of SWAP_CLUSTER_MAX pages at a
 * time (v1: mem_cgroup_resize_max() asks for one page), giving up after MAX_RECLAIM_RETRIES
 * rounds that freed nothing (v2 would go on to the OOM killer; v1 fails the write with EBUSY
 * and keeps the old limit, which the recorder then reads back).
 */
static void reclaim_to_limit(struct model *m, struct mem_cgroup *memcg, uint64_t limit, bool v1)
{
	unsigned retries = MAX_RECLAIM_RETRIES;
	uint64_t charged;

	while (limit && (charged = memcg_charged(m, memcg)) > limit)
		if (!reclaim_by_priority(m, memcg, v1 ? SWAP_CLUSTER_MAX : charged - limit) &&
		    !retries--)
			return;
}

void memcg_set_limits(struct model *m, struct mem_cgroup *memcg, uint64_t max_bytes,
		      uint64_t high_bytes, bool v1)
{
	memcg->max_pages = limit_pages(m, max_bytes);
	memcg->high_pages = limit_pages(m, high_bytes);
	reclaim_to_limit(m, memcg, memcg->max_pages, v1);
	reclaim_to_limit(m, memcg, memcg->high_pages, v1);
}

void memcg_lru_totals(const struct model *m, uint64_t *entries, uint64_t *pages,
		      uint64_t *inactive, uint64_t *inactive_pages)
{
	*entries = *pages = *inactive = *inactive_pages = 0;
	for (uint32_t i = 0; i < m->nr_memcgs; i++) {
		const struct lruvec *lruvec = &m->memcgs[i].lruvec;
		uint64_t ia, iap;

		*entries += lru_entries(&lruvec->lru);
		*pages += lru_pages(&lruvec->lru);
		if (inactive) {
			lruvec_inactive(m, lruvec, &ia, &iap);
			*inactive += ia;
			*inactive_pages += iap;
		}
	}
}
