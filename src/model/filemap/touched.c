// SPDX-License-Identifier: GPL-2.0-or-later
/* Distinct pages ever accessed: see touched.h. */
#include <stdlib.h>
#include <string.h>

#include "model/bitmap.h"
#include "model/filemap/touched.h"

#define REGION_PAGES	(1ull << TOUCHED_REGION_SHIFT)

static bool touched_alloc(struct touched_set *t, uint64_t cap)
{
	t->r = calloc(cap, sizeof(*t->r));
	t->mask = cap - 1;
	t->count = 0;
	return t->r != NULL;
}

bool touched_init(struct touched_set *t)
{
	t->pages = 0;
	return touched_alloc(t, 256);
}

void touched_release(struct touched_set *t)
{
	free(t->r);
	t->r = NULL;
}

static struct touched_region *touched_slot(struct touched_set *t, uint32_t file, uint32_t gen,
					   uint64_t region)
{
	uint64_t i = touched_home(t, file, gen, region);

	while (t->r[i].gen && !(t->r[i].region == region && t->r[i].file == file &&
				t->r[i].gen == gen))
		i = (i + 1) & t->mask;
	return &t->r[i];
}

static bool touched_grow(struct touched_set *t)
{
	struct touched_set old = *t;

	if (!touched_alloc(t, (old.mask + 1) * 2)) {
		*t = old;
		return false;
	}
	for (uint64_t i = 0; i <= old.mask; i++) {
		struct touched_region *o = &old.r[i];

		if (o->gen) {
			*touched_slot(t, o->file, o->gen, o->region) = *o;
			t->count++;
		}
	}
	free(old.r);
	return true;
}

bool touched_mark(struct touched_set *t, uint32_t file, uint32_t gen, uint64_t first,
		  uint64_t last)
{
	gen++;
	while (first <= last) {
		uint64_t region = first >> TOUCHED_REGION_SHIFT;
		uint64_t end = (region + 1) * REGION_PAGES - 1;
		struct touched_region *r;

		if (end > last)
			end = last;
		if ((t->count + 1) * 2 > t->mask + 1 && !touched_grow(t))
			return false;
		r = touched_slot(t, file, gen, region);
		if (!r->gen) {
			memset(r, 0, sizeof(*r));
			r->region = region;
			r->file = file;
			r->gen = gen;
			t->count++;
		}
		t->pages += bitmap_set_range(r->bits, first & (REGION_PAGES - 1),
					     (end & (REGION_PAGES - 1)) + 1);
		first = end + 1;
	}
	return true;
}
