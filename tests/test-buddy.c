// SPDX-License-Identifier: GPL-2.0-or-later
/* Buddy allocator: split/merge sequences with known answers, pinning, and a reference check. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/buddy.h"
#include "tap.h"

#define NR_ORDERS	(BUDDY_MAX_ORDER + 1)

static int counts_are(const struct buddy *b, const uint64_t want[NR_ORDERS], const char *what)
{
	uint64_t got[NR_ORDERS];
	int same;

	buddy_free_counts(b, got);
	same = memcmp(got, want, sizeof(got)) == 0;
	ok(same, "%s", what);
	if (!same)
		for (unsigned k = 0; k < NR_ORDERS; k++)
			diag("order %u: got %" PRIu64 " want %" PRIu64, k, got[k], want[k]);
	return same;
}

static void test_fresh_pool(void)
{
	struct buddy *b = buddy_new(1024);
	uint64_t want[NR_ORDERS] = { [10] = 1 };

	ok(b != NULL, "1024-page pool created");
	is_u64(buddy_nr_pages(b), 1024, "nr_pages");
	is_u64(buddy_free_pages(b), 1024, "all pages free");
	counts_are(b, want, "fresh 1024 pages = one order-10 block");
	ok(buddy_can_alloc(b, 10), "order 10 allocatable");
	buddy_destroy(b);

	/* 1000 = 512 + 256 + 128 + 64 + 32 + 8: largest aligned blocks. */
	b = buddy_new(1000);
	uint64_t want1000[NR_ORDERS] = { [3] = 1, [5] = 1, [6] = 1, [7] = 1, [8] = 1, [9] = 1 };
	counts_are(b, want1000, "1000 pages split into aligned blocks");
	ok(!buddy_can_alloc(b, 10), "no order-10 block in 1000 pages");
	is_u64(buddy_alloc(b, 10), BUDDY_NO_PFN, "order-10 alloc fails");
	is_u64(buddy_alloc(b, 0), 992, "smallest order first: order 0 comes from the order-3 block");
	buddy_destroy(b);

	/* Blocks never merge past BUDDY_MAX_ORDER. */
	b = buddy_new(4096);
	uint64_t want4096[NR_ORDERS] = { [10] = 4 };
	counts_are(b, want4096, "4096 pages = four order-10 blocks");
	buddy_destroy(b);
}

static void test_split_sequence(void)
{
	struct buddy *b = buddy_new(1024);
	uint64_t after_one[NR_ORDERS] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 };
	uint64_t pfn;
	int in_order = 1;

	is_u64(buddy_alloc(b, 0), 0, "first order-0 alloc is pfn 0");
	counts_are(b, after_one, "split leaves one free block at each order 0..9");
	for (uint64_t want = 1; want < 1024; want++) {
		pfn = buddy_alloc(b, 0);
		if (pfn != want) {
			in_order = 0;
			diag("alloc %" PRIu64 " gave pfn %" PRIu64, want, pfn);
			break;
		}
	}
	ok(in_order, "order-0 allocs give pfn 1, 2, ... 1023 in order");
	is_u64(buddy_free_pages(b), 0, "pool exhausted");
	is_u64(buddy_alloc(b, 0), BUDDY_NO_PFN, "alloc from empty pool fails");
	ok(!buddy_can_alloc(b, 0), "nothing allocatable");

	/* Free in a scrambled order (389 is odd, so i*389 mod 1024 is a permutation). */
	for (uint64_t i = 0; i < 1024; i++)
		buddy_free(b, i * 389 % 1024, 0);
	uint64_t one_block[NR_ORDERS] = { [10] = 1 };
	counts_are(b, one_block, "scrambled frees re-merge to one order-10 block");
	is_u64(buddy_free_pages(b), 1024, "all pages free again");

	for (uint64_t i = 0; i < 1024; i++)
		buddy_alloc(b, 0);
	for (uint64_t i = 1024; i-- > 0;)
		buddy_free(b, i, 0);
	counts_are(b, one_block, "reverse-order frees re-merge to one order-10 block");
	buddy_destroy(b);
}

static void test_merge_sequence(void)
{
	struct buddy *b = buddy_new(1024);

	is_u64(buddy_alloc(b, 0), 0, "alloc o0 -> 0");
	is_u64(buddy_alloc(b, 0), 1, "alloc o0 -> 1");
	is_u64(buddy_alloc(b, 1), 2, "alloc o1 -> 2");
	is_u64(buddy_alloc(b, 2), 4, "alloc o2 -> 4");
	uint64_t s1[NR_ORDERS] = { 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0 };
	counts_are(b, s1, "orders 3..9 free after the four allocs");

	buddy_free(b, 0, 0);	/* buddy 1 allocated: stays order 0 */
	uint64_t s2[NR_ORDERS] = { 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 0 };
	counts_are(b, s2, "free 0: no merge, buddy 1 in use");

	buddy_free(b, 2, 1);	/* buddy 0 is free, but at order 0 only: no merge */
	uint64_t s3[NR_ORDERS] = { 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0 };
	counts_are(b, s3, "free 2/o1: buddy free at a smaller order does not merge");

	buddy_free(b, 1, 0);	/* 1+0 -> o1 at 0, + 2 -> o2 at 0, buddy 4 in use */
	uint64_t s4[NR_ORDERS] = { 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0 };
	counts_are(b, s4, "free 1: merges twice up to order 2");

	is_u64(buddy_alloc(b, 1), 0, "lowest address: o1 alloc splits the o2 block at 0");
	buddy_free(b, 0, 1);
	buddy_free(b, 4, 2);
	uint64_t s5[NR_ORDERS] = { [10] = 1 };
	counts_are(b, s5, "free 4/o2: cascades up to order 10");

	is_u64(buddy_alloc(b, 10), 0, "order-10 alloc takes the whole pool");
	is_u64(buddy_alloc(b, 0), BUDDY_NO_PFN, "then nothing is left");
	is_u64(buddy_alloc(b, 11), BUDDY_NO_PFN, "order above 10 is refused");
	buddy_free(b, 0, 10);
	is_u64(buddy_free_pages(b), 1024, "order-10 block freed");
	buddy_destroy(b);
}

/* Every other page free: half the pool is free, yet no two free pages can merge. */
static void test_every_other_page(void)
{
	struct buddy *b = buddy_new(1024);
	uint64_t nr_free[NR_ORDERS];

	for (unsigned i = 0; i < 1024; i++)
		buddy_alloc(b, 0);
	for (uint64_t pfn = 0; pfn < 1024; pfn += 2)
		buddy_free(b, pfn, 0);
	buddy_free_counts(b, nr_free);
	is_u64(nr_free[0], 512, "512 single free pages");
	is_u64(buddy_free_pages(b), 512, "half the pool free");
	ok(!buddy_can_alloc(b, 1), "no order-1 block despite 512 free pages");
	is_i64(buddy_unusable_free_index(nr_free, 1), 1000, "unusable index order 1 = 1.000");
	is_i64(buddy_unusable_free_index(nr_free, 0), 0, "unusable index order 0 = 0.000");
	/* 1000 - (1000 + 512*1000/2) / 512 = 1000 - 257000/512 = 1000 - 501 */
	is_i64(buddy_fragmentation_index(nr_free, 1), 499, "fragmentation index order 1");
	is_u64(buddy_alloc(b, 1), BUDDY_NO_PFN, "order-1 alloc fails");
	buddy_destroy(b);
}

/* Which pfns are not allocatable: allocate everything at order 0 and see what is missing. */
static void pinned_map(struct buddy *b, unsigned char *pinned)
{
	uint64_t n = buddy_nr_pages(b), pfn;

	memset(pinned, 1, n);
	while ((pfn = buddy_alloc(b, 0)) != BUDDY_NO_PFN)
		pinned[pfn] = 0;
}

static void test_pinning(void)
{
	enum { N = 10000 };
	unsigned char *m1 = malloc(N), *m2 = malloc(N), *m3 = malloc(N);
	struct buddy *b1 = buddy_new(N), *b2 = buddy_new(N), *b3 = buddy_new(N);
	uint64_t c1[NR_ORDERS], c2[NR_ORDERS], high = 0, count = 0;

	buddy_pin_random(b1, 2.5, 42);
	buddy_pin_random(b2, 2.5, 42);
	buddy_pin_random(b3, 2.5, 43);
	is_u64(buddy_pinned_pages(b1), 250, "2.5% of 10000 pages pinned");
	is_u64(buddy_free_pages(b1), 9750, "the rest is free");
	buddy_free_counts(b1, c1);
	buddy_free_counts(b2, c2);
	ok(memcmp(c1, c2, sizeof(c1)) == 0, "same seed, same buddyinfo");
	pinned_map(b1, m1);
	pinned_map(b2, m2);
	pinned_map(b3, m3);
	ok(memcmp(m1, m2, N) == 0, "same seed, same pinned pfns");
	ok(memcmp(m1, m3, N) != 0, "another seed, other pinned pfns");
	for (unsigned i = 0; i < N; i++) {
		count += m1[i];
		if (m1[i] && i >= N / 2)
			high++;
	}
	is_u64(count, 250, "exactly 250 pfns cannot be allocated");
	ok(high > 75 && high < 175, "pins spread over the pool (%" PRIu64 " of 250 in top half)",
	   high);
	buddy_destroy(b1);
	buddy_destroy(b2);
	buddy_destroy(b3);

	b1 = buddy_new(1001);
	buddy_pin_random(b1, 50, 1);
	is_u64(buddy_pinned_pages(b1), 501, "round(50% of 1001) = 501");
	buddy_pin_random(b1, 50, 2);
	is_u64(buddy_pinned_pages(b1), 1001, "second 50% pins the remaining 500 (clamped)");
	is_u64(buddy_free_pages(b1), 0, "nothing free");
	buddy_destroy(b1);

	b1 = buddy_new(N);
	buddy_pin_random(b1, 0.333, 7);
	is_u64(buddy_pinned_pages(b1), 33, "round(0.333% of 10000) = 33");
	buddy_pin_random(b1, 0, 7);
	is_u64(buddy_pinned_pages(b1), 33, "0% pins nothing");
	buddy_destroy(b1);

	/* Pins only take free pages: with [0, 512) allocated they all land in [512, 1024). */
	b1 = buddy_new(1024);
	is_u64(buddy_alloc(b1, 9), 0, "order-9 block at 0 allocated");
	buddy_pin_random(b1, 25, 3);
	is_u64(buddy_pinned_pages(b1), 256, "25% of 1024 pinned");
	buddy_free(b1, 0, 9);
	pinned_map(b1, m1);
	count = 0;
	for (unsigned i = 0; i < 512; i++)
		count += m1[i];
	is_u64(count, 0, "no pin inside the block that was allocated");
	buddy_destroy(b1);

	b1 = buddy_new(1024);
	buddy_pin_random(b1, 100, 9);
	is_u64(buddy_free_pages(b1), 0, "100% pins every page");
	buddy_destroy(b1);
	free(m1);
	free(m2);
	free(m3);
}

/*
 * Reference allocator: the same policy (smallest order first, lowest address, merge with the
 * buddy) on a plain array of block starts, scanned linearly. Slow but obviously right.
 */
struct ref {
	uint64_t n;
	signed char *free_order;	/* order of the free block starting here, or -1 */
};

static uint64_t ref_alloc(struct ref *r, unsigned order)
{
	for (unsigned high = order; high <= BUDDY_MAX_ORDER; high++) {
		for (uint64_t pfn = 0; pfn + (1ULL << high) <= r->n; pfn += 1ULL << high) {
			if (r->free_order[pfn] != (signed char)high)
				continue;
			r->free_order[pfn] = -1;
			while (high > order) {
				high--;
				r->free_order[pfn + (1ULL << high)] = (signed char)high;
			}
			return pfn;
		}
	}
	return BUDDY_NO_PFN;
}

static void ref_free(struct ref *r, uint64_t pfn, unsigned order)
{
	while (order < BUDDY_MAX_ORDER) {
		uint64_t buddy = pfn ^ (1ULL << order);

		if (buddy + (1ULL << order) > r->n || r->free_order[buddy] != (signed char)order)
			break;
		r->free_order[buddy] = -1;
		pfn &= buddy;
		order++;
	}
	r->free_order[pfn] = (signed char)order;
}

static void ref_counts(const struct ref *r, uint64_t counts[NR_ORDERS])
{
	memset(counts, 0, NR_ORDERS * sizeof(counts[0]));
	for (uint64_t pfn = 0; pfn < r->n; pfn++)
		if (r->free_order[pfn] >= 0)
			counts[r->free_order[pfn]]++;
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void test_against_reference(void)
{
	enum { N = 3000, OPS = 20000, MAXLIVE = 400 };
	struct ref r = { .n = N, .free_order = malloc(N) };
	struct buddy *b = buddy_new(N);
	struct { uint64_t pfn; unsigned order; } live[MAXLIVE];
	unsigned nlive = 0, mismatches = 0, fails = 0;
	uint64_t seed = 0x1234567, c1[NR_ORDERS], c2[NR_ORDERS];

	/* Seed the reference from the same initial layout: free everything page by page. */
	memset(r.free_order, -1, N);
	for (uint64_t pfn = 0; pfn < N; pfn++)
		ref_free(&r, pfn, 0);
	ref_counts(&r, c1);
	buddy_free_counts(b, c2);
	ok(memcmp(c1, c2, sizeof(c1)) == 0, "initial layout = all pages freed one by one");

	for (unsigned op = 0; op < OPS; op++) {
		uint64_t x = xorshift(&seed);
		bool do_alloc = nlive == 0 || (nlive < MAXLIVE && x % 100 < 55);

		if (do_alloc) {
			unsigned order = (unsigned)(x >> 8) % 6;
			uint64_t got, want;

			if ((x >> 16) % 16 == 0)
				order = 9 + (unsigned)(x >> 20) % 2;
			got = buddy_alloc(b, order);
			want = ref_alloc(&r, order);
			if (got != want) {
				if (!mismatches++)
					diag("op %u: alloc o%u got %" PRIu64 " want %" PRIu64,
					     op, order, got, want);
			}
			if (want == BUDDY_NO_PFN) {
				fails++;
				continue;
			}
			live[nlive].pfn = want;
			live[nlive].order = order;
			nlive++;
		} else {
			unsigned i = (unsigned)(x >> 8) % nlive;

			buddy_free(b, live[i].pfn, live[i].order);
			ref_free(&r, live[i].pfn, live[i].order);
			live[i] = live[--nlive];
		}
		ref_counts(&r, c1);
		buddy_free_counts(b, c2);
		if (memcmp(c1, c2, sizeof(c1)) && !mismatches++)
			diag("op %u: buddyinfo differs from the reference", op);
	}
	is_u64(mismatches, 0, "20000 random ops match the reference allocator");
	ok(fails > 0, "the run exercised allocation failures (%u)", fails);
	while (nlive) {
		nlive--;
		buddy_free(b, live[nlive].pfn, live[nlive].order);
	}
	is_u64(buddy_free_pages(b), N, "all pages free after freeing what is live");
	buddy_free_counts(b, c2);
	/* 3000 = 2*1024 + 512 + 256 + 128 + 32 + 16 + 8 */
	uint64_t want[NR_ORDERS] = { [3] = 1, [4] = 1, [5] = 1, [7] = 1, [8] = 1, [9] = 1,
				     [10] = 2 };
	counts_are(b, want, "3000 pages re-merge to their initial aligned blocks");
	buddy_destroy(b);
	free(r.free_order);
}

int main(void)
{
	test_fresh_pool();
	test_split_sequence();
	test_merge_sequence();
	test_every_other_page();
	test_pinning();
	test_against_reference();
	return done_testing();
}
