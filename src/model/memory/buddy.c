// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The zone's page allocator (buddy.h).
 *
 * Free blocks of each order and migratetype are a bitmap indexed by pfn >> order, so "is the
 * buddy free at this order?" is one bit test, as PageBuddy() + buddy_order() are in the
 * kernel. Each bitmap has summary levels above it (one bit per non-zero word below) so the
 * lowest- or highest-address free block of an order is found in a few word scans, not a list
 * walk. Every level is kept in 4 KiB pages allocated when a bit in them is first set, and the
 * pageblocks' types and counts in chunks allocated when one of them first changes: a zone of
 * 2^32 pages that the model uses a gigabyte of costs little more than that gigabyte's share.
 *
 * The rules, mm/page_alloc.c as of 6.12 with the stable updates Debian ships (the fallback
 * split into claim and steal, "mm: page_alloc: don't steal single pages from biggest buddy",
 * 6.15 upstream; the same in 6.18, where the functions are named try_to_claim_block() and
 * should_try_claim_block()):
 * - __rmqueue_smallest(): the smallest order with a free block of the type wins; the block is
 *   split as expand() does (the high halves go back on the free lists of that type, the low
 *   part is returned). Within an order the lowest address is taken where the kernel takes its
 *   list's head, which makes results reproducible.
 * - __rmqueue_claim(): from the largest order down, the first fallback type (fallbacks[]) with
 *   a free block; stop at the first order too small to claim (can_steal_fallback(): order >=
 *   pageblock_order / 2, or an unmovable or reclaimable allocation). A block of a pageblock or
 *   more changes its pageblocks' type; a smaller one claims its pageblock when free and
 *   compatible pages are at least half of it (try_to_steal_block()), moving every free block
 *   of the pageblock to the new type's lists.
 * - __rmqueue_steal(): from the requested order up, one block of the first fallback type with
 *   one, its pageblock left as it is.
 * - __free_one_page(): merge while the buddy is free at the same order; a pageblock-sized
 *   buddy of another type merges too (all three fallback types are mergeable) and takes the
 *   freed block's type (change_pageblock_range()).
 * Not modelled: per-CPU page lists (pages freed there wait before they merge), the
 * ALLOC_NOFRAGMENT first pass over the other zones of the node (the model has one zone) and
 * watermark boosting on a fallback.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/memory/buddy.h"
#include "util/checks.h"
#include "util/msg.h"
#include "util/rng.h"

#define NR_ORDERS		(BUDDY_MAX_ORDER + 1)

/* ---- sparse summary bitmap ---------------------------------------------------------------- */

/* 64-ary summary tree: enough levels for 2^48 bits. */
#define SB_MAX_LEVELS		8
#define SB_PAGE_SHIFT		9	/* 512 words (4 KiB) a page */
#define SB_PAGE_WORDS		(1u << SB_PAGE_SHIFT)

struct sb_level {
	uint64_t **page;	/* NULL: all zero */
	uint64_t nr_pages;
};

struct sbitset {
	unsigned nr_levels;	/* level 0 holds the bits; the top has one word */
	struct sb_level level[SB_MAX_LEVELS];
	uint64_t **owned;	/* the pages allocated, to free them without a directory walk */
	uint64_t nr_owned, cap_owned;
};

static uint64_t words_for(uint64_t bits)
{
	return (bits + 63) / 64;
}

static bool sb_init(struct sbitset *s, uint64_t nr_bits)
{
	uint64_t words = words_for(nr_bits ? nr_bits : 1);

	memset(s, 0, sizeof(*s));
	for (;;) {
		struct sb_level *l;

		if (s->nr_levels == SB_MAX_LEVELS)
			return false;
		l = &s->level[s->nr_levels++];
		l->nr_pages = (words + SB_PAGE_WORDS - 1) >> SB_PAGE_SHIFT;
		l->page = calloc(l->nr_pages, sizeof(*l->page));
		if (!l->page)
			return false;
		if (words == 1)
			return true;
		words = words_for(words);
	}
}

static void sb_release(struct sbitset *s)
{
	for (uint64_t p = 0; p < s->nr_owned; p++)
		free(s->owned[p]);
	free(s->owned);
	for (unsigned i = 0; i < s->nr_levels; i++)
		free(s->level[i].page);
}

static inline uint64_t sb_word(const struct sb_level *l, uint64_t w)
{
	const uint64_t *p = l->page[w >> SB_PAGE_SHIFT];

	return p ? p[w & (SB_PAGE_WORDS - 1)] : 0;
}

/* Pages of bitmap are a few KiB: running out of them is the end of the run. */
static void sb_out_of_memory(void)
{
	ft_warn("out of memory for the modelled page allocator");
	exit(1);
}

static uint64_t *sb_new_page(struct sbitset *s)
{
	uint64_t *page;

	if (s->nr_owned == s->cap_owned) {
		uint64_t cap = s->cap_owned ? 2 * s->cap_owned : 16;
		uint64_t **o = realloc(s->owned, cap * sizeof(*o));

		if (!o)
			sb_out_of_memory();
		s->owned = o;
		s->cap_owned = cap;
	}
	page = calloc(SB_PAGE_WORDS, sizeof(uint64_t));
	if (!page)
		sb_out_of_memory();
	s->owned[s->nr_owned++] = page;
	return page;
}

static inline uint64_t *sb_word_ptr(struct sbitset *s, unsigned level, uint64_t w)
{
	uint64_t **p = &s->level[level].page[w >> SB_PAGE_SHIFT];

	if (!*p)
		*p = sb_new_page(s);
	return &(*p)[w & (SB_PAGE_WORDS - 1)];
}

static inline bool sb_test(const struct sbitset *s, uint64_t i)
{
	return sb_word(&s->level[0], i / 64) >> (i % 64) & 1;
}

static void sb_set(struct sbitset *s, uint64_t i)
{
	for (unsigned l = 0; l < s->nr_levels; l++) {
		uint64_t *w = sb_word_ptr(s, l, i / 64);
		bool was_empty = *w == 0;

		*w |= 1ULL << (i % 64);
		if (!was_empty)
			break;		/* the levels above already know this word is non-zero */
		i /= 64;
	}
}

static void sb_clear(struct sbitset *s, uint64_t i)
{
	for (unsigned l = 0; l < s->nr_levels; l++) {
		uint64_t *w = sb_word_ptr(s, l, i / 64);

		*w &= ~(1ULL << (i % 64));
		if (*w)
			break;		/* word still non-zero: summaries above stay set */
		i /= 64;
	}
}

/* Lowest set bit; the caller knows one is set. */
static uint64_t sb_first(const struct sbitset *s)
{
	uint64_t i = 0;

	for (unsigned l = s->nr_levels; l-- > 0;)
		i = i * 64 + (uint64_t)__builtin_ctzll(sb_word(&s->level[l], i));
	return i;
}

/* Highest set bit; the caller knows one is set. */
static uint64_t sb_last(const struct sbitset *s)
{
	uint64_t i = 0;

	for (unsigned l = s->nr_levels; l-- > 0;)
		i = i * 64 + 63 - (uint64_t)__builtin_clzll(sb_word(&s->level[l], i));
	return i;
}

/* The first set bit in [from, to), or to. */
static uint64_t sb_next(const struct sbitset *s, uint64_t from, uint64_t to)
{
	while (from < to) {
		uint64_t w = sb_word(&s->level[0], from / 64) >> (from % 64);

		if (w) {
			from += (uint64_t)__builtin_ctzll(w);
			return from < to ? from : to;
		}
		from = (from / 64 + 1) * 64;
	}
	return to;
}

/* ---- pageblocks ------------------------------------------------------------------------- */

#define PB_CHUNK_SHIFT		10	/* pageblocks a chunk: 2 GiB of 4 KiB pages */
#define PB_CHUNK		(1u << PB_CHUNK_SHIFT)

/*
 * The heads of movable blocks of each order below a pageblock, a bitmap by page each, kept
 * for the pageblocks compaction scans (buddy_track_heads()): its scanner then goes from one
 * block it may move to the next, where it went a block at a time.
 */
#define HEAD_ORDERS		PAGEBLOCK_ORDER
#define HEAD_WORDS		(PAGEBLOCK_PAGES / 64)

struct pageblock {
	uint32_t *tag;			/* PAGEBLOCK_PAGES tags, NULL until one is set */
	uint64_t *heads;		/* HEAD_ORDERS bitmaps of HEAD_WORDS, NULL: not kept */
	uint16_t used[MT_TYPES];	/* pages allocated as each type */
	uint8_t mt;
};

/* What a pageblock no allocation has touched holds: nothing, and it is MOVABLE. */
static const struct pageblock pb_untouched = { .mt = MT_MOVABLE };

struct buddy {
	uint64_t nr_pages;
	uint64_t nr_pageblocks;
	uint64_t free_pages;
	uint64_t pinned_pages;
	uint64_t nr_free[MT_TYPES][NR_ORDERS];
	uint64_t nr_free_total[NR_ORDERS];
	uint16_t orders_of[MT_TYPES];		/* bit k: a free block of order k on mt's list */
	uint64_t nr_blocks_of[MT_TYPES];	/* pageblocks of each type */
	struct sbitset area[NR_ORDERS][MT_TYPES];	/* bit n: block at pfn n << order free */
	struct pageblock **chunk;
	uint64_t nr_chunks;
	struct buddy_stats st;
	/* buddy_count_only(): pages counted, not placed; the free lists above stay as they are */
	bool counting;
	uint64_t never_used;		/* the pfns from here up were never handed out */
	uint32_t *given_back;		/* pfns freed since, the last one on top */
	uint64_t nr_given_back, cap_given_back;
#ifdef FT_EXPENSIVE_CHECKS
	uint64_t *counted_in_use;	/* a bit per pfn below never_used: a double free aborts */
#endif
};

static const struct pageblock *pb_peek(const struct buddy *b, uint64_t pfn)
{
	uint64_t pb = pfn >> PAGEBLOCK_ORDER;
	const struct pageblock *c = b->chunk[pb >> PB_CHUNK_SHIFT];

	return c ? &c[pb & (PB_CHUNK - 1)] : &pb_untouched;
}

static struct pageblock *pb_get(struct buddy *b, uint64_t pfn)
{
	uint64_t pb = pfn >> PAGEBLOCK_ORDER;
	struct pageblock **c = &b->chunk[pb >> PB_CHUNK_SHIFT];

	if (!*c) {
		*c = malloc(PB_CHUNK * sizeof(**c));
		if (!*c)
			sb_out_of_memory();
		for (unsigned i = 0; i < PB_CHUNK; i++)
			(*c)[i] = pb_untouched;
	}
	return &(*c)[pb & (PB_CHUNK - 1)];
}

unsigned buddy_pageblock_type(const struct buddy *b, uint64_t pfn)
{
	return pb_peek(b, pfn)->mt;
}

static void pb_set_type(struct buddy *b, uint64_t pfn, unsigned mt)
{
	struct pageblock *pb = pb_get(b, pfn);

	b->nr_blocks_of[pb->mt]--;
	b->nr_blocks_of[mt]++;
	pb->mt = (uint8_t)mt;
}

/* change_pageblock_range(): every pageblock of a block of at least pageblock_order. */
static unsigned pb_set_range_type(struct buddy *b, uint64_t pfn, unsigned order, unsigned mt)
{
	unsigned n = 1u << (order - PAGEBLOCK_ORDER);

	for (unsigned i = 0; i < n; i++)
		pb_set_type(b, pfn + ((uint64_t)i << PAGEBLOCK_ORDER), mt);
	return n;
}

static void account_used(struct buddy *b, uint64_t pfn, unsigned order, unsigned mt, int sign)
{
	uint64_t end = pfn + (1ull << order);

	/* a block above pageblock_order spans whole pageblocks */
	for (; pfn < end; pfn += PAGEBLOCK_PAGES) {
		struct pageblock *pb = pb_get(b, pfn);
		unsigned n = order < PAGEBLOCK_ORDER ? 1u << order : PAGEBLOCK_PAGES;

		pb->used[mt] = (uint16_t)(pb->used[mt] + sign * (int)n);
	}
}

/* ---- free lists ------------------------------------------------------------------------- */

static uint64_t block_pages(unsigned order)
{
	return 1ULL << order;
}

static void free_area_add(struct buddy *b, uint64_t pfn, unsigned order, unsigned mt)
{
	sb_set(&b->area[order][mt], pfn >> order);
	if (!b->nr_free[mt][order]++)
		b->orders_of[mt] |= (uint16_t)(1u << order);
	b->nr_free_total[order]++;
	b->free_pages += block_pages(order);
}

static void free_area_del(struct buddy *b, uint64_t pfn, unsigned order, unsigned mt)
{
	sb_clear(&b->area[order][mt], pfn >> order);
	if (!--b->nr_free[mt][order])
		b->orders_of[mt] &= (uint16_t)~(1u << order);
	b->nr_free_total[order]--;
	b->free_pages -= block_pages(order);
}

/* expand(): splits a block of order high down to order low, keeping the low part. */
static void block_expand(struct buddy *b, uint64_t pfn, unsigned high, unsigned low,
			 unsigned mt)
{
	while (high > low) {
		high--;
		free_area_add(b, pfn + block_pages(high), high, mt);
	}
}

bool buddy_free_block_of(const struct buddy *b, uint64_t pfn, uint64_t *start, unsigned *order)
{
	unsigned mt;

	if (pfn >= b->nr_pages)
		return false;
	mt = pb_peek(b, pfn)->mt;
	for (unsigned k = 0; k <= BUDDY_MAX_ORDER; k++) {
		uint64_t s = pfn & ~(block_pages(k) - 1);

		/* below a pageblock the block is on the list of pfn's own pageblock */
		if (k > PAGEBLOCK_ORDER)
			mt = pb_peek(b, s)->mt;
		if (!(b->orders_of[mt] >> k & 1))
			continue;
		if (s + block_pages(k) <= b->nr_pages && sb_test(&b->area[k][mt], s >> k)) {
			*start = s;
			*order = k;
			return true;
		}
	}
	return false;
}

int buddy_free_order_at(const struct buddy *b, uint64_t pfn)
{
	uint64_t start;
	unsigned order;

	if (!buddy_free_block_of(b, pfn, &start, &order) || start != pfn)
		return -1;
	return (int)order;
}

/* Seeds the free lists with the largest aligned blocks that fit, lowest address first. */
static void free_area_fill(struct buddy *b)
{
	uint64_t pfn = 0;

	while (pfn < b->nr_pages) {
		unsigned order = BUDDY_MAX_ORDER;

		while (order && ((pfn & (block_pages(order) - 1)) ||
				 pfn + block_pages(order) > b->nr_pages))
			order--;
		free_area_add(b, pfn, order, MT_MOVABLE);
		pfn += block_pages(order);
	}
}

struct buddy *buddy_new(uint64_t nr_pages)
{
	struct buddy *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->nr_pages = nr_pages;
	b->nr_pageblocks = (nr_pages + PAGEBLOCK_PAGES - 1) >> PAGEBLOCK_ORDER;
	b->nr_blocks_of[MT_MOVABLE] = b->nr_pageblocks;
	b->nr_chunks = (b->nr_pageblocks + PB_CHUNK - 1) >> PB_CHUNK_SHIFT;
	b->chunk = calloc(b->nr_chunks ? b->nr_chunks : 1, sizeof(*b->chunk));
	if (!b->chunk) {
		free(b);
		return NULL;
	}
	for (unsigned order = 0; order <= BUDDY_MAX_ORDER; order++)
		for (unsigned mt = 0; mt < MT_TYPES; mt++)
			if (!sb_init(&b->area[order][mt], nr_pages >> order)) {
				buddy_destroy(b);
				return NULL;
			}
	free_area_fill(b);
	return b;
}

void buddy_destroy(struct buddy *b)
{
	if (!b)
		return;
	for (unsigned order = 0; order <= BUDDY_MAX_ORDER; order++)
		for (unsigned mt = 0; mt < MT_TYPES; mt++)
			sb_release(&b->area[order][mt]);
	for (uint64_t c = 0; c < b->nr_chunks; c++) {
		if (!b->chunk[c])
			continue;
		for (unsigned i = 0; i < PB_CHUNK; i++) {
			free(b->chunk[c][i].tag);
			free(b->chunk[c][i].heads);
		}
		free(b->chunk[c]);
	}
	free(b->chunk);
	free(b->given_back);
#ifdef FT_EXPENSIVE_CHECKS
	free(b->counted_in_use);
#endif
	free(b);
}

/* ---- allocation ------------------------------------------------------------------------- */

/* fallbacks[]: the order in which a type's allocations try the others' free lists */
static const unsigned fallbacks[MT_PCPTYPES][MT_PCPTYPES - 1] = {
	[MT_UNMOVABLE] = { MT_RECLAIMABLE, MT_MOVABLE },
	[MT_MOVABLE] = { MT_RECLAIMABLE, MT_UNMOVABLE },
	[MT_RECLAIMABLE] = { MT_UNMOVABLE, MT_MOVABLE },
};

/* __rmqueue_smallest() */
static uint64_t rmqueue_smallest(struct buddy *b, unsigned order, unsigned mt)
{
	unsigned above = (unsigned)b->orders_of[mt] >> order, high;
	uint64_t pfn;

	if (!above)
		return BUDDY_NO_PFN;
	high = order + (unsigned)__builtin_ctz(above);
	pfn = sb_first(&b->area[high][mt]) << high;
	free_area_del(b, pfn, high, mt);
	block_expand(b, pfn, high, order, mt);
	return pfn;
}

/* can_steal_fallback() (6.12), should_try_claim_block() (6.15+) */
static bool should_claim(unsigned order, unsigned start_mt)
{
	return order >= PAGEBLOCK_ORDER / 2 || start_mt != MT_MOVABLE;
}

int buddy_find_fallback(const struct buddy *b, unsigned order, unsigned mt, bool *can_claim)
{
	*can_claim = false;
	if (mt >= MT_PCPTYPES || !b->nr_free_total[order])
		return -1;
	for (unsigned i = 0; i < MT_PCPTYPES - 1; i++) {
		unsigned fmt = fallbacks[mt][i];

		if (!b->nr_free[fmt][order])
			continue;
		*can_claim = should_claim(order, mt);
		return (int)fmt;
	}
	return -1;
}

/* Free pages in the pageblock starting at pb_pfn (its free blocks, or a larger one over it). */
static unsigned pageblock_free_pages(const struct buddy *b, uint64_t pb_pfn)
{
	unsigned mt = pb_peek(b, pb_pfn)->mt, n = 0;
	uint64_t start;
	unsigned order;

	if (buddy_free_block_of(b, pb_pfn, &start, &order) && order >= PAGEBLOCK_ORDER)
		return PAGEBLOCK_PAGES;
	for (unsigned k = 0; k < PAGEBLOCK_ORDER; k++) {
		const struct sbitset *s = &b->area[k][mt];
		uint64_t from = pb_pfn >> k, to = (pb_pfn + PAGEBLOCK_PAGES) >> k;

		for (uint64_t i = sb_next(s, from, to); i < to; i = sb_next(s, i + 1, to))
			n += 1u << k;
	}
	return n;
}

/* __move_freepages_block(): every free block of the pageblock to new_mt's lists, and its type. */
static void move_freepages_block(struct buddy *b, uint64_t pb_pfn, unsigned old_mt,
				 unsigned new_mt)
{
	for (unsigned k = 0; k < PAGEBLOCK_ORDER; k++) {
		struct sbitset *s = &b->area[k][old_mt];
		uint64_t from = pb_pfn >> k, to = (pb_pfn + PAGEBLOCK_PAGES) >> k;

		for (uint64_t i = sb_next(s, from, to); i < to; i = sb_next(s, i + 1, to)) {
			free_area_del(b, i << k, k, old_mt);
			free_area_add(b, i << k, k, new_mt);
		}
	}
	pb_set_type(b, pb_pfn, new_mt);
}

/* try_to_steal_block() (6.12), try_to_claim_block() (6.15+) */
static uint64_t try_claim_block(struct buddy *b, uint64_t pfn, unsigned current_order,
				unsigned order, unsigned start_mt)
{
	unsigned block_mt = pb_peek(b, pfn)->mt;
	uint64_t pb_pfn = pfn & ~(uint64_t)(PAGEBLOCK_PAGES - 1);
	unsigned free, movable, alike;

	if (block_mt >= MT_PCPTYPES)
		return BUDDY_NO_PFN;
	if (current_order >= PAGEBLOCK_ORDER) {
		free_area_del(b, pfn, current_order, block_mt);
		b->st.claimed_blocks += pb_set_range_type(b, pfn, current_order, start_mt);
		block_expand(b, pfn, current_order, order, start_mt);
		return pfn;
	}
	/* prep_move_freepages_block(): a pageblock the zone's end cuts is left alone */
	if (pb_pfn + PAGEBLOCK_PAGES > b->nr_pages)
		return BUDDY_NO_PFN;
	free = pageblock_free_pages(b, pb_pfn);
	movable = pb_peek(b, pb_pfn)->used[MT_MOVABLE];
	if (start_mt == MT_MOVABLE)
		alike = movable;
	else if (block_mt == MT_MOVABLE)
		alike = PAGEBLOCK_PAGES - free - movable;
	else
		alike = 0;
	if (free + alike < PAGEBLOCK_PAGES / 2)
		return BUDDY_NO_PFN;
	move_freepages_block(b, pb_pfn, block_mt, start_mt);
	b->st.claimed_blocks++;
	return rmqueue_smallest(b, order, start_mt);
}

/* __rmqueue_claim() */
static uint64_t rmqueue_claim(struct buddy *b, unsigned order, unsigned mt)
{
	for (int current = BUDDY_MAX_ORDER; current >= (int)order; current--) {
		bool can_claim;
		int fmt = buddy_find_fallback(b, (unsigned)current, mt, &can_claim);
		uint64_t pfn;

		if (fmt < 0)
			continue;
		if (!can_claim)
			break;
		pfn = sb_first(&b->area[current][fmt]) << current;
		pfn = try_claim_block(b, pfn, (unsigned)current, order, mt);
		if (pfn != BUDDY_NO_PFN) {
			b->st.claimed++;
			return pfn;
		}
	}
	return BUDDY_NO_PFN;
}

/* __rmqueue_steal() */
static uint64_t rmqueue_steal(struct buddy *b, unsigned order, unsigned mt)
{
	for (unsigned current = order; current <= BUDDY_MAX_ORDER; current++) {
		bool can_claim;
		int fmt = buddy_find_fallback(b, current, mt, &can_claim);
		uint64_t pfn;

		if (fmt < 0)
			continue;
		pfn = sb_first(&b->area[current][fmt]) << current;
		free_area_del(b, pfn, current, (unsigned)fmt);
		block_expand(b, pfn, current, order, (unsigned)fmt);
		b->st.stolen++;
		return pfn;
	}
	return BUDDY_NO_PFN;
}

/* ---- counting only ---------------------------------------------------------------------- */

bool buddy_count_only(struct buddy *b, bool on)
{
	if (b->free_pages != b->nr_pages)
		return b->counting == on;
	b->counting = on;
	b->never_used = 0;
	b->nr_given_back = 0;
	return true;
}

/* Any page not in use: which one can decide nothing (buddy_count_only()'s caller's promise). */
static uint64_t count_alloc(struct buddy *b, unsigned order)
{
	bool fresh = !b->nr_given_back;
	uint64_t pfn;

	if (order)	/* the promise broken: placement would decide */
		abort();
	if (!b->free_pages)
		return BUDDY_NO_PFN;
	b->free_pages--;
	pfn = fresh ? b->never_used++ : b->given_back[--b->nr_given_back];
#ifdef FT_EXPENSIVE_CHECKS
	if (fresh && !(pfn & 63)) {	/* a word more */
		uint64_t *w = realloc(b->counted_in_use, (pfn / 64 + 1) * sizeof(*w));

		if (!w)
			sb_out_of_memory();
		w[pfn / 64] = 0;
		b->counted_in_use = w;
	}
	b->counted_in_use[pfn / 64] |= 1ull << (pfn % 64);
#endif
	return pfn;
}

static void count_free(struct buddy *b, uint64_t pfn, unsigned order)
{
	if (order || pfn >= b->never_used)	/* never handed out by count_alloc() */
		abort();
#ifdef FT_EXPENSIVE_CHECKS
	if (!(b->counted_in_use[pfn / 64] >> (pfn % 64) & 1))
		abort();
	b->counted_in_use[pfn / 64] &= ~(1ull << (pfn % 64));
#endif
	if (b->nr_given_back == b->cap_given_back) {
		uint64_t cap = b->cap_given_back ? 2 * b->cap_given_back : 1024;
		uint32_t *p = realloc(b->given_back, cap * sizeof(*p));

		if (!p)
			sb_out_of_memory();
		b->given_back = p;
		b->cap_given_back = cap;
	}
	b->given_back[b->nr_given_back++] = (uint32_t)pfn;
	b->free_pages++;
}

uint64_t buddy_alloc_mt(struct buddy *b, unsigned order, unsigned mt)
{
	uint64_t pfn;

	if (order > BUDDY_MAX_ORDER || mt >= MT_TYPES)
		return BUDDY_NO_PFN;
	if (b->counting)
		return count_alloc(b, order);
	pfn = rmqueue_smallest(b, order, mt);
	/* nothing of the fallback types at the order or above: no need to look */
	if (pfn == BUDDY_NO_PFN && mt < MT_PCPTYPES &&
	    (unsigned)(b->orders_of[fallbacks[mt][0]] | b->orders_of[fallbacks[mt][1]]) >> order) {
		pfn = rmqueue_claim(b, order, mt);
		if (pfn == BUDDY_NO_PFN)
			pfn = rmqueue_steal(b, order, mt);
	}
	if (pfn != BUDDY_NO_PFN)
		account_used(b, pfn, order, mt, 1);
	return pfn;
}

uint64_t buddy_alloc(struct buddy *b, unsigned order)
{
	return buddy_alloc_mt(b, order, MT_MOVABLE);
}

/* ---- freeing ---------------------------------------------------------------------------- */

/* The page at pfn heads no movable block any more. */
static void heads_clear(uint64_t *heads, uint64_t pfn)
{
	unsigned off = pfn & (PAGEBLOCK_PAGES - 1), w = off / 64;
	uint64_t keep = ~(1ull << (off % 64));

	for (unsigned k = 0; k < HEAD_ORDERS; k++)
		heads[k * HEAD_WORDS + w] &= keep;
}

static void heads_set(uint64_t *heads, uint64_t pfn, int unit)
{
	unsigned off = pfn & (PAGEBLOCK_PAGES - 1);

	if (unit >= 0 && unit < HEAD_ORDERS)
		heads[(unsigned)unit * HEAD_WORDS + off / 64] |= 1ull << (off % 64);
}

static void clear_tag(struct buddy *b, uint64_t pfn)
{
	const struct pageblock *pb = pb_peek(b, pfn);

	if (pb->tag)
		pb->tag[pfn & (PAGEBLOCK_PAGES - 1)] = BUDDY_TAG_NONE;
	if (pb->heads)
		heads_clear(pb->heads, pfn);
}

/* __free_one_page(): coalesce with the buddy while it is free at the same order. */
static void free_one_page(struct buddy *b, uint64_t pfn, unsigned order)
{
	unsigned mt = pb_peek(b, pfn)->mt;

	while (order < BUDDY_MAX_ORDER) {
		uint64_t buddy_pfn = pfn ^ block_pages(order);
		unsigned buddy_mt = mt;

		if (buddy_pfn + block_pages(order) > b->nr_pages)
			break;
		if (order >= PAGEBLOCK_ORDER) {
			buddy_mt = pb_peek(b, buddy_pfn)->mt;
			/* migratetype_is_mergeable(): the fallback types only */
			if (buddy_mt != mt && (mt >= MT_PCPTYPES || buddy_mt >= MT_PCPTYPES))
				break;
		}
		if (!sb_test(&b->area[order][buddy_mt], buddy_pfn >> order))
			break;
		free_area_del(b, buddy_pfn, order, buddy_mt);
		if (buddy_mt != mt) {
			pb_set_range_type(b, buddy_pfn, order, mt);
			b->st.merged_types++;
		}
		pfn &= buddy_pfn;
		order++;
	}
	free_area_add(b, pfn, order, mt);
}

void buddy_free_mt(struct buddy *b, uint64_t pfn, unsigned order, unsigned mt)
{
	if (order > BUDDY_MAX_ORDER || (pfn & (block_pages(order) - 1)) ||
	    pfn + block_pages(order) > b->nr_pages || mt >= MT_TYPES)
		abort();
	if (b->counting) {
		count_free(b, pfn, order);
		return;
	}
#ifdef FT_EXPENSIVE_CHECKS	/* a double free, in the sanitizer builds */
	{
		uint64_t s;
		unsigned o;

		/* one lookup per order: too dear for every eviction of an optimised build */
		if (buddy_free_block_of(b, pfn, &s, &o))
			abort();
	}
#endif
	clear_tag(b, pfn);
	account_used(b, pfn, order, mt, -1);
	free_one_page(b, pfn, order);
}

void buddy_free(struct buddy *b, uint64_t pfn, unsigned order)
{
	buddy_free_mt(b, pfn, order, MT_MOVABLE);
}

bool buddy_take(struct buddy *b, uint64_t pfn, unsigned order, unsigned mt)
{
	uint64_t start;
	unsigned k, bmt;

	if (order > BUDDY_MAX_ORDER || mt >= MT_TYPES || (pfn & (block_pages(order) - 1)) ||
	    !buddy_free_block_of(b, pfn, &start, &k) || k < order)
		return false;
	bmt = pb_peek(b, start)->mt;
	free_area_del(b, start, k, bmt);
	while (k > order) {
		uint64_t half;

		k--;
		half = block_pages(k);
		if (pfn & half) {	/* pfn lives in the high half: the low one stays free */
			free_area_add(b, start, k, bmt);
			start += half;
		} else {
			free_area_add(b, start + half, k, bmt);
		}
	}
	account_used(b, pfn, order, mt, 1);
	return true;
}

void buddy_set_pageblock_type(struct buddy *b, uint64_t pfn, unsigned mt)
{
	if (mt < MT_TYPES && pb_peek(b, pfn)->mt != mt)
		pb_set_type(b, pfn, mt);
}

/*
 * Selection sampling (Knuth's algorithm S) over the free pages in pfn order: every subset of
 * the wanted size is equally likely and exactly that many pages are pinned, in one pass. The
 * pages are unmovable, where they land, whatever their pageblock's type (a what-if: the
 * kernel groups unmovable pages by pageblock).
 */
void buddy_pin_random(struct buddy *b, double pct, uint64_t seed)
{
	uint64_t state = seed;
	uint64_t candidates = b->free_pages;
	uint64_t want;

	if (!(pct > 0))
		return;
	if (pct > 100)
		pct = 100;
	want = (uint64_t)llround(pct * (double)b->nr_pages / 100.0);
	if (want > candidates)
		want = candidates;

	for (uint64_t pfn = 0; want && pfn < b->nr_pages; pfn++) {
		uint64_t start;
		unsigned order;

		if (!buddy_free_block_of(b, pfn, &start, &order))
			continue;
		if (ft_splitmix64_below(&state, candidates) < want) {
			buddy_take(b, pfn, 0, MT_UNMOVABLE);
			b->pinned_pages++;
			want--;
		}
		candidates--;
	}
}

/* ---- tags ------------------------------------------------------------------------------- */

bool buddy_set_tag(struct buddy *b, uint64_t pfn, uint32_t tag, int unit)
{
	struct pageblock *pb;

	if (pfn >= b->nr_pages)
		return false;
	if (b->counting)	/* compaction, the one reader, never runs */
		return true;
	pb = pb_get(b, pfn);
	if (!pb->tag) {
		if (tag == BUDDY_TAG_NONE)
			return true;
		pb->tag = calloc(PAGEBLOCK_PAGES, sizeof(*pb->tag));
		if (!pb->tag)
			return false;
	}
	pb->tag[pfn & (PAGEBLOCK_PAGES - 1)] = tag;
	if (pb->heads) {
		heads_clear(pb->heads, pfn);
		heads_set(pb->heads, pfn, unit);
	}
	return true;
}

uint32_t buddy_tag(const struct buddy *b, uint64_t pfn)
{
	const struct pageblock *pb;

	if (pfn >= b->nr_pages)
		return BUDDY_TAG_NONE;
	pb = pb_peek(b, pfn);
	return pb->tag ? pb->tag[pfn & (PAGEBLOCK_PAGES - 1)] : BUDDY_TAG_NONE;
}

bool buddy_track_heads(struct buddy *b, uint64_t pfn)
{
	struct pageblock *pb;

	if (pfn >= b->nr_pages)
		return false;
	pb = pb_get(b, pfn);
	if (pb->heads)
		return false;
	/* no memory for them: the scanner goes a block at a time, as it can without */
	pb->heads = calloc(HEAD_ORDERS * HEAD_WORDS, sizeof(*pb->heads));
	return pb->heads != NULL;
}

bool buddy_heads_kept(const struct buddy *b, uint64_t pfn)
{
	return pfn < b->nr_pages && pb_peek(b, pfn)->heads;
}

void buddy_mark_head(struct buddy *b, uint64_t pfn, int unit)
{
	const struct pageblock *pb = pb_peek(b, pfn);

	if (pb->heads)
		heads_set(pb->heads, pfn, unit);
}

uint64_t buddy_next_head(const struct buddy *b, uint64_t from, uint64_t to, unsigned limit)
{
	const uint64_t *heads = pb_peek(b, from)->heads;
	uint64_t base = from & ~(uint64_t)(PAGEBLOCK_PAGES - 1);
	unsigned off = (unsigned)(from - base), end = (unsigned)(to - base);
	unsigned orders = limit < HEAD_ORDERS ? limit : HEAD_ORDERS;

	for (unsigned w = off / 64; w * 64 < end; w++) {
		uint64_t word = 0;

		for (unsigned k = 0; k < orders; k++)
			word |= heads[k * HEAD_WORDS + w];
		if (w == off / 64)
			word &= ~0ull << (off % 64);
		if (word) {
			unsigned p = w * 64 + (unsigned)__builtin_ctzll(word);

			return p < end ? base + p : to;
		}
	}
	return to;
}

/* ---- queries ---------------------------------------------------------------------------- */

uint64_t buddy_nr_pages(const struct buddy *b)
{
	return b->nr_pages;
}

uint64_t buddy_free_pages(const struct buddy *b)
{
	return b->free_pages;
}

uint64_t buddy_pinned_pages(const struct buddy *b)
{
	return b->pinned_pages;
}

void buddy_free_counts(const struct buddy *b, uint64_t nr_free[BUDDY_MAX_ORDER + 1])
{
	memcpy(nr_free, b->nr_free_total, sizeof(b->nr_free_total));
}

void buddy_free_counts_mt(const struct buddy *b,
			  uint64_t nr_free[MT_TYPES][BUDDY_MAX_ORDER + 1])
{
	memcpy(nr_free, b->nr_free, sizeof(b->nr_free));
}

void buddy_pageblock_counts(const struct buddy *b, uint64_t nr[MT_TYPES])
{
	memcpy(nr, b->nr_blocks_of, sizeof(b->nr_blocks_of));
}

void buddy_stats(const struct buddy *b, struct buddy_stats *st)
{
	*st = b->st;
}

bool buddy_can_alloc(const struct buddy *b, unsigned order)
{
	unsigned any = 0;

	for (unsigned mt = 0; mt < MT_TYPES; mt++)
		any |= b->orders_of[mt];
	return order <= BUDDY_MAX_ORDER && any >> order;
}

bool buddy_free_area_has(const struct buddy *b, unsigned order, unsigned mt)
{
	return order <= BUDDY_MAX_ORDER && mt < MT_TYPES && (unsigned)b->orders_of[mt] >> order;
}

void buddy_pageblock_usage(const struct buddy *b, uint64_t pfn, struct buddy_pageblock_usage *u)
{
	const struct pageblock *pb = pb_peek(b, pfn);
	uint64_t pb_pfn = pfn & ~(uint64_t)(PAGEBLOCK_PAGES - 1);

	u->free = pageblock_free_pages(b, pb_pfn);
	for (unsigned mt = 0; mt < MT_TYPES; mt++)
		u->used[mt] = pb->used[mt];
}

unsigned buddy_pageblock_used(const struct buddy *b, uint64_t pfn, unsigned mt)
{
	return mt < MT_TYPES ? pb_peek(b, pfn)->used[mt] : 0;
}

uint64_t buddy_last_free(const struct buddy *b, unsigned order, unsigned mt)
{
	if (order > BUDDY_MAX_ORDER || mt >= MT_TYPES || !b->nr_free[mt][order])
		return BUDDY_NO_PFN;
	return sb_last(&b->area[order][mt]) << order;
}
