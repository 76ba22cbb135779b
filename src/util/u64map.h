/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Open-addressing hash map from a 64-bit key to a 64-bit value (linear probing, grows at 50%
 * load). Used for "first time this file is seen" and "last access of this object". The key
 * UINT64_MAX is reserved.
 */
#ifndef FT_UTIL_U64MAP_H
#define FT_UTIL_U64MAP_H

#include <stdbool.h>
#include <stdint.h>

#include "util/hash.h"

struct u64map {
	uint64_t *keys;
	uint64_t *vals;
	uint64_t mask;		/* capacity - 1 (power of two) */
	uint64_t count;
};

int u64map_init(struct u64map *m, uint64_t capacity_hint);
void u64map_free(struct u64map *m);
/* Pointer to the value of key, or NULL when absent. Valid until the next insertion. */
uint64_t *u64map_find(const struct u64map *m, uint64_t key);
/* Pointer to key's value, inserted as init when absent (*added set); NULL: out of memory. */
uint64_t *u64map_get_or_add(struct u64map *m, uint64_t key, uint64_t init, bool *added);

/* One 64-bit key from (dev, ino): good enough to tell files apart in one trace. */
static inline uint64_t file_key(uint32_t dev, uint64_t ino)
{
	return (ino * FT_GOLDEN64) ^ ((uint64_t)dev << 1) ^ ((uint64_t)dev << 37);
}

#endif
