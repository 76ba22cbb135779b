// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Readahead as 6.6 to 6.10 do it, and 6.1 before them (mm/readahead.c ondemand_readahead(),
 * shared by the synchronous and the asynchronous path; 6.1's page_cache_ra_order() is 6.6's,
 * and the kernel lab's cold reads on 6.1 insert the folios this rule does, order by order):
 * - a miss or marker hit at the start of the file starts a window of get_init_ra_size(),
 *   its async part the window less the request (the whole window when the request fills it);
 * - one at the expected index (the mark, rounded down to the marked folio) or at the window's
 *   end pushes the window forward and ramps it up, for a miss too;
 * - a marked folio with no state to match, a request above the window, a miss just after
 *   the previous read, a run of cached pages behind the miss: as later releases;
 * - a new window that the read would hit right away is merged with the next one;
 * - page_cache_ra_order() adds 2 to the order asked (0 for a miss, the marked folio's for a
 *   hit), capped by the largest order and ilog2 of the window, and never makes an order-1
 *   folio (order 0 instead; 6.10 allowed order 1, the one difference this rule leaves out);
 *   windows under 4 pages, and what is left after a collision, are read page by page, the
 *   whole window's size on from where the folios stopped.
 */
#include "model/instance.h"

/* page_cache_ra_order(ractl, ra, order) */
static void rule_6_6_read(struct model *m, uint32_t file, unsigned asked)
{
	struct ra_state *ra = &model_file(m, file)->ra;
	unsigned max_order = model_file(m, file)->max_order, min = m->cfg.min_order;
	uint64_t from = ra->start;
	bool stopped = true;

	if (max_order > min && ra->size >= 4) {
		unsigned order = asked;

		if (order < max_order) {
			order += 2;
			if (order > max_order)
				order = max_order;
			if (order > place_ilog2(ra->size))
				order = place_ilog2(ra->size);
		}
		from = ra_read_folios(m, file, order, true, &stopped);
	}
	if (stopped)
		ra_read_unbounded(m, file, from, ra->size, ra->async_size);
}

/* readit: a window the read would hit at once takes the next one in with it */
static void ra_merge_next(struct ra_state *ra, uint64_t idx, uint64_t max)
{
	uint32_t add;

	if (idx != ra->start || ra->size != ra->async_size)
		return;
	add = ra_next_size(ra->size, (uint32_t)max);
	if (ra->size + add <= max) {
		ra->async_size = add;
		ra->size += add;
	} else {
		ra->size = (uint32_t)max;
		ra->async_size = (uint32_t)(max >> 1);
	}
}

static void ra_initial(struct ra_state *ra, uint64_t idx, uint64_t req, uint64_t max)
{
	ra->start = idx;
	ra->size = ra_init_size((uint32_t)(req < UINT32_MAX ? req : UINT32_MAX), (uint32_t)max);
	ra->async_size = ra->size > req ? (uint32_t)(ra->size - req) : ra->size;
}

/*
 * ondemand_readahead(): id is the marked folio of an asynchronous call, FOLIO_NIL for a miss.
 * false when the request was read as is (or nothing is to be read).
 */
static bool rule_6_6_window(struct model *m, uint32_t file, uint32_t id, uint64_t idx,
			    uint64_t req)
{
	struct mfile *mf = model_file(m, file);
	struct ra_state *ra = &mf->ra;
	uint64_t max = ra_max_pages(m, mf, req), prev = mf->prev_read_end >> m->page_shift;
	uint64_t nr = id == FOLIO_NIL ? 1 : folio_nr_pages(folio_at(&m->pool, id)), contig;

	if (!idx) {
		ra_initial(ra, idx, req, max);
	} else if (idx == round_down(ra->start + ra->size - ra->async_size, nr) ||
		   idx == ra->start + ra->size) {
		uint32_t next = ra_next_size(ra->size, (uint32_t)max);

		ra->start += ra->size;
		ra->size = next > ra->size ? next : ra->size;
		ra->async_size = ra->size;
	} else if (id != FOLIO_NIL) {
		if (!ra_async_window(m, file, idx, nr, req))
			return false;
	} else if (req > max || (mf->prev_read_end && idx >= prev && idx - prev <= 1)) {
		ra_initial(ra, idx, req, max);
	} else {
		contig = ra_cached_before(m, file, idx, max);
		if (contig <= req) {
			ra_read_unbounded(m, file, idx, req, 0);
			return false;
		}
		if (contig >= idx)
			contig *= 2;
		ra->start = idx;
		ra->size = (uint32_t)(contig + req < max ? contig + req : max);
		ra->async_size = 1;
	}
	ra_merge_next(ra, idx, max);
	return true;
}

static void rule_6_6_sync(struct model *m, uint32_t file, uint64_t idx, uint64_t req)
{
	if (rule_6_6_window(m, file, FOLIO_NIL, idx, req))
		rule_6_6_read(m, file, 0);
}

static void rule_6_6_async(struct model *m, uint32_t file, uint32_t id, uint64_t idx,
			   uint64_t req)
{
	if (rule_6_6_window(m, file, id, idx, req))
		rule_6_6_read(m, file, folio_at(&m->pool, id)->order);
}

static void rule_6_6_read_around(struct model *m, uint32_t file)
{
	rule_6_6_read(m, file, 0);
}

static void rule_6_6_read_at_order(struct model *m, uint32_t file, unsigned order)
{
	rule_6_6_read(m, file, order);
}

const struct ra_order_rule ra_rule_6_6 = {
	.v = {
		.name = "6.6",
		.help = "a window's order is the marked folio's + 2, no order-1 folios",
		.kernel = "mm/readahead.c ondemand_readahead(), page_cache_ra_order(), 6.1-6.10",
	},
	.since = 6006,
	.sync = rule_6_6_sync,
	.async = rule_6_6_async,
	.read_around = rule_6_6_read_around,
	.read_at_order = rule_6_6_read_at_order,
};
