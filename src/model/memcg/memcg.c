// SPDX-License-Identifier: GPL-2.0-or-later
/* A memory cgroup's charge and limit reclaim (mm/memcontrol.c): see memcg.h. */
#include "model/instance.h"

uint64_t memcg_charged(const struct model *m, const struct mem_cgroup *memcg)
{
	return lru_pages(&memcg->lruvec.lru) + m->mem.nr_others;
}

bool memcg_try_charge(struct model *m, struct mem_cgroup *memcg, uint64_t pages)
{
	uint64_t limit = memcg->max_pages;

	if (!limit)
		return true;
	while (memcg_charged(m, memcg) + pages > limit)
		if (!reclaim_lruvec_one(m, &memcg->lruvec))
			return false;
	return true;
}
