// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Buddy allocator over the modelled page frames.
 *
 * Free blocks of each order are kept as a bitmap indexed by pfn >> order, so "is the buddy
 * free at this order?" is one bit test, as PageBuddy() + buddy_order() are in the kernel.
 * Each bitmap has summary levels above it (one bit per non-zero word below) so the
 * lowest-address free block of an order is found in a few word scans, not a list walk:
 * the page-cache model allocates one folio per miss, so this path has to be fast.
 *
 * Allocation follows __rmqueue_smallest(): the smallest order with a free block wins, and
 * the block is split as expand() does (the high halves go back on the free lists, the low
 * part is returned). Within an order the lowest address is taken, which makes results
 * reproducible where the kernel would take the list head.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/buddy.h"
#include "util/rng.h"

/* Sanitizer builds (make check under --enable-sanitizers) also catch double frees. */
#if defined(__SANITIZE_ADDRESS__)
#define BUDDY_CHECK_DOUBLE_FREE 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define BUDDY_CHECK_DOUBLE_FREE 1
#endif
#endif

/* 64-ary summary tree: enough levels for 2^48 bits. */
#define BITSET_MAX_LEVELS	8

struct bitset {
	unsigned nr_levels;			/* level 0 holds the bits; the top has one word */
	uint64_t *level[BITSET_MAX_LEVELS];
};

struct buddy {
	uint64_t nr_pages;
	uint64_t free_pages;
	uint64_t pinned_pages;
	uint64_t nr_free[BUDDY_MAX_ORDER + 1];
	struct bitset free_area[BUDDY_MAX_ORDER + 1];	/* bit n: block at pfn n << order free */
};

/* ---- summary bitmap --------------------------------------------------------------------- */

static uint64_t words_for(uint64_t bits)
{
	return (bits + 63) / 64;
}

static bool bitset_init(struct bitset *s, uint64_t nr_bits)
{
	uint64_t words = words_for(nr_bits ? nr_bits : 1);

	memset(s, 0, sizeof(*s));
	for (;;) {
		if (s->nr_levels == BITSET_MAX_LEVELS)
			return false;
		s->level[s->nr_levels] = calloc(words, sizeof(uint64_t));
		if (!s->level[s->nr_levels])
			return false;
		s->nr_levels++;
		if (words == 1)
			return true;
		words = words_for(words);
	}
}

static void bitset_release(struct bitset *s)
{
	for (unsigned l = 0; l < s->nr_levels; l++)
		free(s->level[l]);
}

static bool bitset_test(const struct bitset *s, uint64_t i)
{
	return s->level[0][i / 64] >> (i % 64) & 1;
}

static void bitset_set(struct bitset *s, uint64_t i)
{
	for (unsigned l = 0; l < s->nr_levels; l++) {
		uint64_t *w = &s->level[l][i / 64];
		bool was_empty = *w == 0;

		*w |= 1ULL << (i % 64);
		if (!was_empty)
			break;		/* the levels above already know this word is non-zero */
		i /= 64;
	}
}

static void bitset_clear(struct bitset *s, uint64_t i)
{
	for (unsigned l = 0; l < s->nr_levels; l++) {
		uint64_t *w = &s->level[l][i / 64];

		*w &= ~(1ULL << (i % 64));
		if (*w)
			break;		/* word still non-zero: summaries above stay set */
		i /= 64;
	}
}

/* Lowest set bit; the caller knows one is set. */
static uint64_t bitset_first(const struct bitset *s)
{
	uint64_t i = 0;

	for (unsigned l = s->nr_levels; l-- > 0;)
		i = i * 64 + (uint64_t)__builtin_ctzll(s->level[l][i]);
	return i;
}

/* ---- free lists ------------------------------------------------------------------------- */

static uint64_t block_pages(unsigned order)
{
	return 1ULL << order;
}

static bool block_is_free(const struct buddy *b, uint64_t pfn, unsigned order)
{
	return bitset_test(&b->free_area[order], pfn >> order);
}

static void free_area_add(struct buddy *b, uint64_t pfn, unsigned order)
{
	bitset_set(&b->free_area[order], pfn >> order);
	b->nr_free[order]++;
	b->free_pages += block_pages(order);
}

static void free_area_del(struct buddy *b, uint64_t pfn, unsigned order)
{
	bitset_clear(&b->free_area[order], pfn >> order);
	b->nr_free[order]--;
	b->free_pages -= block_pages(order);
}

/* Splits a free block of order high down to order low, keeping the low part (expand()). */
static void block_expand(struct buddy *b, uint64_t pfn, unsigned high, unsigned low)
{
	while (high > low) {
		high--;
		free_area_add(b, pfn + block_pages(high), high);
	}
}

/*
 * The free block of at least min_order that contains pfn: its order, or -1 when there is none
 * (pfn allocated or pinned, or free only in smaller blocks).
 */
static int free_block_containing(const struct buddy *b, uint64_t pfn, unsigned min_order)
{
	for (unsigned order = min_order; order <= BUDDY_MAX_ORDER; order++) {
		uint64_t start = pfn & ~(block_pages(order) - 1);

		if ((start >> order) < b->nr_pages >> order && block_is_free(b, start, order))
			return (int)order;
	}
	return -1;
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
		free_area_add(b, pfn, order);
		pfn += block_pages(order);
	}
}

struct buddy *buddy_new(uint64_t nr_pages)
{
	struct buddy *b = calloc(1, sizeof(*b));

	if (!b)
		return NULL;
	b->nr_pages = nr_pages;
	for (unsigned order = 0; order <= BUDDY_MAX_ORDER; order++) {
		if (!bitset_init(&b->free_area[order], nr_pages >> order)) {
			buddy_destroy(b);
			return NULL;
		}
	}
	free_area_fill(b);
	return b;
}

void buddy_destroy(struct buddy *b)
{
	if (!b)
		return;
	for (unsigned order = 0; order <= BUDDY_MAX_ORDER; order++)
		bitset_release(&b->free_area[order]);
	free(b);
}

uint64_t buddy_alloc(struct buddy *b, unsigned order)
{
	if (order > BUDDY_MAX_ORDER)
		return BUDDY_NO_PFN;
	for (unsigned high = order; high <= BUDDY_MAX_ORDER; high++) {
		uint64_t pfn;

		if (!b->nr_free[high])
			continue;
		pfn = bitset_first(&b->free_area[high]) << high;
		free_area_del(b, pfn, high);
		block_expand(b, pfn, high, order);
		return pfn;
	}
	return BUDDY_NO_PFN;
}

/* __free_one_page(): coalesce with the buddy while it is free at the same order. */
void buddy_free(struct buddy *b, uint64_t pfn, unsigned order)
{
	assert(order <= BUDDY_MAX_ORDER);
	assert((pfn & (block_pages(order) - 1)) == 0);
	assert(pfn + block_pages(order) <= b->nr_pages);
#ifdef BUDDY_CHECK_DOUBLE_FREE
	/* one line per order above: too dear for every eviction of an optimised build */
	assert(free_block_containing(b, pfn, order) < 0);
#endif

	while (order < BUDDY_MAX_ORDER) {
		uint64_t buddy_pfn = pfn ^ block_pages(order);

		if (buddy_pfn + block_pages(order) > b->nr_pages ||
		    !block_is_free(b, buddy_pfn, order))
			break;
		free_area_del(b, buddy_pfn, order);
		pfn &= buddy_pfn;
		order++;
	}
	free_area_add(b, pfn, order);
}

/* Takes one free page out of whatever free block holds it, leaving the rest free. */
static void buddy_take_page(struct buddy *b, uint64_t pfn, unsigned order)
{
	uint64_t start = pfn & ~(block_pages(order) - 1);

	free_area_del(b, start, order);
	while (order > 0) {
		uint64_t half;

		order--;
		half = block_pages(order);
		if (pfn & half) {	/* pfn lives in the high half: the low one stays free */
			free_area_add(b, start, order);
			start += half;
		} else {
			free_area_add(b, start + half, order);
		}
	}
}

/*
 * Selection sampling (Knuth's algorithm S) over the free pages in pfn order: every subset of
 * the wanted size is equally likely and exactly that many pages are pinned, in one pass.
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
		int order = free_block_containing(b, pfn, 0);

		if (order < 0)
			continue;
		if (ft_splitmix64_below(&state, candidates) < want) {
			buddy_take_page(b, pfn, (unsigned)order);
			b->pinned_pages++;
			want--;
		}
		candidates--;
	}
}

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
	memcpy(nr_free, b->nr_free, sizeof(b->nr_free));
}

bool buddy_can_alloc(const struct buddy *b, unsigned order)
{
	for (unsigned high = order; high <= BUDDY_MAX_ORDER; high++)
		if (b->nr_free[high])
			return true;
	return false;
}
