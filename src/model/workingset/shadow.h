/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shadow entries (mm/workingset.c): what an evicted folio leaves in the page cache, its
 * eviction age, so a later miss on it is a refault with a known refault distance.
 * Which shadows the kernel's shrinker frees is reclaim.c's (shadow_kept()); this store keeps
 * every one of them up to a size above what the kernel could keep (max_entries), then forgets
 * the oldest half at once. An open-addressing hash of 16-byte entries, a 64-bit fingerprint of
 * (file, generation, index, order) and the age, at most half full, doubled in place as entries
 * come, so its memory follows the evictions, not the modelled memory; a false match needs a
 * 64-bit collision.
 */
#ifndef FT_MODEL_SHADOW_H
#define FT_MODEL_SHADOW_H

#include <stdbool.h>
#include <stdint.h>

#include "util/hash.h"

struct shadow_entry {
	uint64_t key;		/* fingerprint; 0: empty */
	uint64_t eviction;	/* nonresident age at eviction */
};

/*
 * Which small orders may have a shadow in a 64-page region: a lookup over the orders a file
 * left shadows of probes only those (each probe a miss in a table the size of the evictions,
 * and a file of base pages with a few small large folios would probe six orders a miss).
 * Buckets hashed by (file, generation, region), a 4-bit count per order 1..5, added to by a
 * store and taken from by a take; a count that reaches 15, or a bucket two regions share,
 * only says "may", so the hint is never short of an entry that is there. Orders 0 and 6 and
 * above are always probed.
 */
#define SHADOW_HINT_BITS	15
#define SHADOW_HINT_SHIFT	6	/* pages of a region */
#define SHADOW_HINT_ORDERS	0x3eu	/* orders 1..5: a shadow of one lies in one region */

struct shadow_table {
	struct shadow_entry *e;
	uint64_t mask;		/* slots - 1 */
	uint64_t count, max_entries;
	uint32_t *hint;		/* 2^SHADOW_HINT_BITS buckets */
};

bool shadow_init(struct shadow_table *t, uint64_t max_entries);
void shadow_release(struct shadow_table *t);
void shadow_store(struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
		  unsigned order, uint64_t eviction);
static inline uint64_t shadow_key(uint32_t file, uint32_t gen, uint64_t index, unsigned order)
{
	uint64_t k = ft_hash64(index * FT_GOLDEN64 ^ ((uint64_t)file << 32 | gen) ^
			       ((uint64_t)order << 58));

	return k ? k : 1;	/* 0 marks an empty slot */
}

/* The home slot of a key. */
static inline uint64_t shadow_home(const struct shadow_table *t, uint64_t key)
{
	return (key >> 17) & t->mask;
}

/*
 * Hints the lines of the folio's slot and the slots after it: an eviction or a refault check
 * on it comes soon, and a refault's deletion walks the rest of the cluster.
 */
static inline __attribute__((always_inline)) void
shadow_prefetch(const struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
		unsigned order)
{
	uint64_t i = shadow_home(t, shadow_key(file, gen, index, order));

	__builtin_prefetch(&t->e[i]);
	__builtin_prefetch(&t->e[(i + 4) & t->mask]);
}
static inline uint64_t shadow_hint_bucket(uint32_t file, uint32_t gen, uint64_t index)
{
	uint64_t region = index >> SHADOW_HINT_SHIFT;

	return ft_hash64(region * FT_GOLDEN64 ^ ((uint64_t)file << 32 | gen)) >>
	       (64 - SHADOW_HINT_BITS);
}

/* Of the orders in mask, those that may have a shadow over page index of the file. */
static inline unsigned shadow_orders_at(const struct shadow_table *t, uint32_t file, uint32_t gen,
					uint64_t index, unsigned mask)
{
	uint32_t h;
	unsigned may = ~SHADOW_HINT_ORDERS;

	if (!(mask & SHADOW_HINT_ORDERS))
		return mask;
	h = t->hint[shadow_hint_bucket(file, gen, index)] & 0xfffffu;
	/* each order's count or'ed into its lowest bit, then those five bits gathered */
	h |= h >> 2;
	h |= h >> 1;
	may |= (h << 1 & 2u) | (h >> 2 & 4u) | (h >> 5 & 8u) | (h >> 8 & 16u) | (h >> 11 & 32u);
	return mask & may;
}

/* Finds and removes the entry of the folio (file, gen, index, order); false if none. */
bool shadow_take(struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
		 unsigned order, uint64_t *eviction);

#endif /* FT_MODEL_SHADOW_H */
