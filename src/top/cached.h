/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * top --cached: what the page cache holds now of the files a trace names, a file a row, as
 * fincore(1) shows it: mincore(2) over a read-only mapping of each file, no BPF.
 */
#ifndef FT_TOP_CACHED_H
#define FT_TOP_CACHED_H

#include <stdint.h>
#include <stdio.h>

#include "top/tally.h"

struct top_cached {
	const char *name;	/* the tally's: untrusted, escaped where shown */
	uint64_t size;		/* bytes, now */
	uint64_t resident;	/* pages in the page cache, now */
	int error;		/* errno when the file could not be looked at; 0 */
};

/* Resident pages of the file at path into *c (c->error set when it cannot be looked at). */
void top_cached_file(const char *path, struct top_cached *c);
/*
 * The files of t (a tally by file of a whole trace) that have a path, looked at now and
 * printed largest resident first, max rows at most (0: all). 0, or -1 when out of memory.
 */
int top_cached_table(FILE *f, const struct top_tally *t, unsigned max);

#endif
