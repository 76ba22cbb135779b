// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Per-block folio state as iomap keeps it (struct iomap_folio_state: uptodate and dirty bits
 * per block). The model stores the bits by pfn, in units of min(block, page): a block larger
 * than a page is a run of page units, always set and cleared together.
 */
#include "model/bitmap.h"
#include "model/instance.h"

static uint64_t folio_bytes(const struct model *m, const struct folio *f)
{
	return folio_nr_pages(f) << m->page_shift;
}

/* The unit range covering the blocks that overlap [from, to). */
static void blocks_units(const struct model *m, const struct folio *f, uint64_t from,
			 uint64_t to, uint64_t *ufrom, uint64_t *uto)
{
	uint64_t bs = m->cfg.block_size, size = folio_bytes(m, f);
	uint64_t base = folio_pfn(f) << m->upp_shift;

	from -= from % bs;
	to = (to + bs - 1) / bs * bs;
	if (to > size)
		to = size;
	*ufrom = base + (from >> m->unit_shift);
	*uto = base + ((to + (1ull << m->unit_shift) - 1) >> m->unit_shift);
}

uint64_t blocks_mark(struct model *m, uint64_t *map, const struct folio *f, uint64_t from,
		     uint64_t to)
{
	uint64_t a, b;

	if (from >= to)
		return 0;
	blocks_units(m, f, from, to, &a, &b);
	return bitmap_set_range(map, a, b);
}

uint64_t blocks_count(struct model *m, const uint64_t *map, const struct folio *f,
		      uint64_t from, uint64_t to)
{
	uint64_t a, b;

	if (from >= to)
		return 0;
	blocks_units(m, f, from, to, &a, &b);
	return bitmap_count_range(map, a, b);
}

bool blocks_all(struct model *m, const uint64_t *map, const struct folio *f)
{
	uint64_t base = folio_pfn(f) << m->upp_shift;
	uint64_t units = folio_nr_pages(f) << m->upp_shift;

	return bitmap_count_range(map, base, base + units) == units;
}
