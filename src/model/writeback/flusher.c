// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What starts writeback (mm/filemap.c, fs/fs-writeback.c, mm/page-writeback.c):
 * - fsync and fdatasync: a WB_SYNC_ALL pass over the file, folios still under writeback
 *   waited for first, then the caller waits for all of it (file_write_and_wait_range());
 * - sync_file_range: a WB_SYNC_NONE pass over the folios overlapping the range;
 * - the flusher's works, WB_SYNC_NONE: inodes in dirtied_when order, each written in chunks
 *   of writeback_chunk_size() pages from where its last chunk stopped (range_cyclic,
 *   mapping->writeback_index, no wrap within a chunk as writeback_iter()), round robin while
 *   the work lasts: kupdate every dirty_writeback period for inodes dirtied dirty_expire ago,
 *   background while dirty pages are over the background threshold, and the wake-up by
 *   reclaim (WB_REASON_VMSCAN: as many pages as are dirty then).
 * The flusher queues a work's I/O at once; the device serves it in turn (writeback.c).
 */
#include <stdlib.h>

#include "model/instance.h"

struct wb_item {
	uint64_t index;
	uint32_t id;
};

static int wb_item_cmp(const void *a, const void *b)
{
	const struct wb_item *x = a, *y = b;

	return x->index < y->index ? -1 : x->index > y->index;
}

static struct wb_item *wb_scratch(struct model *m, size_t n)
{
	size_t bytes = (n ? n : 1) * sizeof(struct wb_item);

	if (bytes > m->wb.scratch_cap) {
		void *p = realloc(m->wb.scratch, bytes);

		if (!p)
			return NULL;
		m->wb.scratch = p;
		m->wb.scratch_cap = bytes;
	}
	return (struct wb_item *)m->wb.scratch;
}

/*
 * The file's dirty folios by index. The sort is kept until the file dirties another folio,
 * so the chunks of one work, and of works while the writer is elsewhere, sort once; an entry
 * whose folio was written or dropped since is skipped by the caller.
 */
static struct wb_item *sorted_dirty(struct model *m, uint32_t file, size_t *n)
{
	struct mfile *mf = model_file(m, file);
	struct wb_item *items;
	size_t k = 0;

	if (m->wb.sorted.valid && m->wb.sorted.file == file && m->wb.sorted.gen == mf->dirty_gen) {
		*n = m->wb.sorted.n;
		return (struct wb_item *)m->wb.scratch;
	}
	m->wb.sorted.valid = false;
	items = wb_scratch(m, mf->nr_dirty);
	if (!items)
		return NULL;
	for (uint32_t id = mf->dirty; id != FOLIO_NIL; id = folio_at(&m->pool, id)->dirty_next)
		items[k++] = (struct wb_item){ .index = folio_at(&m->pool, id)->index, .id = id };
	qsort(items, k, sizeof(*items), wb_item_cmp);
	m->wb.sorted = (typeof(m->wb.sorted)){ .file = file, .gen = mf->dirty_gen, .n = k, .valid = true };
	*n = k;
	return items;
}

static size_t first_at_or_after(const struct wb_item *items, size_t n, uint64_t index)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (items[mid].index < index)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static bool item_still_dirty(struct model *m, uint32_t file, const struct wb_item *it)
{
	const struct folio *f = folio_at(&m->pool, it->id);

	return folio_test(f, FOLIO_DIRTY) && f->file == file && f->index == it->index;
}

/*
 * One writepages call: the dirty folios overlapping pages [first, last] in index order, until
 * nr_to_write pages are written (checked after each folio, as writeback_iter() does). A folio
 * still under writeback is skipped (WB_SYNC_NONE; WB_SYNC_ALL callers waited before). The
 * pages written; *stop: the index after the last folio written when nr_to_write ran out, 0
 * when the pass reached the end.
 */
static uint64_t write_folios(struct model *m, uint32_t file, uint64_t first, uint64_t last,
			     uint64_t nr_to_write, enum wb_cause cause, uint64_t *stop)
{
	struct mfile *mf = model_file(m, file);
	struct wb_item *items;
	uint64_t written = 0;
	size_t n, i;

	*stop = 0;
	if (!mf->nr_dirty)
		return 0;
	items = sorted_dirty(m, file, &n);
	if (!items) {
		/* no memory to sort: the folios of the list in its order, unmerged */
		for (uint32_t id = mf->dirty, next; id != FOLIO_NIL && written < nr_to_write;
		     id = next) {
			next = folio_at(&m->pool, id)->dirty_next;
			written += wb_start_folio(m, id, cause);
			wb_run_flush(m);
		}
		return written;
	}
	/* a folio from before first may reach into the range */
	i = first_at_or_after(items, n, first);
	if (i > 0 && folio_end(folio_at(&m->pool, items[i - 1].id)) > first)
		i--;
	for (; i < n && items[i].index <= last; i++) {
		if (!item_still_dirty(m, file, &items[i]))
			continue;
		written += wb_start_folio(m, items[i].id, cause);
		if (written >= nr_to_write) {
			*stop = folio_end(folio_at(&m->pool, items[i].id));
			break;
		}
	}
	wb_run_flush(m);
	return written;
}

/* WB_SYNC_ALL of pages [first, last] of the file, for cause, waited for. */
static void sync_file(struct model *m, uint32_t file, uint64_t first, uint64_t last,
		      enum wb_cause cause)
{
	uint64_t stop, t0 = m->now;

	/* WB_SYNC_ALL waits on folios under writeback before writing them again */
	if (model_file(m, file)->wb_done > m->now)
		wb_wait_file(m, file);
	write_folios(m, file, first, last, UINT64_MAX, cause, &stop);
	wb_wait_file(m, file);
	m->mx.sync_wait_time_s += (double)(m->now - t0) * 1e-9;
}

void wb_sync_file(struct model *m, uint32_t file, uint64_t first, uint64_t last)
{
	sync_file(m, file, first, last, WB_FSYNC);
}

/*
 * fs/sync.c: ksys_sync() wakes the flusher (WB_REASON_SYNC), then sync_inodes_one_sb() writes
 * every dirty inode of each file system with WB_SYNC_ALL and waits for it; syncfs(2)
 * (sync_filesystem()) does the same for one. The dirty inodes in b_dirty order, each written
 * and waited for as fsync does (the kernel queues them all before waiting: the time spent
 * waiting is the model's longer where several files are dirty).
 */
void wb_sync_all(struct model *m, uint16_t device)
{
	uint32_t file = m->wb.inode_head;

	while (file != INODE_NIL) {
		const struct mfile *mf = model_file(m, file);
		uint32_t next = mf->inode_next;

		if (device == MODEL_DEVICE_NONE || mf->device == device)
			sync_file(m, file, 0, UINT64_MAX, WB_SYNC);
		file = next;
	}
}

void wb_write_range(struct model *m, uint32_t file, uint64_t first, uint64_t last,
		    enum wb_cause cause)
{
	uint64_t stop;

	write_folios(m, file, first, last, UINT64_MAX, cause, &stop);
}

/* ---- the flusher's works ------------------------------------------------------------------- */

struct wb_work {
	enum wb_cause cause;
	uint64_t nr_pages;		/* work->nr_pages: pages left to write */
	uint64_t dirtied_before;	/* kupdate: only inodes dirtied at or before */
	bool background;		/* for_background: stop below the background threshold */
	uint32_t owner;		/* a cgroup's wb (its inodes only): 1 + memcg; 0: all */
};

/*
 * wb_over_bg_thresh() (6.12 and 6.18): the global domain's dirty pages over its background
 * threshold, or, for a cgroup's wb, its memcg domain's over its own.
 */
static bool work_done(const struct model *m, const struct wb_work *w)
{
	if (!w->nr_pages)
		return true;
	if (!w->background || m->wb.dirty_pages > m->wb.bg_thresh_pages)
		return false;
	return !w->owner || !wb_memcg_over_bg_thresh(m, w->owner - 1);
}

/* One chunk of the inode from its writeback_index (range_cyclic); the pages written. */
static uint64_t write_chunk(struct model *m, uint32_t file, struct wb_work *w)
{
	struct mfile *mf = model_file(m, file);
	uint64_t chunk = wb_chunk_pages(m, w->nr_pages), start = mf->writeback_index, stop;
	uint64_t wrote = write_folios(m, file, start, UINT64_MAX, chunk, w->cause, &stop);

	/* writeback_iter() does not wrap: the next pass over the inode starts at 0 */
	mf->writeback_index = stop;
	if (!wrote && start) {
		wrote = write_folios(m, file, 0, UINT64_MAX, chunk, w->cause, &stop);
		mf->writeback_index = stop;
	}
	w->nr_pages -= wrote < w->nr_pages ? wrote : w->nr_pages;
	return wrote;
}

/*
 * wb_writeback(): a chunk per eligible inode, oldest first, round after round (b_io, then
 * b_more_io) until the work is done or a round writes nothing.
 */
static void wb_run_work(struct model *m, struct wb_work *w)
{
	bool progress = true;

	while (progress && !work_done(m, w)) {
		uint32_t file = m->wb.inode_head;

		progress = false;
		while (file != INODE_NIL && !work_done(m, w)) {
			struct mfile *mf = model_file(m, file);
			uint32_t next = mf->inode_next;

			if (mf->dirtied_when > w->dirtied_before)
				break;	/* b_dirty is in dirtied_when order */
			if (w->owner && mf->wb_owner != w->owner) {
				file = next;	/* another wb's b_dirty */
				continue;
			}
			if (write_chunk(m, file, w))
				progress = true;
			file = next;
		}
	}
}

void wb_background(struct model *m)
{
	struct wb_work w = { .cause = WB_BACKGROUND, .nr_pages = UINT64_MAX,
			     .dirtied_before = UINT64_MAX, .background = true };

	wb_run_work(m, &w);
}

void wb_background_memcg(struct model *m, uint32_t memcg)
{
	struct wb_work w = { .cause = WB_BACKGROUND, .nr_pages = UINT64_MAX,
			     .dirtied_before = UINT64_MAX, .background = true,
			     .owner = memcg + 1 };

	wb_run_work(m, &w);
}

void wb_wakeup_vmscan(struct model *m)
{
	struct wb_work w = { .cause = WB_VMSCAN, .nr_pages = m->wb.dirty_pages,
			     .dirtied_before = UINT64_MAX };

	m->mx.flusher_wakeups++;
	wb_run_work(m, &w);
}

void wb_flusher_tick(struct model *m, uint64_t t)
{
	uint64_t expire = m->cfg.dirty_expire_ns;

	/* wb_check_old_data_flush(): inodes dirtied at or before t - dirty_expire */
	if (t >= expire && m->wb.inode_head != INODE_NIL &&
	    model_file(m, m->wb.inode_head)->dirtied_when <= t - expire) {
		struct wb_work w = { .cause = WB_EXPIRE, .nr_pages = m->wb.dirty_pages,
				     .dirtied_before = t - expire };

		wb_run_work(m, &w);
	}
	/* wb_check_background_flush() */
	if (m->wb.dirty_pages > m->wb.bg_thresh_pages)
		wb_background(m);
	/* and that of each cgroup's wb, over its memcg domain's background threshold */
	for (uint32_t i = 0; i < m->nr_memcgs; i++)
		if (wb_memcg_over_bg_thresh(m, i))
			wb_background_memcg(m, i);
}
