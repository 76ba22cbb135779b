// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The folio slab: chunks of FOLIO_CHUNK descriptors and a free list, so a cache miss costs no
 * malloc once the pool has grown to the size of the modelled cache.
 *
 * A chunk is allocated when the ids handed out so far fill the last one, so the memory and
 * the address space the pool takes follow the folios cached at most, whatever the size of the
 * modelled memory: a replay of a small trace with --memory=16T fits a limit on address space
 * (RLIMIT_AS) that a reservation for every page of the zone would not.
 */
#include <stdlib.h>
#include <string.h>

#include "model/folio.h"

/* ids must stay below FOLIO_NIL */
#define FOLIO_MAX_CHUNKS	((uint32_t)(FOLIO_NIL / FOLIO_CHUNK))
#define CHUNK_BYTES		((size_t)FOLIO_CHUNK * sizeof(struct folio))
#define CHUNK_ALIGN		4096

_Static_assert(CHUNK_BYTES % CHUNK_ALIGN == 0, "aligned_alloc() needs a multiple of its alignment");

void folio_pool_init(struct folio_pool *p)
{
	memset(p, 0, sizeof(*p));
	p->free_head = FOLIO_NIL;
}

void folio_pool_release(struct folio_pool *p)
{
	for (uint32_t i = 0; i < p->nr_chunks; i++)
		free(p->chunk[i]);
	free(p->chunk);
	folio_pool_init(p);
}

static bool folio_pool_grow(struct folio_pool *p)
{
	struct folio *c;

	if (p->nr_chunks == FOLIO_MAX_CHUNKS)
		return false;
	if (p->nr_chunks == p->cap_chunks) {
		uint32_t cap = p->cap_chunks ? 2 * p->cap_chunks : 64;
		struct folio **t = realloc(p->chunk, (size_t)cap * sizeof(*t));

		if (!t)
			return false;
		p->chunk = t;
		p->cap_chunks = cap;
	}
	/* page-aligned, so line-aligned: no folio's first 16 bytes straddle two lines (folio.h) */
	c = aligned_alloc(CHUNK_ALIGN, CHUNK_BYTES);
	if (!c)
		return false;
	p->chunk[p->nr_chunks++] = c;
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
