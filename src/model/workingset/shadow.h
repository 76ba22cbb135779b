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
 * Which shadows of orders 1..5 there may be: a lookup over the orders a file left shadows of
 * probes only those (each probe a miss in a table the size of the evictions, and a file of base
 * pages with a few small large folios would probe six orders a miss). A set of the blocks, by
 * 64-page region: an open-addressing hash of the regions that have any, keyed by a 64-bit
 * fingerprint of (file, generation, region), each with a bit per aligned block of each order in
 * it (32 + 16 + 8 + 4 + 2 bits). A store sets its block's bit, a take of the block clears it,
 * found or not (no entry is there after it either way), and a region whose bits are all clear
 * leaves. Forgetting the oldest entries forgets the regions whose newest shadow went with them;
 * the others' bits only say "may" until a take clears them, so the hint is never short of an
 * entry that is there. Orders 0 and 6 and above are always probed.
 */
#define SHADOW_HINT_SHIFT	6	/* pages of a region */
#define SHADOW_HINT_ORDERS	0x3eu	/* orders 1..5: a shadow of one lies in one region */

struct shadow_hint {
	uint64_t key;		/* fingerprint of (file, generation, region); 0: empty */
	uint64_t bits;		/* shadow_hint_bit() of each block that may have a shadow */
};

struct shadow_table {
	struct shadow_entry *e;
	uint64_t mask;		/* slots - 1 */
	uint64_t count, max_entries;
	struct shadow_hint *hint;
	/* beside it, as lookups never read it: the largest eviction stored in each region */
	uint64_t *hint_newest;
	uint64_t hint_mask, hint_count;	/* slots - 1, regions in it */
	bool hint_lost;		/* ENOMEM growing it: every order may be there from now on */
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
static inline uint64_t shadow_hint_key(uint32_t file, uint32_t gen, uint64_t index)
{
	uint64_t k = ft_hash64((index >> SHADOW_HINT_SHIFT) * FT_GOLDEN64 ^
			       ((uint64_t)file << 32 | gen));

	return k ? k : 1;	/* 0 marks an empty slot */
}

static inline uint64_t shadow_hint_home(const struct shadow_table *t, uint64_t key)
{
	return (key >> 17) & t->hint_mask;
}

/* The bit of the block of the order (1..5) around index in its region's word. */
static inline unsigned shadow_hint_bit(uint64_t index, unsigned order)
{
	uint64_t in_region = index & ((1u << SHADOW_HINT_SHIFT) - 1);

	return 64 - (128u >> order) + (unsigned)(in_region >> order);
}

/* The slot of the region's key, or the empty slot where it would go. */
static inline const struct shadow_hint *shadow_hint_find(const struct shadow_table *t,
							 uint64_t key)
{
	uint64_t i = shadow_hint_home(t, key);

	while (t->hint[i].key && t->hint[i].key != key)
		i = (i + 1) & t->hint_mask;
	return &t->hint[i];
}

/* Hints the line of the region of index, which a lookup of its orders reads. */
static inline __attribute__((always_inline)) void
shadow_hint_prefetch(const struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index)
{
	__builtin_prefetch(&t->hint[shadow_hint_home(t, shadow_hint_key(file, gen, index))]);
}

/*
 * The hint word of index's region: bit shadow_hint_bit(i, o) set when the block of order o
 * (1..5) at i may have a shadow; every bit when the hint was lost, none for a region without.
 */
static inline uint64_t shadow_hint_bits(const struct shadow_table *t, uint32_t file, uint32_t gen,
					uint64_t index)
{
	if (t->hint_lost)
		return ~0ull;
	return shadow_hint_find(t, shadow_hint_key(file, gen, index))->bits;
}

/* Of the orders in mask, those that may have a shadow over page index of the file. */
static inline unsigned shadow_orders_at(const struct shadow_table *t, uint32_t file, uint32_t gen,
					uint64_t index, unsigned mask)
{
	const struct shadow_hint *h;
	unsigned may = ~SHADOW_HINT_ORDERS;

	if (!(mask & SHADOW_HINT_ORDERS) || t->hint_lost)
		return mask;
	h = shadow_hint_find(t, shadow_hint_key(file, gen, index));
	if (!h->key)
		return mask & may;
	for (unsigned o = 1; o < SHADOW_HINT_SHIFT; o++)
		may |= (unsigned)(h->bits >> shadow_hint_bit(index, o) & 1) << o;
	return mask & may;
}

/* Finds and removes the entry of the folio (file, gen, index, order); false if none. */
bool shadow_take(struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
		 unsigned order, uint64_t *eviction);

#endif /* FT_MODEL_SHADOW_H */
