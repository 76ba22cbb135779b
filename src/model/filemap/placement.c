// SPDX-License-Identifier: GPL-2.0-or-later
/* Folio order choice: see placement.h. */
#include "model/model.h"
#include "model/filemap/placement.h"

unsigned model_file_order(const struct model_config *cfg, uint32_t file_id)
{
	unsigned o;

	if (!cfg->file_orders || file_id >= cfg->nfile_orders)
		return cfg->order;
	o = cfg->file_orders[file_id];
	if (o == MODEL_ORDER_DEFAULT || o > cfg->order)
		return cfg->order;
	return o < cfg->min_order ? cfg->min_order : o;
}

uint64_t place_eof_pages(uint64_t isize, unsigned page_shift)
{
	uint64_t n = (isize + (1ull << page_shift) - 1) >> page_shift;

	return n ? n : 1;
}

unsigned place_fixed_order(uint64_t idx, unsigned order, unsigned min_order, uint64_t eof_pages)
{
	if (eof_pages <= idx)
		eof_pages = idx + 1;	/* the page itself is always allowed */
	while (order > min_order) {
		uint64_t start = idx & ~((1ull << order) - 1);

		if (start + (1ull << order) <= eof_pages)
			break;
		order--;
	}
	return order;
}

unsigned place_write_order(uint64_t p, uint64_t end, unsigned max_order, unsigned min_order,
			   unsigned page_shift)
{
	uint64_t chunk = 1ull << (max_order + page_shift);
	uint64_t bytes = chunk - (p & (chunk - 1));
	uint64_t idx = p >> page_shift;
	unsigned order;

	if (end - p < bytes)
		bytes = end - p;
	/* fgf_set_order(): ilog2(len) - PAGE_SHIFT, 0 for a page or less */
	order = bytes > (1ull << page_shift) ? place_ilog2(bytes) - page_shift : 0;
	if (order < min_order)
		order = min_order;
	if (order > max_order)
		order = max_order;
	idx &= ~((1ull << min_order) - 1);
	if (idx && place_ffs(idx) < order)
		order = place_ffs(idx);
	return order;
}

uint32_t ra_init_size(uint32_t req, uint32_t max)
{
	uint32_t n = 1;

	while (n < req && n < (1u << 31))
		n <<= 1;
	if (n <= max / 32)
		return n * 4;
	if (n <= max / 4)
		return n * 2;
	return max;
}

uint32_t ra_next_size(uint32_t cur, uint32_t max)
{
	if (cur < max / 16)
		return cur * 4;
	if (cur <= max / 2)
		return cur * 2;
	return max;
}

unsigned ra_order_cap(unsigned order, uint32_t size, unsigned max_order, unsigned min_order)
{
	if (order > max_order)
		order = max_order;
	if (size && order > place_ilog2(size))
		order = place_ilog2(size);
	return order < min_order ? min_order : order;
}
