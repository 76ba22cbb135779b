/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Running distributions in constant memory: exact count, sum (mean) and max, and a log-linear
 * histogram (16 sub-buckets per power of two: values below 16 exact, others within 1/16) for
 * the p99. The p99 reported is the upper edge of its bucket, never above the max, so a
 * constant series reports its value exactly.
 */
#ifndef FT_MODEL_METRICS_H
#define FT_MODEL_METRICS_H

#include <stdint.h>

#include "model/model.h"

#define DIST_SUB_SHIFT	4
#define DIST_BUCKETS	((64 - DIST_SUB_SHIFT + 1) << DIST_SUB_SHIFT)

struct dist {
	struct model_dist d;	/* d.sum is set from isum by dist_summary() */
	/*
	 * The sum as an integer: exact, whatever the order and grouping of the samples, so equal
	 * states may be added in runs of any length. (A double sum rounds once past 2^53, and
	 * differently for different groupings; below that the two are the same number.)
	 */
	unsigned __int128 isum;
	uint64_t count[DIST_BUCKETS];
};

void dist_init(struct dist *h);
unsigned dist_bucket(uint64_t v);
/* Largest value that falls in bucket b. */
uint64_t dist_bucket_max(unsigned b);

static inline void dist_add(struct dist *h, uint64_t v)
{
	h->d.samples++;
	h->isum += v;
	if (v > h->d.max)
		h->d.max = v;
	h->count[dist_bucket(v)]++;
}

/* n samples of the same value v (a state that lasted n accesses). */
static inline void dist_add_n(struct dist *h, uint64_t v, uint64_t n)
{
	h->d.samples += n;
	h->isum += (unsigned __int128)v * n;
	if (v > h->d.max)
		h->d.max = v;
	h->count[dist_bucket(v)] += n;
}

/* The percentile (0 < pct <= 100) as described above; 0 without samples. */
uint64_t dist_percentile(const struct dist *h, double pct);
/* The public summary with p99 filled in. */
struct model_dist dist_summary(const struct dist *h);

#endif /* FT_MODEL_METRICS_H */
