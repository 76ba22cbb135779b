/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * top --cached: what the page cache holds now of the files a trace names, or the live top has
 * seen, a file a row, as fincore(1) shows it: cachestat(2) or mincore(2) over a read-only
 * mapping of each file (util/residency.h), no BPF for the looking.
 */
#ifndef FT_TOP_CACHED_H
#define FT_TOP_CACHED_H

#include <stdbool.h>
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
 * The paths of t's rows (a tally by file; rows recorded without a path left out), copied so
 * that they outlive the tally's lock; *n of them. NULL with *n 0 when there are none or out
 * of memory (*oom). Free with top_cached_names_free().
 */
char **top_cached_names(const struct top_tally *t, uint32_t *n, bool *oom);
void top_cached_names_free(char **names, uint32_t n);
/*
 * The files at names looked at now and printed largest resident first, max rows at most (0:
 * all); whose names them on the first line ("the trace's "). 0, or -1 when out of memory.
 */
int top_cached_print(FILE *f, char *const *names, uint32_t n, const char *whose, unsigned max);
/* The same for the files of t (a tally by file of a whole trace). */
int top_cached_table(FILE *f, const struct top_tally *t, unsigned max);

#endif
