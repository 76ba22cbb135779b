// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model unit tests: the shadow entry table (model/shadow.h) against a direct-indexed reference
 * under random stores and takes, while it doubles in place from 1024 slots to past the huge
 * table size (runs of entries wrapping from its end to its start included), its forgetting
 * of the older half at max_entries, and its hint of the orders 1..5 there may be.
 */
#include <stdlib.h>

#include "model/workingset/shadow.h"
#include "tap.h"

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Keys: 2 files x 2 generations x 65536 indexes at order 0, and some at order 4. */
#define INDEXES	65536
#define NKEYS	(2 * 2 * INDEXES)
#define NONE	UINT64_MAX

static void key_of(unsigned k, uint32_t *file, uint32_t *gen, uint64_t *index, unsigned *order)
{
	*file = k & 1;
	*gen = (k >> 1) & 1;
	*index = k >> 2;
	*order = (k >> 2) % 7 == 0 ? 4 : 0;
}

static void test_random_ops(void)
{
	uint64_t *ref = malloc(NKEYS * sizeof(*ref)), seed = 7, live = 0, bad = 0, slots = 0;
	struct shadow_table t;

	for (unsigned k = 0; k < NKEYS; k++)
		ref[k] = NONE;
	ok(shadow_init(&t, UINT64_MAX), "init");
	for (unsigned n = 0; n < 1200000; n++) {
		uint64_t v = xorshift(&seed), eviction;
		unsigned k = (unsigned)(v % NKEYS), order;
		uint32_t file, gen;
		uint64_t index;

		key_of(k, &file, &gen, &index, &order);
		/* mostly stores early on, so that the table grows through several doublings */
		if ((v >> 40) % 8 < (n < 600000 ? 6u : 3u)) {
			shadow_store(&t, file, gen, index, order, n);
			live += ref[k] == NONE;
			ref[k] = n;
			continue;
		}
		if (shadow_take(&t, file, gen, index, order, &eviction)) {
			if (eviction != ref[k])
				bad++;
			live--;
		} else if (ref[k] != NONE) {
			bad++;
		}
		ref[k] = NONE;
		if (t.mask + 1 > slots)
			slots = t.mask + 1;
	}
	is_u64(bad, 0, "every take agrees with the reference");
	is_u64(t.count, live, "entry count");
	ok(slots * sizeof(struct shadow_entry) > (2u << 20), "the table grew past 2 MiB (%llu slots)",
	   (unsigned long long)slots);
	for (unsigned k = 0; k < NKEYS; k++) {
		uint64_t index, eviction;
		unsigned order;
		uint32_t file, gen;
		bool found;

		key_of(k, &file, &gen, &index, &order);
		found = shadow_take(&t, file, gen, index, order, &eviction);
		if (found != (ref[k] != NONE) || (found && eviction != ref[k]))
			bad++;
	}
	is_u64(bad, 0, "a full scan finds exactly the entries stored and not taken");
	is_u64(t.count, 0, "and leaves the table empty");
	shadow_release(&t);
	free(ref);
}

/* The first index from *next whose key's home under 2048 slots passes want(). */
static uint64_t index_with_home(uint64_t *next, bool (*want)(uint64_t home))
{
	while (!want((shadow_key(9, 0, *next, 0) >> 17) & 2047))
		++*next;
	return (*next)++;
}

static bool home_2046(uint64_t h) { return h == 2046; }
static bool home_2047(uint64_t h) { return h == 2047; }
static bool home_1022(uint64_t h) { return h == 1022; }
static bool home_low(uint64_t h) { return (h & 1023) >= 1 && (h & 1023) <= 900; }

/*
 * The doubling from 1024 slots with a run wrapping from the end to slot 0: u1 and u2 (homes
 * 1022 and 1023, 2046 and 2047 after) fill the last slots, so w (home 1022, still 1022 after)
 * sits in slot 0. Put back before u1 and u2 move up, w would land past them, behind the slots
 * they leave empty, and be lost.
 */
static void test_grow_wrapped_run(void)
{
	uint64_t next = 0, u1, u2, w, filler[509], eviction, found = 0;
	struct shadow_table t;

	u1 = index_with_home(&next, home_2046);
	next = 0;
	u2 = index_with_home(&next, home_2047);
	next = 0;
	w = index_with_home(&next, home_1022);
	next = 0;
	for (unsigned i = 0; i < 509; i++)
		filler[i] = index_with_home(&next, home_low);
	ok(shadow_init(&t, UINT64_MAX), "init");
	shadow_store(&t, 9, 0, u1, 0, 1);
	shadow_store(&t, 9, 0, u2, 0, 2);
	shadow_store(&t, 9, 0, w, 0, 3);
	for (unsigned i = 0; i < 509; i++)
		shadow_store(&t, 9, 0, filler[i], 0, 10 + i);
	ok(t.mask == 1023 && t.count == 512, "512 entries in 1024 slots, half full");
	ok(t.e[1022].key == shadow_key(9, 0, u1, 0) && t.e[1023].key == shadow_key(9, 0, u2, 0) &&
	   t.e[0].key == shadow_key(9, 0, w, 0), "a run wraps from slot 1022 to slot 0");
	shadow_store(&t, 9, 0, next + 1000000, 0, 99);
	is_u64(t.mask, 2047, "the next entry doubles the table");
	found += shadow_take(&t, 9, 0, w, 0, &eviction) && eviction == 3;
	found += shadow_take(&t, 9, 0, u1, 0, &eviction) && eviction == 1;
	found += shadow_take(&t, 9, 0, u2, 0, &eviction) && eviction == 2;
	for (unsigned i = 0; i < 509; i++)
		found += shadow_take(&t, 9, 0, filler[i], 0, &eviction) && eviction == 10 + i;
	is_u64(found, 512, "every entry is found after the doubling");
	shadow_release(&t);
}

/* At max_entries the entries evicted in the older half of the ages go, the rest stay. */
static void test_forget_oldest(void)
{
	struct shadow_table t;
	uint64_t eviction, kept = 0, gone = 0;

	ok(shadow_init(&t, 1000), "init with room for 1000");
	for (uint64_t i = 0; i < 1000; i++)
		shadow_store(&t, 3, 0, i, 0, i);
	shadow_store(&t, 3, 0, 1000, 0, 1000);
	is_u64(t.count, 501, "the 1001st entry forgets the older half first");
	for (uint64_t i = 0; i <= 1000; i++) {
		if (shadow_take(&t, 3, 0, i, 0, &eviction))
			kept += i >= 500 && eviction == i;
		else
			gone += i < 500;
	}
	is_u64(kept, 501, "entries evicted at ages 500..1000 are kept");
	is_u64(gone, 500, "entries evicted at ages 0..499 are forgotten");
	shadow_release(&t);
}

/*
 * The hint against a reference of the blocks of orders 0..5 stored and not taken, in 2 files x
 * 2 generations x 4096 pages: exact while nothing is forgotten, never short of an entry after,
 * and a region leaves when its last block does.
 */
#define HINT_PAGES	4096

static unsigned hint_ref_orders(const uint64_t *ref, unsigned fg, uint64_t index)
{
	unsigned may = 0;

	for (unsigned o = 0; o <= 5; o++)
		if (ref[(fg * HINT_PAGES + (index & ~((1ull << o) - 1))) * 6 + o] != NONE)
			may |= 1u << o;
	return may;
}

static void hint_run(uint64_t max_entries, bool exact, const char *what)
{
	uint64_t *ref = malloc(4 * HINT_PAGES * 6 * sizeof(*ref)), seed = 11, bad = 0;
	struct shadow_table t;

	for (unsigned i = 0; i < 4 * HINT_PAGES * 6; i++)
		ref[i] = NONE;
	ok(shadow_init(&t, max_entries), "init (%s)", what);
	for (uint64_t n = 0; n < 400000; n++) {
		uint64_t v = xorshift(&seed), index = (v >> 8) % HINT_PAGES, eviction;
		unsigned fg = (unsigned)(v & 3), o = (unsigned)((v >> 20) % 6);
		uint64_t *r;

		index &= ~((1ull << o) - 1);
		r = &ref[(fg * HINT_PAGES + index) * 6 + o];
		if ((v >> 40) % 3 == 0) {
			shadow_store(&t, fg & 1, fg >> 1, index, o, n);
			*r = n;
		} else {
			unsigned want = hint_ref_orders(ref, fg, index) & 0x3e;
			unsigned got = shadow_orders_at(&t, fg & 1, fg >> 1, index, 0x3f) & 0x3e;

			if (exact && want != got)
				bad++;
			if (!shadow_take(&t, fg & 1, fg >> 1, index, o, &eviction))
				eviction = NONE;
			else if (o && !(got >> o & 1))
				bad++;		/* short of an entry that was there */
			if (exact && eviction != *r)
				bad++;
			*r = NONE;
		}
	}
	ok(bad == 0, "the hint names the orders stored and not taken (%s): %llu wrong", what,
	   (unsigned long long)bad);
	for (unsigned i = 0; i < 4 * HINT_PAGES * 6; i++) {
		uint64_t eviction;
		unsigned fg = i / 6 / HINT_PAGES;

		shadow_take(&t, fg & 1, fg >> 1, i / 6 % HINT_PAGES, i % 6, &eviction);
	}
	ok(t.hint_count == 0, "no region is left once every block is taken (%s)", what);
	shadow_release(&t);
	free(ref);
}

static void test_hint(void)
{
	hint_run(UINT64_MAX, true, "nothing forgotten");
	hint_run(3000, false, "the older half forgotten at 3000 entries");
}

int main(void)
{
	test_random_ops();
	test_grow_wrapped_run();
	test_forget_oldest();
	test_hint();
	return done_testing();
}
