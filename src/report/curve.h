/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Curves of a metric against memory, one per folio order: from model instances run side by
 * side at every (order, memory) pair, or from one stack-distance pass (exact or sampled, plain
 * LRU only: model/stack.h). The metrics are the report's own (metrics.c), by key.
 */
#ifndef FT_REPORT_CURVE_H
#define FT_REPORT_CURVE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

enum curve_source {
	CURVE_INSTANCES,	/* a model instance per point: any LRU, every metric */
	CURVE_EXACT,		/* stack distances over folio ids: plain LRU, read metrics */
	CURVE_SAMPLED,		/* the same over a spatial sample of the folios (SHARDS) */
};

#define CURVE_MAX_REASONS	8

struct curve_point {
	uint64_t memory_bytes;
	struct model_metrics m;
	struct model_config cfg;	/* for metrics that need it (page size) */
};

struct curve {
	unsigned order;
	enum curve_source source;
	const char *lru;		/* the LRU kind's name */
	double sample_rate;		/* CURVE_SAMPLED: share of the folios followed */
	/*
	 * stack curves: whether the stream kept to what makes them exact (inexact_events 0),
	 * else each reason with the accesses that met it, most first
	 */
	uint64_t accesses, inexact_events;
	unsigned n_inexact;
	struct curve_inexact {
		const char *why;
		uint64_t accesses;
	} inexact[CURVE_MAX_REASONS];
	/* CURVE_SAMPLED with an exact curve beside it: hit-ratio error over the points */
	bool have_error;
	double mae, max_error;
	unsigned n;
	struct curve_point *p;
};

struct curve_set {
	uint64_t working_set_bytes;	/* distinct pages touched, in bytes */
	unsigned n;
	struct curve *c;
};

/* The metrics a curve shows, by report key; stack curves know only some (curve_metric_known). */
extern const char *const curve_keys[];
extern const unsigned curve_nr_keys;
bool curve_metric_known(const struct curve *c, const char *key);

/* One phrase on where the curve comes from ("exact (stack distances, plain LRU)"). */
const char *curve_source_text(const struct curve *c);

/*
 * The memory at which the read hit ratio (requests) flattens: the knee (the point farthest
 * above the line from the first to the last point, both axes scaled to 0..1) and the least
 * memory with 90% of the curve's highest hit ratio. false when the curve is flat or empty.
 */
bool curve_knee(const struct curve *c, uint64_t *bytes);
bool curve_hit90(const struct curve *c, uint64_t *bytes);

/* Hit-ratio errors of sampled against exact over their common points. */
void curve_compare(struct curve *sampled, const struct curve *exact);

void curve_set_release(struct curve_set *s);

/* Each returns 0, or -1 when writing failed. */
int curve_write_table(FILE *f, const struct curve_set *s);
/* Each order's curve divided by order 0's (the first's without it), at each memory size. */
int curve_write_ratios(FILE *f, const struct curve_set *s);
/* The "curves" value of the JSON report, at indent 2. */
int curve_write_json(FILE *f, const struct curve_set *s);
int curve_write_csv(FILE *f, const struct curve_set *s);
int curve_write_svg(FILE *f, const struct curve_set *s, const char *title);

#endif /* FT_REPORT_CURVE_H */
