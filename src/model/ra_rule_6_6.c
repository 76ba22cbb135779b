// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readahead order rule of 6.6 to 6.16 (mm/readahead.c page_cache_ra_order()): each window
 * asks for the previous window's order + 2, capped by the largest order and by the window's
 * size; a synchronous miss starts again from order 0 (so its window is read at order 2).
 */
#include "model/instance.h"

unsigned ra_window_order(unsigned prev_order, uint32_t size, unsigned max_order,
			 unsigned min_order)
{
	/* windows under 4 pages stay at the minimum order (the kernel's fallback) */
	if (size < 4)
		return min_order;
	return ra_order_cap(prev_order < max_order ? prev_order + 2 : prev_order, size, max_order,
			    min_order);
}

static void rule_6_6_start(struct ra_state *ra, unsigned max_order, unsigned min_order)
{
	ra->ra_order = 0;
	ra->order = (uint8_t)ra_window_order(0, ra->size, max_order, min_order);
}

static void rule_6_6_advance(struct ra_state *ra, unsigned max_order, unsigned min_order)
{
	ra->order = (uint8_t)ra_window_order(ra->order, ra->size, max_order, min_order);
}

const struct ra_order_rule ra_rule_6_6 = {
	.v = {
		.name = "6.6",
		.help = "a window's order is the previous one + 2",
		.kernel = "mm/readahead.c page_cache_ra_order(), 6.6-6.16",
	},
	.since = 6006,
	.start = rule_6_6_start,
	.advance = rule_6_6_advance,
};
