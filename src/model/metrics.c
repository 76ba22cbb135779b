// SPDX-License-Identifier: GPL-2.0-or-later
/* Constant-memory distributions: see metrics.h. */
#include <math.h>
#include <string.h>

#include "model/metrics.h"

#define SUB	(1u << DIST_SUB_SHIFT)

void dist_init(struct dist *h)
{
	memset(h, 0, sizeof(*h));
}

unsigned dist_bucket(uint64_t v)
{
	unsigned e;

	if (v < SUB)
		return (unsigned)v;
	e = 63u - (unsigned)__builtin_clzll(v);	/* >= DIST_SUB_SHIFT */
	return ((e - DIST_SUB_SHIFT + 1) << DIST_SUB_SHIFT) |
	       (unsigned)((v >> (e - DIST_SUB_SHIFT)) & (SUB - 1));
}

uint64_t dist_bucket_max(unsigned b)
{
	unsigned e, sub;
	uint64_t lo;

	if (b < SUB)
		return b;
	e = (b >> DIST_SUB_SHIFT) + DIST_SUB_SHIFT - 1;
	sub = b & (SUB - 1);
	lo = (1ull << e) | ((uint64_t)sub << (e - DIST_SUB_SHIFT));
	return lo + ((1ull << (e - DIST_SUB_SHIFT)) - 1);
}

uint64_t dist_percentile(const struct dist *h, double pct)
{
	uint64_t rank, seen = 0;

	if (!h->d.samples)
		return 0;
	rank = (uint64_t)ceil((double)h->d.samples * pct / 100.0);
	if (rank < 1)
		rank = 1;
	for (unsigned b = 0; b < DIST_BUCKETS; b++) {
		seen += h->count[b];
		if (seen >= rank) {
			uint64_t v = dist_bucket_max(b);

			return v < h->d.max ? v : h->d.max;
		}
	}
	return h->d.max;
}

struct model_dist dist_summary(const struct dist *h)
{
	struct model_dist d = h->d;

	d.sum = (double)h->isum;
	d.p99 = dist_percentile(h, 99.0);
	return d;
}
