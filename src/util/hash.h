/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The 64-bit hash of the hash tables: keys in, well-spread slot numbers out. */
#ifndef FT_UTIL_HASH_H
#define FT_UTIL_HASH_H

#include <stdint.h>

/*
 * 2^64 divided by the golden ratio, odd: multiplying a small counter (a page index, an inode
 * number) by it spreads consecutive values over the high bits before keys are combined.
 */
#define FT_GOLDEN64	0x9e3779b97f4a7c15ull

/*
 * A bijective finaliser (xor-shift, multiply, xor-shift, multiply, xor-shift): every input bit
 * changes about half of the output bits. Its constants are fixed for good: the shadow table
 * keeps these hashes and is lossy, so another mixer would change which entries it forgets,
 * and with them the replay's results.
 */
static inline uint64_t ft_hash64(uint64_t h)
{
	h ^= h >> 31;
	h *= 0x7fb5d329728ea185ull;
	h ^= h >> 27;
	h *= 0x81dadef4bc2dd44dull;
	return h ^ (h >> 33);
}

#endif
