/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reclaim of the file LRU (mm/vmscan.c): what the allocation slow path and the memory
 * cgroup's charge call, and what the dirty reclaim kinds share with reclaim.c.
 */
#ifndef FT_MODEL_VMSCAN_H
#define FT_MODEL_VMSCAN_H

#include <stdbool.h>
#include <stdint.h>

#include "model/folio.h"

/* mm/vmscan.c: reclaim's batch, and the least a reclaim asks for */
#define SWAP_CLUSTER_MAX	32

struct model;

struct lruvec;
struct mem_cgroup;

/* reclaim.c: evicts one folio, stalling for writeback if it must; false: none can go */
bool reclaim_lruvec_one(struct model *m, struct lruvec *lruvec);
/* The same under global pressure: from the memory cgroups' lruvecs (kswapd, direct). */
bool reclaim_one(struct model *m);
/* Reclaims until pages pages are free; false when nothing more can be evicted. */
bool reclaim_until_free(struct model *m, uint64_t pages);
void reclaim_evict(struct model *m, uint32_t id);
void reclaim_proactive(struct model *m, uint32_t file, uint64_t first, uint64_t n);
/*
 * refaults.c: a reclaim aimed at the cgroup (NULL: global reclaim, the root's) begins:
 * prepare_scan_control() decides whether its lruvecs deactivate by the refault count
 */
void reclaim_prepare(struct model *m, struct mem_cgroup *memcg);
/* It took pages (more: it goes on); SWAP_CLUSTER_MAX of them end it but kswapd's. */
void reclaim_taken(struct model *m, struct mem_cgroup *memcg, uint64_t pages, bool more);
/* snapshot_refaults(): the reclaim ended (kswapd stopped), if one was under way. */
void reclaim_snapshot_refaults(struct model *m, struct mem_cgroup *memcg);
/*
 * The two lists' deactivation for scanned inactive pages, when the inactive list is low or the
 * refault count moved (refaults.c)
 */
void reclaim_deactivate_for(struct lruvec *lruvec, uint64_t scanned);
/* A dirty folio at the inactive tail: counted, and in the batch that may wake the flusher. */
void reclaim_note_dirty(struct model *m, const struct folio *f);
/* dirty_flusher.c: a dirty folio at the tail marked PG_reclaim and left to the flusher */
bool reclaim_leave_to_flusher(struct model *m, uint32_t id);
/* exec.c: the folio was mapped through a VM_EXEC mapping (folio_check_references()) */
bool exec_init(struct model *m);
void exec_release(struct model *m);
bool folio_test_exec(const struct model *m, const struct folio *f);
void folio_set_exec(struct model *m, const struct folio *f);
void folio_clear_exec(struct model *m, const struct folio *f);

#endif /* FT_MODEL_VMSCAN_H */
