// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The folios of one model's page cache: lookup of the folio covering a page, insertion and
 * removal keeping the hash, the per-file lists and order masks, the LRU, the buddy memory and
 * the per-page bitmaps in step.
 */
#include <stdlib.h>
#include <string.h>

#include "model/bitmap.h"
#include "model/filemap/cache.h"
#include "model/lru/kind.h"
#include "util/checks.h"

#define OCC_SMALL	((1u << OCC_SHIFT) - 1)	/* the orders below a word's: 0..5 */

/* The chunk of a huge sparse file's word beyond its directory, through the hash. */
struct occ_chunk *cache_occ_chunk_far(struct model *m, uint32_t file, uint64_t no)
{
	struct occ_chunk *c = m->occ_hot;
	uint32_t slot;

	if (c && c->no == no && c->file == file)
		return c;
	slot = pagecache_get(&m->occ, file, no);
	if (slot == FOLIO_NIL)
		return NULL;
	m->occ_hot = m->occ_chunks[slot];
	return m->occ_hot;
}

/* Makes a chunk findable: in its file's directory (grown as needed) or the hash. */
static bool occ_chunk_file(struct model *m, struct occ_chunk *c)
{
	struct mfile *mf = model_file(m, c->file);
	struct occ_chunk **chunks;
	uint32_t len;

	if (c->no >= OCC_DIR_MAX)
		return pagecache_insert(&m->occ, c->file, c->no, c->slot);
	for (len = mf->occ_dir_len ? mf->occ_dir_len : 1; len <= c->no; len *= 2)
		;
	if (len != mf->occ_dir_len) {
		chunks = realloc(mf->occ_dir, len * sizeof(*chunks));
		if (!chunks)
			return false;
		memset(&chunks[mf->occ_dir_len], 0, (len - mf->occ_dir_len) * sizeof(*chunks));
		mf->occ_dir = chunks;
		mf->occ_dir_len = len;
	}
	mf->occ_dir[c->no] = c;
	return true;
}

/* Where its file finds the chunk, pointed at the chunk now at c (NULL: gone). */
static void occ_chunk_refile(struct model *m, const struct occ_chunk *old, struct occ_chunk *c)
{
	if (old->no < OCC_DIR_MAX)
		model_file(m, old->file)->occ_dir[old->no] = c;
	else if (!c)
		pagecache_remove(&m->occ, old->file, old->no);
	if (m->occ_hot == old)
		m->occ_hot = c;
}

static size_t occ_chunk_bytes(uint32_t cap)
{
	return sizeof(struct occ_chunk) + cap * sizeof(uint64_t);
}

/* A free slot of model.occ_chunks, or FOLIO_NIL on ENOMEM. */
static uint32_t occ_slot_get(struct model *m)
{
	if (m->nr_occ_free)
		return m->occ_free[--m->nr_occ_free];
	if (m->nr_occ_chunks == m->occ_chunks_cap) {
		uint32_t cap = m->occ_chunks_cap ? 2 * m->occ_chunks_cap : 16;
		struct occ_chunk **chunks;
		uint32_t *free_slots;

		chunks = realloc(m->occ_chunks, cap * sizeof(*chunks));
		if (!chunks)
			return FOLIO_NIL;
		m->occ_chunks = chunks;
		free_slots = realloc(m->occ_free, cap * sizeof(*free_slots));
		if (!free_slots)
			return FOLIO_NIL;
		m->occ_free = free_slots;
		m->occ_chunks_cap = cap;
	}
	return m->nr_occ_chunks++;
}

/*
 * A zeroed chunk with room for at least cap words: a spare one if any (a sparse file read
 * at random makes and frees a chunk for most of its folios), else a new one.
 */
static struct occ_chunk *occ_chunk_alloc(struct model *m, uint32_t cap)
{
	struct occ_chunk *c;

	if (!m->nr_occ_spare)
		return calloc(1, occ_chunk_bytes(cap));
	c = m->occ_spare[--m->nr_occ_spare];
	if (c->cap < cap) {
		free(c);
		return calloc(1, occ_chunk_bytes(cap));
	}
	memset(c, 0, occ_chunk_bytes(c->cap));
	return c;
}

static struct occ_chunk *occ_chunk_new(struct model *m, uint32_t file, uint64_t no, uint32_t cap)
{
	uint32_t slot = occ_slot_get(m);
	struct occ_chunk *c;

	if (slot == FOLIO_NIL)
		return NULL;
	c = occ_chunk_alloc(m, cap);
	if (c) {
		c->no = no;
		c->file = file;
		c->slot = slot;
		c->cap = c->cap > cap ? c->cap : cap;
	}
	if (!c || !occ_chunk_file(m, c)) {
		free(c);
		m->occ_free[m->nr_occ_free++] = slot;
		return NULL;
	}
	m->occ_chunks[slot] = c;
	return c;
}

/* The chunk with room for word off of chunk no, made or grown; NULL on ENOMEM. */
static struct occ_chunk *occ_chunk_room(struct model *m, uint32_t file, uint64_t no,
					struct occ_chunk *c, uint32_t off)
{
	uint32_t cap = 1;
	struct occ_chunk *n;

	while (cap <= off)
		cap <<= 1;
	if (!c)
		return occ_chunk_new(m, file, no, cap);
	n = malloc(occ_chunk_bytes(cap));
	if (!n)
		return NULL;
	memcpy(n, c, occ_chunk_bytes(c->cap));
	memset(&n->word[c->cap], 0, (cap - c->cap) * sizeof(uint64_t));
	n->cap = cap;
	m->occ_chunks[n->slot] = n;
	occ_chunk_refile(m, c, n);
	free(c);
	return n;
}

static void occ_chunk_free(struct model *m, struct occ_chunk *c)
{
	occ_chunk_refile(m, c, NULL);
	m->occ_chunks[c->slot] = NULL;
	m->occ_free[m->nr_occ_free++] = c->slot;
	if (m->nr_occ_spare < OCC_SPARE)
		m->occ_spare[m->nr_occ_spare++] = c;
	else
		free(c);
}

void cache_occupancy_release(struct model *m)
{
	for (uint32_t i = 0; i < m->nr_occ_chunks; i++)
		free(m->occ_chunks[i]);
	for (uint32_t i = 0; i < m->nr_occ_spare; i++)
		free(m->occ_spare[i]);
	for (uint32_t i = 0; i < m->nr_files; i++)
		free(m->files[i].occ_dir);
	free(m->occ_chunks);
	free(m->occ_free);
	pagecache_release(&m->occ);
}

/* The words a folio of the order is in: its own, or the ones it covers (in one chunk). */
static uint32_t occ_words(unsigned order)
{
	return order >= OCC_SHIFT ? 1u << (order - OCC_SHIFT) : 1;
}

/* The bits of a folio of the order starting at index in its word (all of them when larger). */
static uint64_t occ_bits(uint64_t index, unsigned order)
{
	static const uint64_t ones[OCC_SHIFT] = {
		0x1, 0x3, 0xf, 0xff, 0xffff, 0xffffffff,
	};

	if (order >= OCC_SHIFT)
		return ~0ull;
	return ones[order] << (index & ((1u << OCC_SHIFT) - 1));
}

/* occupancy_add() of a large folio, or one whose chunk needs making or growing. */
static __attribute__((noinline)) bool occupancy_add_slow(struct model *m, struct mfile *mf,
							 const struct folio *f)
{
	uint64_t w = f->index >> OCC_SHIFT, no = w >> OCC_CHUNK_SHIFT;
	uint32_t off = w & (OCC_CHUNK - 1), n = occ_words(f->order);
	uint64_t bits = occ_bits(f->index, f->order);
	struct occ_chunk *c = occ_chunk_find(m, mf, f->file, no);

	if (!c || off + n > c->cap)
		c = occ_chunk_room(m, f->file, no, c, off + n - 1);
	if (!c)
		return false;
	for (uint32_t i = 0; i < n; i++)
		c->word[off + i] |= bits;
	c->folios++;
	return true;
}

/*
 * Sets the folio's bits. false on ENOMEM: nothing changed. Inline, the small folio in a chunk
 * of its file's directory that has room: every insertion into a counted file is one.
 */
static inline __attribute__((always_inline)) bool
occupancy_add(struct model *m, struct mfile *mf, const struct folio *f)
{
	uint64_t w = f->index >> OCC_SHIFT, no = w >> OCC_CHUNK_SHIFT;
	uint32_t off = w & (OCC_CHUNK - 1);
	struct occ_chunk *c;

	if (f->order < OCC_SHIFT && no < mf->occ_dir_len && (c = mf->occ_dir[no]) &&
	    off < c->cap) {
		c->word[off] |= occ_bits(f->index, f->order);
		c->folios++;
		return true;
	}
	return occupancy_add_slow(m, mf, f);
}

/* Clears the folio's bits; a folio never counted (ENOMEM, occupancy_stop()) has none. */
static __attribute__((noinline)) void occupancy_del_slow(struct model *m, struct mfile *mf,
							 const struct folio *f)
{
	uint64_t w = f->index >> OCC_SHIFT, no = w >> OCC_CHUNK_SHIFT;
	uint32_t off = w & (OCC_CHUNK - 1), n = occ_words(f->order);
	uint64_t bits = occ_bits(f->index, f->order);
	struct occ_chunk *c = occ_chunk_find(m, mf, f->file, no);

	if (!c || off + n > c->cap || !(c->word[off] & bits))
		return;
	for (uint32_t i = 0; i < n; i++)
		c->word[off + i] &= ~bits;
	if (--c->folios == 0)
		occ_chunk_free(m, c);
}

/* The same, inline for a small folio in a chunk of its file's directory (every eviction). */
static inline __attribute__((always_inline)) void
occupancy_del(struct model *m, struct mfile *mf, const struct folio *f)
{
	uint64_t w = f->index >> OCC_SHIFT, no = w >> OCC_CHUNK_SHIFT;
	uint32_t off = w & (OCC_CHUNK - 1);
	struct occ_chunk *c;

	if (f->order < OCC_SHIFT && no < mf->occ_dir_len && (c = mf->occ_dir[no]) &&
	    off < c->cap) {
		uint64_t bits = occ_bits(f->index, f->order);

		if (!(c->word[off] & bits))
			return;
		c->word[off] &= ~bits;
		if (--c->folios == 0)
			occ_chunk_free(m, c);
		return;
	}
	occupancy_del_slow(m, mf, f);
}

/*
 * The file no longer counted: a lookup trusts a clear bit, so a folio left out for want of
 * memory must not leave the others' bits standing. Every folio's bits cleared, chunks freed.
 */
static __attribute__((noinline, cold)) void occupancy_stop(struct model *m, struct mfile *mf)
{
	for (uint32_t id = mf->folios; id != FOLIO_NIL; id = folio_at(&m->pool, id)->file_next)
		occupancy_del_slow(m, mf, folio_at(&m->pool, id));
	mf->occ = false;
}

/* Counts a new folio of a counted file (or stops counting the file on ENOMEM). */
static inline __attribute__((always_inline)) void
occupancy_insert(struct model *m, struct mfile *mf, const struct folio *f)
{
	if (mf->occ && !occupancy_add(m, mf, f))
		occupancy_stop(m, mf);
}

/* Counts every folio of the file from now on; false (not counted) on ENOMEM. */
static bool occupancy_build(struct model *m, struct mfile *mf)
{
	for (uint32_t id = mf->folios; id != FOLIO_NIL; id = folio_at(&m->pool, id)->file_next) {
		if (!occupancy_add(m, mf, folio_at(&m->pool, id))) {
			occupancy_stop(m, mf);
			return false;
		}
	}
	mf->occ = true;
	return true;
}

/* The folio covering idx among the orders of mask, largest first; the hint follows a find. */
static uint32_t probe_orders(struct model *m, struct mfile *mf, uint32_t file, uint64_t idx,
			     unsigned mask)
{
	uint64_t last_start = UINT64_MAX;
	uint32_t id;

	while (mask) {
		unsigned order = 31u - (unsigned)__builtin_clz(mask);
		uint64_t start = idx & ~((1ull << order) - 1);

		mask &= ~(1u << order);
		if (start == last_start)
			continue;	/* a smaller order aligned the same way: same slot */
		last_start = start;
		id = cache_probe(m, file, idx, order);
		if (id != FOLIO_NIL) {
			mf->hint_order = (uint8_t)order;
			return id;
		}
	}
	return FOLIO_NIL;
}

void cache_occupancy_check(struct model *m, uint32_t file, uint64_t idx)
{
	for (unsigned mask = model_file(m, file)->order_mask; mask; mask &= mask - 1)
		if (cache_probe(m, file, idx, (unsigned)__builtin_ctz(mask)) != FOLIO_NIL)
			abort();
}

/*
 * cache_lookup() probed the hint order already (and in a counted file, found the page covered).
 * The order found before the hint's is probed next: reads of two kinds in one file (small
 * random ones among the folios of a scan) find their folios at two orders in turn.
 */
uint32_t cache_lookup_slow(struct model *m, uint32_t file, uint64_t idx)
{
	struct mfile *mf = model_file(m, file);
	unsigned hint = mf->hint_order, prev = mf->prev_hint_order;
	unsigned mask = mf->order_mask & ~(1u << hint);
	uint32_t id;

	if (mask & (1u << prev)) {
		id = cache_probe(m, file, idx, prev);
		if (id != FOLIO_NIL) {
			mf->hint_order = (uint8_t)prev;
			mf->prev_hint_order = (uint8_t)hint;
			return id;
		}
		mask &= ~(1u << prev);
	}
	id = probe_orders(m, mf, file, idx, mask);
	if (id != FOLIO_NIL)
		mf->prev_hint_order = (uint8_t)hint;
	return id;
}

/*
 * Does no folio of an order in mask start inside the aligned range [start, start + n)? A folio
 * at least as large as the range can only be the one covering start; smaller ones can only
 * start at their own alignment inside it.
 */
static bool orders_empty(struct model *m, uint32_t file, uint64_t start, uint64_t n,
			 unsigned mask)
{
	while (mask) {
		unsigned order = (unsigned)__builtin_ctz(mask);
		uint64_t step = 1ull << order;

		mask &= mask - 1;
		if (step >= n) {
			if (cache_probe(m, file, start, order) != FOLIO_NIL)
				return false;
			continue;
		}
		for (uint64_t i = start; i < start + n; i += step)
			if (pagecache_get(&m->pc, file, i) != FOLIO_NIL)
				return false;
	}
	return true;
}

/* Probes orders_empty() makes for the range: one per folio of each order that fits in it. */
static uint64_t orders_probes(uint64_t n, unsigned mask)
{
	uint64_t probes = 0;

	for (; mask; mask &= mask - 1) {
		uint64_t step = 1ull << __builtin_ctz(mask);

		probes += step >= n ? 1 : n / step;
	}
	return probes;
}

/* The same as orders_empty() for a counted file, every order: no bit of the range set. */
static bool counted_range_empty(struct model *m, uint32_t file, uint64_t start, uint64_t n)
{
	uint64_t end = start + n;

	for (uint64_t w = start >> OCC_SHIFT; w <= (end - 1) >> OCC_SHIFT; w++) {
		uint64_t lo = w << OCC_SHIFT > start ? 0 : start & 63;
		uint64_t hi = (w + 1) << OCC_SHIFT <= end ? 64 : end & 63;

		if (occ_word(m, model_file(m, file), file, w) & bitmap_word_mask(lo, hi))
			return false;
	}
	return true;
}

/*
 * Is no folio of an order in orders in the aligned range [start, start + n) (a power of two)?
 * A counted file's bits answer for every order: its callers ask either for all of them or,
 * around a page no folio covers, for the orders below the range's (a folio of the range's
 * order or larger in it would cover that page), so a bit set can only be such a folio's.
 */
static bool range_empty(struct model *m, uint32_t file, uint64_t start, uint64_t n,
			unsigned orders)
{
	struct mfile *mf = model_file(m, file);
	unsigned large = mf->order_mask & orders & ~OCC_SMALL;
	unsigned small = mf->order_mask & orders & OCC_SMALL;

	if (mf->occ) {
		bool empty = counted_range_empty(m, file, start, n);

#ifdef FT_EXPENSIVE_CHECKS	/* the bits against a probe per folio of each order */
		if (empty != orders_empty(m, file, start, n, large | small))
			abort();
#endif
		return empty;
	}
	if (!orders_empty(m, file, start, n, large))
		return false;
	if (!small)
		return true;
	/*
	 * A range of a page or two of one small order (readahead of base pages) costs as many
	 * probes as the occupancy would: the file is not counted for it, its folios' comings
	 * and goings then need no count either.
	 */
	if (orders_probes(n, small) <= 2 || !occupancy_build(m, mf))
		return orders_empty(m, file, start, n, small);
	return counted_range_empty(m, file, start, n);
}

bool cache_range_empty(struct model *m, uint32_t file, uint64_t start, uint64_t n)
{
	return range_empty(m, file, start, n, ~0u);
}

/*
 * Of the aligned folio-sized range around a page no folio covers, as the page a miss fills: a
 * folio of the range's order or larger there would cover that page too, so only the smaller
 * orders are looked up (none for a file of one order, as the plain model's are).
 */
bool cache_range_empty_around(struct model *m, uint32_t file, uint64_t start, unsigned order)
{
	return range_empty(m, file, start, 1ull << order, (1u << order) - 1);
}

static void file_list_add(struct model *m, struct mfile *mf, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);

	f->file_prev = FOLIO_NIL;
	f->file_next = mf->folios;
	if (mf->folios != FOLIO_NIL)
		folio_at(&m->pool, mf->folios)->file_prev = id;
	mf->folios = id;
}

static void file_list_del(struct model *m, struct mfile *mf, struct folio *f)
{
	if (f->file_prev != FOLIO_NIL)
		folio_at(&m->pool, f->file_prev)->file_next = f->file_next;
	else
		mf->folios = f->file_next;
	if (f->file_next != FOLIO_NIL)
		folio_at(&m->pool, f->file_next)->file_prev = f->file_prev;
}

uint32_t cache_add(struct model *m, uint32_t file, uint64_t start, unsigned order,
		   uint64_t pfn, bool active)
{
	struct mfile *mf = model_file(m, file);
	uint32_t id = folio_pool_get(&m->pool);
	struct folio *f;

	if (id == FOLIO_NIL)
		return FOLIO_NIL;
	if (!pagecache_insert(&m->pc, file, start, id)) {
		folio_pool_put(&m->pool, id);
		return FOLIO_NIL;
	}
	f = folio_at(&m->pool, id);
	f->index = start;
	f->pfn = (uint32_t)pfn;
	f->file = file;
	f->order = (uint8_t)order;
	f->born = m->seq;
	f->memcg = m->charging;		/* charged to the inserting access's cgroup */
	if (!(m->keep & MODEL_KEEP_ACCESSED_PAGES)) {
		/* not kept: every page counts as accessed, and a hit has nothing to mark */
		f->touched = (uint16_t)(1u << order);
		m->touched_cached_pages += 1ull << order;
	}
	file_list_add(m, mf, id);
	occupancy_insert(m, mf, f);
	mf->nr_by_order[order]++;
	mf->order_mask |= (uint16_t)(1u << order);
	mf->hint_order = (uint8_t)order;
	/* first: the pfn bitmaps must cover its frames before the LRU reads them (MGLRU's) */
	memory_folio_added(m, id);
	if (m->dontcache)	/* filemap_create_folio(), ractl->dropbehind */
		folio_set_dropbehind(m, f, true);
	lruvec_add(m, id, active);
	m->mx.insertions++;
	m->mx.inserted_pages += 1ull << order;
	m->mx.insertions_by_order[order]++;
	return id;
}

/* The folio's page cache entry, lists and counts undone, its pages still allocated. */
/* The folio off its LRU list, out of the index, its file's list and counts. */
static inline __attribute__((always_inline)) void
cache_index_del(struct model *m, uint32_t id, struct folio *f, struct mfile *mf)
{
	lruvec_del(m, id);
	pagecache_remove(&m->pc, f->file, f->index);
	file_list_del(m, mf, f);
	if (mf->occ)
		occupancy_del(m, mf, f);
	if (--mf->nr_by_order[f->order] == 0)
		mf->order_mask &= (uint16_t)~(1u << f->order);
}

static void cache_unlink(struct model *m, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);

	cache_index_del(m, id, f, model_file(m, f->file));
	/* clean: its blocks' state stays with the frames, which the pieces keep */
	folio_pool_put(&m->pool, id);
}

/* The accessed pages among n frames from pfn: all of them when no access is kept per page. */
static uint64_t frames_touched(const struct model *m, uint64_t pfn, uint64_t n)
{
	if (!(m->keep & MODEL_KEEP_ACCESSED_PAGES))
		return n;
	return bitmap_count_range(m->mem.touched_pfn, pfn, pfn + n);
}

/*
 * One piece of a split folio: its pages, flags and LRU list, its touched pages counted from
 * the frames. PG_readahead stays with the head. No insertion: no page was added.
 */
/*
 * The marks kept by pfn that __split_folio_to_order() copies to every piece with the page
 * flags: PG_dropbehind (filemap/dontcache.c) and the VM_EXEC mark (vmscan/exec.c).
 */
struct split_marks {
	bool dropbehind, wb_drops, exec;
};

static struct split_marks split_marks_take(struct model *m, const struct folio *whole)
{
	struct split_marks mk = {
		.dropbehind = folio_test_dropbehind(m, whole),
		.wb_drops = folio_dropbehind_wb_drops(m, whole),
		.exec = folio_test_exec(m, whole),
	};

	folio_clear_dropbehind(m, whole);
	folio_clear_exec(m, whole);
	return mk;
}

static void split_marks_give(struct model *m, const struct split_marks *mk,
			     const struct folio *f)
{
	if (mk->dropbehind)
		folio_set_dropbehind(m, f, mk->wb_drops);
	if (mk->exec)
		folio_set_exec(m, f);
}

static bool split_piece(struct model *m, const struct folio *whole, uint64_t idx,
			unsigned order, const struct split_marks *mk)
{
	struct mfile *mf = model_file(m, whole->file);
	uint32_t id = folio_pool_get(&m->pool);
	uint64_t pfn = folio_pfn(whole) + (idx - whole->index);
	struct folio *f;

	if (id == FOLIO_NIL)
		return false;
	if (!pagecache_insert(&m->pc, whole->file, idx, id)) {
		folio_pool_put(&m->pool, id);
		return false;
	}
	f = folio_at(&m->pool, id);
	*f = *whole;
	f->index = idx;
	f->pfn = (uint32_t)pfn;
	f->order = (uint8_t)order;
	f->touched = (uint16_t)frames_touched(m, pfn, 1ull << order);
	if (idx != whole->index)
		f->flags &= (uint8_t)~FOLIO_READAHEAD;
	file_list_add(m, mf, id);
	occupancy_insert(m, mf, f);
	mf->nr_by_order[order]++;
	mf->order_mask |= (uint16_t)(1u << order);
	memory_folio_added(m, id);
	split_marks_give(m, mk, f);
	lruvec_add(m, id, folio_test(whole, FOLIO_ACTIVE));
	return true;
}

static void split_piece_or_free(struct model *m, const struct folio *whole, uint64_t idx,
				unsigned order, const struct split_marks *mk)
{
	uint64_t pfn = folio_pfn(whole) + (idx - whole->index), n = 1ull << order;

	if (split_piece(m, whole, idx, order, mk))
		return;
	m->touched_cached_pages -= frames_touched(m, pfn, n);
	bitmap_zero_range(m->mem.touched_pfn, pfn, pfn + n);
	memory_free_pages(m, pfn, order);
}

/*
 * A clean large folio split at page at (mm/huge_memory.c): uniform, every piece of order
 * new_order (split_huge_page_to_list_to_order()); else as the buddy allocator splits a block
 * (folio_split(), 6.15+), halving and keeping the half without at whole each time, down to
 * the piece of new_order at at. A piece the pool or index has no room for is left out of the
 * cache and its pages freed (the split then ends short, as a failed split would not, but no
 * page is lost). Returns false when nothing was split (dirty, under writeback, or small).
 */
bool cache_split(struct model *m, uint32_t id, uint64_t at, unsigned new_order, bool uniform)
{
	struct folio whole = *folio_at(&m->pool, id);
	struct split_marks mk;
	uint64_t base = whole.index;
	unsigned o = whole.order;

	if (o <= new_order || folio_test(&whole, FOLIO_DIRTY | FOLIO_WRITEBACK) ||
	    !folio_covers(&whole, at))
		return false;
	cache_unlink(m, id);
	mk = split_marks_take(m, &whole);
	if (uniform) {
		for (uint64_t i = 0; i < folio_nr_pages(&whole); i += 1ull << new_order)
			split_piece_or_free(m, &whole, base + i, new_order, &mk);
		return true;
	}
	while (o > new_order) {
		uint64_t half = 1ull << --o;

		if (at < base + half) {
			split_piece_or_free(m, &whole, base + half, o, &mk);
		} else {
			split_piece_or_free(m, &whole, base, o, &mk);
			base += half;
		}
	}
	split_piece_or_free(m, &whole, base, new_order, &mk);
	return true;
}

/*
 * Reclaim takes the inactive tail, so the folio before this one is most likely the next
 * victim: hint the lines its eviction will touch (its page cache slots, shadow entry
 * and file list neighbours), and the descriptor of the one after it, whose fields the
 * next call reads. Changes no state.
 */
static inline __attribute__((always_inline)) void
evict_prefetch_next(struct model *m, const struct folio *f)
{
	const struct folio *p;
	const struct mfile *pf;

	if (f->lru_prev == FOLIO_NIL)
		return;
	p = folio_at(&m->pool, f->lru_prev);
	pf = model_file(m, p->file);
	pagecache_prefetch_removal(&m->pc, p->file, p->index);
	cache_occupancy_prefetch(pf, p->index);
	if (m->keep & MODEL_KEEP_SHADOWS)
		shadow_prefetch(&m->workingset.shadow, p->file, pf->gen, p->index, p->order);
	/* its neighbours on the file's list, which its removal relinks */
	if (p->file_prev != FOLIO_NIL)
		__builtin_prefetch(&folio_at(&m->pool, p->file_prev)->file_next, 1);
	if (p->file_next != FOLIO_NIL)
		__builtin_prefetch(&folio_at(&m->pool, p->file_next)->file_prev, 1);
	if (p->lru_prev != FOLIO_NIL)
		__builtin_prefetch(folio_at(&m->pool, p->lru_prev));
}

void cache_remove(struct model *m, uint32_t id, bool shadow)
{
	struct folio *f = folio_at(&m->pool, id);
	struct mfile *mf = model_file(m, f->file);
	struct lruvec *lruvec = folio_lruvec(m, id);
	uint64_t nr = folio_nr_pages(f), token = 0;

	if (shadow) {
		evict_prefetch_next(m, f);
		token = lruvec_eviction_token(m, id);
	}
	cache_index_del(m, id, f, mf);
	if (m->keep & MODEL_KEEP_ACCESSED_PAGES)
		bitmap_zero_range(m->mem.touched_pfn, folio_pfn(f), folio_pfn(f) + nr);
	m->touched_cached_pages -= f->touched;
	wb_forget_folio(m, f);
	folio_clear_dropbehind(m, f);
	folio_clear_exec(m, f);
	if (shadow) {
		m->mx.evictions++;
		m->mx.evicted_pages += nr;
		m->mx.untouched_evicted_pages += nr - f->touched;
		lruvec->evicted_pages += nr;
		lruvec->slot_units += f->order < 6 ? nr * 64 : nr;
		if (m->keep & MODEL_KEEP_SHADOWS) {
			shadow_store(&m->workingset.shadow, f->file, mf->gen, f->index, f->order,
				     shadow_pack(lruvec->nonresident_age, f->memcg, token));
			mf->shadow_mask |= (uint16_t)(1u << f->order);
		}
		lruvec->nonresident_age += nr;
		if (m->keep & MODEL_KEEP_SHADOWS)
			shadow_shrink(m, lruvec);
	}
	memory_free_folio(m, f);
	folio_pool_put(&m->pool, id);
}

void cache_touch_slow(struct model *m, uint32_t id, uint64_t first, uint64_t last)
{
	struct folio *f = folio_at(&m->pool, id);
	uint64_t newly;

	newly = bitmap_set_range(m->mem.touched_pfn, folio_pfn(f) + (first - f->index),
				 folio_pfn(f) + (last - f->index) + 1);
	if (!newly)
		return;
	f->touched = (uint16_t)(f->touched + newly);
	m->touched_cached_pages += newly;
	/* ENOMEM here only makes "bytes ever touched" an underestimate */
	if (m->keep & MODEL_KEEP_TOUCHED_SET)
		touched_mark(&m->touched, f->file, model_file(m, f->file)->gen, first, last);
}
