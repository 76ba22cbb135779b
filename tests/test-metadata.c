// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Metadata overhead with known answers. 24 GiB of 4 KiB pages = 6291456 frames:
 *   struct page: 6291456 * 64 = 402653184 B (1.5625%)
 *   memdesc, 96 B folio descriptor: 6291456 * 8 + (6291456 >> order) * 96
 *     order 0: 50331648 + 603979776 = 654311424
 *     order 4: 50331648 +  37748736 =  88080384
 *     order 9: 50331648 +   1179648 =  51511296
 */
#include "model/memory/buddy.h"
#include "tap.h"

#define GIB	(1ULL << 30)

static void test_struct_page(void)
{
	uint64_t bytes = metadata_struct_page_bytes(24 * GIB, 4096);

	is_u64(bytes, 402653184, "24 GiB: struct page array 384 MiB");
	is_u64(bytes * 64, 24 * GIB, "exactly 1/64 of memory = 1.5625%");
	is_dbl(100.0 * (double)bytes / (double)(24 * GIB), 1.5625, 1e-12, "percent");
	is_u64(metadata_struct_page_bytes(24 * GIB, 16384), 100663296,
	       "16 KiB pages: a quarter as many struct pages");
	is_u64(metadata_struct_page_bytes(4097, 4096), 64, "a partial page is no frame");
	is_u64(metadata_struct_page_bytes(4096, 0), 0, "page size 0: nothing");
}

static void test_memdesc(void)
{
	is_u64(metadata_memdesc_bytes(24 * GIB, 4096, 0, 96), 654311424, "24 GiB order 0");
	is_u64(metadata_memdesc_bytes(24 * GIB, 4096, 4, 96), 88080384, "24 GiB order 4");
	is_u64(metadata_memdesc_bytes(24 * GIB, 4096, 9, 96), 51511296, "24 GiB order 9");
	is_dbl(100.0 * 654311424 / (double)(24 * GIB), 2.5390625, 1e-12, "order 0 = 2.54%");
	is_dbl(100.0 * 51511296 / (double)(24 * GIB), 0.19989013671875, 1e-12,
	       "order 9 = 0.20%");
	is_u64(metadata_memdesc_bytes(24 * GIB, 4096, 9, 0), 50331648,
	       "no descriptor: pointers only, 8 B per page");
	/* 5 pages at order 2: one order-2 folio + one order-0 tail folio = 40 + 2*96 */
	is_u64(metadata_memdesc_bytes(5 * 4096, 4096, 2, 96), 232, "tail pages get own folios");
	/* 7 pages at order 10: 4 + 2 + 1 pages, three folios = 56 + 3*80 */
	is_u64(metadata_memdesc_bytes(7 * 4096, 4096, 10, 80), 296, "tail split by set bits");
	is_u64(metadata_memdesc_bytes(0, 4096, 9, 96), 0, "no memory, no metadata");
}

int main(void)
{
	test_struct_page();
	test_memdesc();
	return done_testing();
}
