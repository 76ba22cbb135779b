/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A first pass over a trace before the models start, for the plots: the span the time series
 * covers (first access to last event), for an automatic --interval, and one file's accesses
 * and extent, for the heatmap.
 */
#ifndef FT_REPLAY_SURVEY_H
#define FT_REPLAY_SURVEY_H

#include <stdbool.h>
#include <stdint.h>

#include "util/error.h"

/* Which file the heatmap shows. */
struct survey_target {
	enum { TARGET_NONE, TARGET_BUSIEST, TARGET_PATH, TARGET_DEVINO } kind;
	const char *path;	/* TARGET_PATH: as the trace's FT_FILE record names it */
	uint32_t dev;		/* TARGET_DEVINO */
	uint64_t ino;
};

struct survey {
	bool any_access;
	uint64_t first_ts, last_ts;	/* first access, last event (what the replay covers) */
	/* the target file, when found */
	bool found;
	uint32_t dev;
	uint64_t ino;
	uint64_t accesses;		/* its data accesses: reads, writes, mmap reads and writes */
	uint64_t extent;		/* the furthest byte they reach */
	char path[256];			/* as recorded; empty when unknown */
};

/*
 * Parses --heatmap-file's argument: a path, or DEV:INO (numbers, DEV as the trace's dump
 * shows it). false with *why set.
 */
bool survey_parse_target(const char *arg, struct survey_target *t, const char **why);

/* Reads path through once. 0, or -1 with err set. */
int replay_survey(const char *path, const struct survey_target *t, struct survey *out,
		  struct ft_error *err);

/* The automatic time-series interval for a span: about 200 to 500 samples over it. */
uint64_t survey_interval(uint64_t span_ns);

#endif /* FT_REPLAY_SURVEY_H */
