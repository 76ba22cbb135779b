/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct folio: one cached folio of the model, and the pool (slab) that hands them out.
 *
 * Folios are named by a 32-bit id, not a pointer: list links are ids so the descriptor stays
 * small (the model keeps one per cached folio, up to one per page of the modelled memory), and
 * the pool grows in place, a chunk at a time, so a pointer from folio_at() stays valid while
 * others are allocated. Per-page state (accessed, dirty and uptodate blocks) lives in bitmaps
 * indexed by the folio's pfn, so a folio carries no variable-size data.
 */
#ifndef FT_MODEL_FOLIO_H
#define FT_MODEL_FOLIO_H

#include <stdbool.h>
#include <stdint.h>

#define FOLIO_NIL		UINT32_MAX

/* Page flags the model keeps (the kernel's PG_* of the same names). */
#define FOLIO_REFERENCED	(1u << 0)
#define FOLIO_ACTIVE		(1u << 1)
#define FOLIO_DIRTY		(1u << 2)
#define FOLIO_UPTODATE		(1u << 3)	/* every block read or written */
#define FOLIO_READAHEAD		(1u << 4)	/* PG_readahead: hitting it starts async readahead */
#define FOLIO_YOUNG		(1u << 5)	/* accessed through a mapping (PTE young bit) */
#define FOLIO_WORKINGSET	(1u << 6)
#define FOLIO_WRITEBACK		(1u << 7)	/* PG_writeback: its I/O is on the device */

/*
 * 48 bytes: a 64-byte line holds one and a third, and the first 16 bytes (all a cache hit
 * reads) never straddle two lines. pfn fits 32 bits: model_new() refuses more than 2^32 pages.
 */
struct folio {
	uint64_t index;		/* page index of the first page in the file */
	uint32_t born;		/* access sequence number that inserted it */
	uint16_t touched : 11;	/* pages of the folio accessed while cached (<= 2^MODEL_MAX_ORDER) */
	uint16_t memcg : 5;	/* the memory cgroup it is charged to (folio_memcg()) */
	uint8_t order : 4;	/* MODEL_MAX_ORDER fits */
	uint8_t gen : 2;	/* MGLRU: its generation's list, seq % MAX_NR_GENS (lru/mglru.c) */
	uint8_t refs : 2;	/* MGLRU: accesses beyond PG_workingset (folio_inc_refs()) */
	uint8_t flags;
	uint32_t pfn;		/* first page frame, from the buddy allocator: folio_pfn() */
	uint32_t file;		/* file id */
	uint32_t lru_prev, lru_next;
	uint32_t file_prev, file_next;	/* every folio of the file: truncate walks it */
	uint32_t dirty_prev, dirty_next; /* dirty folios of the file: writeback walks it */
};

_Static_assert(sizeof(struct folio) == 48, "struct folio grew: see its comment");

static inline uint64_t folio_pfn(const struct folio *f)
{
	return f->pfn;
}

static inline uint64_t folio_nr_pages(const struct folio *f)
{
	return 1ull << f->order;
}

static inline uint64_t folio_end(const struct folio *f)
{
	return f->index + folio_nr_pages(f);
}

static inline bool folio_test(const struct folio *f, unsigned flag)
{
	return f->flags & flag;
}

static inline void folio_set(struct folio *f, unsigned flag)
{
	f->flags |= flag;
}

static inline void folio_clear(struct folio *f, unsigned flag)
{
	f->flags &= ~flag;
}

#define FOLIO_CHUNK_SHIFT	14
#define FOLIO_CHUNK		(1u << FOLIO_CHUNK_SHIFT)

struct folio_pool {
	/*
	 * Address space for max_chunks chunks, reserved at the first folio; the first nr_chunks
	 * are usable (folio_pool.c). folio_at() is then one index, not a chunk table's two.
	 */
	struct folio *base;
	uint32_t nr_chunks, max_chunks;
	uint32_t bound_chunks;	/* folio_pool_bound(); 0: every id */
	uint32_t next_unused;	/* ids below this were handed out at least once */
	uint32_t free_head;	/* freed folios, linked through lru_next */
	uint32_t nr_used;
};

static inline struct folio *folio_at(const struct folio_pool *p, uint32_t id)
{
	return &p->base[id];
}

void folio_pool_init(struct folio_pool *p);
void folio_pool_release(struct folio_pool *p);
/*
 * At most n folios live at once (a model's folios each hold a page of its zone): the address
 * space reserved is then what n need, not what every id would. Before the first folio.
 */
void folio_pool_bound(struct folio_pool *p, uint64_t n);
/* A zeroed folio with every link FOLIO_NIL, or FOLIO_NIL when out of memory. */
uint32_t folio_pool_get(struct folio_pool *p);
void folio_pool_put(struct folio_pool *p, uint32_t id);

#endif /* FT_MODEL_FOLIO_H */
