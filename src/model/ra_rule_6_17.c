// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readahead order rule of 6.17 and later (mm/readahead.c: the order kept in ra->order):
 * synchronous readahead reads at the minimum order; each asynchronous window raises the stored
 * order by 2 and rounds its end down to that order, so its folios stay aligned; a window's
 * folios use min(stored order, largest order, ilog2(size)).
 */
#include "model/instance.h"

static void rule_6_17_start(struct ra_state *ra, unsigned max_order, unsigned min_order)
{
	ra->ra_order = 0;
	ra->order = (uint8_t)ra_order_cap(0, ra->size, max_order, min_order);
}

static void rule_6_17_advance(struct ra_state *ra, unsigned max_order, unsigned min_order)
{
	unsigned align = ra->ra_order < 40 ? ra->ra_order + 2 : 42;
	uint64_t end = ra->start + ra->size, aligned = end & ~((1ull << align) - 1);

	ra->ra_order = (uint8_t)align;
	/* the window end is rounded down to the order, so its folios stay aligned */
	if (aligned > ra->start) {
		ra->size = (uint32_t)(aligned - ra->start);
		ra->async_size = ra->size;
	}
	ra->order = (uint8_t)ra_order_cap(ra->ra_order, ra->size, max_order, min_order);
}

/* page_cache_sync_ra() reads at the minimum order and starts the stored order again */
static void rule_6_17_sync_miss_done(struct ra_state *ra, unsigned min_order)
{
	ra->ra_order = 0;
	ra->order = (uint8_t)min_order;
}

const struct ra_order_rule ra_rule_6_17 = {
	.v = {
		.name = "6.17",
		.help = "ra->order grows by 2 per async window, sync readahead at the minimum order",
		.kernel = "mm/readahead.c page_cache_ra_order(), page_cache_async_ra(), 6.17+",
	},
	.since = 6017,
	.start = rule_6_17_start,
	.advance = rule_6_17_advance,
	.sync_miss_done = rule_6_17_sync_miss_done,
};
