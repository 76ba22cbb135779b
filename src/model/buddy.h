/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Buddy allocator over the modelled cache memory (page frames 0..nr_pages-1, orders
 * 0..BUDDY_MAX_ORDER), merging on free as mm/page_alloc.c does, and the kernel's
 * fragmentation indexes (mm/vmstat.c) computed from its free counts.
 */
#ifndef FT_MODEL_BUDDY_H
#define FT_MODEL_BUDDY_H

#include <stdbool.h>
#include <stdint.h>

#define BUDDY_MAX_ORDER	10
#define BUDDY_NO_PFN	UINT64_MAX

struct buddy;

/* All nr_pages free (split into the largest aligned blocks that fit). NULL on ENOMEM. */
struct buddy *buddy_new(uint64_t nr_pages);
void buddy_destroy(struct buddy *b);

/* Lowest-address free block of exactly 2^order pages (splitting a larger one), or BUDDY_NO_PFN. */
uint64_t buddy_alloc(struct buddy *b, unsigned order);
/* Gives back a block buddy_alloc returned; merges with free buddies up to BUDDY_MAX_ORDER. */
void buddy_free(struct buddy *b, uint64_t pfn, unsigned order);
/* Pins pct percent of the pages (order-0, pseudo-random pfns from seed): non-cache users. */
void buddy_pin_random(struct buddy *b, double pct, uint64_t seed);

uint64_t buddy_nr_pages(const struct buddy *b);
uint64_t buddy_free_pages(const struct buddy *b);
/* Pages taken by buddy_pin_random (never freed). */
uint64_t buddy_pinned_pages(const struct buddy *b);
/* Free blocks per order, the /proc/buddyinfo row. */
void buddy_free_counts(const struct buddy *b, uint64_t nr_free[BUDDY_MAX_ORDER + 1]);
/* Is a block of this order (or larger) free right now? */
bool buddy_can_alloc(const struct buddy *b, unsigned order);

/* mm/vmstat.c formulas on a buddyinfo row, in thousandths (the kernel prints d.ddd). */
int buddy_unusable_free_index(const uint64_t nr_free[BUDDY_MAX_ORDER + 1], unsigned order);
int buddy_fragmentation_index(const uint64_t nr_free[BUDDY_MAX_ORDER + 1], unsigned order);

/*
 * Metadata for memory_bytes of page frames cached as folios of 2^order pages:
 * today's 64-byte struct page per 4 KiB page, and a memdesc-style layout of one 8-byte pointer
 * per page plus one per-folio descriptor (folio_desc_bytes, e.g. 96).
 */
uint64_t metadata_struct_page_bytes(uint64_t memory_bytes, unsigned page_size);
uint64_t metadata_memdesc_bytes(uint64_t memory_bytes, unsigned page_size, unsigned order,
				unsigned folio_desc_bytes);

#endif /* FT_MODEL_BUDDY_H */
