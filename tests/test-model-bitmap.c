// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model unit tests: the bit-range helpers of model/bitmap.h against a one-bit-at-a-time
 * reference, on every range of a few words (both ends at every offset, ranges inside one
 * word, across word boundaries, of whole words) over words of random bits.
 */
#include <string.h>

#include "model/bitmap.h"
#include "tap.h"

#define WORDS	5
#define BITS	(WORDS * 64)

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static void fill_random(uint64_t *map, uint64_t *seed)
{
	for (unsigned i = 0; i < WORDS; i++)
		map[i] = xorshift(seed);
}

/* The reference: one bit at a time. Returns how many bits of [from, to) were set. */
static uint64_t ref_assign(uint64_t *map, uint64_t from, uint64_t to, int value)
{
	uint64_t was = 0;

	for (uint64_t b = from; b < to; b++) {
		was += bitmap_test(map, b);
		if (value > 0)
			map[b >> 6] |= 1ull << (b & 63);
		else if (value == 0)
			map[b >> 6] &= ~(1ull << (b & 63));
	}
	return was;
}

int main(void)
{
	uint64_t seed = 0x9e3779b97f4a7c15ull, bad_zero = 0, bad_set = 0;
	uint64_t bad_count = 0, ranges = 0;

	for (uint64_t from = 0; from <= BITS; from++) {
		for (uint64_t to = from; to <= BITS; to++) {
			uint64_t start[WORDS], got[WORDS], want[WORDS];
			uint64_t was;

			fill_random(start, &seed);
			ranges++;

			memcpy(got, start, sizeof(got));
			memcpy(want, start, sizeof(want));
			bitmap_zero_range(got, from, to);
			ref_assign(want, from, to, 0);
			bad_zero += memcmp(got, want, sizeof(got)) != 0;

			memcpy(got, start, sizeof(got));
			memcpy(want, start, sizeof(want));
			was = bitmap_set_range(got, from, to);
			bad_set += was != (to - from) - ref_assign(want, from, to, 1) ||
				   memcmp(got, want, sizeof(got)) != 0;

			bad_count += bitmap_count_range(start, from, to) !=
				     ref_assign(start, from, to, -1);
		}
	}
	is_u64(ranges, (BITS + 1) * (BITS + 2) / 2, "every range [from, to) of 5 words tried");
	is_u64(bad_zero, 0, "bitmap_zero_range clears exactly the range");
	is_u64(bad_set, 0, "bitmap_set_range sets the range and counts the bits it added");
	is_u64(bad_count, 0, "bitmap_count_range counts the range's bits");

	/* the edges: all-ones words lose only the range, the last bit of the map included */
	{
		uint64_t map[WORDS];

		memset(map, 0xff, sizeof(map));
		bitmap_zero_range(map, 63, BITS);
		is_u64(map[0], ~0ull >> 1, "a range from bit 63 keeps bits 0-62 of the first word");
		is_u64(map[1] | map[WORDS - 1], 0, "and clears every word after it to the end");
		memset(map, 0xff, sizeof(map));
		bitmap_zero_range(map, 64, 128);
		is_u64(map[0] & map[2], ~0ull, "one whole word cleared: its neighbours untouched");
		is_u64(map[1], 0, "one whole word cleared: the word is zero");
	}
	return done_testing();
}
