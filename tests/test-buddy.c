// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Buddy allocator: split/merge sequences with known answers, pinning, a reference check, and
 * the migratetype rules (claiming and stealing pageblocks, merging across types).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/memory/buddy.h"
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


static void mt_counts_are(const struct buddy *b, unsigned mt, const uint64_t want[NR_ORDERS],
			  const char *what)
{
	uint64_t got[MT_TYPES][NR_ORDERS];
	int same;

	buddy_free_counts_mt(b, got);
	same = memcmp(got[mt], want, sizeof(got[mt])) == 0;
	ok(same, "%s", what);
	if (!same)
		for (unsigned k = 0; k < NR_ORDERS; k++)
			diag("order %u: got %" PRIu64 " want %" PRIu64, k, got[mt][k], want[k]);
}

static void blocks_are(const struct buddy *b, uint64_t unmovable, uint64_t movable,
		       const char *what)
{
	uint64_t nr[MT_TYPES];

	buddy_pageblock_counts(b, nr);
	ok(nr[MT_UNMOVABLE] == unmovable && nr[MT_MOVABLE] == movable, "%s (%" PRIu64
	   " unmovable, %" PRIu64 " movable)", what, nr[MT_UNMOVABLE], nr[MT_MOVABLE]);
}

/*
 * __rmqueue_claim() with a block of a pageblock or more: an unmovable page on a fresh zone of
 * two order-10 blocks takes the largest fallback block, the one at 0, and both its pageblocks
 * become UNMOVABLE; expand() leaves one free block of each order 0..9 on the unmovable lists.
 */
static void test_claim_whole_blocks(void)
{
	struct buddy *b = buddy_new(2048);
	uint64_t unmov[NR_ORDERS] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 };
	uint64_t mov[NR_ORDERS] = { [10] = 1 };
	struct buddy_stats st;

	blocks_are(b, 0, 4, "a fresh zone: every pageblock MOVABLE");
	is_u64(buddy_alloc_mt(b, 0, MT_UNMOVABLE), 0, "unmovable page: pfn 0 of the claimed block");
	blocks_are(b, 2, 2, "the order-10 block's two pageblocks are UNMOVABLE now");
	mt_counts_are(b, MT_UNMOVABLE, unmov, "the rest of it: one unmovable block per order 0..9");
	mt_counts_are(b, MT_MOVABLE, mov, "the other order-10 block stays movable");
	buddy_stats(b, &st);
	ok(st.claimed == 1 && st.claimed_blocks == 2 && st.stolen == 0,
	   "one claim of two pageblocks, no steal");
	is_u64(buddy_pageblock_type(b, 600), MT_UNMOVABLE, "pfn 600 lies in an unmovable pageblock");
	is_u64(buddy_pageblock_type(b, 1024), MT_MOVABLE, "pfn 1024 in a movable one");
	/* the next unmovable page comes from its own lists: no more fallback */
	is_u64(buddy_alloc_mt(b, 0, MT_UNMOVABLE), 1, "next unmovable page: pfn 1, no fallback");
	/* a movable order-9 allocation splits the movable order-10 block, not the unmovable 512 */
	is_u64(buddy_alloc(b, 9), 1024, "movable order 9 comes from its own type at 1024");
	buddy_destroy(b);
}

/*
 * try_to_steal_block()/try_to_claim_block() below pageblock_order: a movable allocation finds
 * only unmovable free blocks. With 511 of 512 pages free the pageblock is claimed (free +
 * alike >= 256): its free blocks move to the movable lists and the order-4 block at 16 is
 * taken. With 127 free it is not: __rmqueue_steal() takes the smallest fallback block of the
 * order, and the pageblock stays UNMOVABLE with 16 movable pages in it.
 */
static void test_claim_or_steal(void)
{
	struct buddy *b = buddy_new(512);
	uint64_t mov[NR_ORDERS] = { 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0 };
	uint64_t none[NR_ORDERS] = { 0 };
	struct buddy_pageblock_usage u;
	struct buddy_stats st;

	is_u64(buddy_alloc_mt(b, 0, MT_UNMOVABLE), 0, "an unmovable page claims the pageblock");
	blocks_are(b, 1, 0, "pageblock UNMOVABLE");
	is_u64(buddy_alloc(b, 4), 16, "movable order 4: the half-free pageblock is claimed, pfn 16");
	blocks_are(b, 0, 1, "the pageblock is MOVABLE again");
	mt_counts_are(b, MT_MOVABLE, mov, "its free blocks moved to the movable lists");
	mt_counts_are(b, MT_UNMOVABLE, none, "nothing left on the unmovable lists");
	buddy_pageblock_usage(b, 0, &u);
	ok(u.free == 495 && u.used[MT_UNMOVABLE] == 1 && u.used[MT_MOVABLE] == 16,
	   "usage: 495 free, 1 unmovable, 16 movable pages");
	buddy_destroy(b);

	b = buddy_new(512);
	buddy_alloc_mt(b, 0, MT_UNMOVABLE);
	is_u64(buddy_alloc_mt(b, 8, MT_UNMOVABLE), 256, "unmovable order 8 at 256");
	is_u64(buddy_alloc_mt(b, 7, MT_UNMOVABLE), 128, "unmovable order 7 at 128");
	/* free now: 1, 2, 4, 8, 16, 32, 64 (orders 0..6), 127 pages */
	is_u64(buddy_alloc(b, 4), 16, "movable order 4: 127 free < 256, stolen at 16");
	blocks_are(b, 1, 0, "the pageblock stays UNMOVABLE");
	buddy_stats(b, &st);
	ok(st.stolen == 1 && st.claimed == 1 && st.claimed_blocks == 1,
	   "one steal (and the first unmovable claim)");
	buddy_pageblock_usage(b, 0, &u);
	ok(u.free == 111 && u.used[MT_MOVABLE] == 16 && u.used[MT_UNMOVABLE] == 385,
	   "usage: 111 free, 16 movable among 385 unmovable");
	/* below order 4 a movable allocation never claims: orders 3..0 are only stolen */
	is_u64(buddy_alloc(b, 0), 1, "movable order 0: stolen, the smallest block (pfn 1)");
	blocks_are(b, 1, 0, "still UNMOVABLE");
	buddy_free(b, 16, 4);
	buddy_free(b, 1, 0);
	buddy_pageblock_usage(b, 0, &u);
	ok(u.free == 127 && u.used[MT_MOVABLE] == 0, "the stolen pages come back to the lists");
	buddy_destroy(b);
}

/*
 * __free_one_page(): a pageblock-sized buddy of another fallback type merges and takes the
 * freed block's type; a HighAtomic one (not mergeable) does not.
 */
static void test_merge_types(void)
{
	struct buddy *b = buddy_new(1024);
	uint64_t mov[NR_ORDERS] = { [10] = 1 };
	uint64_t two9[NR_ORDERS] = { [9] = 2 };
	struct buddy_stats st;

	is_u64(buddy_alloc(b, 9), 0, "movable order 9 at 0");
	is_u64(buddy_alloc(b, 9), 512, "movable order 9 at 512");
	buddy_set_pageblock_type(b, 512, MT_UNMOVABLE);
	buddy_free(b, 512, 9);
	is_u64(buddy_last_free(b, 9, MT_UNMOVABLE), 512, "freed onto its pageblock's type's list");
	buddy_free(b, 0, 9);
	mt_counts_are(b, MT_MOVABLE, mov, "the two merge into one movable order-10 block");
	blocks_are(b, 0, 2, "the buddy pageblock took the freed block's type");
	buddy_stats(b, &st);
	is_u64(st.merged_types, 1, "one merge across types");
	buddy_destroy(b);

	b = buddy_new(1024);
	buddy_alloc(b, 9);
	buddy_alloc(b, 9);
	buddy_set_pageblock_type(b, 512, MT_HIGHATOMIC);
	buddy_free(b, 512, 9);
	buddy_free(b, 0, 9);
	{
		uint64_t all[NR_ORDERS];

		buddy_free_counts(b, all);
		ok(memcmp(all, two9, sizeof(all)) == 0, "a HighAtomic buddy does not merge");
	}
	ok(buddy_alloc(b, 10) == BUDDY_NO_PFN && buddy_alloc(b, 9) == 0,
	   "its free block is never handed out; the movable one is");
	is_u64(buddy_alloc(b, 9), BUDDY_NO_PFN, "nothing falls back to HighAtomic");
	buddy_destroy(b);
}

/* buddy_take: a block out of the middle of a free one, the rest left free. */
static void test_take(void)
{
	struct buddy *b = buddy_new(1024);
	uint64_t after[NR_ORDERS] = { 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0 };
	uint64_t start;
	unsigned order;

	ok(buddy_take(b, 702, 2, MT_MOVABLE) == false, "an unaligned block is refused");
	ok(buddy_take(b, 700, 0, MT_MOVABLE), "page 700 taken");
	counts_are(b, after, "one free block per order 0..9 around it");
	ok(buddy_free_block_of(b, 701, &start, &order) && start == 701 && order == 0,
	   "701 is a free order-0 block");
	ok(!buddy_free_block_of(b, 700, &start, &order), "700 is in use");
	ok(!buddy_take(b, 700, 0, MT_MOVABLE), "and cannot be taken twice");
	is_i64(buddy_free_order_at(b, 512), 7, "512 starts a free order-7 block");
	is_i64(buddy_free_order_at(b, 513), -1, "513 starts none");
	buddy_free(b, 700, 0);
	is_u64(buddy_free_pages(b), 1024, "given back, all free");
	buddy_destroy(b);
}

/* 2^32 pages: the lists and pageblocks are built as they are used, never whole. */
static void test_sparse_zone(void)
{
	struct buddy *b = buddy_new(1ull << 32);
	uint64_t nr[NR_ORDERS];

	ok(b != NULL, "a zone of 2^32 pages (16 TiB)");
	buddy_free_counts(b, nr);
	is_u64(nr[10], 1ull << 22, "2^22 free order-10 blocks");
	is_u64(buddy_alloc(b, 0), 0, "order 0 at pfn 0");
	is_u64(buddy_alloc_mt(b, 0, MT_UNMOVABLE), 1024, "unmovable page claims the next order-10 block");
	ok(buddy_take(b, (1ull << 32) - 1, 0, MT_MOVABLE), "the last page of the zone");
	is_u64(buddy_last_free(b, 0, MT_MOVABLE), (1ull << 32) - 2, "the highest free page below it");
	buddy_free(b, (1ull << 32) - 1, 0);
	buddy_free(b, 0, 0);
	buddy_free_mt(b, 1024, 0, MT_UNMOVABLE);
	buddy_free_counts(b, nr);
	is_u64(nr[10], 1ull << 22, "all merged back");
	buddy_destroy(b);
}

/*
 * The heads of movable blocks a pageblock keeps for compaction's scanner: by order, set with
 * the tag, gone when the block is freed or tagged again, and only from the time they are kept.
 */
static void test_heads(void)
{
	struct buddy *b = buddy_new(1024);
	uint64_t p0 = buddy_alloc(b, 0), p2 = buddy_alloc(b, 2), p5 = buddy_alloc(b, 5);
	uint64_t p9 = buddy_alloc(b, 9);

	is_u64(p0, 0, "order 0 at 0");
	is_u64(p2, 4, "order 2 at 4");
	is_u64(p5, 32, "order 5 at 32");
	is_u64(p9, 512, "order 9 at 512");
	buddy_set_tag(b, p0, 2, 0);
	buddy_set_tag(b, p2, 4, 2);
	ok(!buddy_heads_kept(b, 0), "no heads kept before they are asked for");
	ok(buddy_track_heads(b, 0), "kept from now on: the caller marks what is tagged");
	ok(!buddy_track_heads(b, 0), "asked again: kept already, nothing to mark");
	ok(buddy_heads_kept(b, 0), "kept");
	is_u64(buddy_next_head(b, 0, 512, 9), 512, "none marked yet");
	buddy_mark_head(b, p0, 0);
	buddy_mark_head(b, p2, 2);
	buddy_set_tag(b, p5, 6, 5);
	buddy_set_tag(b, p9, 8, 9);
	is_u64(buddy_next_head(b, 0, 512, 9), 0, "the order-0 block first");
	is_u64(buddy_next_head(b, 1, 512, 9), 4, "then the order-2 one");
	is_u64(buddy_next_head(b, 5, 512, 9), 32, "then the order-5 one, tagged while kept");
	is_u64(buddy_next_head(b, 1, 512, 2), 512, "below order 2: only the order-0 one");
	is_u64(buddy_next_head(b, 5, 16, 9), 16, "the range's end when none is in it");
	is_u64(buddy_next_head(b, 33, 512, 9), 512, "none past the order-5 block");
	ok(!buddy_heads_kept(b, 512), "the order-9 block's pageblock keeps none");
	is_u64(buddy_pageblock_used(b, 0, MT_MOVABLE), 37, "37 movable pages used in the first");
	buddy_free(b, p2, 2);
	is_u64(buddy_next_head(b, 1, 512, 9), 32, "a freed block heads nothing");
	buddy_set_tag(b, p0, 10, -1);
	is_u64(buddy_next_head(b, 0, 512, 9), 32, "tagged again as unmovable: no head");
	buddy_set_tag(b, p0, 12, 1);
	is_u64(buddy_next_head(b, 0, 512, 1), 512, "tagged as order 1: not below 1");
	is_u64(buddy_next_head(b, 0, 512, 2), 0, "but below 2");
	buddy_destroy(b);
}

/*
 * Counting only: any free page, the one given back last first, failing exactly when none is
 * free; the free lists untouched; a switch only while every page is free.
 */
static void test_count_only(void)
{
	struct buddy *b = buddy_new(1000);
	uint64_t fresh[NR_ORDERS] = { [3] = 1, [5] = 1, [6] = 1, [7] = 1, [8] = 1, [9] = 1 };
	uint64_t pfn;
	bool unique = true;
	uint8_t used[1000] = { 0 };

	ok(buddy_count_only(b, true), "counting: switched on with every page free");
	for (unsigned i = 0; i < 1000; i++) {
		pfn = buddy_alloc(b, 0);
		if (pfn >= 1000 || used[pfn])
			unique = false;
		else
			used[pfn] = 1;
	}
	ok(unique, "counting: 1000 allocations, each a page not in use");
	is_u64(buddy_free_pages(b), 0, "counting: no page free after 1000");
	is_u64(buddy_alloc(b, 0), BUDDY_NO_PFN, "counting: the 1001st fails");
	ok(!buddy_count_only(b, false), "counting: no switch back with pages in use");
	buddy_free(b, 17, 0);
	buddy_free(b, 600, 0);
	is_u64(buddy_free_pages(b), 2, "counting: two given back");
	is_u64(buddy_alloc(b, 0), 600, "counting: the page given back last comes first");
	is_u64(buddy_alloc(b, 0), 17, "counting: then the one before it");
	is_u64(buddy_alloc(b, 0), BUDDY_NO_PFN, "counting: none left again");
	counts_are(b, fresh, "counting: the free lists as the pool started");
	for (uint64_t p = 0; p < 1000; p++)
		buddy_free(b, p, 0);
	is_u64(buddy_free_pages(b), 1000, "counting: every page back");
	ok(buddy_count_only(b, false), "counting: switched off with every page free");
	is_u64(buddy_alloc(b, 0), 992, "placing again: order 0 from the order-3 block");
	ok(!buddy_count_only(b, true), "placing: no switch to counting with a page in use");
	buddy_destroy(b);
}

int main(void)
{
	test_fresh_pool();
	test_split_sequence();
	test_merge_sequence();
	test_every_other_page();
	test_pinning();
	test_against_reference();
	test_claim_whole_blocks();
	test_claim_or_steal();
	test_merge_types();
	test_take();
	test_sparse_zone();
	test_heads();
	test_count_only();
	return done_testing();
}
