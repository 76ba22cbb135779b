// SPDX-License-Identifier: GPL-2.0-or-later
/* Unseeded random numbers: see entropy.h. */
#include <stdint.h>
#include <sys/random.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

#include "util/entropy.h"
#include "util/hash.h"

uint64_t ft_random_u64(unsigned salt)
{
	struct timespec t;
	uint64_t r;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == (ssize_t)sizeof(r))
		return r;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return ft_hash64((uint64_t)getpid() << 40 ^ (uint64_t)t.tv_sec << 20 ^
			 (uint64_t)t.tv_nsec ^ salt);
}
