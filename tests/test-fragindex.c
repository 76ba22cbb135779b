// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mm/vmstat.c fragmentation indexes on hand-built buddyinfo rows. Each expected value is
 * worked out in the comment above it with the kernel's formulas and integer division:
 *   free = sum n[k]*2^k, total = sum n[k], suitable(j) = sum_{k>=j} n[k]*2^(k-j)
 *   unusable(j) = free ? (free - suitable*2^j)*1000/free : 1000
 *   frag(j)     = !total ? 0 : suitable ? -1000 : 1000 - (1000 + free*1000/2^j)/total
 */
#include "model/memory/buddy.h"
#include "tap.h"

#define NR_ORDERS	(BUDDY_MAX_ORDER + 1)

static void test_small_row(void)
{
	/* free = 4 + 2*2 + 4 = 12 pages in total = 7 blocks */
	const uint64_t n[NR_ORDERS] = { 4, 2, 1 };

	is_i64(buddy_unusable_free_index(n, 0), 0, "unusable o0: every page usable");
	/* suitable(1) = 2 + 2 = 4: (12 - 8)*1000/12 = 333 */
	is_i64(buddy_unusable_free_index(n, 1), 333, "unusable o1 = 0.333");
	/* suitable(2) = 1: (12 - 4)*1000/12 = 666 */
	is_i64(buddy_unusable_free_index(n, 2), 666, "unusable o2 = 0.666");
	is_i64(buddy_unusable_free_index(n, 3), 1000, "unusable o3 = 1.000");
	is_i64(buddy_unusable_free_index(n, 10), 1000, "unusable o10 = 1.000");

	is_i64(buddy_fragmentation_index(n, 0), -1000, "frag o0: would succeed");
	is_i64(buddy_fragmentation_index(n, 2), -1000, "frag o2: would succeed");
	/* 1000 - (1000 + 12000/8)/7 = 1000 - 2500/7 = 1000 - 357 */
	is_i64(buddy_fragmentation_index(n, 3), 643, "frag o3 = 0.643");
	/* 1000 - (1000 + 12000/16)/7 = 1000 - 250 */
	is_i64(buddy_fragmentation_index(n, 4), 750, "frag o4 = 0.750");
	/* 1000 - (1000 + 12000/512 = 23)/7 = 1000 - 146 */
	is_i64(buddy_fragmentation_index(n, 9), 854, "frag o9 = 0.854");
	/* 1000 - (1000 + 12000/1024 = 11)/7 = 1000 - 144 */
	is_i64(buddy_fragmentation_index(n, 10), 856, "frag o10 = 0.856");
}

static void test_buddyinfo_like_row(void)
{
	/* free = 120 + 160*5 + 128*2 = 1176 pages, total = 278 blocks */
	const uint64_t n[NR_ORDERS] = { 120, 80, 40, 20, 10, 5, 2, 1 };

	/* suitable(5) = 5 + 2*2 + 1*4 = 13: (1176 - 416)*1000/1176 = 646 */
	is_i64(buddy_unusable_free_index(n, 5), 646, "unusable o5 = 0.646");
	/* suitable(7) = 1: (1176 - 128)*1000/1176 = 891 */
	is_i64(buddy_unusable_free_index(n, 7), 891, "unusable o7 = 0.891");
	/* suitable(3) = 20 + 20 + 20 + 16 + 16 = 92: (1176 - 736)*1000/1176 = 374 */
	is_i64(buddy_unusable_free_index(n, 3), 374, "unusable o3 = 0.374");
	/* 1000 - (1000 + 1176000/512 = 2296)/278 = 1000 - 11 */
	is_i64(buddy_fragmentation_index(n, 9), 989, "frag o9 = 0.989: fragmentation");
	/* 1000 - (1000 + 1176000/256 = 4593)/278 = 1000 - 20 */
	is_i64(buddy_fragmentation_index(n, 8), 980, "frag o8 = 0.980");
	is_i64(buddy_fragmentation_index(n, 7), -1000, "frag o7: one block suits");
}

static void test_edge_rows(void)
{
	const uint64_t empty[NR_ORDERS] = { 0 };
	const uint64_t whole[NR_ORDERS] = { [10] = 1 };
	const uint64_t one_o3[NR_ORDERS] = { [3] = 1 };
	const uint64_t one_page[NR_ORDERS] = { 1 };
	const uint64_t pages[NR_ORDERS] = { 1000 };

	is_i64(buddy_unusable_free_index(empty, 0), 1000, "no free memory: unusable 1.000");
	is_i64(buddy_fragmentation_index(empty, 4), 0, "no free blocks: frag 0");
	for (unsigned j = 0; j <= BUDDY_MAX_ORDER; j += 5) {
		is_i64(buddy_unusable_free_index(whole, j), 0, "one order-10 block: unusable 0");
		is_i64(buddy_fragmentation_index(whole, j), -1000, "one order-10 block: -1.000");
	}
	/* One 8-page block, request 16: 1000 - (1000 + 8000/16)/1 = -500 (kernel's int) */
	is_i64(buddy_fragmentation_index(one_o3, 4), -500, "one block over half the request");
	/* 1000 - (1000 + 8000/1024 = 7)/1 = -7 */
	is_i64(buddy_fragmentation_index(one_o3, 10), -7, "one order-3 block, order 10");
	/* Lack of memory: 1000 - (1000 + 1000/1024 = 0)/1 = 0 */
	is_i64(buddy_fragmentation_index(one_page, 10), 0, "one page, order 10: lack of memory");
	/* 1000 - (1000 + 1000000/512 = 1953)/1000 = 1000 - 2 */
	is_i64(buddy_fragmentation_index(pages, 9), 998, "1000 single pages, order 9");
	is_i64(buddy_unusable_free_index(pages, 11), 1000, "order above 10: nothing suits");
	is_i64(buddy_fragmentation_index(pages, 11), 0, "order above 10: kernel returns 0");
}

/*
 * extfrag_for_order(): the unusable share in percent, 0 (not 100) with nothing free; the
 * fragmentation score of proactive compaction is it at order 9. Row { 4, 2, 1 }: free 12.
 */
static void test_extfrag_for_order(void)
{
	const uint64_t n[NR_ORDERS] = { 4, 2, 1 };
	const uint64_t none[NR_ORDERS] = { 0 };
	/* this machine's buddyinfo, zones summed: free 1355229 pages */
	const uint64_t host[NR_ORDERS] = { 13, 9412, 6522, 5446, 3817, 861, 258, 187, 90, 15,
					   1081 };
	/* (free - suitable(j) * 2^j) * 100 / free, j = 0..10 */
	static const unsigned want[NR_ORDERS] = { 0, 33, 66, 100, 100, 100, 100, 100, 100, 100,
						  100 };

	for (unsigned j = 0; j < NR_ORDERS; j++)
		is_u64(buddy_extfrag_for_order(n, j), want[j], "extfrag_for_order, row {4,2,1}");
	is_u64(buddy_extfrag_for_order(none, 9), 0, "nothing free: 0");
	/* suitable(9) = 15 + 2*1081 = 2177: (1355229 - 1114624) * 100 / 1355229 = 17 */
	is_u64(buddy_extfrag_for_order(host, 9), 17, "this machine at order 9: 17");
	/* unusable index of the same: 240605 * 1000 / 1355229 = 177 */
	is_i64(buddy_unusable_free_index(host, 9), 177, "and its unusable index 0.177");
}

int main(void)
{
	test_small_row();
	test_buddyinfo_like_row();
	test_edge_rows();
	test_extfrag_for_order();
	return done_testing();
}
