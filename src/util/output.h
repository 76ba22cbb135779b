/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Output files, written the one safe way every subcommand shares (folio-trace(1), OUTPUT
 * FILES):
 * - "-" (where allowed), the command's own descriptors (/dev/stdout, /dev/fd/N) and /dev/null
 *   (also through a symbolic link) are written in place: never created, truncated or removed;
 * - anything else is written to a new file in the target's directory (unnamed, O_TMPFILE,
 *   where the filesystem can: a killed run leaves nothing; else ".NAME.RANDOM" created
 *   exclusively, so no planted link is followed) and put onto the target only once all of it
 *   is written and on disk: a failed run leaves an existing file as it was and no partial one;
 * - a symbolic link to anything else is refused unless force, which replaces the link itself,
 *   never what it points to; FIFOs (whose open would wait for a reader, and which anyone can
 *   plant in /tmp), sockets, directories and devices other than /dev/null are refused;
 * - a file the command also reads (same device and inode) is refused.
 */
#ifndef FT_UTIL_OUTPUT_H
#define FT_UTIL_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "util/error.h"

struct ft_output_opts {
	unsigned mode;			/* of the new file, umask applied: 0600 for traces */
	bool force;			/* --force: a symbolic link at the target is replaced */
	bool dash_is_stdout;		/* "-" means standard output */
	/*
	 * record: a target that does not exist is created under its name at once, so that a
	 * recorder killed on the way leaves its trace readable there (folio-trace(5)).
	 */
	bool in_place_if_new;
	const char *const *inputs;	/* what the command reads ("-": stdin), ninputs of them */
	unsigned ninputs;
};

struct ft_output {
	char *path;			/* the target */
	char *tmp;			/* the named file written, renamed to path on commit */
	bool anon;			/* or the file written is unnamed (O_TMPFILE) */
	int fd;				/* open read-write when it is a file of ours */
	FILE *f;			/* after ft_output_stdio() */
	bool direct;			/* written in place: stdout, a device, a FIFO */
	bool created;			/* path itself is ours (in_place_if_new, place) */
	dev_t dev;			/* of what we created, to remove only that */
	ino_t ino;
};

/* Opens path for writing as above. -1 with err set ("PATH: why") when refused or failed. */
int ft_output_open(struct ft_output *o, const char *path, const struct ft_output_opts *opts,
		   struct ft_error *err);
/* A stdio stream on the output (fully buffered), owned by o. NULL with err set. */
FILE *ft_output_stdio(struct ft_output *o, struct ft_error *err);
/*
 * Everything written: flushes, puts a file of ours on disk and renames it onto the target
 * (direct outputs are only flushed). Releases o, also on failure (err set, -1), when nothing
 * replaced the target.
 */
int ft_output_commit(struct ft_output *o, struct ft_error *err);
/*
 * record: the file written takes the target's name now, before all is written, so that a
 * killed run leaves it there; from then on it is what in_place_if_new creates. Releases o on
 * failure (err set, -1), leaving the target as it was.
 */
int ft_output_place(struct ft_output *o, struct ft_error *err);
/* The file written has no name yet, or a temporary one: nothing of it is kept on failure. */
bool ft_output_is_temp(const struct ft_output *o);
/*
 * Gives up: the temporary file is removed, the target untouched. A file created in place
 * stays when keep (a readable partial trace), else it is removed. Releases o.
 */
void ft_output_abort(struct ft_output *o, bool keep);
/* The name to show for o: "standard output" or the target's path. */
const char *ft_output_name(const struct ft_output *o);
/*
 * A whole output in one call: opened, written by write(f, arg) (non-zero: failed, errno
 * set), committed, or given up with nothing left of it. 0, or -1 with the reason on stderr.
 */
int ft_output_write(const char *path, const struct ft_output_opts *opts,
		    int (*write)(FILE *f, const void *arg), const void *arg);

#endif
