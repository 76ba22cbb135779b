/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The modelled memory: one zone, its buddy allocator, what each used page holds and the page
 * state kept by pfn (as struct page keeps flags), which compaction moves with the folio.
 * struct model's mem; memory.c, alloc.c, init.c and compaction.c keep it.
 */
#ifndef FT_MODEL_MEMORY_H
#define FT_MODEL_MEMORY_H

#include <stdbool.h>
#include <stdint.h>

#include "model/folio.h"
#include "model/memory/buddy.h"
#include "model/memory/zone.h"

struct model;

struct memory {
	struct buddy *buddy;
	struct zone zone;		/* watermarks, compaction state (zone.h) */
	uint64_t nr_pages;		/* modelled memory in pages */
	uint32_t *others;		/* page frames others hold (memory_set_others) */
	uint64_t nr_others, cap_others;
	/*
	 * State by pfn: compaction moves it with the folio (memory_move_pfn_state). The bitmaps
	 * cover the pfns below pfn_cover, grown as folios take higher ones (memory_cover_pfns),
	 * so their size follows the highest page the cache used, not the modelled memory.
	 */
	uint64_t pfn_cover;
	uint64_t *touched_pfn;		/* page accessed since it was cached, by pfn */
	uint64_t *dirty_units;		/* track_block.c: dirty units, by pfn << upp_shift */
	uint64_t *uptodate_units;	/* track_block.c: uptodate units, same index */
	uint64_t *reclaim_pfn;		/* PG_reclaim, by the folio's first pfn */
	/* filemap/dontcache.c: PG_dropbehind, and "its writeback ends in task context" */
	uint64_t *dropbehind_pfn, *dropbehind_wb_pfn;
	uint64_t dropbehind_folios;	/* folios with PG_dropbehind: none, no bit is looked at */
	uint64_t *exec_pfn;		/* vmscan/exec.c: mapped VM_EXEC, by the folio's first pfn */
	uint64_t allocs;		/* folio allocations: every 256th samples fragmentation */
	/*
	 * Set while readahead allocates (readahead_gfp_mask(): __GFP_NORETRY, and no smaller
	 * order on failure): a scope, as memalloc_nofs_save() scopes the kernel's
	 */
	bool no_smaller;
};

/* memory.c: a bitmap by pfn << shift for the pfns covered so far; NULL on ENOMEM. */
uint64_t *memory_pfn_bitmap_new(const struct model *m, unsigned shift);
/* alloc.c: buddy allocation for a folio, reclaiming and falling back as configured. */
uint64_t memory_alloc_folio(struct model *m, unsigned *order);
/* Others (anonymous memory, files the model leaves out) now hold pages pages of the memory. */
void memory_set_others(struct model *m, uint64_t pages);
/*
 * memory.c: pages counted, not placed (count), or placed again: false when the model's
 * placement can decide (count: a higher order, a recorded zone) or pages are in use already
 * (model_set_keep()'s MODEL_KEEP_ADDRESSES).
 */
bool memory_count_pages(struct model *m, bool count);
/* init.c: the zone as the configuration and the recorded state say; false on ENOMEM. */
bool memory_init(struct model *m);
/* memory.c: the tag of the i-th page others hold */
uint32_t memory_others_tag(uint64_t i);
/* A folio was cached at its pfn / is going: the allocator's tag and the block. */
void memory_folio_added(struct model *m, uint32_t id);
void memory_free_folio(struct model *m, const struct folio *f);
/* A block of pages from memory_alloc_folio that no folio took after all. */
void memory_free_pages(struct model *m, uint64_t pfn, unsigned order);
/*
 * The pageblock holding pfn keeps the heads of its movable blocks by order from now on
 * (buddy_next_head()), marked from its tags the first time; false when it cannot.
 */
bool memory_track_heads(struct model *m, uint64_t pfn);
/* Moves a used block (a folio, or one page of others) to the free block at to (compaction). */
bool memory_migrate(struct model *m, uint64_t from, uint64_t to, unsigned order, uint32_t tag);
/* Is tag a folio's (set at its first pfn while it is cached, cleared when it is freed)? */
bool memory_tag_is_folio(uint32_t tag);
/* The order of the used block whose tag is tag at pfn; -1: not movable. */
int memory_movable_order(struct model *m, uint32_t tag);
/*
 * Hints the descriptor of the folio at pfn, if one starts there: compaction's scanner reads
 * the order of a folio a page, each a miss in the folio pool. Changes no state.
 */
void memory_prefetch_movable(const struct model *m, uint64_t pfn);
/* The unusable free space index at the configured order, into its distribution. */
void memory_sample_fragmentation(struct model *m);

/* compaction.c: mm/compaction.c's decisions and kcompactd */
bool zone_watermark_ok(const struct model *m, unsigned order, uint64_t mark);
/*
 * Direct compaction for an allocation of order, MIGRATE_ASYNC or MIGRATE_SYNC_LIGHT: the block
 * when it got one, else BUDDY_NO_PFN; *rc what compaction said.
 */
uint64_t compact_direct(struct model *m, unsigned order, bool async, enum compact_result *rc);
/* mm/vmscan.c compaction_ready(): direct reclaim for a costly order has nothing to do. */
bool compaction_ready(const struct model *m, unsigned order);
void wakeup_kcompactd(struct model *m, unsigned order);
/* kcompactd's work: woken for an order, and its proactive check every 500 ms. */
void kcompactd_run(struct model *m);

#endif /* FT_MODEL_MEMORY_H */
