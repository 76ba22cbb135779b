// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The "auto" dirty granularity: each file is tracked as its filesystem tracked dirty data in
 * the recorded release (fs_rules.c): per block where the filesystem keeps sub-folio dirty
 * state (iomap's struct iomap_folio_state since 6.6, ext4's buffer heads, btrfs' subpage
 * bitmap), as one byte range per folio on NFS (track_range.c), per folio elsewhere, not at
 * all on tmpfs. The path matters too and is the same
 * in every row: a write through a shared mapping dirties every block of its folio.
 */
#include "model/instance.h"

extern const struct dirty_tracking dirty_per_folio, dirty_per_block, dirty_per_range;

static const struct dirty_tracking *auto_dirty_for_file(const struct model_device *d)
{
	const struct fs_kind *fs = d ? fs_kind_of(d->fs) : NULL;

	if (fs && fs->range_dirty)
		return &dirty_per_range;
	/* a release not recorded (MODEL_UNKNOWN) is the newest */
	if (fs && fs->block_dirty_since && d->release >= fs->block_dirty_since)
		return &dirty_per_block;
	return &dirty_per_folio;
}

/* Some files may be tracked per block: their bitmaps. */
static bool auto_dirty_init(struct model *m)
{
	return dirty_per_block.init(m);
}

const struct dirty_tracking dirty_auto = {
	.v = {
		.name = "auto",
		.help = "as each file's filesystem does in the recorded release",
		.kernel = "fs/iomap/buffered-io.c iomap_set_range_dirty() (6.6+), fs/buffer.c "
			  "__block_commit_write(), fs/nfs/write.c nfs_update_folio(), mm/shmem.c "
			  "noop_dirty_folio()",
	},
	.for_file = auto_dirty_for_file,
	.init = auto_dirty_init,
};
