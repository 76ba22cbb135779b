// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ext4: large folios on regular files since 6.16 (fs/ext4/inode.c
 * ext4_should_enable_large_folio(), ext4_set_inode_mapping_order()), up to
 * min(MAX_PAGECACHE_ORDER, 11 + blkbits - PAGE_SHIFT), but not with data=journal, DAX,
 * encryption or verity; base pages before 6.16. Dirty state per block in buffer heads: a
 * buffered write dirties the buffers it covers (fs/buffer.c __block_commit_write()) and
 * writeback sends only dirty buffers (fs/ext4/page-io.c ext4_bio_write_folio()). No
 * ->writepage since 6.3 ("ext4: stop providing .writepage hook").
 */
#include "model/instance.h"

static unsigned ext4_max_order(const struct model_device *d, unsigned page_shift,
			       unsigned pagecache_max)
{
	unsigned blkbits = d->block_size != MODEL_UNKNOWN ? place_ilog2(d->block_size) : 12;
	unsigned order = 11 + blkbits - page_shift;

	if (d->release < 6016 || (d->flags & MODEL_DEV_NO_LARGE_FOLIOS))
		return 0;
	return order < pagecache_max ? order : pagecache_max;
}

const struct fs_kind fs_ext4 = {
	.v = {
		.name = "ext4",
		.help = "large folios on regular files from 6.16",
		.kernel = "fs/ext4/inode.c ext4_should_enable_large_folio(), 6.16+",
	},
	.max_order = ext4_max_order,
	.block_dirty_since = 1,
	.writepage_until = 6002,
	/* fs/ext4/page-io.c ext4_end_bio(): only unwritten extents complete in a workqueue */
	.dropbehind_overwrite_irq = true,
};
