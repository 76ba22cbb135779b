// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tmpfs (mm/shmem.c): no backing store, so a read of a hole reads zeroes and caches nothing,
 * and no readahead; a write or a fault allocates a PMD-sized folio where the mount's huge=
 * allows it (always, within_size; advise only for MADV_HUGEPAGE mappings) and the aligned
 * range is free, a base page otherwise (never, the default). On this 6.18 machine 64 MiB
 * written in 1 MiB writes on huge=always made 32 PMD folios (thp_file_alloc), none on
 * huge=never. The per-size mTHP knobs of 6.14+ (hugepages-*kB/shmem_enabled) are taken at
 * their default, never.
 */
#include "model/instance.h"

static unsigned tmpfs_max_order(const struct model_device *d, unsigned page_shift,
				unsigned pagecache_max)
{
	(void)page_shift;
	switch (d->huge) {
	case TMPFS_HUGE_ALWAYS:
	case TMPFS_HUGE_WITHIN_SIZE:
		return pagecache_max;
	default:
		return 0;
	}
}

const struct fs_kind fs_tmpfs = {
	.v = {
		.name = "tmpfs",
		.help = "PMD folios with huge=always or within_size, else base pages",
		.kernel = "mm/shmem.c shmem_allowable_huge_orders()",
	},
	.max_order = tmpfs_max_order,
	.shmem = true,
};
