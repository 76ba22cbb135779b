/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A memory cgroup (mm/memcontrol.c): its limits, what is charged to it and its LRU vector.
 * The first is the cgroup the trace's accesses ran in unless they say otherwise (the recorded
 * command's, or the root where it had none); the configuration may name more (a recording
 * of several cgroups). Each folio is charged to the cgroup of the access that inserted it
 * (folio_memcg()), and the layers that reclaim, age or count take the lruvec from it. The
 * cgroups are siblings: a parent's limit over its children is not modelled.
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
	/* memory.high in pages, 0 none: above it the charging task reclaims on its way out */
	uint64_t high_pages;
	/* global reclaim's walk (vmscan/reclaim.c): pages left of its share this round, and
	 * the fraction of a page carried to the next */
	uint64_t walk_quota, walk_carry;
	/* its limits may be written during the run (not where the memory is its limit) */
	bool follows_limits;
	/* a dirty domain of its own (cfg.dirty_domains): its wb's mdtc in balance_dirty_pages() */
	bool dirty_domain;
	/* its NR_FILE_DIRTY and NR_WRITEBACK (memcg_page_state()), pages */
	uint64_t nr_dirty, nr_writeback;
	/* pages charged to it besides the page cache the model has (not the first's: mem.others) */
	uint64_t others;
	struct lruvec lruvec;
};

/* Pages charged to the cgroup: its page cache and what others in it hold. */
uint64_t memcg_charged(const struct model *m, const struct mem_cgroup *memcg);
/*
 * What the cgroup holds besides the modelled page cache (kernel memory, its tasks' memory,
 * charges cached per CPU, files the trace left out) is pages now: reclaims within it for them.
 */
void memcg_set_others(struct model *m, struct mem_cgroup *memcg, uint64_t pages);
/*
 * try_charge_memcg(): room for pages more pages in the cgroup, reclaiming from its own
 * lruvec while the charge would pass its limit (no kswapd). false: nothing left to reclaim.
 */
bool memcg_try_charge(struct model *m, struct mem_cgroup *memcg, uint64_t pages);
/*
 * mem_cgroup_handle_over_high() -> reclaim_high(): an access that left its cgroup above
 * memory.high reclaims it back down before it returns (the penalty sleep is not modelled).
 */
void memcg_handle_over_high(struct model *m, struct mem_cgroup *memcg);
/*
 * memory_max_write() and memory_high_write() (v2), mem_cgroup_resize_max() (v1): new limits,
 * and the writer reclaims the cgroup until what is charged fits under them.
 */
void memcg_set_limits(struct model *m, struct mem_cgroup *memcg, uint64_t max_bytes,
		      uint64_t high_bytes, bool v1);
/*
 * The first cgroup's anon pages as sampled, which its file refaults count while swap is free
 * (mm/workingset.c workingset_test_recent(), 6.1 to 6.18).
 */
void memcg_set_anon(struct model *m, uint64_t pages, bool swap);
/* Set up the cgroups the configuration names; false when out of memory. */
bool memcg_init(struct model *m);
/* The LRU sizes of every cgroup together: what the node's lists hold. */
void memcg_lru_totals(const struct model *m, uint64_t *entries, uint64_t *pages,
		      uint64_t *inactive, uint64_t *inactive_pages);

#endif /* FT_MODEL_MEMCG_H */
