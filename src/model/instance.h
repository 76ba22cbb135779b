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

#include "model/buddy.h"
#include "model/folio.h"
#include "model/lru.h"
#include "model/metrics.h"
#include "model/model.h"
#include "model/pagecache.h"
#include "model/placement.h"
#include "model/shadow.h"
#include "model/touched.h"
#include "model/variants.h"
#include "model/zone.h"

#define INODE_NIL	UINT32_MAX
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
	uint64_t isize;
	uint64_t prev_read_end;		/* byte after the previous read(); 0: none yet */
	uint64_t dirtied_when;		/* ns: when the inode went clean -> dirty */
	uint64_t dirty_pages;
	struct ra_state ra;
	uint32_t folios;		/* head of the list of all its folios */
	uint32_t dirty;			/* head of the list of its dirty folios */
	uint32_t nr_dirty;		/* dirty folios */
	uint32_t inode_prev, inode_next;	/* the dirty inode list (b_dirty) */
	uint32_t gen;			/* bumped by unlink: shadow/touched entries die */
	uint32_t nr_by_order[MODEL_MAX_ORDER + 1];
	uint16_t order_mask;		/* orders of its cached folios */
	uint16_t shadow_mask;		/* orders it left shadow entries of */
	uint8_t hint_order;		/* order of the last folio found */
	uint16_t mmap_miss;		/* file_ra_state.mmap_miss: fault misses less hits */
	uint32_t ra_pages;		/* file_ra_state.ra_pages: its device's readahead window */
	uint32_t io_pages;		/* its device's bdi->io_pages */
	uint8_t max_order;		/* mapping_max_folio_order(): filesystem and configuration */
	bool ra_random;			/* FMODE_RANDOM (POSIX_FADV_RANDOM): no readahead */
	bool shmem;			/* tmpfs: fs_kind.shmem */
	bool set_up;			/* the fields above are set (file_setup) */
	uint8_t inflight_next;		/* the slot of inflight the next batch takes */
	struct read_batch inflight[2];	/* its last two read batches */
	bool on_dirty_list;
	bool known;			/* isize seen */
	bool occ;			/* its small folios are counted in model.occ */
};

struct model {
	struct model_config cfg;
	/* the rows of the variation points the configuration names (variants.h) */
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
	struct lru lru;
	struct shadow_table shadow;
	struct touched_set touched;
	struct buddy *buddy;
	struct zone zone;		/* watermarks, compaction state (zone.h) */
	uint64_t nr_pages;		/* modelled memory in pages */
	uint32_t *others;		/* page frames others hold (memory_set_others) */
	uint64_t nr_others, cap_others;
	/* state by pfn: compaction moves it with the folio (memory_move_pfn_state) */
	uint64_t *touched_pfn;		/* page accessed since it was cached, by pfn */
	uint64_t *dirty_units;		/* dirty_block.c: dirty units, by pfn << upp_shift */
	uint64_t *uptodate_units;	/* dirty_block.c: uptodate units, same index */

	struct mfile *files;
	uint32_t nr_files, cap_files;
	uint32_t inode_head, inode_tail;	/* dirty inodes, oldest first */

	uint64_t dirty_pages;		/* NR_FILE_DIRTY */
	uint64_t bg_thresh_pages, thresh_pages;
	uint64_t nonresident_age;	/* evictions + activations, pages (workingset) */
	/* memcg: its LRU pages as last flushed (count_shadow_nodes() reads them), next flush */
	uint64_t shadow_bound_pages, next_stats_flush;
	uint64_t shadow_slot_units;	/* evicted pages x 64 below order 6, x 1 above (reclaim.c) */
	uint64_t shadow_horizon;	/* shadows evicted before this age are freed */
	uint64_t touched_cached_pages;	/* cached pages accessed since cached */
	uint32_t seq;			/* access sequence number */
	uint64_t allocs;

	bool started;
	uint64_t now, next_flush, next_sample, last_sample_ts;
	model_sample_fn sample_fn;
	void *sample_arg;
	uint64_t sample_wb_bytes, sample_read_io_bytes;

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

	/* LRU state sampled once per access; equal consecutive states are added in one go */
	struct {
		uint64_t n, entries, inactive, pages, touched;
		uint64_t inactive_pages;
	} pend;

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

/* cache.c: folios in the page cache, with every index kept in step. */
uint32_t cache_lookup_slow(struct model *m, uint32_t file, uint64_t idx);
void cache_prefetch(struct model *m, uint32_t file, uint64_t first, uint64_t last);
bool cache_range_empty(struct model *m, uint32_t file, uint64_t start, uint64_t n);
uint32_t cache_add(struct model *m, uint32_t file, uint64_t start, unsigned order,
		   uint64_t pfn, bool active);
/* Removes a clean folio (truncate, eviction); shadow: leave a shadow entry (eviction). */
void cache_remove(struct model *m, uint32_t id, bool shadow);
void cache_touch_slow(struct model *m, uint32_t id, uint64_t first, uint64_t last);

/* memory.c: buddy allocation for a folio, reclaiming and falling back as configured. */
uint64_t memory_alloc_folio(struct model *m, unsigned *order);
/* The zone as the configuration and the recorded state say; false on ENOMEM. */
bool memory_init(struct model *m);
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
bool reclaim_until_free(struct model *m, uint64_t pages);
void reclaim_evict(struct model *m, uint32_t id);
/* A memory.stat read or the periodic flush: count_shadow_nodes() sees the LRU as it is now. */
void memcg_stats_flush(struct model *m);
/* Reclaim evicted: the shadow shrinker frees what count_shadow_nodes() allows it to. */
void shadow_shrink(struct model *m);
/* workingset_refault(): true when the refault should activate the new folio. */
bool workingset_refault(struct model *m, uint32_t file, uint64_t idx, unsigned order);

/* writeback.c */
void wb_init_thresholds(struct model *m);
/* Adds bytes [start, start + len) of file to the writeback: one I/O with what it touches. */
void wb_run_add(struct model *m, uint32_t file, uint64_t start, uint64_t len,
		enum wb_cause cause);
void wb_mark_dirty(struct model *m, uint32_t id, uint64_t from, uint64_t to);
void wb_mark_dirty_all(struct model *m, uint32_t id);
uint64_t wb_folio_bytes(struct model *m, const struct folio *f, uint64_t isize);
void wb_write_folio_now(struct model *m, uint32_t id, enum wb_cause cause);
void wb_write_file(struct model *m, uint32_t file, uint64_t first, uint64_t last,
		   enum wb_cause cause);
void wb_discard_folio(struct model *m, uint32_t id);
void wb_flusher_tick(struct model *m, uint64_t t);
void wb_balance_dirty(struct model *m);

static inline bool folio_covers(const struct folio *f, uint64_t idx)
{
	return idx >= f->index && idx < folio_end(f);
}

/* The folio of the given order that would cover idx, if cached. */
static inline uint32_t cache_probe(struct model *m, uint32_t file, uint64_t idx, unsigned order)
{
	uint32_t id = pagecache_get(&m->pc, file, idx & ~((1ull << order) - 1));

	if (id != FOLIO_NIL && folio_covers(folio_at(&m->pool, id), idx))
		return id;
	return FOLIO_NIL;
}

/*
 * The cached folio covering page idx, or FOLIO_NIL. Inline: the order of the last folio found
 * is probed first, one probe for a single-order file; the other orders are cache.c's.
 */
static inline uint32_t cache_lookup(struct model *m, uint32_t file, uint64_t idx)
{
	const struct mfile *mf = model_file(m, file);
	unsigned mask = mf->order_mask;

	if (!mask)
		return FOLIO_NIL;
	if (mask & (1u << mf->hint_order)) {
		uint32_t id = cache_probe(m, file, idx, mf->hint_order);

		if (id != FOLIO_NIL)
			return id;
		if (mask == 1u << mf->hint_order)
			return FOLIO_NIL;
	}
	return cache_lookup_slow(m, file, idx);
}

/* Records an access to pages [first, last] of the folio; a wholly touched folio is done. */
static inline void cache_touch(struct model *m, uint32_t id, uint64_t first, uint64_t last)
{
	const struct folio *f = folio_at(&m->pool, id);

	if (f->touched != folio_nr_pages(f))
		cache_touch_slow(m, id, first, last);
}

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

/* access.c */
void access_apply(struct model *m, const struct model_access *a);
/* The file of an access, set up from its device when first seen; NULL on ENOMEM. */
struct mfile *access_file(struct model *m, uint32_t id, unsigned device);

#endif /* FT_MODEL_INSTANCE_H */
