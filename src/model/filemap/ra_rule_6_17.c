// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readahead folio orders of 6.17 and later (mm/readahead.c, the order kept in ra->order):
 * synchronous windows and the mmap read-around are read at the minimum order
 * (ra->order = 0); each asynchronous window raises ra->order by 2 and rounds its end down to
 * 2^min(ra->order, ffs(max_pages) - 1) pages, so its folios stay aligned;
 * page_cache_ra_order() reads min(ra->order, largest order, ilog2(size)) and stores that
 * back in ra->order; after a collision the rest of the window is read page by page.
 */
#include "model/instance.h"

/* page_cache_ra_order() */
static void rule_6_17_read(struct model *m, uint32_t file)
{
	struct mfile *mf = model_file(m, file);
	struct ra_state *ra = &mf->ra;
	uint64_t done;
	bool stopped;

	ra->order = (uint8_t)ra_order_cap(ra->order, ra->size, mf->max_order, m->cfg.min_order);
	done = ra_read_folios(m, file, ra->order, false, &stopped) - ra->start;
	if (stopped && ra->size > done)
		ra_read_unbounded(m, file, ra->start + done, ra->size - done, ra->async_size);
}

static void rule_6_17_sync(struct model *m, uint32_t file, uint64_t idx, uint64_t req)
{
	if (!ra_sync_window(m, file, idx, req))
		return;
	model_file(m, file)->ra.order = 0;
	rule_6_17_read(m, file);
}

static void rule_6_17_async(struct model *m, uint32_t file, uint32_t id, uint64_t idx,
			    uint64_t req)
{
	struct mfile *mf = model_file(m, file);
	struct ra_state *ra = &mf->ra;
	uint64_t max = ra_max_pages(m, mf, req), end, align;

	if (!ra_async_window(m, file, idx, folio_nr_pages(folio_at(&m->pool, id)), req))
		return;
	ra->order = (uint8_t)(ra->order < 61 ? ra->order + 2 : 63);
	align = 1ull << (ra->order < place_ffs(max) ? ra->order : place_ffs(max));
	end = ra->start + ra->size;
	if (round_down(end, align) > ra->start) {
		ra->size -= (uint32_t)(end - round_down(end, align));
		ra->async_size = ra->size;
	}
	rule_6_17_read(m, file);
}

static void rule_6_17_read_around(struct model *m, uint32_t file)
{
	model_file(m, file)->ra.order = 0;
	rule_6_17_read(m, file);
}

static void rule_6_17_read_at_order(struct model *m, uint32_t file, unsigned order)
{
	model_file(m, file)->ra.order = (uint8_t)order;
	rule_6_17_read(m, file);
}

const struct ra_order_rule ra_rule_6_17 = {
	.v = {
		.name = "6.17",
		.help = "ra->order grows by 2 per async window, sync readahead at the minimum order",
		.kernel = "mm/readahead.c page_cache_async_ra(), page_cache_ra_order(), 6.17+",
	},
	.since = 6017,
	.sync = rule_6_17_sync,
	.async = rule_6_17_async,
	.read_around = rule_6_17_read_around,
	.read_at_order = rule_6_17_read_at_order,
};
