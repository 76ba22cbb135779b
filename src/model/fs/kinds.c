// SPDX-License-Identifier: GPL-2.0-or-later
/* The filesystem rows (variants.h struct fs_kind), one file each beside this table. */
#include "model/instance.h"

extern const struct fs_kind fs_xfs, fs_ext4, fs_tmpfs, fs_btrfs, fs_nfs, fs_nfs4, fs_cifs,
	fs_erofs, fs_other;

/* The "other" row first: it is the one for a filesystem the model has no rule of its own for. */
model_variant_list model_fs_kinds = {
	&fs_other.v, &fs_xfs.v, &fs_ext4.v, &fs_tmpfs.v, &fs_btrfs.v, &fs_nfs.v, &fs_nfs4.v,
	&fs_cifs.v, &fs_erofs.v, NULL,
};

unsigned model_fs_kind_for(const char *fstype)
{
	unsigned i = 0;

	return fstype && model_variant_lookup(model_fs_kinds, fstype, &i) ? i : 0;
}

