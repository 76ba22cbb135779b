// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What one access does to the cache: dispatch by operation, and the operations that are not
 * reads or writes (sync calls, truncate, unlink, O_DIRECT). Page indexes are in units of the
 * model's page size.
 */
#include <stdlib.h>
#include <string.h>

#include "model/filemap/cache.h"

/*
 * The file's mapping as its filesystem sets it up: the largest folio order
 * (mapping_max_folio_order(), capped by the configuration's order and any per-file order),
 * the device's readahead window and largest I/O, shmem's own paths on tmpfs, and how its
 * dirty data is tracked and written (files.c).
 */
unsigned model_file_max_order(const struct model_config *c, uint32_t id, unsigned device,
			      bool *shmem)
{
	const struct model_device *d = device < c->ndevices ? &c->devices[device] : NULL;
	unsigned max = model_file_order(c, id);

	if (d && c->large_folios == LARGE_FOLIOS_AUTO) {
		unsigned fs_max = fs_kind_of(d->fs)->max_order(d, place_ilog2(c->page_size),
							       c->max_pagecache_order);

		if (fs_max < max)
			max = fs_max;
	}
	*shmem = d && fs_kind_of(d->fs)->shmem;
	return max > c->min_order ? max : c->min_order;
}

static void file_setup(struct model *m, struct mfile *mf, uint32_t id, unsigned device)
{
	const struct model_config *c = &m->cfg;
	const struct model_device *d = device < c->ndevices ? &c->devices[device] : NULL;
	bool shmem;

	mf->ra_pages = d && d->ra_pages != MODEL_UNKNOWN ? d->ra_pages : c->ra_pages;
	mf->dev_ra_pages = mf->ra_pages;
	mf->io_pages = d && d->io_pages != MODEL_UNKNOWN ? d->io_pages : c->io_pages;
	mf->max_order = (uint8_t)model_file_max_order(c, id, device, &shmem);
	mf->device = (uint16_t)device;
	mf->shmem = shmem;
	/* 6.15: "mm/truncate: use buddy allocator like folio split for truncate operation" */
	mf->split_buddy = !d || d->release == MODEL_UNKNOWN || d->release >= 6015;
	mf->punch_rounds_out = d && fs_kind_of(d->fs)->punch_rounds_out;
	mf->dropbehind_irq = d && fs_kind_of(d->fs)->dropbehind_overwrite_irq;
	mf->punch_whole = d && fs_kind_of(d->fs)->punch_whole_since &&
			  (d->release == MODEL_UNKNOWN ||
			   d->release >= fs_kind_of(d->fs)->punch_whole_since);
	if (mf->shmem) {
		mf->shmem_huge = (uint8_t)d->huge;
		/* acd7ccb284b8, "mm: shmem: add large folio support for tmpfs" (6.14) */
		mf->shmem_any_order = d->release == MODEL_UNKNOWN || d->release >= 6014;
		/* 6.1 had i_size alone; 6.12 (the first release the lab has since) the write's end */
		mf->shmem_write_end = d->release == MODEL_UNKNOWN || d->release >= 6012;
	}
	if (mf->shmem)
		mf->ra_pages = 0;	/* shmem reads nothing ahead */
	file_setup_writeback(m, mf, d);
	mf->set_up = true;
}

/* A file not seen before: the table grown to hold it, the file set up. */
static __attribute__((noinline)) struct mfile *access_new_file(struct model *m, uint32_t id,
							       unsigned device)
{
	if (id >= m->nr_files) {
		uint32_t cap = m->cap_files ? m->cap_files : 64;
		struct mfile *f;

		while (cap <= id)
			cap *= 2;
		if (cap != m->cap_files) {
			f = realloc(m->files, cap * sizeof(*f));
			if (!f)
				return NULL;
			m->files = f;
			m->cap_files = cap;
		}
		for (uint32_t i = m->nr_files; i <= id; i++) {
			struct mfile *mf = &m->files[i];

			memset(mf, 0, sizeof(*mf));
			mf->folios = mf->dirty = FOLIO_NIL;
			mf->inode_prev = mf->inode_next = INODE_NIL;
		}
		m->nr_files = id + 1;
	}
	if (!m->files[id].set_up)
		file_setup(m, &m->files[id], id, device);
	return &m->files[id];
}

struct mfile *access_file(struct model *m, uint32_t id, unsigned device)
{
	if (id < m->nr_files && m->files[id].set_up)
		return &m->files[id];
	return access_new_file(m, id, device);
}

/* ---- truncate, unlink, sync ------------------------------------------------------------------ */

static void do_truncate(struct model *m, uint32_t file, struct mfile *mf, uint64_t size)
{
	uint64_t keep = (size + model_page_size(m) - 1) >> m->page_shift;
	uint32_t id;

	/* truncate_inode_pages_range() waits for folios under writeback */
	wb_wait_file(m, file);
	truncate_split_range(m, file, size, UINT64_MAX, false);
	id = mf->folios;

	while (id != FOLIO_NIL) {
		struct folio *f = folio_at(&m->pool, id);
		uint32_t next = f->file_next;

		if (f->index >= keep) {
			wb_discard_folio(m, id);
			cache_remove(m, id, false);
		} else if ((folio_end(f) << m->page_shift) > size) {
			/* the folio across the new EOF keeps its head; bytes past it are lost */
			uint64_t before = wb_folio_bytes(m, f, mf->isize);
			uint64_t after = wb_folio_bytes(m, f, size);

			if (before > after)
				m->mx.wb_truncated_bytes += before - after;
		}
		id = next;
	}
	mf->isize = size;
}

/* fsync and fdatasync wait for the whole file; sync_file_range only starts its range. */
static void do_sync(struct model *m, const struct model_access *a, bool range)
{
	uint64_t first = 0, last = UINT64_MAX;

	/* fsync(2) names no range (len 0: the whole file); io_uring's FSYNC may (io_fsync()) */
	if (!range) {
		if (a->len) {
			first = page_of(m, a->pos);
			last = page_of(m, a->pos + a->len - 1);
		}
		wb_sync_file(m, a->file_id, first, last);
		return;
	}
	first = page_of(m, a->pos);
	if (a->len)
		last = page_of(m, a->pos + a->len - 1);
	wb_write_range(m, a->file_id, first, last, WB_FSYNC);
}

static void do_direct(struct model *m, const struct model_access *a, struct mfile *mf)
{
	if (a->op == MODEL_WRITE) {
		m->mx.direct_write_bytes += a->len;
		/* filemap_write_and_wait_range() of the range first */
		if (a->len)
			wb_sync_file(m, a->file_id, page_of(m, a->pos),
				     page_of(m, a->pos + a->len - 1));
		if (mf->isize < a->pos + a->len)
			mf->isize = a->pos + a->len;
	} else {
		m->mx.direct_read_bytes += a->len;
	}
}

/* The file of a start-state access with --start-cache=recorded (its size known), or NULL */
static struct mfile *start_file(struct model *m, const struct model_access *a)
{
	struct mfile *mf = access_file(m, a->file_id, a->device);

	if (!mf || !a->len || m->cfg.start_cache != START_CACHE_RECORDED)
		return NULL;
	if (!mf->known) {
		mf->isize = a->isize;
		mf->known = true;
	}
	return mf;
}

void access_start_cache(struct model *m, const struct model_access *a)
{
	if (start_file(m, a))
		filemap_add_start_state(m, a->file_id, a->pos, a->len, a->dirty);
}

void access_start_folio(struct model *m, const struct model_access *a)
{
	if (m->cfg.start_folios == START_FOLIOS_DELETED && start_file(m, a))
		filemap_add_start_folio(m, a->file_id, a->pos, a->len, a->dirty);
}

void access_start_mark(struct model *m, const struct model_access *a)
{
	if (m->cfg.start_cache != START_CACHE_RECORDED || a->file_id >= m->nr_files ||
	    !m->files[a->file_id].set_up)
		return;
	filemap_start_mark(m, a->file_id, a->pos);
}

void access_start_shadow(struct model *m, const struct model_access *a)
{
	if (start_file(m, a))
		workingset_start_shadows(m, a->file_id, a->pos, a->len, a->advice != 0);
}

void access_proactive_evict(struct model *m, const struct model_access *a)
{
	if (m->cfg.proactive_reclaim == PROACTIVE_RECLAIM_RECORDED && a->file_id < m->nr_files &&
	    m->files[a->file_id].set_up)
		reclaim_proactive(m, a->file_id, a->pos, a->len);
}

static void access_apply_op(struct model *m, const struct model_access *a, struct mfile *mf);

void access_apply(struct model *m, const struct model_access *a)
{
	struct mfile *mf = access_file(m, a->file_id, a->device);

	if (!mf)
		return;
	m->seq++;
	if (a->direct && (a->op == MODEL_READ || a->op == MODEL_WRITE)) {
		do_direct(m, a, mf);
		return;
	}
	m->dontcache = a->dontcache && (a->op == MODEL_READ || a->op == MODEL_WRITE);
	if (a->ofile && a->ofile != mf->ofile)
		openfile_switch(m, mf, a->file_id, a->ofile);
	access_apply_op(m, a, mf);
	m->dontcache = false;
}

static void access_apply_op(struct model *m, const struct model_access *a, struct mfile *mf)
{
	switch (a->op) {
	case MODEL_READ:
	case MODEL_MMAP_READ:
	case MODEL_MMAP_WRITE:
		if (a->isize || !mf->known)
			mf->isize = a->isize;
		mf->known = true;
		if (!a->len)
			break;
		/* the bytes returned prove the size, whatever the driver knew */
		if (a->op == MODEL_READ && mf->isize < a->pos + a->len)
			mf->isize = a->pos + a->len;
		if (a->op == MODEL_READ)
			read_buffered(m, a, mf);
		else
			read_mmap(m, a, mf, a->op == MODEL_MMAP_WRITE);
		break;
	case MODEL_WRITE:
		if (!mf->known && a->isize) {
			/* first sight of the file: a write that extends it started at its end */
			mf->isize = a->isize > a->pos + a->len ? a->isize : a->pos;
		}
		mf->known = true;
		if (a->len)
			write_buffered(m, a, mf);
		if (a->isize > mf->isize)
			mf->isize = a->isize;
		/* generic_write_sync() -> vfs_fsync_range() of the bytes just written */
		if (a->sync && a->len)
			wb_sync_file(m, a->file_id, page_of(m, a->pos),
				     page_of(m, a->pos + a->len - 1));
		/* ... else, for RWF_DONTCACHE, filemap_fdatawrite_range_kick() of them (6.14+) */
		else if (a->dontcache && a->len)
			wb_write_range(m, a->file_id, page_of(m, a->pos),
				       page_of(m, a->pos + a->len - 1), WB_DONTCACHE);
		break;
	case MODEL_FSYNC:
		do_sync(m, a, false);
		break;
	case MODEL_SYNC_RANGE:
		do_sync(m, a, true);
		break;
	case MODEL_TRUNCATE:
		mf->known = true;
		do_truncate(m, a->file_id, mf, a->pos);
		break;
	case MODEL_FALLOCATE:
		if (a->advice & MODEL_FALLOC_PUNCH_HOLE)
			truncate_punch_hole(m, a->file_id, a->pos, a->len);
		else if (mf->shmem && a->len)
			write_fallocate(m, a, mf);
		if (a->isize > mf->isize)
			mf->isize = a->isize;
		break;
	case MODEL_FADVISE:
	case MODEL_MADVISE:
		if (a->isize || !mf->known)
			mf->isize = a->isize;
		mf->known = true;
		if (a->op == MODEL_FADVISE)
			advice_fadvise(m, a, mf);
		else
			advice_madvise(m, a, mf);
		break;
	case MODEL_STATS_FLUSH:	/* model_access() takes these */
	case MODEL_OTHERS:
	case MODEL_ANON:
	case MODEL_START_CACHE:
	case MODEL_START_MARK:
	case MODEL_START_SHADOW:
	case MODEL_PROACTIVE_EVICT:
	case MODEL_START_FOLIO:
	case MODEL_SYNC:
	case MODEL_MEMCG_LIMITS:
		break;
	case MODEL_UNLINK:
		do_truncate(m, a->file_id, mf, 0);
		mf->gen++;	/* its shadow entries and touched pages belong to the old file */
		mf->known = false;
		openfile_unlink(mf);
		mf->shadow_mask = 0;
		break;
	}
}
