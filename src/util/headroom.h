/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * How much more memory this process can take: the smaller of the host's MemAvailable
 * (/proc/meminfo) and what RLIMIT_AS (ulimit -v) leaves above the address space in use.
 */
#ifndef FT_UTIL_HEADROOM_H
#define FT_UTIL_HEADROOM_H

#include <stdbool.h>
#include <stdint.h>

struct ft_headroom {
	uint64_t bytes;
	const char *bound;	/* "MemAvailable" or "RLIMIT_AS" */
};

/* false when neither bound is known (no /proc and no address-space limit). */
bool ft_memory_headroom(struct ft_headroom *h);

#endif /* FT_UTIL_HEADROOM_H */
