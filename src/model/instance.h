/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct model: the whole state of one model instance, and the internal interfaces between
 * the model's files (cache.c, memory.c, reclaim.c, writeback.c, filemap.c, readahead.c,
 * readpath.c, writepath.c, access.c, model.c, and the variation points' files).
 * Not for users of the model: they see model.h only.
 */
#ifndef FT_MODEL_INSTANCE_H
#define FT_MODEL_INSTANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/memory/buddy.h"
#include "model/folio.h"
#include "model/lru/lru.h"
#include "model/lru/lruvec.h"
#include "model/metrics.h"
#include "model/model.h"
#include "model/filemap/pagecache.h"
#include "model/filemap/placement.h"
#include "model/workingset/shadow.h"
#include "model/filemap/touched.h"
#include "model/variants.h"
#include "model/memory/zone.h"

#define INODE_NIL	UINT32_MAX

/*
 * Model time saturates at UINT64_MAX, which stands for "never": a damaged trace can carry any
 * 64-bit timestamp, and a deadline that wrapped around would fall due on every call.
 */
static inline uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}
/* mm/workingset.c: shadow nodes above pages >> (XA_CHUNK_SHIFT - 3), 64 slots each */
#define SHADOWS_PER_PAGE	8
/* the shrinker frees none until the excess reaches two batches of 128 nodes (reclaim.c) */
#define SHRINK_BATCH		128
#define SHADOW_SLACK		(2 * SHRINK_BATCH * 64)
/* mm/memcontrol.c FLUSH_TIME: the periodic flush of the memory cgroups' statistics */
#define STATS_FLUSH_NS		2000000000ull

/* A batch of read I/O in flight until done: pages [lo, hi) of a file (readio.c). */
struct read_batch {
	uint64_t lo, hi, done;
};

/* One file (inode) of the trace. */
struct mfile {
	/* its filesystem's rows (the configured ones, or what an "auto" row picked for it) */
	const struct dirty_tracking *dirty_kind;
	const struct dirty_reclaim *reclaim_kind;
	uint64_t isize;
	uint64_t prev_read_end;		/* byte after the previous read(); 0: none yet */
	uint64_t dirtied_when;		/* ns: when the inode went clean -> dirty */
	uint64_t dirty_pages;
	uint64_t writeback_index;	/* mapping->writeback_index: where cyclic writeback resumes */
	uint64_t wb_done;		/* ns: when the last writeback I/O of the file completes */
	struct ra_state ra;
	uint32_t folios;		/* head of the list of all its folios */
	uint32_t dirty;			/* head of the list of its dirty folios */
	uint32_t nr_dirty;		/* dirty folios */
	uint32_t inode_prev, inode_next;	/* the dirty inode list (b_dirty) */
	uint32_t gen;			/* bumped by unlink: shadow/touched entries die */
	uint32_t dirty_gen;		/* bumped when a folio joins its dirty list */
	uint32_t nr_by_order[MODEL_MAX_ORDER + 1];
	uint16_t order_mask;		/* orders of its cached folios */
	uint16_t shadow_mask;		/* orders it left shadow entries of */
	uint8_t hint_order;		/* order of the last folio found */
	uint16_t mmap_miss;		/* file_ra_state.mmap_miss: fault misses less hits */
	uint32_t ra_pages;		/* file_ra_state.ra_pages: its device's readahead window */
	uint32_t dev_ra_pages;		/* the device's window, which POSIX_FADV_NORMAL restores */
	uint32_t io_pages;		/* its device's bdi->io_pages */
	uint8_t max_order;		/* mapping_max_folio_order(): filesystem and configuration */
	uint8_t block_shift;		/* log2 of its filesystem's block size */
	bool ra_random;			/* FMODE_RANDOM (POSIX_FADV_RANDOM): no readahead */
	bool noreuse;			/* FMODE_NOREUSE (POSIX_FADV_NOREUSE) */
	/* the VMA flags madvise(2) sets, kept per file (one mapping's advice for all) */
	bool vm_rand_read, vm_seq_read, vm_hugepage;
	bool shmem_huge_advise;		/* tmpfs huge=advise: PMD folios for VM_HUGEPAGE faults */
	bool shmem;			/* tmpfs: fs_kind.shmem */
	bool set_up;			/* the fields above are set (file_setup) */
	uint8_t inflight_next;		/* the slot of inflight the next batch takes */
	struct read_batch inflight[2];	/* its last two read batches */
	bool on_dirty_list;
	bool known;			/* isize seen */
	bool occ;			/* its small folios are counted in model.occ */
	bool has_units;			/* track_block.c set a block bit of one of its folios */
};

/* A folio under writeback and when its last I/O completes. */
struct wb_inflight {
	uint32_t id;
	uint64_t done;		/* ns; 0 while its I/O is still being built (the open run) */
};

struct model {
	struct model_config cfg;
	/*
	 * The rows of the variation points the configuration names (variants.h); dirty
	 * tracking and dirty reclaim are the rows files start from (struct mfile has its own).
	 */
	const struct lru_policy *lru_kind;
	const struct dirty_tracking *dirty_kind;
	const struct ra_order_rule *ra_rule;
	const struct dirty_reclaim *dirty_reclaim;
	unsigned page_shift;
	unsigned unit_shift;		/* dirty/uptodate unit: min(block, page) */
	unsigned upp_shift;		/* units per page, log2 */

	struct folio_pool pool;
	struct pagecache pc;
	struct pagecache occ;		/* pages of folios below order 6 per 64-page region */
	struct lruvec lruvec;
	struct shadow_table shadow;
	struct touched_set touched;
	struct buddy *buddy;
	struct zone zone;		/* watermarks, compaction state (zone.h) */
	uint64_t nr_pages;		/* modelled memory in pages */
	uint32_t *others;		/* page frames others hold (memory_set_others) */
	uint64_t nr_others, cap_others;
	/* state by pfn: compaction moves it with the folio (memory_move_pfn_state) */
	uint64_t *touched_pfn;		/* page accessed since it was cached, by pfn */
	uint64_t *dirty_units;		/* track_block.c: dirty units, by pfn << upp_shift */
	uint64_t *uptodate_units;	/* track_block.c: uptodate units, same index */
	uint64_t *reclaim_pfn;		/* PG_reclaim, by the folio's first pfn */

	struct mfile *files;
	uint32_t nr_files, cap_files;
	uint32_t inode_head, inode_tail;	/* dirty inodes, oldest first */

	uint64_t dirty_pages;		/* NR_FILE_DIRTY */
	uint64_t writeback_pages;	/* NR_WRITEBACK */
	uint64_t bg_thresh_pages, thresh_pages;
	uint64_t shadow_slot_units;	/* evicted pages x 64 below order 6, x 1 above (reclaim.c) */
	uint64_t shadow_horizon;	/* shadows evicted before this age are freed */
	uint64_t touched_cached_pages;	/* cached pages accessed since cached */
	uint32_t seq;			/* access sequence number */
	uint64_t allocs;

	bool started;
	/* runs the timers up to t (model.c): how the layers below sleep (model_wait_until) */
	void (*wait_until)(struct model *m, uint64_t t);
	uint64_t now, next_flush, next_sample, last_sample_ts;
	uint64_t samples, samples_sent;	/* interval samples made; given to sample_fn */
	uint64_t samples_max;		/* given at most (model_limit_samples) */
	model_sample_fn sample_fn;
	void *sample_arg;
	uint64_t sample_wb_bytes, sample_read_io_bytes;
	uint64_t sample_read_bytes, sample_read_hit_bytes, sample_write_bytes;

	/* the read batch being submitted, and when the device is free again (readio.c) */
	struct {
		uint32_t file;
		uint64_t lo, hi, bytes;
	} batch;
	uint64_t read_busy_until;

	uint32_t *scratch;		/* writeback: folio ids to sort */
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
	} bdp;
	/*
	 * The node (pglist_data): whether kswapd is the one reclaiming, and PGDAT_DIRTY (kswapd
	 * took a batch all dirty and unqueued, until the node is balanced again)
	 */
	struct {
		bool kswapd, dirty;
	} node;
	/* flusher: a file's dirty folios sorted by index, kept while the file dirties none */
	struct {
		uint32_t file, gen;
		size_t n;
		bool valid;
	} sorted;

	/*
	 * LRU state sampled once per access; equal consecutive states are added in one go. The
	 * untouched pages apart: they change with every first touch of a page, the rest only as
	 * folios come and go and move between the lists.
	 */
	struct {
		uint64_t n, entries, inactive, pages;
		uint64_t inactive_pages;
	} pend;
	struct {
		uint64_t n, pages;
	} pend_untouched;

	/* per-unit figures (units.c), when model_set_units() asked for them */
	struct {
		enum model_units_by by;
		struct model_unit *u;
		uint32_t n, cap;
		uint32_t *file_unit;	/* MODEL_UNITS_GIVEN: the last writer of each file */
		uint32_t nfiles;
		bool oom;
	} units;

	struct model_metrics mx;	/* counters; distributions below */
	struct dist d_entries, d_inactive, d_active, d_pages, d_cached, d_unusable;
	struct dist d_untouched;
	struct dist d_inactive_pages, d_active_pages;
};

static inline struct mfile *model_file(struct model *m, uint32_t id)
{
	return &m->files[id];
}

static inline uint64_t model_page_size(const struct model *m)
{
	return 1ull << m->page_shift;
}

/* alloc.c: buddy allocation for a folio, reclaiming and falling back as configured. */
uint64_t memory_alloc_folio(struct model *m, unsigned *order);
/* init.c: the zone as the configuration and the recorded state say; false on ENOMEM. */
bool memory_init(struct model *m);
/* memory.c: the tag of the i-th page others hold */
uint32_t memory_others_tag(uint64_t i);
/* A folio was cached at its pfn / is going: the allocator's tag and the block. */
void memory_folio_added(struct model *m, uint32_t id);
void memory_free_folio(struct model *m, const struct folio *f);
/* A block of pages from memory_alloc_folio that no folio took after all. */
void memory_free_pages(struct model *m, uint64_t pfn, unsigned order);
/* Moves a used block (a folio, or one page of others) to the free block at to (compaction). */
bool memory_migrate(struct model *m, uint64_t from, uint64_t to, unsigned order, uint32_t tag);
/* The order of the used block whose tag is tag at pfn; -1: not movable. */
int memory_movable_order(struct model *m, uint32_t tag);
/* Pages charged to the memory cgroup's limit: the cache and the others it holds. */
uint64_t memory_charged(const struct model *m);

/* compaction.c: mm/compaction.c's decisions and kcompactd */
bool zone_watermark_ok(const struct model *m, unsigned order, uint64_t mark);
/* Direct compaction for an allocation of order: the block when it got one, else BUDDY_NO_PFN. */
uint64_t compact_direct(struct model *m, unsigned order);
void wakeup_kcompactd(struct model *m, unsigned order);
/* kcompactd's work: woken for an order, and its proactive check every 500 ms. */
void kcompactd_run(struct model *m);
/* Others (anonymous memory, files the model leaves out) now hold pages pages of the memory. */
void memory_set_others(struct model *m, uint64_t pages);
void memory_sample_fragmentation(struct model *m);

/* reclaim.c */
bool reclaim_one(struct model *m);
/* A dirty folio at the inactive tail: counted, and in the batch that may wake the flusher. */
void reclaim_note_dirty(struct model *m, const struct folio *f);
bool reclaim_until_free(struct model *m, uint64_t pages);
void reclaim_evict(struct model *m, uint32_t id);
/* A memory.stat read or the periodic flush: count_shadow_nodes() sees the LRU as it is now. */
void memcg_stats_flush(struct model *m);
/* Reclaim evicted: the shadow shrinker frees what count_shadow_nodes() allows it to. */
void shadow_shrink(struct model *m);
/* workingset_refault(): true when the refault should activate the new folio. */
bool workingset_refault(struct model *m, uint32_t file, uint64_t idx, unsigned order);

/*
 * Time passes to t: the waiter sleeps while the flusher ticks, writeback completes and
 * samples are taken. model.c runs those timers and sets wait_until; the layers that sleep
 * (reclaim, writeback, throttling) only call this, as the kernel's mm/ calls the scheduler.
 * A t not after now still ends the writeback due by now: only time that saturated leaves
 * any (add_sat()).
 */
static inline void model_wait_until(struct model *m, uint64_t t)
{
	m->wait_until(m, t);
}

/* files.c: a file's block size and writeback rows, from its device (NULL: not known) */
void file_setup_writeback(struct model *m, struct mfile *mf, const struct model_device *d);
/* The smallest block size of the configuration and its devices. */
unsigned model_min_block_size(const struct model_config *c);

static inline uint64_t file_block_size(const struct model *m, uint32_t file)
{
	return 1ull << m->files[file].block_shift;
}

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
static inline bool wb_completion_due(const struct model *m, uint64_t t)
{
	return m->wbq.head != m->wbq.open && m->wbq.q[m->wbq.head].done <= t;
}
/* Ends the writeback of every folio whose I/O completed by t, in completion order. */
void wb_complete_until(struct model *m, uint64_t t);
/* When the next writeback I/O completes; UINT64_MAX when none is in flight. */
uint64_t wb_next_completion(const struct model *m);
/* Waits (model time) until the file's writeback I/O so far has completed. */
void wb_wait_file(struct model *m, uint32_t file);
bool folio_test_reclaim(const struct model *m, const struct folio *f);
void folio_set_reclaim(struct model *m, const struct folio *f);
/* dirty_flusher.c: a dirty folio at the tail marked PG_reclaim and left to the flusher */
bool reclaim_leave_to_flusher(struct model *m, uint32_t id);

/* flusher.c: fsync and the flusher's works */
/* WB_SYNC_ALL write of pages [first, last] of the file, then wait for it (fsync). */
void wb_sync_file(struct model *m, uint32_t file, uint64_t first, uint64_t last);
/* WB_SYNC_NONE write of the folios overlapping pages [first, last] (sync_file_range). */
void wb_write_range(struct model *m, uint32_t file, uint64_t first, uint64_t last);
void wb_flusher_tick(struct model *m, uint64_t t);
/* The flusher's background work while dirty pages are over the background threshold. */
void wb_background(struct model *m);
/* wakeup_flusher_threads(WB_REASON_VMSCAN): every page dirty now is written. */
void wb_wakeup_vmscan(struct model *m);

/* throttle.c: thresholds, balance_dirty_pages() */
void wb_init_thresholds(struct model *m);
/* bandwidth.c: the device's write bandwidth estimate, and the flusher's chunk it sizes */
void wb_bandwidth_start(struct model *m);
void wb_bandwidth_update(struct model *m, uint64_t now);
uint64_t wb_chunk_pages(const struct model *m, uint64_t work_pages);
/* After a write or page_mkwrite: throttle the writer for the pages it dirtied, if needed. */
void wb_balance_dirty(struct model *m);

static inline uint64_t round_down(uint64_t v, uint64_t a)
{
	return v - v % a;
}

static inline uint64_t round_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* The folio's first byte in its file, and its size in bytes. */
static inline uint64_t folio_pos(const struct model *m, const struct folio *f)
{
	return f->index << m->page_shift;
}

static inline uint64_t folio_size(const struct model *m, const struct folio *f)
{
	return folio_nr_pages(f) << m->page_shift;
}

static inline uint64_t page_of(const struct model *m, uint64_t pos)
{
	return pos >> m->page_shift;
}

static inline uint64_t eof_pages(const struct model *m, const struct mfile *mf)
{
	return place_eof_pages(mf->isize, m->page_shift);
}

/* HPAGE_PMD_ORDER: a page table page of 8-byte entries maps 2^(page_shift - 3) pages */
static inline unsigned model_pmd_order(const struct model *m)
{
	return m->page_shift - 3;
}

static inline bool readahead_on(const struct model *m)
{
	return m->cfg.readahead;
}

/* filemap.c: a folio for a missing page */
uint64_t filemap_read_bytes(const struct model *m, const struct folio *f, uint64_t isize);
/* at_idx: the folio starts at idx (write path, readahead), else it is aligned around it */
uint32_t filemap_create(struct model *m, uint32_t file, uint64_t idx, unsigned order,
			bool at_idx, bool read);
unsigned filemap_read_order(struct model *m, struct mfile *mf, uint64_t idx);
/* The order a fault on a missing page asks for (shmem: VM_HUGEPAGE with huge=advise). */
unsigned filemap_fault_order(struct model *m, struct mfile *mf, uint64_t idx);
uint32_t filemap_read_in(struct model *m, uint32_t file, uint64_t idx, unsigned order,
			 bool at_idx);

/* readio.c: read I/O batches and whether a read waits for one */
void read_batch_begin(struct model *m, uint32_t file);
void read_batch_add(struct model *m, const struct folio *f);
void read_batch_end(struct model *m);
bool read_waits(const struct model *m, const struct mfile *mf, uint64_t idx);

/* readahead.c: the read and fault paths' calls */
void readahead_sync(struct model *m, uint32_t file, uint64_t idx, uint64_t req);
/* a read of pages below last (exclusive) reached the marked folio id */
void readahead_async(struct model *m, uint32_t file, uint32_t id, uint64_t last);
void readahead_mmap_around(struct model *m, uint32_t file, uint64_t idx);
void readahead_mmap_hit(struct model *m, uint32_t file, uint32_t id, uint64_t idx);
/* readahead.c: the mechanics the rules share (variants.h) */
uint64_t ra_max_pages(const struct model *m, const struct mfile *mf, uint64_t req);
bool ra_sync_window(struct model *m, uint32_t file, uint64_t idx, uint64_t req);
bool ra_async_window(struct model *m, uint32_t file, uint64_t idx, uint64_t folio_pages,
		     uint64_t req);
uint64_t ra_read_folios(struct model *m, uint32_t file, unsigned new_order, bool no_order1,
			bool *stopped);
void ra_read_unbounded(struct model *m, uint32_t file, uint64_t idx, uint64_t nr,
		       uint64_t lookahead);
uint64_t ra_cached_before(struct model *m, uint32_t file, uint64_t idx, uint64_t max);
uint64_t ra_next_miss(struct model *m, uint32_t file, uint64_t idx, uint64_t max);

/* readpath.c, writepath.c */
void read_buffered(struct model *m, const struct model_access *a, struct mfile *mf);
void read_mmap(struct model *m, const struct model_access *a, struct mfile *mf, bool write);
void write_buffered(struct model *m, const struct model_access *a, struct mfile *mf);

/* advice.c: posix_fadvise(2) and madvise(2) of a file's pages */
void advice_fadvise(struct model *m, const struct model_access *a, struct mfile *mf);
void advice_madvise(struct model *m, const struct model_access *a, struct mfile *mf);
/* vma_has_recency(): do its mappings' PTE young bits count at reclaim? */
bool advice_mapping_has_recency(const struct mfile *mf);

/* units.c: an access's figures counted for its unit; writeback bytes of a file for its unit */
struct units_snap {
	struct model_unit u;
};
void units_begin(struct model *m, const struct model_access *a, struct units_snap *s);
void units_end(struct model *m, const struct model_access *a, const struct units_snap *s);
void units_writeback(struct model *m, uint32_t file, uint64_t bytes);
void units_release(struct model *m);

/* access.c */
void access_apply(struct model *m, const struct model_access *a);
/* The file of an access, set up from its device when first seen; NULL on ENOMEM. */
struct mfile *access_file(struct model *m, uint32_t id, unsigned device);

#endif /* FT_MODEL_INSTANCE_H */
