// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Buddy allocator throughput: the page-cache model allocates a folio per miss and frees one
 * per eviction, so this is the alloc+free rate over 24 GiB of 4 KiB frames, 5% pinned, for
 * folio orders 0, 4 and 9 with the cache kept near full (a folio freed at random per alloc).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "model/memory/buddy.h"

#define NR_PAGES	(24ULL << 18)	/* 24 GiB */
#define OPS		20000000ULL

struct live {
	uint64_t *pfn;
	unsigned *order;
	uint64_t n;
};

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Fills the pool with folios of the order (smaller when it runs out), then churns. */
static double churn(struct buddy *b, struct live *l, unsigned order, uint64_t *fallbacks)
{
	uint64_t seed = 0x9e3779b97f4a7c15ULL, ops = 0;
	double t0 = now_s();

	for (; ops < OPS; ops++) {
		unsigned o = order;
		uint64_t pfn;

		while ((pfn = buddy_alloc(b, o)) == BUDDY_NO_PFN && o > 0) {
			o--;
			(*fallbacks)++;
		}
		if (pfn == BUDDY_NO_PFN || buddy_free_pages(b) < NR_PAGES / 100) {
			/* Memory full: evict a random folio, as reclaim would. */
			uint64_t i = xorshift(&seed) % l->n;

			buddy_free(b, l->pfn[i], l->order[i]);
			l->pfn[i] = l->pfn[--l->n];
			l->order[i] = l->order[l->n];
		}
		if (pfn != BUDDY_NO_PFN) {
			l->pfn[l->n] = pfn;
			l->order[l->n++] = o;
		}
	}
	return (double)ops / (now_s() - t0);
}

int main(void)
{
	static const unsigned orders[] = { 0, 4, 9 };
	struct live l = { .pfn = malloc(NR_PAGES * sizeof(uint64_t)),
			  .order = malloc(NR_PAGES * sizeof(unsigned)) };
	double base = 0;

	if (!l.pfn || !l.order)
		return 1;
	for (unsigned i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
		struct buddy *b = buddy_new(NR_PAGES);
		uint64_t fallbacks = 0, nr_free[BUDDY_MAX_ORDER + 1];
		double t0 = now_s(), pin_s, rate;

		if (!b)
			return 1;
		buddy_pin_random(b, 5, 1);
		pin_s = now_s() - t0;
		l.n = 0;
		rate = churn(b, &l, orders[i], &fallbacks);
		if (!base)
			base = rate;
		buddy_free_counts(b, nr_free);
		printf("order %u: %.1f M folio allocs/s, each with an eviction once full "
		       "(ratio to order 0: %.2f), pin 5%% of 24 GiB in %.3f s, %" PRIu64
		       " fallbacks, unusable index %d\n",
		       orders[i], rate / 1e6, rate / base, pin_s, fallbacks,
		       buddy_unusable_free_index(nr_free, orders[i]));
		buddy_destroy(b);
	}
	free(l.pfn);
	free(l.order);
	return 0;
}
