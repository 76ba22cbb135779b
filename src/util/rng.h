/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Seeded pseudo-random numbers: the same seed gives the same sequence on every host, so
 * synthetic traces and pinned pages are reproducible. Both generators are fixed for good:
 * tests compare synth output byte for byte, and golden replay outputs hold the pinned pages.
 * - splitmix64: one uint64_t of state, for a few draws (buddy_pin_random) and for seeding;
 * - struct ft_rng: xoshiro256** seeded through splitmix64, for long streams (synth).
 */
#ifndef FT_UTIL_RNG_H
#define FT_UTIL_RNG_H

#include <stdint.h>

#include "util/hash.h"

/* The next number of the splitmix64 sequence whose state is *x. */
static inline uint64_t ft_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += FT_GOLDEN64);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* A uniform 64-bit x scaled into [0, n) (multiply-shift: bias below 2^-64 * n, fine here). */
static inline uint64_t ft_scale_below(uint64_t x, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)x * n) >> 64);
}

/* Uniform integer in [0, n), n > 0, from the splitmix64 sequence whose state is *x. */
static inline uint64_t ft_splitmix64_below(uint64_t *x, uint64_t n)
{
	return ft_scale_below(ft_splitmix64(x), n);
}

struct ft_rng {
	uint64_t s[4];
};

static inline void ft_rng_seed(struct ft_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = ft_splitmix64(&seed);
}

static inline uint64_t ft_rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t ft_rng_next(struct ft_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = ft_rotl64(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = ft_rotl64(s[3], 45);
	return result;
}

/* Uniform double in [0, 1) with 53 random bits. */
static inline double ft_rng_uniform(struct ft_rng *r)
{
	return (double)(ft_rng_next(r) >> 11) * 0x1.0p-53;
}

/* Uniform integer in [0, n), n > 0. */
static inline uint64_t ft_rng_below(struct ft_rng *r, uint64_t n)
{
	return ft_scale_below(ft_rng_next(r), n);
}

#endif
