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
		if (!i)	/* the trace samples the anon memory of the first */
			lruvec->workingset_anon = c->swap == SWAP_ON ? c->workingset_anon_pages : 0;
		if (i) {
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
	return lru_pages(&memcg->lruvec.lru) + (memcg == m->memcgs ? m->mem.nr_others : 0);
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

bool memcg_try_charge(struct model *m, struct mem_cgroup *memcg, uint64_t pages)
{
	uint64_t limit = memcg->max_pages;

	if (!limit)
		return true;
	while (memcg_charged(m, memcg) + pages > limit)
		if (!memcg_reclaim_one(m, memcg))
			return false;
	return true;
}

void memcg_handle_over_high(struct model *m, struct mem_cgroup *memcg)
{
	uint64_t high = memcg->high_pages;

	while (high && memcg_charged(m, memcg) > high)
		if (!memcg_reclaim_one(m, memcg))
			return;
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
