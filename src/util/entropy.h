/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unseeded random numbers, for what must differ between runs: temporary file names, the
 * recorder's key that hides kernel addresses. The seeded, reproducible ones are in rng.h.
 */
#ifndef FT_UTIL_ENTROPY_H
#define FT_UTIL_ENTROPY_H

#include <stdint.h>

/*
 * 64 random bits from getrandom(2); where that has no entropy to give (early boot, old
 * kernels), the clock, the pid and salt mixed: unpredictable enough for names and keys.
 */
uint64_t ft_random_u64(unsigned salt);

#endif
