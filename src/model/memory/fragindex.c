// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's external-fragmentation indexes (mm/vmstat.c: fill_contig_page_info,
 * unusable_free_index, __fragmentation_index) on a buddyinfo row, with the kernel's integer
 * arithmetic so the values match /sys/kernel/debug/extfrag/ digit for digit (thousandths).
 */
#include "model/memory/buddy.h"

struct contig_page_info {
	uint64_t free_pages;		/* sum nr_free[k] << k */
	uint64_t free_blocks_total;	/* sum nr_free[k] */
	uint64_t free_blocks_suitable;	/* blocks of 2^order pages the free blocks >= order make */
};

static void fill_contig_page_info(const uint64_t nr_free[BUDDY_MAX_ORDER + 1], unsigned order,
				  struct contig_page_info *info)
{
	*info = (struct contig_page_info){ 0 };
	for (unsigned k = 0; k <= BUDDY_MAX_ORDER; k++) {
		info->free_blocks_total += nr_free[k];
		info->free_pages += nr_free[k] << k;
		if (k >= order)
			info->free_blocks_suitable += nr_free[k] << (k - order);
	}
}

/*
 * Share of free memory in blocks too small for this order: 0 = all usable, 1000 = none.
 * No free memory at all counts as fully unusable, as in the kernel.
 */
int buddy_unusable_free_index(const uint64_t nr_free[BUDDY_MAX_ORDER + 1], unsigned order)
{
	struct contig_page_info info;

	if (order > BUDDY_MAX_ORDER)
		order = BUDDY_MAX_ORDER + 1;	/* nothing is suitable; avoid shifting past 63 */
	fill_contig_page_info(nr_free, order, &info);
	if (info.free_pages == 0)
		return 1000;
	return (int)((info.free_pages - (info.free_blocks_suitable << order)) * 1000 /
		     info.free_pages);
}

/*
 * Why an allocation of this order would fail: near 0 for lack of memory, near 1000 for
 * fragmentation, -1000 when it would succeed. 0 without free blocks or for a bad order.
 * The kernel computes in unsigned long and returns int, so a single block larger than half
 * the request gives a negative value; the signed arithmetic here gives the same number.
 */
int buddy_fragmentation_index(const uint64_t nr_free[BUDDY_MAX_ORDER + 1], unsigned order)
{
	struct contig_page_info info;
	uint64_t requested;

	if (order > BUDDY_MAX_ORDER)
		return 0;
	requested = 1ULL << order;
	fill_contig_page_info(nr_free, order, &info);
	if (!info.free_blocks_total)
		return 0;
	if (info.free_blocks_suitable)
		return -1000;
	return (int)(1000 - (int64_t)((1000 + info.free_pages * 1000 / requested) /
				      info.free_blocks_total));
}

/*
 * extfrag_for_order() (mm/vmstat.c, 5.9+): the same share as the unusable index in percent,
 * but 0 when nothing is free. Proactive compaction's fragmentation score (compaction.c) is
 * this at COMPACTION_HPAGE_ORDER.
 */
unsigned buddy_extfrag_for_order(const uint64_t nr_free[BUDDY_MAX_ORDER + 1], unsigned order)
{
	struct contig_page_info info;

	if (order > BUDDY_MAX_ORDER)
		order = BUDDY_MAX_ORDER + 1;
	fill_contig_page_info(nr_free, order, &info);
	if (info.free_pages == 0)
		return 0;
	return (unsigned)((info.free_pages - (info.free_blocks_suitable << order)) * 100 /
			  info.free_pages);
}
