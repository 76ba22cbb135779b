// SPDX-License-Identifier: GPL-2.0-or-later
/* The page cache index of pagecache.h. */
#include <stdlib.h>

#include "model/folio.h"
#include "model/pagecache.h"

/*
 * Home slot of a key. Eight consecutive page indexes of a file share one hashed group of
 * eight adjacent slots (two cache lines), so a sequential scan of small folios stays in cache.
 * Large folios start at multiples of 8 and so use the first slot of their group.
 */
#define PC_GROUP_SHIFT	3

static inline uint64_t pc_home(const struct pagecache *pc, uint32_t file, uint64_t index)
{
	uint64_t h = (index >> PC_GROUP_SHIFT) * 0x9e3779b97f4a7c15ull ^
		     ((uint64_t)file * 0xc2b2ae3d27d4eb4full);

	h ^= h >> 29;
	h *= 0xbf58476d1ce4e5b9ull;
	h ^= h >> 32;
	return (h << PC_GROUP_SHIFT | (index & ((1u << PC_GROUP_SHIFT) - 1))) & pc->mask;
}

static bool pc_alloc(struct pagecache *pc, uint64_t cap)
{
	pc->slots = malloc(cap * sizeof(*pc->slots));
	if (!pc->slots)
		return false;
	for (uint64_t i = 0; i < cap; i++)
		pc->slots[i].folio = FOLIO_NIL;
	pc->mask = cap - 1;
	pc->count = 0;
	return true;
}

bool pagecache_init(struct pagecache *pc, uint64_t expected)
{
	uint64_t cap = 1024;

	while (cap < expected * 2 && cap < (1ull << 40))
		cap <<= 1;
	return pc_alloc(pc, cap);
}

void pagecache_release(struct pagecache *pc)
{
	free(pc->slots);
	pc->slots = NULL;
}

uint32_t pagecache_get(const struct pagecache *pc, uint32_t file, uint64_t index)
{
	uint64_t i = pc_home(pc, file, index);

	for (;;) {
		const struct pc_slot *s = &pc->slots[i];

		if (s->folio == FOLIO_NIL)
			return FOLIO_NIL;
		if (s->index == index && s->file == file)
			return s->folio;
		i = (i + 1) & pc->mask;
	}
}

static void pc_place(struct pagecache *pc, uint32_t file, uint64_t index, uint32_t folio)
{
	uint64_t i = pc_home(pc, file, index);

	while (pc->slots[i].folio != FOLIO_NIL)
		i = (i + 1) & pc->mask;
	pc->slots[i] = (struct pc_slot){ .index = index, .file = file, .folio = folio };
	pc->count++;
}

/* Keeps the load at most 1/2 so probe sequences stay short. */
static bool pc_grow(struct pagecache *pc)
{
	struct pagecache old = *pc;

	if (!pc_alloc(pc, (old.mask + 1) * 2)) {
		*pc = old;
		return false;
	}
	for (uint64_t i = 0; i <= old.mask; i++)
		if (old.slots[i].folio != FOLIO_NIL)
			pc_place(pc, old.slots[i].file, old.slots[i].index, old.slots[i].folio);
	free(old.slots);
	return true;
}

bool pagecache_insert(struct pagecache *pc, uint32_t file, uint64_t index, uint32_t folio)
{
	if ((pc->count + 1) * 2 > pc->mask + 1 && !pc_grow(pc))
		return false;
	pc_place(pc, file, index, folio);
	return true;
}

void pagecache_remove(struct pagecache *pc, uint32_t file, uint64_t index)
{
	uint64_t i = pc_home(pc, file, index), j;

	while (pc->slots[i].folio != FOLIO_NIL &&
	       !(pc->slots[i].index == index && pc->slots[i].file == file))
		i = (i + 1) & pc->mask;
	if (pc->slots[i].folio == FOLIO_NIL)
		return;
	/* Backward shift: pull later entries of the cluster into the hole when allowed. */
	j = i;
	for (;;) {
		uint64_t home;

		j = (j + 1) & pc->mask;
		if (pc->slots[j].folio == FOLIO_NIL)
			break;
		home = pc_home(pc, pc->slots[j].file, pc->slots[j].index);
		/* j may move to i only if its home is not in the cyclic range (i, j] */
		if (((j - home) & pc->mask) >= ((j - i) & pc->mask)) {
			pc->slots[i] = pc->slots[j];
			i = j;
		}
	}
	pc->slots[i].folio = FOLIO_NIL;
	pc->count--;
}

bool pagecache_count_add(struct pagecache *pc, uint32_t file, uint64_t index, int64_t delta)
{
	uint64_t i = pc_home(pc, file, index);

	for (;;) {
		struct pc_slot *s = &pc->slots[i];

		if (s->folio == FOLIO_NIL)
			break;
		if (s->index == index && s->file == file) {
			int64_t v = (int64_t)s->folio + delta;

			if (v <= 0)
				pagecache_remove(pc, file, index);
			else
				s->folio = (uint32_t)v;
			return true;
		}
		i = (i + 1) & pc->mask;
	}
	if (delta <= 0)
		return true;
	return pagecache_insert(pc, file, index, (uint32_t)delta);
}
