// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The folio id -> dirty byte range table (dirty_ranges.h): linear probing, and deletion by
 * shifting the entries after a freed slot back, so lookups never meet tombstones.
 */
#include <stdlib.h>

#include "model/folio.h"
#include "model/writeback/dirty_ranges.h"

#define RANGES_FIRST	64u

static uint32_t slot_of(uint32_t id, uint32_t mask)
{
	return (id * 2654435761u) & mask;	/* Knuth's multiplicative hash */
}

struct dirty_range *dirty_range_find(const struct dirty_ranges *r, uint32_t id)
{
	if (!r->slot)
		return NULL;
	for (uint32_t i = slot_of(id, r->mask);; i = (i + 1) & r->mask) {
		if (r->slot[i].id == id)
			return &r->slot[i];
		if (r->slot[i].id == FOLIO_NIL)
			return NULL;
	}
}

static void put_slot(struct dirty_range *slot, uint32_t mask, struct dirty_range e)
{
	uint32_t i = slot_of(e.id, mask);

	while (slot[i].id != FOLIO_NIL)
		i = (i + 1) & mask;
	slot[i] = e;
}

static bool ranges_grow(struct dirty_ranges *r)
{
	uint32_t n = r->slot ? 2 * (r->mask + 1) : RANGES_FIRST;
	struct dirty_range *slot;

	if (!n)
		return false;
	slot = malloc((size_t)n * sizeof(*slot));
	if (!slot)
		return false;
	for (uint32_t i = 0; i < n; i++)
		slot[i].id = FOLIO_NIL;
	for (uint32_t i = 0; r->slot && i <= r->mask; i++)
		if (r->slot[i].id != FOLIO_NIL)
			put_slot(slot, n - 1, r->slot[i]);
	free(r->slot);
	r->slot = slot;
	r->mask = n - 1;
	return true;
}

bool dirty_range_set(struct dirty_ranges *r, uint32_t id, uint32_t from, uint32_t to)
{
	struct dirty_range *e = dirty_range_find(r, id);

	if (e) {
		e->from = from;
		e->to = to;
		return true;
	}
	if ((!r->slot || 2 * (r->used + 1) > r->mask + 1) && !ranges_grow(r))
		return false;
	put_slot(r->slot, r->mask, (struct dirty_range){ .id = id, .from = from, .to = to });
	r->used++;
	return true;
}

void dirty_range_del(struct dirty_ranges *r, uint32_t id)
{
	struct dirty_range *e = dirty_range_find(r, id);
	uint32_t hole, i;

	if (!e)
		return;
	hole = (uint32_t)(e - r->slot);
	r->slot[hole].id = FOLIO_NIL;
	r->used--;
	/* move back each entry of the run after the hole whose home is not between them */
	for (i = (hole + 1) & r->mask; r->slot[i].id != FOLIO_NIL; i = (i + 1) & r->mask) {
		uint32_t home = slot_of(r->slot[i].id, r->mask);

		if (((i - home) & r->mask) >= ((i - hole) & r->mask)) {
			r->slot[hole] = r->slot[i];
			r->slot[i].id = FOLIO_NIL;
			hole = i;
		}
	}
}

void dirty_ranges_free(struct dirty_ranges *r)
{
	free(r->slot);
	*r = (struct dirty_ranges){ 0 };
}
