/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The list of reported metrics: stable key (JSON/CSV), table label, kind and how to get the
 * value out of struct model_metrics. Adding a metric here adds it to every format.
 */
#ifndef FT_REPORT_METRICS_H
#define FT_REPORT_METRICS_H

#include <stdbool.h>
#include <stdint.h>

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

/* value / base as a double; invalid when either is invalid or base is 0. */
struct report_value report_ratio(struct report_value value, struct report_value base);
double report_value_double(struct report_value v);

#endif /* FT_REPORT_METRICS_H */
