// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model unit tests: the page cache index under the key patterns its layout is tuned for or
 * weak against. Large folios start at multiples of 8 and must spread over every offset of
 * their slot group; keys that do crowd one offset class (probing steps a whole group) must
 * make the table grow instead of filling the class, so that lookups and removals of absent
 * keys still end.
 */
#include <stdlib.h>

#include "model/folio.h"
#include "model/filemap/pagecache.h"
#include "tap.h"

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Keys: 8 files x 2048 order-9 folio starts (multiples of 512). */
#define FILES	8
#define FOLIOS	2048

static void test_large_folio_keys(void)
{
	static uint32_t ref[FILES][FOLIOS];
	unsigned per_offset[PC_STEP] = { 0 }, lo = UINT32_MAX, hi = 0;
	struct pagecache pc;
	uint64_t seed = 7, live = 0, bad = 0;

	for (unsigned f = 0; f < FILES; f++)
		for (unsigned i = 0; i < FOLIOS; i++)
			ref[f][i] = FOLIO_NIL;
	ok(pagecache_init(&pc, 16), "init");
	for (unsigned n = 0; n < 200000; n++) {
		uint64_t v = xorshift(&seed);
		uint32_t f = (uint32_t)(v % FILES), val = (uint32_t)(v >> 40) & 0xffffff;
		uint64_t i = (v >> 8) % FOLIOS;

		if (ref[f][i] == FOLIO_NIL && (v >> 32) % 4) {
			if (!pagecache_insert(&pc, f, i << 9, val))
				bad++;
			ref[f][i] = val;
			live++;
		} else if (ref[f][i] != FOLIO_NIL) {
			pagecache_remove(&pc, f, i << 9);
			ref[f][i] = FOLIO_NIL;
			live--;
		}
		if (pagecache_get(&pc, f, i << 9) != ref[f][i])
			bad++;
	}
	is_u64(bad, 0, "order-9 keys: every lookup agrees with the reference");
	is_u64(pc.count, live, "order-9 keys: entry count");
	for (unsigned f = 0; f < FILES; f++) {
		for (unsigned i = 0; i < FOLIOS; i++) {
			if (pagecache_get(&pc, f, (uint64_t)i << 9) != ref[f][i])
				bad++;
			/* the pages inside a folio start no folio */
			if (pagecache_get(&pc, f, ((uint64_t)i << 9) + 8) != FOLIO_NIL)
				bad++;
		}
	}
	is_u64(bad, 0, "order-9 keys: a full scan agrees, inner pages absent");
	for (uint64_t s = 0; s <= pc.mask; s++)
		if (pc.slots[s].folio != FOLIO_NIL)
			per_offset[s % PC_STEP]++;
	for (unsigned k = 0; k < PC_STEP; k++) {
		lo = per_offset[k] < lo ? per_offset[k] : lo;
		hi = per_offset[k] > hi ? per_offset[k] : hi;
	}
	/* about live / 8 each: a layout without the rotation puts them all at offset 0 */
	ok(lo * 2 > hi, "order-9 keys use every group offset (%u..%u of %llu)", lo, hi,
	   (unsigned long long)live);
	pagecache_release(&pc);
}

/* Keys of file 0 at multiples of 8 whose home is offset 0 of its group. */
static void test_one_offset_class(void)
{
	enum { KEYS = 3000 };
	static uint64_t key[KEYS];
	struct pagecache pc;
	uint64_t bad = 0, n = 0;

	pagecache_init(&pc, 16);
	for (uint64_t g = 0; n < KEYS; g++)
		if (pc_home(&pc, 0, g << 3) % PC_STEP == 0)
			key[n++] = g << 3;
	for (unsigned i = 0; i < KEYS; i++)
		if (!pagecache_insert(&pc, 0, key[i], i))
			bad++;
	for (unsigned i = 0; i < KEYS; i++)
		if (pagecache_get(&pc, 0, key[i]) != i)
			bad++;
	is_u64(bad, 0, "one offset class: every key inserted and found");
	is_u64(pc.count, KEYS, "one offset class: entry count");
	/* absent keys of the same class: the probe run ends at an empty slot */
	is_u64(pagecache_get(&pc, 0, key[KEYS - 1] + 1), FOLIO_NIL, "an absent key is absent");
	is_u64(pagecache_get(&pc, 1, key[0]), FOLIO_NIL, "another file's key is absent");
	pagecache_remove(&pc, 1, key[0]);
	is_u64(pc.count, KEYS, "removing an absent key removes nothing");
	for (unsigned i = 0; i < KEYS; i += 2)
		pagecache_remove(&pc, 0, key[i]);
	for (unsigned i = 0; i < KEYS; i++)
		if (pagecache_get(&pc, 0, key[i]) != (i % 2 ? i : FOLIO_NIL))
			bad++;
	is_u64(bad, 0, "one offset class: half removed, the rest still found");
	is_u64(pc.count, KEYS / 2, "one offset class: entry count after removals");
	pagecache_release(&pc);
}

int main(void)
{
	test_large_folio_keys();
	test_one_offset_class();
	return tap_done();
}
