/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page cache index: (file, folio start index) -> folio id, an open-addressing hash with
 * linear probing and backward-shift deletion (no tombstones). Finding the folio that covers a
 * page probes once per folio order the file uses, so it is O(1) for a fixed order.
 */
#ifndef FT_MODEL_PAGECACHE_H
#define FT_MODEL_PAGECACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/folio.h"
#include "util/hash.h"

struct pc_slot {
	uint64_t index;
	uint32_t file;
	uint32_t folio;		/* FOLIO_NIL: empty */
};

struct pagecache {
	struct pc_slot *slots;
	uint64_t mask;		/* capacity - 1, capacity a power of two */
	uint64_t count;
};

bool pagecache_init(struct pagecache *pc, uint64_t expected);
void pagecache_release(struct pagecache *pc);
/*
 * Home slot of a key. Eight consecutive page indexes of a file share one hashed group of
 * eight adjacent slots (two cache lines), so a sequential scan of small folios stays in cache.
 * Within the group the slots are rotated by a hashed amount, so large folios (which start at
 * multiples of 8) spread over all eight offsets instead of crowding the first. Probing steps
 * a whole group (PC_STEP): the keys of one offset form their own linear-probing table, and a
 * group that collides moves on as a unit instead of spilling slot by slot into the next one.
 */
#define PC_GROUP_SHIFT	3
#define PC_STEP		(1u << PC_GROUP_SHIFT)

/* The hash of a key's group: the same for the eight indexes of the group. */
static inline uint64_t pc_group_hash(uint32_t file, uint64_t index)
{
	return ft_hash64((index >> PC_GROUP_SHIFT) * FT_GOLDEN64 ^
			 ((uint64_t)file * 0xc2b2ae3d27d4eb4full));
}

/* The home slot of index in the group whose pc_group_hash() is h. */
static inline uint64_t pc_group_slot(const struct pagecache *pc, uint64_t h, uint64_t index)
{
	return (h << PC_GROUP_SHIFT | ((index + (h >> (64 - PC_GROUP_SHIFT))) & (PC_STEP - 1))) &
	       pc->mask;
}

static inline uint64_t pc_home(const struct pagecache *pc, uint32_t file, uint64_t index)
{
	return pc_group_slot(pc, pc_group_hash(file, index), index);
}

/* The folio starting exactly at index, or FOLIO_NIL (inline: every cache lookup is one). */
static inline uint32_t pagecache_get(const struct pagecache *pc, uint32_t file, uint64_t index)
{
	uint64_t i = pc_home(pc, file, index);

	for (;;) {
		const struct pc_slot *s = &pc->slots[i];

		if (s->folio == FOLIO_NIL)
			return FOLIO_NIL;
		if (s->index == index && s->file == file)
			return s->folio;
		i = (i + PC_STEP) & pc->mask;
	}
}
/* Adds a folio that starts at index (no folio may start there yet). false on ENOMEM. */
bool pagecache_insert(struct pagecache *pc, uint32_t file, uint64_t index, uint32_t folio);
void pagecache_remove(struct pagecache *pc, uint32_t file, uint64_t index);
/*
 * Hints the line of the key's home slot. Always inlined, as are the other prefetch helpers of
 * the model: GCC takes a function that only prefetches for one without effect and may drop
 * the call, prefetches and all.
 */
static inline __attribute__((always_inline)) void
pagecache_prefetch(const struct pagecache *pc, uint32_t file, uint64_t index)
{
	__builtin_prefetch(&pc->slots[pc_home(pc, file, index)]);
}

/* Hints the lines a removal of the key reads: its home slot and the next group's. */
static inline __attribute__((always_inline)) void
pagecache_prefetch_removal(const struct pagecache *pc, uint32_t file, uint64_t index)
{
	uint64_t i = pc_home(pc, file, index);

	__builtin_prefetch(&pc->slots[i]);
	__builtin_prefetch(&pc->slots[(i + PC_STEP) & pc->mask]);
}

/*
 * The same table as a map (file, index) -> non-zero count (cache.c's region occupancy):
 * adds delta (may be negative) and drops the entry at 0. false on ENOMEM.
 */
bool pagecache_count_add(struct pagecache *pc, uint32_t file, uint64_t index, int64_t delta);

#endif /* FT_MODEL_PAGECACHE_H */
