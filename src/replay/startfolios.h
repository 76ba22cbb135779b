/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The folios of the page cache before the trace, where the kernel's own deletes show them.
 * User space cannot see a cached file's folio sizes (startstate.c's rule stands in), but the
 * kernel's first delete of a page cached before the trace, with no insertion of it between,
 * removes the folio that held it then: its index and order are the start state's. A survey
 * reads the whole trace once before the replay and keeps, for each file's start records,
 * those folios; the replay sends them to the models before the file's ranges
 * (--start-folios=deleted), and the rule fills the pages no delete names.
 */
#ifndef FT_REPLAY_STARTFOLIOS_H
#define FT_REPLAY_STARTFOLIOS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "trace/trace.h"
#include "util/u64map.h"

struct start_folio {
	uint64_t index;		/* first page */
	uint64_t cached_to_end;	/* start pages of the file below the folio's end */
	uint8_t order;
};

/*
 * The start records of one file, in a row (startcache.c's start_cache_count() counts them
 * alike): the pages they name, those settled (inserted or deleted since), the folios found.
 */
struct start_group {
	uint64_t base, end;	/* the pages the bitmaps cover */
	uint64_t *cached, *settled;
	struct start_folio *folios;
	size_t nfolios, cap;
};

struct replay_start_folios {
	struct start_group *groups;	/* in the order of the trace's records */
	size_t ngroups, cap;
	struct u64map latest;		/* file_key(dev, ino) -> its last group + 1 */
	uint32_t last_dev;		/* the last start record's file */
	uint64_t last_ino;
	uint64_t folios, pages;		/* found, in all */
	bool surveyed;			/* start_folios_survey() read the trace */
};

void start_folios_init(struct replay_start_folios *s);
void start_folios_release(struct replay_start_folios *s);
/*
 * Reads the trace at path through: 0 (also for a trace without start records or a synthetic
 * one: nothing found), or -1 with err set.
 */
int start_folios_survey(struct replay_start_folios *s, const char *path, struct ft_error *err);
/*
 * The folios found for the trace's group-th file of start records (from 0), by index, and in
 * *end the page after the last its records name.
 */
const struct start_folio *start_folios_of(const struct replay_start_folios *s, uint64_t group,
					  size_t *n, uint64_t *end);

#endif /* FT_REPLAY_STARTFOLIOS_H */
