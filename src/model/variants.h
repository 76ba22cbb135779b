/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The model's variation points. Where kernels differ (by release, filesystem or configuration)
 * the model calls through a small table of operations with one implementation per behaviour,
 * each in a file of its own. A new kernel behaviour is that file plus one row in the point's
 * list (variants.c): the option that picks it, its --help text and the name every report
 * prints all come from the row. folio-trace-model(7) lists the points and their rows.
 * Operations marked optional may be NULL: nothing to do, or false.
 */
#ifndef FT_MODEL_VARIANTS_H
#define FT_MODEL_VARIANTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"

struct model;
struct lruvec;
struct mfile;
struct folio;
struct ra_state;

/*
 * Why writeback writes a folio (the report splits writeback bytes by it): WB_VMSCAN is the
 * flusher woken by reclaim (WB_REASON_VMSCAN), WB_RECLAIM reclaim writing it itself.
 */
enum wb_cause {
	WB_FSYNC, WB_EXPIRE, WB_BACKGROUND, WB_VMSCAN, WB_RECLAIM, WB_SYNC,
	WB_DONTCACHE,	/* an RWF_DONTCACHE write's kick (filemap_fdatawrite_range_kick) */
	WB_FLUSH,	/* a write flushing a folio's dirty range first (NFS, track_range.c) */
};

/*
 * What every row of every point has: its name, a phrase for --help, the code it follows, and
 * whether no kernel behaves so (a what-if the reports name).
 */
struct model_variant {
	const char *name;
	const char *help;
	const char *kernel;
	bool what_if;
};

/* The rows of a point, by their enum value, NULL-terminated. */
typedef const struct model_variant *const model_variant_list[];

#define variant_ops(ptr, type)	((const type *)((const char *)(ptr) - offsetof(type, v)))

/*
 * LRU kind (--lru): how accesses age a folio, whether a refault inserts it active, and which
 * folio reclaim takes next. What reclaim then does with the folio (writeback, dirty, young
 * through a mapping: reclaim.c) is the same for every kind.
 */
struct lru_policy {
	struct model_variant v;
	/*
	 * folio_check_references() activates a file folio mapped VM_EXEC at its first PTE
	 * reference (the classic LRU; MGLRU's returns before the test): vmscan/exec.c
	 */
	bool exec_first_use;
	/*
	 * Each operation works on the lruvec of the memory cgroup the folio is charged to, or
	 * the one reclaim or a refault is for (lru/kind.h finds it).
	 * mm/vmscan.c: the folio reclaim looks at next, once the kind has aged its lists as it
	 * does before taking one; FOLIO_NIL when they have none to give now.
	 */
	uint32_t (*reclaim_next)(struct model *m, struct lruvec *lruvec);
	/* reclaim_next() had none: move some from where the kind keeps them (false: none left) */
	bool (*reclaim_refill)(struct model *m, struct lruvec *lruvec);
	/*
	 * A limit reclaim takes the kind's whole batch once it begins one: true while the batch
	 * reclaim_next() began is not yet taken (none: the reclaim stops at its goal).
	 */
	bool (*reclaim_batch_open)(const struct lruvec *lruvec);
	/* filemap_read() read the folio; again: the read began in the folio the last one ended */
	void (*read)(struct model *m, struct lruvec *lruvec, uint32_t id, bool again);
	/* a fault or fault-around mapped it */
	void (*mapped)(struct model *m, struct lruvec *lruvec, uint32_t id);
	/* fault-around's mappings are no accesses to this kind: mapped() is for faults only */
	bool faults_only;
	/* optional: a buffered write dirtied it */
	void (*written)(struct model *m, struct lruvec *lruvec, uint32_t id);
	/* optional: would read() change nothing? The read path's fast path for the common hit */
	bool (*read_changes_nothing)(const struct model *m, uint32_t id);
	/*
	 * optional: a refault of a folio whose shadow holds eviction (shadow_pack()): what
	 * workingset_refault() makes of it (LRU_REFAULT_*); none: counted only. evicted: the
	 * lruvec of the cgroup that evicted it (the shadow's), lruvec: the one it comes back to
	 */
	unsigned (*refault)(struct model *m, struct lruvec *evicted, struct lruvec *lruvec,
			    uint64_t eviction, unsigned order);
	/*
	 * The kinds that keep lists of their own (NULL: the two lists of lru.c). add: a new
	 * folio (active: a refault asked for it); del: it leaves the cache; activate: reclaim
	 * keeps it as used (FOLIOREF_ACTIVATE, or under writeback); keep: reclaim spares it
	 * once (FOLIOREF_KEEP); rotate: its writeback ended with PG_reclaim set
	 * (folio_rotate_reclaimable()); eviction: what its shadow entry keeps beside the age;
	 * inactive: the pages and entries the kernel counts as inactive.
	 */
	void (*add)(struct model *m, struct lruvec *lruvec, uint32_t id, bool active);
	void (*del)(struct model *m, struct lruvec *lruvec, uint32_t id);
	void (*activate)(struct model *m, struct lruvec *lruvec, uint32_t id);
	void (*keep)(struct model *m, struct lruvec *lruvec, uint32_t id);
	void (*rotate)(struct model *m, struct lruvec *lruvec, uint32_t id);
	uint64_t (*eviction)(struct model *m, struct lruvec *lruvec, uint32_t id);
	void (*inactive)(const struct model *m, const struct lruvec *lruvec, uint64_t *entries,
			 uint64_t *pages);
	/* optional: adds the pages of each generation by age, youngest first (MGLRU) */
	void (*generations)(const struct lruvec *lruvec, uint64_t pages[MODEL_LRU_GENS]);
};

/*
 * lru_policy.refault's answer: count an activation; insert the folio active; not a refault
 * at all (MGLRU: evicted by another cgroup)
 */
#define LRU_REFAULT_ACTIVATE	(1u << 0)
#define LRU_REFAULT_ADD_ACTIVE	(1u << 1)
#define LRU_REFAULT_UNCOUNTED	(1u << 2)

/*
 * Dirty tracking (--dirty-granularity): what a write marks dirty or needs read first, and
 * what writeback sends for a dirty folio. Each file has its row (struct mfile); the row the
 * configuration names gives it, or picks it with for_file. A write through a shared mapping
 * marks the whole folio (mark over all of it) in every row: page_mkwrite dirties every
 * block (fs/iomap/buffered-io.c iomap_page_mkwrite(), fs/buffer.c block_page_mkwrite()).
 */
struct dirty_tracking {
	struct model_variant v;
	/*
	 * noop_dirty_folio(): PG_dirty set but never accounted (NR_FILE_DIRTY, the dirty
	 * inode list, throttling) and never written back, as shmem does.
	 */
	bool unaccounted;
	/* optional: the row of a file on device d, never NULL (the "auto" row) */
	const struct dirty_tracking *(*for_file)(const struct model_device *d);
	/* optional: per-instance state; false when out of memory */
	bool (*init)(struct model *m);
	/* a write of bytes [ws, we) of the file into a folio it just created */
	void (*fill_new)(struct model *m, uint32_t id, uint64_t ws, uint64_t we,
			 uint64_t old_isize);
	/* optional: a write into a cached folio that is not uptodate */
	void (*fill_cached)(struct model *m, uint32_t id, uint64_t ws, uint64_t we,
			    uint64_t old_isize);
	/* optional: a read found a folio not uptodate; true when the device read it in */
	bool (*fill_read)(struct model *m, struct mfile *mf, uint32_t id);
	/*
	 * optional: a buffered write is about to dirty bytes [from, to) of the folio, filled
	 * already: what the filesystem does first (NFS flushes a range the write does not touch)
	 */
	void (*before_write)(struct model *m, uint32_t id, uint64_t from, uint64_t to);
	/* optional: bytes [from, to) of the folio were written */
	void (*mark)(struct model *m, const struct folio *f, uint64_t from, uint64_t to);
	/*
	 * Bytes writeback sends for the dirty folio, of its first lim bytes (what lies below EOF,
	 * rounded up to the block); with emit, each contiguous range goes to the open writeback
	 * run (writeback.c wb_run_add).
	 */
	uint64_t (*ranges)(struct model *m, const struct folio *f, uint64_t lim, bool emit,
			   enum wb_cause cause);
	/* optional: the folio was written back or its dirty data dropped */
	void (*clean)(struct model *m, const struct folio *f);
	/* optional: the folio leaves the cache */
	void (*forget)(struct model *m, const struct folio *f);
};

/*
 * Readahead rule (mm/readahead.c and its callers in mm/filemap.c), by release: which window
 * a read miss, a marker hit and a fault's read-around read, and in folios of which orders.
 * The mechanics every release shares are readahead.c's.
 */
struct ra_order_rule {
	struct model_variant v;
	unsigned since;		/* first release with the rule: major * 1000 + minor */
	/* page_cache_sync_ra(): read() found page idx missing, wanting req pages from it */
	void (*sync)(struct model *m, uint32_t file, uint64_t idx, uint64_t req);
	/* page_cache_async_ra(): a read or fault at page idx reached the marked folio id */
	void (*async)(struct model *m, uint32_t file, uint32_t id, uint64_t idx, uint64_t req);
	/* do_sync_mmap_readahead(): read the read-around window the file's state now holds */
	void (*read_around)(struct model *m, uint32_t file);
	/* page_cache_ra_order() of the window the file's state holds, at the order given */
	void (*read_at_order)(struct model *m, uint32_t file, unsigned order);
};

/*
 * Filesystem: what the recorded kernel's filesystem lets the page cache do with a regular file
 * - its largest folio order (mapping_max_folio_order()) - by the release and the mount.
 */
struct fs_kind {
	struct model_variant v;	/* name: the fstype the trace records */
	/* the largest order of a regular file on device d; pagecache_max is MAX_PAGECACHE_ORDER */
	unsigned (*max_order)(const struct model_device *d, unsigned page_shift,
			      unsigned pagecache_max);
	/*
	 * shmem (tmpfs): no backing store and no readahead - read() of a hole reads zeroes and
	 * caches nothing, a fault or a write allocates a zeroed folio of the largest order when
	 * its aligned range is free, else a base page (shmem_alloc_and_add_folio()); writes set
	 * PG_dirty only (noop_dirty_folio()) and nothing is written back
	 */
	bool shmem;
	/* the first release whose buffered writes dirty single blocks of a folio; 0: none */
	unsigned block_dirty_since;
	/* dirty state is one byte range per folio (NFS's struct nfs_page: track_range.c) */
	bool range_dirty;
	/* the last release in which reclaim's pageout() called its ->writepage(); 0: none */
	unsigned writepage_until;
	/* a punched hole's page cache range rounded out to whole pages and allocation units */
	bool punch_rounds_out;
	/* the first release that drops the folios a punched hole overlaps whole; 0: none */
	unsigned punch_whole_since;
	/*
	 * writeback of blocks already written ends in interrupt context, where
	 * folio_end_dropbehind() cannot drop an RWF_DONTCACHE folio (filemap/dontcache.c)
	 */
	bool dropbehind_overwrite_irq;
};

/*
 * A dirty folio at the inactive tail (mm/vmscan.c shrink_folio_list), per file as dirty
 * tracking is (--reclaim-writeback).
 */
struct dirty_reclaim {
	struct model_variant v;
	/* optional: the row of a file on device d, never NULL (the "auto" row) */
	const struct dirty_reclaim *(*for_file)(const struct model_device *d);
	/* true: the folio can be evicted now; false: it was moved and scanning goes on */
	bool (*tail_folio)(struct model *m, uint32_t id);
};

/* The rows a file on device d (NULL: not known) gets under configuration c (files.c). */
const struct dirty_tracking *model_dirty_row_for(const struct model_config *c,
						 const struct model_device *d);
const struct dirty_reclaim *model_reclaim_row_for(const struct model_config *c,
						  const struct model_device *d);

extern model_variant_list model_folio_policies, model_write_policies, model_lru_kinds,
	model_dirty_kinds, model_ra_rules, model_fallbacks, model_fs_kinds, model_large_folios,
	model_reclaim_kinds;
/* Where the zone starts from (enum start_state). */
extern model_variant_list model_start_states;
extern model_variant_list model_start_caches;
extern model_variant_list model_proactive_reclaims;
extern model_variant_list model_start_folios;
extern model_variant_list model_swap_uses;

/* Rows in a list (they are NULL-terminated). */
unsigned model_variant_count(const struct model_variant *const *list);
/* The row named name, its index into *index; false when there is none. */
bool model_variant_lookup(const struct model_variant *const *list, const char *name,
			  unsigned *index);

static inline const struct lru_policy *lru_policy_of(enum lru_kind kind)
{
	return variant_ops(model_lru_kinds[kind], struct lru_policy);
}

static inline const struct dirty_tracking *dirty_tracking_of(enum dirty_granularity kind)
{
	return variant_ops(model_dirty_kinds[kind], struct dirty_tracking);
}

static inline const struct dirty_reclaim *dirty_reclaim_of(enum reclaim_writeback kind)
{
	return variant_ops(model_reclaim_kinds[kind], struct dirty_reclaim);
}

static inline const struct ra_order_rule *ra_order_rule_of(enum ra_rule rule)
{
	return variant_ops(model_ra_rules[rule], struct ra_order_rule);
}

/*
 * The rule the kernel release "MAJOR.MINOR..." read ahead by, into *rule; false (and *rule
 * untouched) when the release does not say, as in a synthetic trace.
 */
bool model_ra_rule_for_release(const char *release, enum ra_rule *rule);

static inline const struct fs_kind *fs_kind_of(unsigned fs)
{
	return variant_ops(model_fs_kinds[fs], struct fs_kind);
}

/* The row of the filesystem type fstype: the "other" row when the model has none of its own. */
unsigned model_fs_kind_for(const char *fstype);


#endif /* FT_MODEL_VARIANTS_H */
