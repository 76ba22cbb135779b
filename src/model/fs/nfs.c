// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * NFS (nfs, nfs4): large folios on regular files since 6.11 ("nfs: add support for large
 * folios": fs/nfs/inode.c nfs_fhget() calls mapping_set_large_folios(), as in Debian's
 * 6.12; 6.1's nfs_fhget() does not), base pages before. Dirty state is one byte range per
 * folio, the folio's struct nfs_page request (track_range.c), whatever the release.
 */
#include "model/instance.h"

static unsigned nfs_max_order(const struct model_device *d, unsigned page_shift,
			      unsigned pagecache_max)
{
	(void)page_shift;
	/* a release not recorded (MODEL_UNKNOWN) is the newest */
	return d->release >= 6011 ? pagecache_max : 0;
}

const struct fs_kind fs_nfs = {
	.v = {
		.name = "nfs",
		.help = "large folios from 6.11, one dirty byte range per folio",
		.kernel = "fs/nfs/inode.c nfs_fhget(), fs/nfs/write.c nfs_update_folio()",
	},
	.max_order = nfs_max_order,
	.range_dirty = true,
	.writepage_until = 6016,
};

const struct fs_kind fs_nfs4 = {
	.v = {
		.name = "nfs4",
		.help = "large folios from 6.11, one dirty byte range per folio",
		.kernel = "fs/nfs/inode.c nfs_fhget(), fs/nfs/write.c nfs_update_folio()",
	},
	.max_order = nfs_max_order,
	.range_dirty = true,
	.writepage_until = 6016,
};
