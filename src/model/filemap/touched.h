/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The set of distinct file pages ever accessed, for "bytes ever touched": a hash of 2 MiB
 * regions (512-page bitmaps). Only consulted when a page is first touched during a stay in
 * the cache, so its cost follows misses, and its size the data set, not the trace length.
 */
#ifndef FT_MODEL_TOUCHED_H
#define FT_MODEL_TOUCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "util/hash.h"

#define TOUCHED_REGION_SHIFT	9	/* pages per region: 512 */

struct touched_region {
	uint64_t region;	/* page index >> TOUCHED_REGION_SHIFT */
	uint32_t file;
	uint32_t gen;		/* file generation + 1; 0: empty slot */
	uint64_t bits[(1u << TOUCHED_REGION_SHIFT) / 64];
};

struct touched_set {
	struct touched_region *r;
	uint64_t mask, count;
	uint64_t pages;		/* distinct pages ever touched */
};

/* The home slot of a region; gen: the file generation + 1, as stored. */
static inline uint64_t touched_home(const struct touched_set *t, uint32_t file, uint32_t gen,
				    uint64_t region)
{
	return ft_hash64(region * FT_GOLDEN64 ^ ((uint64_t)file << 32 | gen)) & t->mask;
}

/* Hints the lines touched_mark() reads for the page: its region's home slot and bit word. */
static inline __attribute__((always_inline)) void
touched_prefetch(const struct touched_set *t, uint32_t file, uint32_t gen, uint64_t page)
{
	const struct touched_region *r;

	r = &t->r[touched_home(t, file, gen + 1, page >> TOUCHED_REGION_SHIFT)];
	__builtin_prefetch(r);
	__builtin_prefetch(&r->bits[(page & ((1u << TOUCHED_REGION_SHIFT) - 1)) / 64]);
}

bool touched_init(struct touched_set *t);
void touched_release(struct touched_set *t);
/* Records pages [first, last] of the file; false only on ENOMEM. */
bool touched_mark(struct touched_set *t, uint32_t file, uint32_t gen, uint64_t first,
		  uint64_t last);

#endif /* FT_MODEL_TOUCHED_H */
