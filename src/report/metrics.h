/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The list of reported metrics: stable key (JSON/CSV), table label, kind and how to get the
 * value out of struct model_metrics. Adding a metric here adds it to every format.
 */
#ifndef FT_REPORT_METRICS_H
#define FT_REPORT_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

enum report_kind {
	RK_COUNT,		/* integer count */
	RK_BYTES,		/* integer bytes */
	RK_MEAN,		/* mean of a count, fractional */
	RK_MEAN_BYTES,		/* mean of bytes, fractional */
	RK_FRACTION,		/* 0..1, shown as percent in the table */
	RK_FACTOR,		/* amplification: x times */
	RK_SECONDS,
	RK_INDEX,		/* kernel index, 0..1 (the kernel prints d.ddd), or -1 */
	RK_BYTES_PER_S,
};

/* A value, or none (a ratio whose denominator is 0). Integers stay exact. */
struct report_value {
	bool valid;
	bool integer;
	uint64_t u;
	double d;
};

struct report_metric {
	const char *key;
	const char *label;
	const char *section;	/* table groups: "reads", "writes", ... */
	enum report_kind kind;
	struct report_value (*get)(const struct model_metrics *m, const struct model_config *c);
};

extern const struct report_metric report_metrics[];
extern const unsigned report_nr_metrics;

/* Per-order arrays of struct model_metrics, reported as lists (JSON) or key_N columns (CSV). */
struct report_array {
	const char *key;
	unsigned len;
	const uint64_t *(*get)(const struct model_metrics *m);
};

extern const struct report_array report_arrays[];
extern const unsigned report_nr_arrays;

/*
 * Which metrics a report shows (--metrics=LIST): metric keys, array keys and named groups. The
 * groups are the table's sections (trace, reads, writes, cache, lru, memory), folios (the
 * folios inserted and allocated by order) and the cross-cutting reclaim and fragmentation.
 */
#define REPORT_MAX_METRICS	160
#define REPORT_MAX_ARRAYS	8

struct report_select {
	bool metric[REPORT_MAX_METRICS];	/* by index in report_metrics */
	bool array[REPORT_MAX_ARRAYS];		/* by index in report_arrays */
	bool orders;				/* the table's rows of folios inserted by order */
	bool all;				/* "all" was named */
	/* the items in the order named, for CSV: metric i, or REPORT_MAX_METRICS + array i */
	uint16_t order[REPORT_MAX_METRICS + REPORT_MAX_ARRAYS];
	unsigned norder;
};

/* Everything: the default. */
void report_select_all(struct report_select *s);
/*
 * A comma-separated list of keys and group names, in any order, duplicates allowed. False with
 * *why set (a static buffer naming the groups) on an empty item or an unknown name.
 */
bool report_select_parse(const char *list, struct report_select *s, const char **why);
/* The group names, comma-separated, for help and messages. */
const char *report_group_names(void);
/* What a key counts, one line for --metrics=help (meanings.c); false: none written. */
bool report_metric_meaning(const char *key, char *buf, size_t len);
/* --metrics=help: every key with its meaning, the groups and the old names. */
int report_metrics_help(FILE *f);
/* The key an old name (a renamed key, a --sort name) stands for; NULL: name is no alias. */
const char *report_metric_canonical(const char *name, size_t len);
/* The metric of a key or an old name of it; NULL: none. */
const struct report_metric *report_metric_find(const char *key);

/*
 * The ratio of a metric to the baseline's: invalid when value / base is meaningless, as for an
 * index that may be negative (the fragmentation index is -1 when an allocation would succeed).
 */
struct report_value report_metric_ratio(const struct report_metric *md, const struct model_metrics *m,
					const struct model_config *c, const struct model_metrics *bm,
					const struct model_config *bc);

/* A value as the table shows it, with its unit, in buf of REPORT_CELL_LEN bytes. */
#define REPORT_CELL_LEN	40
void report_format_value(char *buf, enum report_kind kind, struct report_value v);

/* value / base as a double; invalid when either is invalid or base is 0. */
struct report_value report_ratio(struct report_value value, struct report_value base);
double report_value_double(struct report_value v);

#endif /* FT_REPORT_METRICS_H */
