// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A file's writeback rules, set up with its mapping (access.c file_setup()): its block size
 * from its device, its dirty-tracking and dirty-reclaim rows from the configuration, where an
 * "auto" row picks what the device's filesystem did in the recorded release (the facts of
 * its fs_kind row). A filesystem without backing store (tmpfs) keeps its own rows whatever
 * the configuration: it has no writeback to vary.
 */
#include "model/instance.h"

extern const struct dirty_tracking dirty_shmem;
extern const struct dirty_reclaim dirty_reclaim_swap;

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

const struct dirty_reclaim *model_reclaim_row_for(const struct model_config *c,
						  const struct model_device *d)
{
	const struct dirty_reclaim *rk = dirty_reclaim_of(c->reclaim_wb);

	if (no_writeback(d))
		return &dirty_reclaim_swap;
	return rk->for_file ? rk->for_file(d) : rk;
}

void file_setup_writeback(struct model *m, struct mfile *mf, const struct model_device *d)
{
	mf->block_shift = (uint8_t)place_ilog2(device_block_size(&m->cfg, d));
	mf->dirty_kind = model_dirty_row_for(&m->cfg, d);
	mf->reclaim_kind = model_reclaim_row_for(&m->cfg, d);
}
