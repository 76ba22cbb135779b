// SPDX-License-Identifier: GPL-2.0-or-later
/* The page cache index of pagecache.h. */
#include <stdlib.h>

#include "model/folio.h"
#include "model/filemap/pagecache.h"
#include "util/table.h"

static bool pc_alloc(struct pagecache *pc, uint64_t cap)
{
	pc->slots = ft_table_alloc(cap, sizeof(*pc->slots));
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
	ft_table_free(pc->slots, pc->mask + 1, sizeof(*pc->slots));
	pc->slots = NULL;
}

/*
 * false when the probe run would pass half of the key's offset class: the table then grows,
 * so no class ever fills up and every probe sequence ends at an empty slot.
 */
static bool pc_place(struct pagecache *pc, uint32_t file, uint64_t index, uint32_t folio)
{
	uint64_t i = pc_home(pc, file, index), steps = 0;

	while (pc->slots[i].folio != FOLIO_NIL) {
		if (++steps * PC_STEP * 2 > pc->mask + 1)
			return false;
		i = (i + PC_STEP) & pc->mask;
	}
	pc->slots[i] = (struct pc_slot){ .index = index, .file = file, .folio = folio };
	pc->count++;
	return true;
}

/* Keeps the load at most 1/2 so probe sequences stay short. */
static bool pc_grow(struct pagecache *pc)
{
	struct pagecache old = *pc;

	if (!pc_alloc(pc, (old.mask + 1) * 2)) {
		*pc = old;
		return false;
	}
	for (uint64_t i = 0; i <= old.mask; i++) {
		const struct pc_slot *s = &old.slots[i];

		if (s->folio != FOLIO_NIL && !pc_place(pc, s->file, s->index, s->folio)) {
			ft_table_free(pc->slots, pc->mask + 1, sizeof(*pc->slots));
			*pc = old;
			return false;
		}
	}
	ft_table_free(old.slots, old.mask + 1, sizeof(*old.slots));
	return true;
}

bool pagecache_insert(struct pagecache *pc, uint32_t file, uint64_t index, uint32_t folio)
{
	if ((pc->count + 1) * 2 > pc->mask + 1 && !pc_grow(pc))
		return false;
	while (!pc_place(pc, file, index, folio))
		if (!pc_grow(pc))
			return false;
	return true;
}

void pagecache_remove(struct pagecache *pc, uint32_t file, uint64_t index)
{
	uint64_t i = pc_home(pc, file, index), j;

	while (pc->slots[i].folio != FOLIO_NIL &&
	       !(pc->slots[i].index == index && pc->slots[i].file == file))
		i = (i + PC_STEP) & pc->mask;
	if (pc->slots[i].folio == FOLIO_NIL)
		return;
	/* Backward shift: pull later entries of the cluster into the hole when allowed. */
	j = i;
	for (;;) {
		uint64_t home;

		j = (j + PC_STEP) & pc->mask;
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
		i = (i + PC_STEP) & pc->mask;
	}
	if (delta <= 0)
		return true;
	return pagecache_insert(pc, file, index, (uint32_t)delta);
}
