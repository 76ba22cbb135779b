/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A progress line on stderr for long work: how far, how fast, how long still to go.
 * Only when stderr is a terminal and the user did not ask for quiet, so pipes, files and
 * scripts never see it; the line is rewritten in place and erased at the end.
 */
#ifndef FT_UTIL_PROGRESS_H
#define FT_UTIL_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

struct ft_progress {
	bool on;		/* printing: stderr is a terminal and not quiet */
	bool shown;		/* a line is on the screen */
	const char *what;	/* the work: "replay", "import" */
	const char *unit;	/* what is counted: "records", "events", "lines" */
	uint64_t total;		/* bytes (or units) of the whole work; 0 when unknown */
	struct timespec start;
	struct timespec next;	/* no line before this time */
};

/*
 * Starts counting. total: the amount ft_progress_update's done runs up to (the input's size in
 * bytes, say), 0 when unknown (no percentage and no ETA then).
 */
void ft_progress_start(struct ft_progress *p, const char *what, const char *unit,
		       uint64_t total, bool quiet);
/* done: progress toward total; count: units so far. Prints at most a few times a second. */
void ft_progress_update(struct ft_progress *p, uint64_t done, uint64_t count);
/* Erases the line; the next output starts at the left margin. */
void ft_progress_end(struct ft_progress *p);

/* The size of the regular file behind fd, 0 for pipes, terminals and errors. */
uint64_t ft_progress_file_size(int fd);

#endif
