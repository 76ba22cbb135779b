// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Metadata cost of caching memory as folios: today's struct page array, and the memdesc plan
 * (a pointer per page plus one descriptor per folio), in bytes.
 */
#include "model/memory/buddy.h"

#define STRUCT_PAGE_BYTES	64	/* sizeof(struct page) on 64-bit with 4 KiB pages */
#define MEMDESC_POINTER_BYTES	8

static uint64_t page_frames(uint64_t memory_bytes, unsigned page_size)
{
	return page_size ? memory_bytes / page_size : 0;
}

/* One struct page per frame, whatever the folio order: struct folio overlays them. */
uint64_t metadata_struct_page_bytes(uint64_t memory_bytes, unsigned page_size)
{
	return page_frames(memory_bytes, page_size) * STRUCT_PAGE_BYTES;
}

/*
 * Folios needed to cover nr_pages with folios of at most 2^order pages: whole folios, then
 * the tail split into the largest aligned power-of-two folios (one per set bit).
 */
static uint64_t folios_covering(uint64_t nr_pages, unsigned order)
{
	uint64_t mask;

	if (order > 63)
		order = 63;
	mask = (1ULL << order) - 1;
	return (nr_pages >> order) + (uint64_t)__builtin_popcountll(nr_pages & mask);
}

uint64_t metadata_memdesc_bytes(uint64_t memory_bytes, unsigned page_size, unsigned order,
				unsigned folio_desc_bytes)
{
	uint64_t pages = page_frames(memory_bytes, page_size);

	return pages * MEMDESC_POINTER_BYTES + folios_covering(pages, order) * folio_desc_bytes;
}
