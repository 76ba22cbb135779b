/* SPDX-License-Identifier: GPL-2.0-or-later */
/* How `folio-trace top` shows an interval: a screen of text, or one JSON document. */
#ifndef FT_TOP_VIEW_H
#define FT_TOP_VIEW_H

#include <stdbool.h>
#include <stdio.h>

#include "top/tally.h"

/* The columns of the table, in screen order; the sort keys of '<' and '>'. */
enum top_column {
	TOP_COL_READ, TOP_COL_WRITE, TOP_COL_DIRTIED, TOP_COL_WRITTEN_BACK, TOP_COL_AMPLIFICATION,
	TOP_COL_INSERTED, TOP_COL_ORDER0, TOP_COL_ORDER1_3, TOP_COL_ORDER4_8, TOP_COL_ORDER9,
	TOP_COL_EVICTED, TOP_COL_HIT, TOP_COL_READAHEAD, TOP_COL_NAME, TOP_COLUMNS
};

struct top_view {
	enum top_column sort;
	bool reverse;		/* smallest first */
	unsigned width, height;	/* of the terminal; 0: no limit */
	const char *title;	/* what is traced */
	/* a whole trace at once (info --by): this heading instead of top's interval line */
	const char *heading;
	unsigned max_rows;	/* rows shown at most; 0: as many as the height allows */
	bool help;		/* the keys and columns instead of the rows ('h', '?') */
	bool keys;		/* a screen that reads keys: the title says which */
};

/* What --sort takes, for its usage error. */
#define TOP_COLUMN_CHOICES \
	"a column: READ, WRITE, DIRTIED, WBACK, WAF, INSERTED, O0, O1-3, O4-8, O9+, EVICTED, " \
	"HIT%, RA or NAME"

const char *top_column_name(enum top_column c);
/* The column named (case-insensitive), or -1. */
int top_column_parse(const char *name);

/*
 * The interval's screen: the title and lines of system figures, then the busiest rows, the name
 * first and as many columns as v->width allows (all without a width), the sort column marked.
 */
void top_view_text(FILE *f, const struct top_view *v, const struct top_tally *t,
		   unsigned interval, double seconds);
/* The keys of the screen and what the columns are. */
void top_view_help(FILE *f, const struct top_view *v);
/* --lines: the interval's figures of the whole system on one line (as cachestat). */
void top_view_line(FILE *f, const struct top_tally *t, unsigned interval, double seconds);
/* One JSON document (one line) for the interval. */
void top_view_json(FILE *f, const struct top_tally *t, unsigned interval, double seconds);

#endif
