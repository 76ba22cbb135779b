/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Text and foreign-binary traces into folio-trace records. An importer reads its input line by
 * line (or record by record) and writes through a sink; every line it cannot use is counted
 * with its number and reason, never dropped silently, and with strict set the first one stops
 * the import.
 */
#ifndef FT_IMPORT_IMPORT_H
#define FT_IMPORT_IMPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "import/sink.h"
#include "util/u64map.h"

#define IMPORT_SHOW_BAD 5	/* bad lines reported one by one */

struct import_bad_line {
	uint64_t line;
	char why[120];
};

struct import_ctx {
	struct ft_sink *sink;
	struct ft_error *err;
	const char *name;	/* input name for messages */
	bool strict;
	bool direct;		/* fio: the job used O_DIRECT */
	uint32_t page_size;
	uint64_t line;		/* current line (or record) number, 1-based */
	/* lines */
	uint64_t lines, used, ignored, bad;
	struct import_bad_line shown[IMPORT_SHOW_BAD];
	/* records written, by type */
	uint64_t records[FT_TYPE_MAX];
	/* files seen: file_key -> highest byte end seen (the i_size estimate) */
	struct u64map files;
	uint64_t nfiles;
};

int import_ctx_init(struct import_ctx *c, struct ft_sink *sink, const char *name,
		    struct ft_error *err);
void import_ctx_free(struct import_ctx *c);

/*
 * A line that cannot be used: counted and remembered. Returns 0 to go on, or -1 under strict
 * (err set to "NAME:LINE: why").
 */
int import_bad(struct import_ctx *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Appends a record and counts it. */
int import_emit(struct import_ctx *c, const void *rec);
/*
 * Emits FT_FILE for (dev, ino) the first time it is seen, and raises its size estimate to end.
 * *isize: the estimate after this access. path may be NULL.
 */
int import_file_seen(struct import_ctx *c, __u64 ts, __u32 dev, __u64 ino, const char *path,
		     uint64_t end, __u64 *isize);
/*
 * An access record; FT_FILE first if the file is new. One no kernel makes (ft_access_problem)
 * is a bad line instead: the caller counts the line as used only when c->bad did not grow.
 */
int import_access(struct import_ctx *c, __u64 ts, __u32 tid, __u32 dev, __u64 ino, __u16 op,
		  __u16 flags, uint64_t pos, uint64_t len, __u32 arg);

/*
 * Feeds every line of in to fn(c, arg, line), counting lines, until fn fails or the input
 * ends. Returns fn's failure, -1 with err set on a read error, else 0.
 */
int import_each_line(struct import_ctx *c, FILE *in,
		     int (*fn)(struct import_ctx *c, void *arg, char *line), void *arg);

/* The importers: 0 when the input was read to the end, -1 on an I/O error or strict failure. */
int import_ftrace(struct import_ctx *c, FILE *in);
int import_fio_iolog(struct import_ctx *c, FILE *in);
int import_lcs_csv(struct import_ctx *c, FILE *in);
int import_lcs_oracle(struct import_ctx *c, FILE *in);

#endif
