/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The zone's page allocator over page frames 0..nr_pages-1 (orders 0..BUDDY_MAX_ORDER), as
 * mm/page_alloc.c has it: pageblocks of 2^PAGEBLOCK_ORDER pages, each of a migratetype, with
 * one free list per order and migratetype; allocations take the smallest block of their own
 * type, else fall back to another type, claiming a whole pageblock or stealing one block;
 * frees merge with free buddies. The kernel's fragmentation indexes (mm/vmstat.c) are
 * computed from its free counts (fragindex.c).
 *
 * Sparse: nothing is kept per page or per pageblock until it is used, so the memory of the
 * allocator follows what is allocated, not nr_pages (2^32 pages take a few MiB of address
 * space and touch kilobytes).
 */
#ifndef FT_MODEL_BUDDY_H
#define FT_MODEL_BUDDY_H

#include <stdbool.h>
#include <stdint.h>

#define BUDDY_MAX_ORDER		10	/* MAX_PAGE_ORDER */
#define BUDDY_NO_PFN		UINT64_MAX
#define PAGEBLOCK_ORDER		9	/* pageblock_order: HPAGE_PMD_ORDER on x86-64 */
#define PAGEBLOCK_PAGES		(1u << PAGEBLOCK_ORDER)
#define PAGE_ALLOC_COSTLY_ORDER	3

/*
 * include/linux/mmzone.h: the migratetypes that have free lists of their own. HighAtomic
 * stands for every type no allocation of the model falls back to (MIGRATE_HIGHATOMIC, CMA,
 * ISOLATE): their free blocks are free memory, never handed out.
 */
enum migratetype {
	MT_UNMOVABLE,
	MT_MOVABLE,
	MT_RECLAIMABLE,
	MT_HIGHATOMIC,
	MT_TYPES,
};
#define MT_PCPTYPES	3	/* MIGRATE_PCPTYPES: the types that fall back to each other */

/* What a used page holds, for compaction (the model sets it; the allocator only keeps it). */
#define BUDDY_TAG_NONE		0u		/* not set: free, or a page the model does not know */
#define BUDDY_TAG_MOVABLE	UINT32_MAX	/* someone else's movable page (anonymous memory) */
#define BUDDY_TAG_PINNED	(UINT32_MAX - 1)	/* someone else's page compaction can't move */
#define BUDDY_TAG_TAIL		(UINT32_MAX - 2)	/* a later page of a block tagged at its head */
#define BUDDY_TAG_MAX		(UINT32_MAX - 3)	/* tags below this are the model's own */

struct buddy;

/* What the fallbacks did: mm_page_alloc_extfrag events, by the way they went. */
struct buddy_stats {
	uint64_t claimed;		/* __rmqueue_claim(): a pageblock changed type for an alloc */
	uint64_t claimed_blocks;	/* pageblocks that changed type that way */
	uint64_t stolen;		/* __rmqueue_steal(): one block taken from another type */
	uint64_t merged_types;		/* frees that merged two pageblocks of different types */
};

/* All nr_pages free, every pageblock MOVABLE (as memmap_init leaves them). NULL on ENOMEM. */
struct buddy *buddy_new(uint64_t nr_pages);
void buddy_destroy(struct buddy *b);

/*
 * Pages counted, not placed (on), or placed again (off): an allocation takes any page not in
 * use (the one freed last first), a free gives it back, the free lists, pageblocks and tags
 * stay as they were, and the queries below answer from them. For a caller whose every
 * allocation is a MOVABLE page of order 0 and which asks nothing of placement: then whether an
 * allocation succeeds depends on the free page count alone, as it does in the buddy allocator
 * when every pageblock is MOVABLE. Only while every page is free; false otherwise (the mode
 * unchanged). An allocation of a higher order in it aborts.
 */
bool buddy_count_only(struct buddy *b, bool on);
/* A free block of exactly 2^order pages for a MOVABLE allocation, or BUDDY_NO_PFN. */
uint64_t buddy_alloc(struct buddy *b, unsigned order);
/*
 * __rmqueue(): the smallest free block of the type (lowest address within an order, where
 * the kernel takes its list's head, so results are reproducible), else a fallback.
 */
uint64_t buddy_alloc_mt(struct buddy *b, unsigned order, unsigned mt);
/* Gives back a MOVABLE block buddy_alloc returned; merges with free buddies. */
void buddy_free(struct buddy *b, uint64_t pfn, unsigned order);
/* Gives back a block allocated as mt. */
void buddy_free_mt(struct buddy *b, uint64_t pfn, unsigned order, unsigned mt);
/*
 * Takes the block [pfn, pfn + 2^order) out of the free block that holds it, as mt (the rest
 * stays free, on the lists of its pageblock's type). false when it is not all free.
 */
bool buddy_take(struct buddy *b, uint64_t pfn, unsigned order, unsigned mt);
/* Pins pct percent of the pages (order-0, pseudo-random pfns from seed): non-cache users. */
void buddy_pin_random(struct buddy *b, double pct, uint64_t seed);
/* Sets the type of the pageblock holding pfn; it must have no free block of its own yet. */
void buddy_set_pageblock_type(struct buddy *b, uint64_t pfn, unsigned mt);

uint64_t buddy_nr_pages(const struct buddy *b);
uint64_t buddy_free_pages(const struct buddy *b);
/* Pages taken by buddy_pin_random (never freed). */
uint64_t buddy_pinned_pages(const struct buddy *b);
/* Free blocks per order, the /proc/buddyinfo row. */
void buddy_free_counts(const struct buddy *b, uint64_t nr_free[BUDDY_MAX_ORDER + 1]);
/* Free blocks per migratetype and order, the /proc/pagetypeinfo rows. */
void buddy_free_counts_mt(const struct buddy *b,
			  uint64_t nr_free[MT_TYPES][BUDDY_MAX_ORDER + 1]);
/* Pageblocks of each type. */
void buddy_pageblock_counts(const struct buddy *b, uint64_t nr[MT_TYPES]);
void buddy_stats(const struct buddy *b, struct buddy_stats *st);
/* Is a block of this order (or larger) free right now? */
bool buddy_can_alloc(const struct buddy *b, unsigned order);
/* A free block of at least order on the list of mt? */
bool buddy_free_area_has(const struct buddy *b, unsigned order, unsigned mt);
/*
 * find_suitable_fallback(): the first type of mt's fallback list with a free block of exactly
 * order, -1 when none; *can_claim: the block may be claimed whole (should_try_claim_block()).
 */
int buddy_find_fallback(const struct buddy *b, unsigned order, unsigned mt, bool *can_claim);

/* ---- what compaction needs to see ------------------------------------------------------- */

unsigned buddy_pageblock_type(const struct buddy *b, uint64_t pfn);
/* Pages of the pageblock holding pfn: free, and in use by allocations of each type. */
struct buddy_pageblock_usage {
	unsigned free;
	unsigned used[MT_TYPES];
};
void buddy_pageblock_usage(const struct buddy *b, uint64_t pfn, struct buddy_pageblock_usage *u);
/* Its used pages of one type alone, without counting the free ones. */
unsigned buddy_pageblock_used(const struct buddy *b, uint64_t pfn, unsigned mt);
/* The order of the free block starting at pfn, or -1 when pfn starts none. */
int buddy_free_order_at(const struct buddy *b, uint64_t pfn);
/* The free block that holds pfn: its first pfn in *start, its order in *order; false if none. */
bool buddy_free_block_of(const struct buddy *b, uint64_t pfn, uint64_t *start, unsigned *order);
/* The highest-address free block of exactly order on mt's list, or BUDDY_NO_PFN. */
uint64_t buddy_last_free(const struct buddy *b, unsigned order, unsigned mt);
/*
 * A tag per used page, kept for its user (BUDDY_TAG_*); NONE until set. unit: the order of
 * the block the page heads that compaction may move as one, -1 when it cannot move: what
 * buddy_next_head() finds, in the pageblocks buddy_track_heads() was called for.
 */
bool buddy_set_tag(struct buddy *b, uint64_t pfn, uint32_t tag, int unit);
uint32_t buddy_tag(const struct buddy *b, uint64_t pfn);
/*
 * The heads of movable blocks by order, kept for the pageblock holding pfn from now on: true
 * when its caller must mark the heads already tagged there (buddy_mark_head()), false when
 * they are kept already or there is no memory to keep them (buddy_heads_kept() says which).
 */
bool buddy_track_heads(struct buddy *b, uint64_t pfn);
bool buddy_heads_kept(const struct buddy *b, uint64_t pfn);
void buddy_mark_head(struct buddy *b, uint64_t pfn, int unit);
/*
 * In a pageblock whose heads are kept: the first pfn of [from, to) (inside the pageblock)
 * that heads a block tagged with a unit below limit, or to.
 */
uint64_t buddy_next_head(const struct buddy *b, uint64_t from, uint64_t to, unsigned limit);

/* mm/vmstat.c formulas on a buddyinfo row, in thousandths (the kernel prints d.ddd). */
int buddy_unusable_free_index(const uint64_t nr_free[BUDDY_MAX_ORDER + 1], unsigned order);
int buddy_fragmentation_index(const uint64_t nr_free[BUDDY_MAX_ORDER + 1], unsigned order);
/* extfrag_for_order(): the unusable share of free memory for order, in percent. */
unsigned buddy_extfrag_for_order(const uint64_t nr_free[BUDDY_MAX_ORDER + 1], unsigned order);

/*
 * Metadata for memory_bytes of page frames cached as folios of 2^order pages:
 * today's 64-byte struct page per 4 KiB page, and a memdesc-style layout of one 8-byte pointer
 * per page plus one per-folio descriptor (folio_desc_bytes, e.g. 96).
 */
uint64_t metadata_struct_page_bytes(uint64_t memory_bytes, unsigned page_size);
uint64_t metadata_memdesc_bytes(uint64_t memory_bytes, unsigned page_size, unsigned order,
				unsigned folio_desc_bytes);

#endif /* FT_MODEL_BUDDY_H */
