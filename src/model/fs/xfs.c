// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * XFS: large folios on every regular file since 5.18 (fs/xfs/xfs_iops.c xfs_setup_inode()
 * calls mapping_set_large_folios()), up to MAX_PAGECACHE_ORDER. Dirty state per block since
 * 6.6: iomap's struct iomap_folio_state keeps a dirty bit per block, a buffered write sets
 * those it covers (fs/iomap/buffered-io.c iomap_set_range_dirty()) and writeback sends only
 * dirty blocks (iomap_writepage_map()); before 6.6 a dirty large folio was written whole.
 * No ->writepage since 5.17 ("xfs: drop ->writepage completely").
 */
#include "model/instance.h"

static unsigned xfs_max_order(const struct model_device *d, unsigned page_shift,
			      unsigned pagecache_max)
{
	(void)d;
	(void)page_shift;
	return pagecache_max;
}

const struct fs_kind fs_xfs = {
	.v = {
		.name = "xfs",
		.help = "large folios up to MAX_PAGECACHE_ORDER",
		.kernel = "fs/xfs/xfs_iops.c xfs_setup_inode(), 5.18+",
	},
	.max_order = xfs_max_order,
	.block_dirty_since = 6006,
	.writepage_until = 5016,
	/* fs/xfs/xfs_bmap_util.c xfs_flush_unmap_range(); whole folios seen live on 6.18 */
	.punch_rounds_out = true,
	.punch_whole_since = 6018,
};
