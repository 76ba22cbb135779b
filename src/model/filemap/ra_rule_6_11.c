// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readahead folio orders of 6.11 to 6.16 (mm/readahead.c after "readahead: Disentangle
 * async and sync readahead", before the order was kept in ra->order): page_cache_ra_order()
 * is asked for an order and adds 2 to it - 0 for a synchronous window or the mmap
 * read-around, so order 2; the marked folio's order for an asynchronous one - capped by the
 * largest order and by ilog2 of the window. Windows under 4 pages, files without large
 * folios and a window that meets a cached folio are read page by page from where the folios
 * stopped, ra->size pages on (the whole size, not what was left: the kernel did so until
 * 6.17).
 */
#include "model/instance.h"

/* page_cache_ra_order(ractl, ra, order) */
static void rule_6_11_read(struct model *m, uint32_t file, unsigned asked)
{
	struct ra_state *ra = &model_file(m, file)->ra;
	unsigned max_order = model_file(m, file)->max_order, min = m->cfg.min_order;
	uint64_t from = ra->start;
	bool stopped = true;

	if (max_order > min && ra->size >= 4) {
		unsigned order = ra_order_cap(asked < max_order ? asked + 2 : asked, ra->size,
					      max_order, min);

		from = ra_read_folios(m, file, order, false, &stopped);
	}
	if (stopped)
		ra_read_unbounded(m, file, from, ra->size, ra->async_size);
}

static void rule_6_11_sync(struct model *m, uint32_t file, uint64_t idx, uint64_t req)
{
	if (ra_sync_window(m, file, idx, req))
		rule_6_11_read(m, file, 0);
}

static void rule_6_11_async(struct model *m, uint32_t file, uint32_t id, uint64_t idx,
			    uint64_t req)
{
	const struct folio *f = folio_at(&m->pool, id);

	if (ra_async_window(m, file, idx, folio_nr_pages(f), req))
		rule_6_11_read(m, file, f->order);
}

static void rule_6_11_read_around(struct model *m, uint32_t file)
{
	rule_6_11_read(m, file, 0);
}

static void rule_6_11_read_at_order(struct model *m, uint32_t file, unsigned order)
{
	rule_6_11_read(m, file, order);
}

const struct ra_order_rule ra_rule_6_11 = {
	.v = {
		.name = "6.11",
		.help = "a window's order is the marked folio's + 2, sync readahead at order 2",
		.kernel = "mm/readahead.c page_cache_sync_ra(), page_cache_async_ra(), "
			  "page_cache_ra_order(), 6.11-6.16",
	},
	.since = 6011,
	.sync = rule_6_11_sync,
	.async = rule_6_11_async,
	.read_around = rule_6_11_read_around,
	.read_at_order = rule_6_11_read_at_order,
};
