// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The folio slab: chunks of FOLIO_CHUNK descriptors and a free list, so a cache miss costs no
 * malloc once the pool has grown to the size of the modelled cache.
 */
#include <stdlib.h>
#include <string.h>

#include "model/folio.h"

void folio_pool_init(struct folio_pool *p)
{
	memset(p, 0, sizeof(*p));
	p->free_head = FOLIO_NIL;
}

void folio_pool_release(struct folio_pool *p)
{
	for (uint32_t i = 0; i < p->nr_chunks; i++)
		free(p->chunks[i]);
	free(p->chunks);
	folio_pool_init(p);
}

static bool folio_pool_grow(struct folio_pool *p)
{
	if (p->nr_chunks == p->cap_chunks) {
		uint32_t cap = p->cap_chunks ? p->cap_chunks * 2 : 16;
		struct folio **c = realloc(p->chunks, cap * sizeof(*c));

		if (!c)
			return false;
		p->chunks = c;
		p->cap_chunks = cap;
	}
	/* ids must stay below FOLIO_NIL */
	if ((uint64_t)(p->nr_chunks + 1) * FOLIO_CHUNK >= FOLIO_NIL)
		return false;
	/* line-aligned, so no folio's first 16 bytes straddle two lines (folio.h) */
	p->chunks[p->nr_chunks] = aligned_alloc(64, FOLIO_CHUNK * sizeof(struct folio));
	if (!p->chunks[p->nr_chunks])
		return false;
	p->nr_chunks++;
	return true;
}

uint32_t folio_pool_get(struct folio_pool *p)
{
	uint32_t id;
	struct folio *f;

	if (p->free_head != FOLIO_NIL) {
		id = p->free_head;
		p->free_head = folio_at(p, id)->lru_next;
	} else {
		if (p->next_unused == p->nr_chunks * FOLIO_CHUNK && !folio_pool_grow(p))
			return FOLIO_NIL;
		id = p->next_unused++;
	}
	f = folio_at(p, id);
	memset(f, 0, sizeof(*f));
	f->lru_prev = f->lru_next = FOLIO_NIL;
	f->file_prev = f->file_next = FOLIO_NIL;
	f->dirty_prev = f->dirty_next = FOLIO_NIL;
	p->nr_used++;
	return id;
}

void folio_pool_put(struct folio_pool *p, uint32_t id)
{
	folio_at(p, id)->lru_next = p->free_head;
	p->free_head = id;
	p->nr_used--;
}
