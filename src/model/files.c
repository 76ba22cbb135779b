// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A file's writeback rules, set up with its mapping (access.c file_setup()): its block size
 * from its device, its dirty-tracking row from the configuration, where the "auto" row picks
 * what the device's filesystem did in the recorded release (the facts of its fs_kind row).
 * tmpfs keeps its own row whatever the configuration: it has no writeback to vary.
 */
#include "model/instance.h"

extern const struct dirty_tracking dirty_shmem;

static bool block_size_ok(unsigned bs)
{
	return bs >= 512 && bs <= MODEL_BLOCK_SIZE_MAX && !(bs & (bs - 1));
}

static unsigned device_block_size(const struct model_config *c, const struct model_device *d)
{
	return d && block_size_ok(d->block_size) ? d->block_size : c->block_size;
}

unsigned model_min_block_size(const struct model_config *c)
{
	unsigned bs = c->block_size;

	for (uint32_t i = 0; c->devices && i < c->ndevices; i++)
		if (device_block_size(c, &c->devices[i]) < bs)
			bs = device_block_size(c, &c->devices[i]);
	return bs;
}

static bool no_writeback(const struct model_device *d)
{
	return d && fs_kind_of(d->fs)->shmem;
}

const struct dirty_tracking *model_dirty_row_for(const struct model_config *c,
						 const struct model_device *d)
{
	const struct dirty_tracking *dk = dirty_tracking_of(c->dirty);

	if (no_writeback(d))
		return &dirty_shmem;
	return dk->for_file ? dk->for_file(d) : dk;
}

void file_setup_writeback(struct model *m, struct mfile *mf, const struct model_device *d)
{
	mf->block_shift = (uint8_t)place_ilog2(device_block_size(&m->cfg, d));
	mf->dirty_kind = model_dirty_row_for(&m->cfg, d);
}
