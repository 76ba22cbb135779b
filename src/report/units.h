/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay --by=file|process|cgroup: each unit's figures in every model, beside what the kernel did
 * for it by the trace's own events (the folios it inserted per order, the bytes its file
 * system wrote back), sorted by one metric and cut to the top N. Table, JSON and CSV.
 */
#ifndef FT_REPORT_UNITS_H
#define FT_REPORT_UNITS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"
#include "report/report.h"

/* The kernel's folio orders: 0..MODEL_MAX_ORDER, then "above, or not recorded". */
#define REPORT_UNIT_ORDERS	(MODEL_MAX_ORDER + 2)

/* What the rows can be sorted by (--sort); the names are report_unit_sorts[]. */
enum report_unit_sort {
	UNIT_SORT_READS, UNIT_SORT_READ_BYTES, UNIT_SORT_HIT_RATIO, UNIT_SORT_DEVICE_READ_BYTES,
	UNIT_SORT_REFAULTS, UNIT_SORT_EVICTED, UNIT_SORT_WRITE_BYTES, UNIT_SORT_WRITEBACK_BYTES,
	UNIT_SORT_WRITE_AMPLIFICATION, UNIT_SORT_INSERTED, UNIT_SORT_KERNEL_INSERTED,
	UNIT_SORT_KERNEL_WRITEBACK_BYTES, UNIT_SORT_N
};

extern const char *const report_unit_sorts[UNIT_SORT_N];

/* What a unit is. */
enum report_unit_kind { UNIT_FILE, UNIT_PROCESS, UNIT_CGROUP };
/* The sort named s; false when none is. */
bool report_unit_sort_parse(const char *s, enum report_unit_sort *out);

struct report_unit {
	const char *name;		/* a path or a command: untrusted, escaped where shown */
	uint64_t id;			/* by process: the pid; by cgroup: its id, 0 unknown */
	uint32_t dev;			/* by file */
	uint64_t ino;
	uint64_t kernel_inserted[REPORT_UNIT_ORDERS];	/* FT_PAGECACHE_ADD folios */
	/* bytes its file system wrote back by its own count; known: the trace can say */
	uint64_t kernel_written_back;
	bool kernel_wb_known;
	/* pages of its folios that refaulted; known: the trace names them (6.14 on, 1.5) */
	uint64_t kernel_refaults;
	bool kernel_refaults_known;
	const struct model_unit *m;	/* [ncols]: the unit in each model */
};

struct report_units {
	enum report_unit_kind kind;
	enum report_unit_sort sort;
	uint32_t top;			/* rows kept at most */
	uint32_t total;			/* units with any figure in the trace */
	const struct report_col *cols;	/* the models, as in the main report */
	unsigned ncols;
	struct report_unit *rows;
	uint32_t nrows;
	bool incomplete;		/* a model ran out of memory for the figures */
};

/* Sorts the rows by u->sort, largest first (hit ratio: lowest first), and keeps u->top. */
void report_units_sort(struct report_units *u);

/* Each returns 0, or -1 when writing failed. */
int report_units_table(FILE *f, const struct report_units *u);
/* The value of the "by" key of the JSON report. */
int report_units_json(FILE *f, const struct report_units *u);
/* A row per unit and configuration, the kernel's figures on each. */
int report_units_csv(FILE *f, const struct report_units *u);

#endif
