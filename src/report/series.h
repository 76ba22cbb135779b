/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Time series of the model samples (one row per interval per configuration), kept for
 * --timeseries=FILE.csv and --plot=FILE.svg. Memory grows with the trace's duration divided by
 * the interval, never with its number of events.
 */
#ifndef FT_REPORT_SERIES_H
#define FT_REPORT_SERIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "model/model.h"

#define SERIES_MAX_COLS	(MODEL_MAX_ORDER + 1)

struct series_col {
	char label[32];
	unsigned order;
	struct model_sample *v;
	size_t n, cap;
	size_t max;			/* samples kept at most; later ones are dropped */
};

struct series {
	uint64_t t0;			/* trace time shown as 0 s */
	uint64_t interval_ns;
	unsigned ncols;
	struct series_col col[SERIES_MAX_COLS];
};

/*
 * Empty series for ncols configurations (labels and orders filled by the caller), each keeping
 * what a model hands out: MODEL_SAMPLES_MAX and the one at the end.
 */
void series_init(struct series *s, unsigned ncols, uint64_t interval_ns);
void series_release(struct series *s);
/* 0 (also when the column is full and the sample dropped), or -1 on ENOMEM. */
int series_append(struct series_col *c, const struct model_sample *sample);

/* Bytes per second written back in sample i of c: the interval's bytes over its length. */
double series_write_bandwidth(const struct series *s, const struct series_col *c, size_t i);
/* Bytes per second read from the device in sample i of c, likewise. */
double series_read_io_bandwidth(const struct series *s, const struct series_col *c, size_t i);
/* Share of the bytes read in sample i's interval that were cached; NAN when none was read. */
double series_hit_ratio(const struct series *s, const struct series_col *c, size_t i);
/* Whether any sample saw the application read; write, dirty or write back. */
bool series_reads(const struct series *s);
bool series_writes(const struct series *s);

/* Each returns 0, or -1 when writing failed. */
int series_write_csv(FILE *f, const struct series *s);
/* subtitle: a second line under the title (the interval), or NULL */
int series_write_svg(FILE *f, const struct series *s, const char *title, const char *subtitle);

#endif /* FT_REPORT_SERIES_H */
