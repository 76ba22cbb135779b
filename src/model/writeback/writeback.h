/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Dirty and writeback state (mm/page-writeback.c, fs/fs-writeback.c): the dirty inode list,
 * the page counts the thresholds are held against, the open I/O run, the folios under
 * writeback in submission order, the device, the bandwidth estimate and the writer's
 * throttling. One per model (one bdi), struct model's wb.
 */
#ifndef FT_MODEL_WRITEBACK_H
#define FT_MODEL_WRITEBACK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/folio.h"
#include "model/model.h"
#include "model/writeback/dirty_ranges.h"

struct model;

/* A folio under writeback and when its last I/O completes. */
struct wb_inflight {
	uint32_t id;
	uint64_t done;		/* ns; 0 while its I/O is still being built (the open run) */
};

struct wb_state {
	uint32_t inode_head, inode_tail;	/* dirty inodes, oldest first */
	uint64_t dirty_pages;		/* NR_FILE_DIRTY */
	uint64_t writeback_pages;	/* NR_WRITEBACK */
	uint64_t bg_thresh_pages, thresh_pages;	/* domain_dirty_limits(), each balance call */
	uint64_t reserve_pages;		/* totalreserve_pages of the modelled memory */
	uint32_t *scratch;		/* folio ids to sort */
	size_t scratch_cap;

	/* the open writeback run: adjacent dirty ranges merge into one I/O */
	struct {
		uint32_t file;
		uint64_t start, end;
		bool open;
		enum wb_cause cause;
	} run;

	/* folios under writeback, in submission order: the device completes them in turn */
	struct {
		struct wb_inflight *q;
		size_t head, tail, mask;	/* ring of mask + 1 entries; head == tail: empty */
		size_t open;			/* first entry waiting for the open run's I/O */
	} wbq;
	uint64_t dev_busy_until;	/* ns: the device finishes what it was given */

	/* the write bandwidth estimate of the bdi (mm/page-writeback.c), pages/s */
	struct {
		uint64_t stamp;			/* ns of the last update (bw_time_stamp) */
		uint64_t written, written_stamp;	/* pages whose writeback ended (WB_WRITTEN) */
		uint64_t write_bw, avg_write_bw;
	} bw;
	/* balance_dirty_pages(): the writer's pages dirtied since it last paused, and when */
	struct {
		uint64_t dirtied, paused_when;
		uint32_t owner;		/* the memcg whose wb owns the file dirtied last */
	} bdp;
	/* flusher: a file's dirty folios sorted by index, kept while the file dirties none */
	struct {
		uint32_t file, gen;
		size_t n;
		bool valid;
	} sorted;
	struct dirty_ranges ranges;	/* the dirty byte range of folios tracked by range */
};

/* writeback.c: dirty state, writeback of folios, their I/O on the device */
bool wb_init(struct model *m);
void wb_release(struct model *m);
/* Adds bytes [start, start + len) of file to the writeback: one I/O with what it touches. */
void wb_run_add(struct model *m, uint32_t file, uint64_t start, uint64_t len,
		enum wb_cause cause);
/* Ends the open run: its I/O goes to the device. */
void wb_run_flush(struct model *m);
/*
 * Marks bytes [from, to) of the folio dirty (wb_mark_dirty_all: every byte, as page_mkwrite
 * does); the pages a clean folio adds count towards the writer's throttling.
 */
void wb_mark_dirty(struct model *m, uint32_t id, uint64_t from, uint64_t to);
void wb_mark_dirty_all(struct model *m, uint32_t id);
uint64_t wb_folio_bytes(struct model *m, const struct folio *f, uint64_t isize);
/* Puts the dirty folio under writeback (its I/O in the open run); its pages. */
uint64_t wb_start_folio(struct model *m, uint32_t id, enum wb_cause cause);
void wb_discard_folio(struct model *m, uint32_t id);
/* The folio leaves the cache: its per-block state and PG_reclaim go. */
void wb_forget_folio(struct model *m, const struct folio *f);
/* Has the I/O of the oldest folio under writeback (not in the open run) completed by t? */
static inline bool wb_completion_due(const struct wb_state *wb, uint64_t t)
{
	return wb->wbq.head != wb->wbq.open && wb->wbq.q[wb->wbq.head].done <= t;
}
/* Ends the writeback of every folio whose I/O completed by t, in completion order. */
void wb_complete_until(struct model *m, uint64_t t);
/* When the next writeback I/O completes; UINT64_MAX when none is in flight. */
uint64_t wb_next_completion(const struct model *m);
/* Waits (model time) until the file's writeback I/O so far has completed. */
void wb_wait_file(struct model *m, uint32_t file);
bool folio_test_reclaim(const struct model *m, const struct folio *f);
void folio_set_reclaim(struct model *m, const struct folio *f);

/* flusher.c: fsync and the flusher's works */
/* WB_SYNC_ALL write of pages [first, last] of the file, then wait for it (fsync). */
void wb_sync_file(struct model *m, uint32_t file, uint64_t first, uint64_t last);
/*
 * sync(2) (device MODEL_DEVICE_NONE) and syncfs(2): every dirty file of the device written
 * back and waited for, by the flusher's works (cause WB_SYNC, the flusher's pages).
 */
void wb_sync_all(struct model *m, uint16_t device);
/*
 * WB_SYNC_NONE write of the folios overlapping pages [first, last]: sync_file_range (cause
 * WB_FSYNC), an RWF_DONTCACHE write's filemap_fdatawrite_range_kick() (WB_DONTCACHE).
 */
void wb_write_range(struct model *m, uint32_t file, uint64_t first, uint64_t last,
		    enum wb_cause cause);
void wb_flusher_tick(struct model *m, uint64_t t);
/* The flusher's background work while dirty pages are over the background threshold. */
void wb_background(struct model *m);
/* The background work of memcg's wb (cgroup v2): its inodes, while it or all are over. */
void wb_background_memcg(struct model *m, uint32_t memcg);
/* wakeup_flusher_threads(WB_REASON_VMSCAN): every page dirty now is written. */
void wb_wakeup_vmscan(struct model *m);

/* throttle.c: thresholds, balance_dirty_pages() */
void wb_init_thresholds(struct model *m);
/* bandwidth.c: the device's write bandwidth estimate, and the flusher's chunk it sizes */
void wb_bandwidth_start(struct model *m);
void wb_bandwidth_update(struct model *m, uint64_t now);
uint64_t wb_chunk_pages(const struct model *m, uint64_t work_pages);
/* wb_over_bg_thresh() of memcg's domain: false without one (cgroup v1). */
bool wb_memcg_over_bg_thresh(const struct model *m, uint32_t memcg);
/* memcg's domain now (mdtc_calc_avail(), domain_dirty_limits()), pages; it must have one. */
void wb_memcg_limits(const struct model *m, uint32_t memcg, uint64_t *avail, uint64_t *bg_thresh,
		     uint64_t *thresh);
/* After a write or page_mkwrite: throttle the writer for the pages it dirtied, if needed. */
void wb_balance_dirty(struct model *m);

#endif /* FT_MODEL_WRITEBACK_H */
