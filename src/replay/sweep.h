/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sweeps of memory sizes: the syntax of replay's --memory=LIST|RANGE, sizes given as a share
 * of the trace's working set, and the working set itself (the distinct pages the trace's
 * accesses touch), found by a first pass over the trace before the models start.
 */
#ifndef FT_REPLAY_SWEEP_H
#define FT_REPLAY_SWEEP_H

#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"

#define SWEEP_MAX_POINTS	1000	/* memory sizes in one sweep */
#define SWEEP_MAX_PERCENT	1000.0	/* of the working set */

struct memory_point {
	uint64_t bytes;		/* the size, once resolved */
	double percent;		/* of the working set when is_percent */
	bool is_percent;
};

struct memory_list {
	struct memory_point v[SWEEP_MAX_POINTS];
	unsigned n;
	bool any_percent;
};

/*
 * Whether an argument of --memory is more than one plain size: a list ("64M,256M,1G"), a
 * range ("64M..16G:64M" by a step, "64M..16G:x2" by a factor, "64M..16G/100" as about that
 * many round sizes: the ends and the multiples of a 1-2-5 step) or a share of the working set
 * ("5%", "1%..100%/100").
 */
bool memory_arg_is_sweep(const char *s);

/* Parses such an argument into l; false with *why set (a usage error). */
bool parse_memory_list(const char *s, struct memory_list *l, const char **why);

/*
 * Sizes from shares of working_set bytes, every size rounded down to whole pages (at least
 * one), then sorted and without repeats. false with *why when a size comes out as no page.
 */
bool memory_list_resolve(struct memory_list *l, uint64_t working_set, unsigned page_size,
			 const char **why);

/*
 * The working set of the trace at path: distinct pages of page_size (the recorded host's
 * when page_size is 0) touched by reads, writes and faults, in bytes, and the files its
 * accesses name in *nfiles (NULL: not wanted). 0, or -1 with err set.
 */
int replay_working_set(const char *path, unsigned page_size, uint64_t *bytes,
		       uint64_t *nfiles, struct ft_error *err);

#endif /* FT_REPLAY_SWEEP_H */
