// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Filesystems the model has no rule of its own for (NFS has its file, nfs.c). Those that set
 * large folios on their mappings (SMB, EROFS: mapping_set_large_folios()) get them; btrfs only
 * with CONFIG_BTRFS_EXPERIMENTAL from 6.17, which this model cannot see in a trace (a 6.18
 * kernel without it added only order-0 folios to a btrfs file read with 128 KiB reads); any
 * other filesystem gets base pages. Dirty state: one flag per folio, except btrfs, which
 * keeps a dirty bit per sector (fs/btrfs/subpage.c). ->writepage: none in 6.12's btrfs_aops;
 * the others are taken to have had one until 6.17 made pageout() call none, and erofs is
 * read-only.
 */
#include <string.h>

#include "model/instance.h"

static unsigned large_max_order(const struct model_device *d, unsigned page_shift,
				unsigned pagecache_max)
{
	(void)d;
	(void)page_shift;
	return pagecache_max;
}

static unsigned base_max_order(const struct model_device *d, unsigned page_shift,
			       unsigned pagecache_max)
{
	(void)d;
	(void)page_shift;
	(void)pagecache_max;
	return 0;
}

const struct fs_kind fs_cifs = {
	.v = { .name = "cifs", .help = "large folios", .kernel = "fs/smb/client/inode.c" },
	.max_order = large_max_order,
	.writepage_until = 6016,
};

const struct fs_kind fs_erofs = {
	.v = { .name = "erofs", .help = "large folios", .kernel = "fs/erofs/inode.c" },
	.max_order = large_max_order,
};

const struct fs_kind fs_btrfs = {
	.v = {
		.name = "btrfs",
		.help = "base pages (large folios only in experimental builds)",
		.kernel = "fs/btrfs/inode.c btrfs_set_inode_mapping_order(), 6.17+ experimental",
	},
	.max_order = base_max_order,
	.block_dirty_since = 1,
};

const struct fs_kind fs_other = {
	.v = { .name = "other", .help = "base pages", .kernel = "filemap without large folios" },
	.max_order = base_max_order,
	.writepage_until = 6016,
};
