/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LRU vector of a memory cgroup on a node (include/linux/mmzone.h struct lruvec): its
 * file lists, the nonresident age mm/workingset.c measures refault distances in, the LRU size
 * the shadow shrinker last read from the cgroup's flushed statistics, and the batch reclaim
 * is taking from it (mm/vmscan.c isolate_lru_folios(), shrink_inactive_list()). A model has
 * one per memory cgroup, on its one node.
 */
#ifndef FT_MODEL_LRUVEC_H
#define FT_MODEL_LRUVEC_H

#include <stdbool.h>
#include <stdint.h>

#include "model/lru/lru.h"

/* include/linux/mmzone.h: MGLRU's generations and tiers */
#define MIN_NR_GENS	2u
#define MAX_NR_GENS	4u
#define MAX_NR_TIERS	4u
#define LRU_REFS_WIDTH	2u	/* folio_inc_refs() counts to 3 beyond PG_workingset */
#define MIN_LRU_BATCH	64u	/* BITS_PER_LONG */

/*
 * MGLRU's state for the file type (struct lru_gen_folio): the sequence numbers of the
 * youngest and oldest generations (generation seq is lru.lists[seq % MAX_NR_GENS]), and the
 * PID controller's counts per tier: refaulted, evicted and protected pages by history slot
 * (NR_HIST_GENS = MAX_NR_GENS with CONFIG_MEMCG, as distributions build) and their running
 * averages. Each folio's generation and access count are in struct folio (gen, refs).
 */
struct lru_gen {
	uint64_t max_seq, min_seq;
	uint64_t avg_refaulted[MAX_NR_TIERS], avg_total[MAX_NR_TIERS];
	uint64_t refaulted[MAX_NR_GENS][MAX_NR_TIERS], evicted[MAX_NR_GENS][MAX_NR_TIERS];
	uint64_t protected[MAX_NR_GENS][MAX_NR_TIERS - 1];
	uint64_t promoted;	/* pages sort_folio() moved on: protected or promoted */
	/* evict_folios()'s batch: the pages still to isolate, the tiers it leaves (get_tier_idx()) */
	uint64_t batch_left;
	unsigned batch_tier_idx;
};

/*
 * One reclaim aimed at a memory cgroup (mm/vmscan.c, two-list LRU): the cgroup's own for limit
 * reclaim, the root's for global reclaim. prepare_scan_control() at its start lets the active
 * file list be deactivated when WORKINGSET_ACTIVATE_FILE moved since snapshot_refaults() took
 * it at the end of the last one (do_try_to_free_pages(), balance_pgdat()).
 */
struct reclaim_target {
	uint64_t refaults;	/* target_lruvec->refaults[WORKINGSET_FILE], pages */
	uint64_t reclaimed;	/* pages this reclaim has taken so far */
	bool running;
};

struct lruvec {
	struct lru lru;
	struct lru_gen gen;	/* the generations, with the mglru kind */
	uint64_t nonresident_age;	/* evictions + activations, pages (workingset) */
	/*
	 * the shadow shrinker's count of this lruvec's shadows (count_shadow_nodes() works on
	 * one memory cgroup's list_lru): pages evicted, their xarray slot units (x 64 below
	 * order 6, x 1 above) and the age below which its shadows are freed
	 */
	uint64_t evicted_pages, slot_units, shadow_horizon;
	/* the LRU pages as last flushed (count_shadow_nodes() reads them), and the next flush */
	uint64_t shadow_bound_pages, next_stats_flush;
	/* reclaim's current batch (SWAP_CLUSTER_MAX pages): its size, taken, dirty not queued */
	struct {
		uint64_t target, taken, unqueued_dirty;
	} scan;
	/*
	 * WORKINGSET_ACTIVATE_FILE of the cgroup (refaults it activated, pages) as counted and as
	 * last flushed (lruvec_page_state() reads the flushed one), the cgroup's limit reclaim,
	 * whether the reclaim now under way deactivates (DEACTIVATE_FILE: the refaults moved or
	 * the inactive list was low, both as last flushed), and the active pages it owes (x 2^16)
	 * for the inactive pages it scanned
	 */
	uint64_t activate_file, activate_file_flushed;
	/* anon pages workingset_test_recent() adds to the active file list (swap free), or 0 */
	uint64_t workingset_anon;
	/* NR_ACTIVE_FILE as last flushed: what workingset_test_recent() compares a distance to */
	uint64_t active_file_flushed;
	struct reclaim_target limit_reclaim;
	bool deactivate_file;
	uint64_t deactivate_credit;
	/* refaults.c's last active pages per inactive page taken; the shifted sizes and the
	 * folio size it is for */
	struct deactivate_kept {
		uint64_t active, inactive, folio_pages, ratio;
		unsigned shift;
		bool valid;
	} deactivate_kept;
};

#endif /* FT_MODEL_LRUVEC_H */
