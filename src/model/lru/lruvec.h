/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LRU vector of a memory cgroup on a node (include/linux/mmzone.h struct lruvec): its
 * file lists, the nonresident age mm/workingset.c measures refault distances in, the LRU size
 * the shadow shrinker last read from the cgroup's flushed statistics, and the batch reclaim
 * is taking from it (mm/vmscan.c isolate_lru_folios(), shrink_inactive_list()). A model has
 * one: one node, one cgroup.
 */
#ifndef FT_MODEL_LRUVEC_H
#define FT_MODEL_LRUVEC_H

#include <stdint.h>

#include "model/lru/lru.h"

struct lruvec {
	struct lru lru;
	uint64_t nonresident_age;	/* evictions + activations, pages (workingset) */
	/* the LRU pages as last flushed (count_shadow_nodes() reads them), and the next flush */
	uint64_t shadow_bound_pages, next_stats_flush;
	/* reclaim's current batch (SWAP_CLUSTER_MAX pages): its size, taken, dirty not queued */
	struct {
		uint64_t target, taken, unqueued_dirty;
	} scan;
};

#endif /* FT_MODEL_LRUVEC_H */
