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
	bool surveyed;			/* a first pass read the trace */
};

void start_folios_init(struct replay_start_folios *s);
void start_folios_release(struct replay_start_folios *s);
/*
 * The first pass over a trace (replay/firstpass.h) gives every record to start_folios_note()
 * between start_folios_begin() and start_folios_finish(); a trace of a format before 1.3 has
 * no start records, and none is given. begin: -1 out of memory. note: 1 when nothing more can
 * be found (a synthetic trace, or one without deletes), -1 out of memory. finish: the folios
 * sorted by index, surveyed set.
 */
int start_folios_begin(struct replay_start_folios *s);
int start_folios_note(struct replay_start_folios *s, const struct ft_hdr *h);
void start_folios_finish(struct replay_start_folios *s);
/*
 * The folios found for the trace's group-th file of start records (from 0), by index, and in
 * *end the page after the last its records name.
 */
const struct start_folio *start_folios_of(const struct replay_start_folios *s, uint64_t group,
					  size_t *n, uint64_t *end);

#endif /* FT_REPLAY_STARTFOLIOS_H */
