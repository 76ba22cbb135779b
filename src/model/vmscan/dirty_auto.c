// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The "auto" dirty reclaim: each file as the recorded release handled a dirty folio of its
 * filesystem at the inactive tail: pageout() through ->writepage where the filesystem still
 * had one in that release, else (every filesystem from 6.17 on) leave it to the flusher.
 */
#include "model/instance.h"

extern const struct dirty_reclaim dirty_reclaim_flusher, dirty_reclaim_pageout;

static const struct dirty_reclaim *auto_reclaim_for_file(const struct model_device *d)
{
	const struct fs_kind *fs = d ? fs_kind_of(d->fs) : NULL;

	/* a release not recorded (MODEL_UNKNOWN) is the newest */
	if (fs && d->release <= fs->writepage_until)
		return &dirty_reclaim_pageout;
	return &dirty_reclaim_flusher;
}

const struct dirty_reclaim dirty_reclaim_auto = {
	.v = {
		.name = "auto",
		.help = "as the recorded release did on each file's filesystem",
		.kernel = "mm/vmscan.c pageout(): ->writepage() until 6.16",
	},
	.for_file = auto_reclaim_for_file,
};
