/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Replay results for people and programs: one column per model configuration, side by side,
 * with ratios to the order-0 column. The same metric list (metrics.c) drives every format so
 * the table, JSON and CSV never disagree on names or values.
 */
#ifndef FT_REPORT_REPORT_H
#define FT_REPORT_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

/* One configuration's results. */
struct report_col {
	char label[32];			/* "order 9" */
	struct model_config cfg;
	struct model_metrics m;
};

/* What was replayed. */
struct report_run {
	const char *trace_path;
	uint64_t records;		/* records read */
	uint64_t accesses;		/* FT_ACCESS records fed to the models */
	uint64_t ignored;		/* FT_ACCESS records without effect (zero length, bad op) */
	uint64_t bad;			/* FT_ACCESS records no kernel makes: skipped, damage */
	uint64_t late;			/* accesses 1 s or more before one before them, run later */
	uint64_t late_max_ns;		/* by how much at most */
	uint64_t files;			/* distinct (dev, ino), those left out not counted */
	/* accesses of files on procfs or sysfs (no page cache) left out, and those files */
	uint64_t uncached, uncached_files;
	uint64_t lost;			/* events the recorder lost (FT_LOST) */
	bool clean_end;			/* FT_END seen */
	bool truncated;			/* the trace ends inside a damaged or cut chunk */
	const char *release;		/* kernel of the recorded host, "" when unknown */
	const char *sources;		/* where the configuration came from, one line */
};

struct curve_set;
struct report_select;
struct report_units;

struct report {
	const struct report_run *run;
	const struct report_col *cols;
	unsigned ncols;
	unsigned baseline;		/* column the ratios divide by: order 0, else the first */
	const struct curve_set *curves;	/* a sweep's curves (report/curve.h), or NULL */
	const struct report_select *sel;	/* the metrics shown (--metrics), NULL: all */
	const struct report_units *units;	/* --by (report/units.h), or NULL */
	const char *why_orders;		/* why these orders ran (the default), or NULL */
	const char *trust;		/* how far to trust the model (calibration), or NULL */
	const char *mrc_set;		/* the options --mrc set for itself, or NULL */
	bool all_rows;			/* the table keeps the rows zero in every model too */
};

/* Index of the first column with order 0, else 0. */
unsigned report_pick_baseline(const struct report_col *cols, unsigned ncols);

/*
 * The verdict that opens the tables: each order against order 0 on the rows that answer most,
 * the knee of a sweep, the trust line; at most 15 lines.
 */
int report_write_verdict(FILE *f, const struct report *r);
/* Our own prose folded to 80 columns after a comma or semicolon, continuation indented. */
void report_print_wrapped(FILE *f, const char *s);

/* Each returns 0, or -1 when writing failed (errno set). */
int report_write_table(FILE *f, const struct report *r);
/* The table without its verdict: what was replayed, the settings, a row per metric. */
int report_write_details(FILE *f, const struct report *r);
int report_write_json(FILE *f, const struct report *r);
int report_write_csv(FILE *f, const struct report *r);
/* CSV, one row per configuration and metric: label,order,metric,value (arrays as KEY_N). */
int report_write_csv_long(FILE *f, const struct report *r);
/* A sweep's table: what was replayed and the curves against memory, not the columns. */
int report_write_curve_table(FILE *f, const struct report *r);

#endif /* FT_REPORT_REPORT_H */
