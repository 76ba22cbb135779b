/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Folios in the page cache (cache.c): lookups, insertion and removal, with every index kept
 * in step. The lookups of the hot paths are inline here; the rest is cache.c's.
 */
#ifndef FT_MODEL_FILEMAP_CACHE_H
#define FT_MODEL_FILEMAP_CACHE_H

#include "model/instance.h"
#include "util/checks.h"

/*
 * Page occupancy (cache.c), for files with folios of several orders: one bit per page of the
 * file, set while a cached folio covers it, so "is this range free" and "no folio here" need
 * no probe per order (a miss, three lookups of its page, then probes nothing). Kept per
 * folio: a folio sets or clears its bits in one word, or stores whole words when it covers
 * them. A file is counted from the first time it needs it (built from its folio list), then
 * kept up to date.
 */
#define OCC_SHIFT	6	/* pages per word, log2 */

/*
 * The words of a file, OCC_CHUNK of them to a chunk (16 MiB of 4 KiB pages): read in place,
 * without the probe a hash would need on every miss. A chunk has room for the words up to the
 * highest one counted yet (a power of two), so a small file costs a few bytes; a sparse file
 * has chunks only where it has folios, and a chunk is freed when its last folio goes.
 */
#define OCC_CHUNK_SHIFT	6
#define OCC_CHUNK	(1u << OCC_CHUNK_SHIFT)
_Static_assert(MODEL_MAX_ORDER < OCC_SHIFT + OCC_CHUNK_SHIFT, "a large folio in one chunk");

struct occ_chunk {
	uint64_t no;		/* word >> OCC_CHUNK_SHIFT */
	uint32_t file;
	uint32_t slot;		/* in model.occ_chunks */
	uint32_t folios;	/* folios counted in it */
	uint32_t cap;		/* words it has room for, from no << OCC_CHUNK_SHIFT */
	uint64_t word[];
};

/*
 * A file's chunks below OCC_DIR_MAX (its first TiB of 4 KiB pages) are found in its
 * directory, which grows to the highest one made: 8 bytes per chunk of the span. Further
 * chunks of a sparse huge file are found through the hash model.occ (cache.c).
 */
#define OCC_DIR_MAX	(1u << 16)

struct occ_chunk *cache_occ_chunk_far(struct model *m, uint32_t file, uint64_t no);

/*
 * The chunk no of a counted file mf (model_file(m, file)), or NULL. Inline: every lookup in a
 * counted file reads it (a directory is never longer than OCC_DIR_MAX).
 */
static inline struct occ_chunk *occ_chunk_find(struct model *m, const struct mfile *mf,
					       uint32_t file, uint64_t no)
{
	if (no < mf->occ_dir_len)
		return mf->occ_dir[no];
	return no >= OCC_DIR_MAX ? cache_occ_chunk_far(m, file, no) : NULL;
}

/* Word w of a counted file's occupancy: bit i set when a folio covers page w * 64 + i. */
static inline uint64_t occ_word(struct model *m, const struct mfile *mf, uint32_t file,
				uint64_t w)
{
	const struct occ_chunk *c = occ_chunk_find(m, mf, file, w >> OCC_CHUNK_SHIFT);
	uint32_t off = w & (OCC_CHUNK - 1);

	return c && off < c->cap ? c->word[off] : 0;
}

/*
 * Hints the occupancy word of page idx of a counted file mf, which a lookup reads before any
 * slot and an eviction clears (a word per 64 pages of a file, rarely in the CPU caches for a
 * large one). The chunk's address comes from the file's directory, which stays there.
 */
static inline __attribute__((always_inline)) void
cache_occupancy_prefetch(const struct mfile *mf, uint64_t idx)
{
	uint64_t w = idx >> OCC_SHIFT, no = w >> OCC_CHUNK_SHIFT;
	const struct occ_chunk *c;

	if (mf->occ && no < mf->occ_dir_len && (c = mf->occ_dir[no]) &&
	    (w & (OCC_CHUNK - 1)) < c->cap)
		__builtin_prefetch(&c->word[w & (OCC_CHUNK - 1)]);
}

/* cache.c: folios in the page cache, with every index kept in step. */
uint32_t cache_lookup_slow(struct model *m, uint32_t file, uint64_t idx);
/* The sanitizer builds: aborts when a folio covers page idx of a counted file after all. */
void cache_occupancy_check(struct model *m, uint32_t file, uint64_t idx);
/* Frees the region occupancy of every file (model_free()). */
void cache_occupancy_release(struct model *m);
bool cache_range_empty(struct model *m, uint32_t file, uint64_t start, uint64_t n);
/* The same for the range of order order around a page known uncached (filemap_create()). */
bool cache_range_empty_around(struct model *m, uint32_t file, uint64_t start, unsigned order);
uint32_t cache_add(struct model *m, uint32_t file, uint64_t start, unsigned order,
		   uint64_t pfn, bool active);
/* Removes a clean folio (truncate, eviction); shadow: leave a shadow entry (eviction). */
void cache_remove(struct model *m, uint32_t id, bool shadow);
/*
 * Splits a clean large folio at page at into pieces of new_order and up: uniform (every
 * piece new_order) or as the buddy allocator (folio_split()). false: left whole.
 */
bool cache_split(struct model *m, uint32_t id, uint64_t at, unsigned new_order, bool uniform);
void cache_touch_slow(struct model *m, uint32_t id, uint64_t first, uint64_t last);

/*
 * The folios a model's index starts sized for: as many as nr_pages hold, of the order every
 * miss allocates under FOLIO_POLICY_FIXED (a table of a few lines at order 9, which lookups
 * then find in cache), at most 65536; the index grows past it as folios come.
 */
static inline uint64_t cache_index_expected(const struct model_config *c, uint64_t nr_pages)
{
	uint64_t folios = nr_pages >> (c->policy == FOLIO_POLICY_FIXED ? c->order : 0);

	return folios < 65536 ? folios : 65536;
}

static inline bool folio_covers(const struct folio *f, uint64_t idx)
{
	return idx >= f->index && idx < folio_end(f);
}

/* The folio of the given order that would cover idx, if cached. */
static inline uint32_t cache_probe(struct model *m, uint32_t file, uint64_t idx, unsigned order)
{
	uint32_t id = pagecache_get(&m->pc, file, idx & ~((1ull << order) - 1));

	if (id != FOLIO_NIL && folio_covers(folio_at(&m->pool, id), idx))
		return id;
	return FOLIO_NIL;
}

/*
 * The cached folio covering page idx, or FOLIO_NIL. Inline: one probe for a single-order
 * file; in a counted file a clear bit first, then the order of the last folio found; the other
 * orders are cache.c's. Always inlined: GCC would otherwise make one shared copy, a call on
 * every lookup.
 */
static inline __attribute__((always_inline)) uint32_t
cache_lookup(struct model *m, uint32_t file, uint64_t idx)
{
	const struct mfile *mf = model_file(m, file);
	unsigned mask = mf->order_mask;

	if (mask == 1u << mf->hint_order)	/* a file of one order: one probe */
		return cache_probe(m, file, idx, mf->hint_order);
	if (!mask)
		return FOLIO_NIL;
	/*
	 * a counted file's page no folio covers needs no probe: a miss looks its page up three
	 * times over (the read, readahead's window and its history)
	 */
	if (mf->occ && !(occ_word(m, mf, file, idx >> OCC_SHIFT) >> (idx & 63) & 1)) {
#ifdef FT_EXPENSIVE_CHECKS
		cache_occupancy_check(m, file, idx);
#endif
		return FOLIO_NIL;
	}
	if (mask & (1u << mf->hint_order)) {
		uint32_t id = cache_probe(m, file, idx, mf->hint_order);

		if (id != FOLIO_NIL)
			return id;
	}
	return cache_lookup_slow(m, file, idx);
}

/*
 * Hints the lines a read of pages [first, last] will look up: the page cache slots at the
 * file's hint order, then the folios they name. A lookup needs its slot before its folio and
 * the next lookup needs the folio's size, so without this every page of a read waits for two
 * misses in turn; with it the misses of the whole read overlap. Changes no state.
 */
#define PREFETCH_MAX	16

static inline __attribute__((always_inline)) void
cache_prefetch(struct model *m, uint32_t file, uint64_t first, uint64_t last)
{
	const struct mfile *mf = model_file(m, file);
	const struct pagecache *pc = &m->pc;
	unsigned order = mf->hint_order, n = 0;
	uint64_t step = 1ull << order, start = first & ~(step - 1), h = 0;
	uint64_t slot[PREFETCH_MAX];

	/* one folio of the order covers the read: nothing to overlap */
	if (!(mf->order_mask & (1u << order)) || last - start < step)
		return;
	/* one hash per group of eight slots */
	for (uint64_t i = start; i <= last && n < PREFETCH_MAX; i += step) {
		if (!n || !(i & (PC_STEP - 1)) || order >= PC_GROUP_SHIFT)
			h = pc_group_hash(file, i);
		slot[n] = pc_group_slot(pc, h, i);
		__builtin_prefetch(&pc->slots[slot[n]]);
		n++;
	}
	/* home slots only: a displaced key is looked up for real soon enough */
	for (unsigned k = 0; k < n; k++) {
		const struct pc_slot *s = &pc->slots[slot[k]];

		if (s->folio != FOLIO_NIL && s->index == start + k * step && s->file == file)
			__builtin_prefetch(folio_at(&m->pool, s->folio));
	}
}

/* Records an access to pages [first, last] of the folio; a wholly touched folio is done. */
static inline void cache_touch(struct model *m, uint32_t id, uint64_t first, uint64_t last)
{
	const struct folio *f = folio_at(&m->pool, id);

	if (f->touched != folio_nr_pages(f))
		cache_touch_slow(m, id, first, last);
}

#endif /* FT_MODEL_FILEMAP_CACHE_H */
