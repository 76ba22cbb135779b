/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct model: one model instance, tying together the objects each folder keeps (the LRU
 * vector, the writeback state, the memory, the working set: their headers), the files of the
 * trace, time and the metrics; and the page cache's interfaces (filemap/). Not for users of
 * the model: they see model.h only.
 */
#ifndef FT_MODEL_INSTANCE_H
#define FT_MODEL_INSTANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/folio.h"
#include "model/lru/lru.h"
#include "model/lru/lruvec.h"
#include "model/metrics.h"
#include "model/model.h"
#include "model/filemap/pagecache.h"
#include "model/filemap/filemap.h"
#include "model/filemap/placement.h"
#include "model/filemap/touched.h"
#include "model/variants.h"
#include "model/vmscan/vmscan.h"
#include "model/memcg/memcg.h"
#include "model/memory/memory.h"
#include "model/workingset/workingset.h"
#include "model/writeback/writeback.h"

#define INODE_NIL	UINT32_MAX

/*
 * Model time saturates at UINT64_MAX, which stands for "never": a damaged trace can carry any
 * 64-bit timestamp, and a deadline that wrapped around would fall due on every call.
 */
static inline uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/* A batch of read I/O in flight until done: pages [lo, hi) of a file (readio.c). */
struct read_batch {
	uint64_t lo, hi, done;
};

struct occ_chunk;

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
	/*
	 * inode_attach_wb(): 1 + the memory cgroup of the folio that first dirtied the file,
	 * whose wb writes it back from then on (foreign inode switching is not modelled); 0 none
	 */
	uint8_t wb_owner;
	uint32_t gen;			/* bumped by unlink: shadow/touched entries die */
	uint32_t dirty_gen;		/* bumped when a folio joins its dirty list */
	uint32_t nr_by_order[MODEL_MAX_ORDER + 1];
	uint16_t order_mask;		/* orders of its cached folios */
	uint16_t shadow_mask;		/* orders it left shadow entries of */
	uint8_t hint_order;		/* order of the last folio found */
	uint8_t prev_hint_order;	/* the hint before it, looked up next (cache.c) */
	uint16_t mmap_miss;		/* file_ra_state.mmap_miss: fault misses less hits */
	uint32_t ra_pages;		/* file_ra_state.ra_pages: its device's readahead window */
	uint32_t dev_ra_pages;		/* the device's window, which POSIX_FADV_NORMAL restores */
	uint32_t io_pages;		/* its device's bdi->io_pages */
	uint8_t max_order;		/* mapping_max_folio_order(): filesystem and configuration */
	uint8_t block_shift;		/* log2 of its filesystem's block size */
	uint16_t device;		/* its device (model_access.device): syncfs(2) */
	bool ra_random;			/* FMODE_RANDOM (POSIX_FADV_RANDOM): no readahead */
	bool noreuse;			/* FMODE_NOREUSE (POSIX_FADV_NOREUSE) */
	/* the VMA flags madvise(2) sets, kept per file (one mapping's advice for all) */
	bool vm_rand_read, vm_seq_read, vm_hugepage;
	uint8_t shmem_huge;		/* tmpfs huge= (enum model_tmpfs_huge) */
	bool shmem_any_order;		/* 6.14+: writes may take any order up to PMD */
	bool shmem_write_end;		/* 6.12+: within_size counts where the write ends */
	bool shmem;			/* tmpfs: fs_kind.shmem */
	bool split_buddy;		/* 6.15+: truncate splits like the buddy allocator */
	bool punch_rounds_out;		/* fs_kind.punch_rounds_out */
	bool punch_whole;		/* fs_kind.punch_whole_since: a hole's folios dropped whole */
	bool dropbehind_irq;		/* fs_kind.dropbehind_overwrite_irq */
	bool set_up;			/* the fields above are set (file_setup) */
	uint8_t inflight_next;		/* the slot of inflight the next batch takes */
	struct read_batch inflight[2];	/* its last two read batches */
	bool on_dirty_list;
	bool known;			/* isize seen */
	bool occ;			/* its pages' occupancy bits are kept (cache.c) */
	/* its occupancy chunks by number below OCC_DIR_MAX (cache.c), grown to the highest */
	struct occ_chunk **occ_dir;
	uint32_t occ_dir_len;
	bool has_units;			/* track_block.c set a block bit of one of its folios */
	/*
	 * the open file whose readahead state the fields above hold (filemap/openfile.c):
	 * 0 none yet, the state file_setup() gave
	 */
	uint32_t ofile;
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
	/*
	 * page occupancy (cache.c): every chunk by slot, the free slots (each file has its
	 * directory of chunks below OCC_DIR_MAX); (file, chunk number) -> slot of the chunks
	 * beyond, and the one of them found last
	 */
	struct pagecache occ;
	struct occ_chunk **occ_chunks;
	uint32_t *occ_free;
	uint32_t nr_occ_chunks, nr_occ_free, occ_chunks_cap;
#define OCC_SPARE	16
	struct occ_chunk *occ_spare[OCC_SPARE];	/* freed chunks kept for reuse */
	uint32_t nr_occ_spare;
	struct occ_chunk *occ_hot;	/* NULL: none */
	/*
	 * the memory cgroups (memcg.h): [0] the one the accesses ran in unless they say
	 * otherwise, then cfg.memcgs; the one the running access charges; and where global
	 * reclaim's walk over them stands (vmscan/reclaim.c reclaim_one())
	 */
	struct mem_cgroup *memcgs;
	uint32_t nr_memcgs;
	uint32_t charging;
	struct {
		uint32_t memcg;		/* the cgroup the round is at */
	} walk;
	struct wb_state wb;		/* dirty and writeback state, the device (writeback.h) */
	struct memory mem;		/* the zone, its buddy allocator, state by pfn (memory.h) */
	struct workingset workingset;	/* shadow entries and their shrinker (workingset.h) */
	struct touched_set touched;

	struct mfile *files;
	uint32_t nr_files, cap_files;
	struct open_files open_files;	/* the readahead states of open files (openfile.c) */

	uint64_t touched_cached_pages;	/* cached pages accessed since cached */
	unsigned keep;			/* enum model_keep: the reporting bookkeeping kept */
	uint32_t seq;			/* access sequence number */
	bool dontcache;			/* the access is RWF_DONTCACHE: what it inserts is dropbehind */
	struct start_reader start_read;	/* the start state's reader (filemap/startstate.c) */

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

	/*
	 * The node (pglist_data): whether kswapd is the one reclaiming, PGDAT_DIRTY (kswapd
	 * took a batch all dirty and unqueued, until the node is balanced again), and global
	 * reclaim, aimed at the root cgroup's lruvec (every cgroup's counts together)
	 */
	struct {
		bool kswapd, dirty;
		struct reclaim_target reclaim;
	} node;

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
	/* MGLRU's generations by age (lru_policy.generations), sampled as pend_gens */
	struct dist d_gen_pages[MODEL_LRU_GENS];
	struct {
		uint64_t n, pages[MODEL_LRU_GENS];
	} pend_gens;
};

/* The memory cgroup of index id (0: the first); folio_memcg() is the one a folio pays. */
static inline struct mem_cgroup *memcg_of(const struct model *m, unsigned id)
{
	return &m->memcgs[id];
}

/* The pages on every cgroup's LRU: the node's file LRU. */
static inline uint64_t memcg_lru_pages(const struct model *m)
{
	uint64_t pages = lru_pages(&m->memcgs[0].lruvec.lru);

	for (uint32_t i = 1; i < m->nr_memcgs; i++)
		pages += lru_pages(&m->memcgs[i].lruvec.lru);
	return pages;
}

static inline struct mfile *model_file(struct model *m, uint32_t id)
{
	return &m->files[id];
}

static inline uint64_t model_page_size(const struct model *m)
{
	return 1ull << m->page_shift;
}

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
/* MODEL_START_CACHE: pos and len in pages, isize the file's size when first seen */
void access_start_cache(struct model *m, const struct model_access *a);
void access_start_folio(struct model *m, const struct model_access *a);
void access_start_shadow(struct model *m, const struct model_access *a);
void access_proactive_evict(struct model *m, const struct model_access *a);
/* MODEL_START_MARK: pos the page whose start folio had PG_readahead */
void access_start_mark(struct model *m, const struct model_access *a);
/* The file of an access, set up from its device when first seen; NULL on ENOMEM. */
struct mfile *access_file(struct model *m, uint32_t id, unsigned device);

#endif /* FT_MODEL_INSTANCE_H */
