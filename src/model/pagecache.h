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
/* The folio starting exactly at index, or FOLIO_NIL. */
uint32_t pagecache_get(const struct pagecache *pc, uint32_t file, uint64_t index);
/* Adds a folio that starts at index (no folio may start there yet). false on ENOMEM. */
bool pagecache_insert(struct pagecache *pc, uint32_t file, uint64_t index, uint32_t folio);
void pagecache_remove(struct pagecache *pc, uint32_t file, uint64_t index);
/*
 * The same table as a map (file, index) -> non-zero count (cache.c's region occupancy):
 * adds delta (may be negative) and drops the entry at 0. false on ENOMEM.
 */
bool pagecache_count_add(struct pagecache *pc, uint32_t file, uint64_t index, int64_t delta);

#endif /* FT_MODEL_PAGECACHE_H */
