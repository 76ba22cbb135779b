// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * tmpfs and ramfs: shmem_aops.dirty_folio is noop_dirty_folio(), so a write sets PG_dirty
 * and nothing else: no NR_FILE_DIRTY, no dirty inode, no throttling, no writeback, and fsync
 * writes nothing (mm/shmem.c, mm/page-writeback.c). Only reclaim to swap would write the
 * folio, and the model has no swap (dirty_swap.c). A new folio over a hole is zeroed,
 * never read (shmem_get_folio()), and so is a fallocated one when first written or faulted.
 */
#include "model/instance.h"

static void shmem_fill_new(struct model *m, uint32_t id, uint64_t ws, uint64_t we,
			   uint64_t old_isize)
{
	folio_set(folio_at(&m->pool, id), FOLIO_UPTODATE);
}

/* a fallocated folio faulted: zeroed, not read */
static bool shmem_fill_read(struct model *m, struct mfile *mf, uint32_t id)
{
	folio_set(folio_at(&m->pool, id), FOLIO_UPTODATE);
	return false;	/* zeroed, not read */
}

static uint64_t shmem_ranges(struct model *m, const struct folio *f, uint64_t lim, bool emit,
			     enum wb_cause cause)
{
	return 0;
}

const struct dirty_tracking dirty_shmem = {
	.v = {
		.name = "none",
		.help = "no writeback (tmpfs)",
		.kernel = "mm/shmem.c shmem_aops.dirty_folio = noop_dirty_folio()",
	},
	.unaccounted = true,
	.fill_new = shmem_fill_new,
	/* a fallocated folio (not uptodate) written: zeroed first, as a new one */
	.fill_cached = shmem_fill_new,
	.fill_read = shmem_fill_read,
	.ranges = shmem_ranges,
};
