// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The folio slab: chunks of FOLIO_CHUNK descriptors and a free list, so a cache miss costs no
 * malloc once the pool has grown to the size of the modelled cache.
 *
 * The chunks are consecutive in one reservation of address space, made at the first folio for
 * as many folios as can live at once (folio_pool_bound(); else every id below FOLIO_NIL, 192
 * GiB), which costs no memory: growing makes the next chunk readable and writable, and the
 * memory used follows the folios, as with chunks allocated one by one. Where the system grants
 * less address space (a limit on it, a tool that watches every mapping), a quarter of the
 * largest reservation it grants is taken: growing past it fails as an allocation would.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "model/folio.h"

/* ids must stay below FOLIO_NIL */
#define FOLIO_MAX_CHUNKS	((uint32_t)(FOLIO_NIL / FOLIO_CHUNK))
#define CHUNK_BYTES		((size_t)FOLIO_CHUNK * sizeof(struct folio))

_Static_assert(FOLIO_CHUNK * sizeof(struct folio) % 4096 == 0,
	       "a chunk must be whole pages for mprotect()");

void folio_pool_init(struct folio_pool *p)
{
	memset(p, 0, sizeof(*p));
	p->free_head = FOLIO_NIL;
}

void folio_pool_release(struct folio_pool *p)
{
	if (p->base)
		munmap(p->base, (size_t)p->max_chunks * CHUNK_BYTES);
	folio_pool_init(p);
}

void folio_pool_bound(struct folio_pool *p, uint64_t n)
{
	uint64_t chunks = n / FOLIO_CHUNK + 1;

	p->bound_chunks = chunks < FOLIO_MAX_CHUNKS ? (uint32_t)chunks : 0;
}

static void *folio_pool_map(uint32_t chunks)
{
	void *a = mmap(NULL, (size_t)chunks * CHUNK_BYTES, PROT_NONE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);

	return a == MAP_FAILED ? NULL : a;
}

/*
 * The bound's reservation, else (a limit on address space, RLIMIT_AS) a quarter of the largest
 * one granted: the rest stays for what else the process allocates, the other models of the run
 * first, each of which takes a quarter of what is left then.
 */
static bool folio_pool_reserve(struct folio_pool *p)
{
	uint32_t want = p->bound_chunks ? p->bound_chunks : FOLIO_MAX_CHUNKS;

	for (uint32_t n = want; n; n /= 2) {
		void *a = folio_pool_map(n);

		if (!a)
			continue;
		if (n < want && n >= 4) {
			munmap(a, (size_t)n * CHUNK_BYTES);
			n /= 4;
			a = folio_pool_map(n);
			if (!a)
				return false;
		}
		p->base = a;
		p->max_chunks = n;
		return true;
	}
	return false;
}

static bool folio_pool_grow(struct folio_pool *p)
{
	if (!p->base && !folio_pool_reserve(p))
		return false;
	if (p->nr_chunks == p->max_chunks)
		return false;
	/* page-aligned, so line-aligned: no folio's first 16 bytes straddle two lines (folio.h) */
	if (mprotect((char *)p->base + (size_t)p->nr_chunks * CHUNK_BYTES, CHUNK_BYTES,
		     PROT_READ | PROT_WRITE))
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
