/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Bit ranges over uint64_t words: the per-page and per-block state indexed by pfn. */
#ifndef FT_MODEL_BITMAP_H
#define FT_MODEL_BITMAP_H

#include <stdbool.h>
#include <stdint.h>

static inline bool bitmap_test(const uint64_t *map, uint64_t bit)
{
	return map[bit >> 6] >> (bit & 63) & 1;
}

static inline uint64_t bitmap_word_mask(uint64_t from, uint64_t to)
{
	/* bits [from, to) of one word, 0 <= from < to <= 64 */
	uint64_t hi = to == 64 ? ~0ull : (1ull << to) - 1;

	return hi & ~((1ull << from) - 1);
}

/* Sets bits [from, to); returns how many were clear before. */
static inline uint64_t bitmap_set_range(uint64_t *map, uint64_t from, uint64_t to)
{
	uint64_t newly = 0;

	/* one page, as a 4 KiB access marks: no mask to build */
	if (to - from == 1) {
		uint64_t bit = 1ull << (from & 63), *w = &map[from >> 6];

		if (*w & bit)
			return 0;
		*w |= bit;
		return 1;
	}
	while (from < to) {
		uint64_t w = from >> 6, lo = from & 63;
		uint64_t hi = (to - (from - lo)) < 64 ? to - (from - lo) : 64;
		uint64_t mask = bitmap_word_mask(lo, hi);

		uint64_t fresh = mask & ~map[w];

		/*
		 * popcount may be a library call (no -mpopcnt): skip it for words already set,
		 * and for the common range all new (a page touched for the first time)
		 */
		if (fresh) {
			newly += fresh == mask ? hi - lo : (uint64_t)__builtin_popcountll(fresh);
			map[w] |= fresh;
		}
		from += hi - lo;
	}
	return newly;
}

/*
 * Clears bits [from, to) (no caller needs to know how many were set): the partial words at the
 * ends masked, the whole words between stored as zero unconditionally, a loop the compiler
 * vectorises (a 2 MiB folio's 512 bits were 8 tests and branches on every eviction).
 */
static inline void bitmap_zero_range(uint64_t *map, uint64_t from, uint64_t to)
{
	uint64_t w = from >> 6, last = (to - 1) >> 6;

	if (from >= to)
		return;
	if (to - from == 1) {	/* an order-0 folio */
		map[w] &= ~(1ull << (from & 63));
		return;
	}
	if (w == last) {
		map[w] &= ~bitmap_word_mask(from & 63, ((to - 1) & 63) + 1);
		return;
	}
	map[w] &= ~bitmap_word_mask(from & 63, 64);
	while (++w < last)
		map[w] = 0;
	map[last] &= ~bitmap_word_mask(0, ((to - 1) & 63) + 1);
}

/* Number of set bits in [from, to). */
static inline uint64_t bitmap_count_range(const uint64_t *map, uint64_t from, uint64_t to)
{
	uint64_t n = 0;

	while (from < to) {
		uint64_t w = from >> 6, lo = from & 63;
		uint64_t hi = (to - (from - lo)) < 64 ? to - (from - lo) : 64;

		uint64_t set = bitmap_word_mask(lo, hi) & map[w];

		if (set)
			n += (uint64_t)__builtin_popcountll(set);
		from += hi - lo;
	}
	return n;
}

#endif /* FT_MODEL_BITMAP_H */
