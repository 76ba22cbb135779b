/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A memory cgroup (mm/memcontrol.c): its limit, what is charged to it and its LRU vector.
 * The model has one today, the cgroup the trace's accesses ran in (the recorded command's,
 * or the root where it had none): folio_memcg() names it for every folio, and the layers
 * that reclaim, age or count take the lruvec from it.
 */
#ifndef FT_MODEL_MEMCG_H
#define FT_MODEL_MEMCG_H

#include <stdbool.h>
#include <stdint.h>

#include "model/lru/lruvec.h"

struct model;

struct mem_cgroup {
	/*
	 * memory.max (v1 memory.limit_in_bytes) in pages, when the cgroup's limit is a budget
	 * apart from the zone (a recorded zone under a cgroup's limit); 0: the zone's memory
	 * is the only bound
	 */
	uint64_t max_pages;
	struct lruvec lruvec;
};

/* Pages charged to the cgroup: its page cache and what others in it hold. */
uint64_t memcg_charged(const struct model *m, const struct mem_cgroup *memcg);
/*
 * try_charge_memcg(): room for pages more pages in the cgroup, reclaiming from its own
 * lruvec while the charge would pass its limit (no kswapd). false: nothing left to reclaim.
 */
bool memcg_try_charge(struct model *m, struct mem_cgroup *memcg, uint64_t pages);

#endif /* FT_MODEL_MEMCG_H */
