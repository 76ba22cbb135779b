/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One page-cache model instance: folios of a configured order, a two-list (or plain) LRU under a
 * memory budget, dirty tracking and writeback, and a buddy allocator behind it. The replay driver
 * (src/replay/) creates one instance per configuration and feeds each the same accesses; nothing
 * here knows about trace files. No global state: instances are independent.
 */
#ifndef FT_MODEL_MODEL_H
#define FT_MODEL_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#define MODEL_MAX_ORDER		10	/* buddy orders 0..10 (MAX_PAGE_ORDER) */
/* MAX_PAGECACHE_ORDER: min(MAX_XAS_ORDER, HPAGE_PMD_ORDER), x86-64 with 4 KiB pages */
#define MODEL_PAGECACHE_ORDER	9
#define MODEL_BLOCK_SIZE_MAX	65536	/* largest filesystem block (large block sizes, 6.12) */
#define MODEL_IOSIZE_BUCKETS	12	/* write I/O sizes: <=4K, 8K, 16K, ... 4M, >4M */
#define MODEL_LRU_GENS		4	/* MGLRU's generations a lruvec can have (MAX_NR_GENS) */

/* A limit above as text, for messages: MODEL_TEXT(MODEL_MAX_ORDER) is "10". */
#define MODEL_TEXT_(x)		#x
#define MODEL_TEXT(x)		MODEL_TEXT_(x)

/*
 * The configuration a recorded trace can supply (a bit each); a caller keeps what the user
 * gave in the same bits, so that the user's options win (params.h: each row says its bit).
 */
enum model_recorded {
	MODEL_REC_MEMORY = 1u << 0,		/* host memory or cgroup limit */
	MODEL_REC_BLOCK_SIZE = 1u << 1,		/* block size of the file's device */
	MODEL_REC_DIRTY_EXPIRE = 1u << 2,	/* vm.dirty_expire_centisecs */
	MODEL_REC_DIRTY_WRITEBACK = 1u << 3,	/* vm.dirty_writeback_centisecs */
	MODEL_REC_DIRTY_RATIO = 1u << 4,	/* vm.dirty_ratio or vm.dirty_bytes */
	MODEL_REC_DIRTY_BACKGROUND = 1u << 5,	/* vm.dirty_background_ratio or _bytes */
	MODEL_REC_PAGE_SIZE = 1u << 6,
	MODEL_REC_RA_RULE = 1u << 7,		/* from the kernel release */
	MODEL_REC_RA_PAGES = 1u << 8,		/* each device's read_ahead_kb */
	MODEL_REC_IO_PAGES = 1u << 9,		/* each device's max_sectors_kb */
	MODEL_REC_START_STATE = 1u << 10,	/* /proc/pagetypeinfo at the start */
	MODEL_REC_LRU = 1u << 11,		/* /sys/kernel/mm/lru_gen/enabled */
	MODEL_REC_START_CACHE = 1u << 12,	/* the pages cached before the trace (1.3) */
	MODEL_REC_SWAP = 1u << 13,		/* SwapFree of the trace's samples */
};

/*
 * Whether swap space is free, which makes file refaults count the anonymous memory (the rows
 * of model_swap_uses, variants.c; mm/workingset.c workingset_test_recent())
 */
enum swap_use {
	SWAP_OFF,
	SWAP_ON,
};

enum folio_policy {
	FOLIO_POLICY_FIXED,	/* every miss allocates an aligned folio of the order (capped by EOF) */
	FOLIO_POLICY_READAHEAD,	/* orders grow with the sequential readahead window, up to order */
};

enum write_policy {
	WRITE_POLICY_SIZED,	/* kernel (6.6+ iomap/ext4): folio order from the write's length */
	WRITE_POLICY_FIXED,	/* writes allocate folios like reads do */
};

/* The enums below index the rows of the model's variation points (variants.c). */
enum ra_rule {
	RA_RULE_6_6,		/* 6.1-6.10: ondemand_readahead(), the marked folio's order + 2 */
	RA_RULE_6_11,		/* 6.11-6.16: sync and async apart, the same orders */
	RA_RULE_6_17,		/* 6.17+: ra->order += 2 per async window, sync readahead at 0 */
};

enum lru_kind {
	LRU_TWO_LIST,		/* inactive/active, referenced promotion, vmscan balance */
	LRU_PLAIN,		/* one strict LRU list: for cross-checks with textbook simulators */
	LRU_MGLRU,		/* generations and tiers (CONFIG_LRU_GEN) */
};

enum dirty_granularity {
	DIRTY_FOLIO,		/* one dirty flag per folio: writeback sends the whole folio */
	DIRTY_BLOCK,		/* iomap per-block dirty bitmap: writeback sends dirty blocks */
	DIRTY_AUTO,		/* per file, as its filesystem does in the recorded release */
	DIRTY_RANGE,		/* a dirty byte range per folio, flushed first if untouched */
};

/* What reclaim does with a dirty file folio at the inactive tail. */
enum reclaim_writeback {
	RECLAIM_WB_FLUSHER,	/* 6.17+: PG_reclaim, activate, leave it to the flusher */
	RECLAIM_WB_PAGEOUT,	/* pageout() -> ->writepage(): reclaim writes the folio */
	RECLAIM_WB_AUTO,	/* per file, as the recorded release did on its filesystem */
};

enum large_folios {
	LARGE_FOLIOS_AUTO,	/* as the recorded kernel's filesystem allows each file */
	LARGE_FOLIOS_ALL,	/* what-if: every filesystem allows the configured order */
};

/*
 * A device of the trace, with what its filesystem and the recorded kernel let the page cache
 * do with its files (filled by the replay driver from the trace's host and device records).
 */
#define MODEL_UNKNOWN		UINT32_MAX	/* a figure the trace did not record */
#define MODEL_DEVICE_NONE	UINT16_MAX	/* an access on no known device */

struct model_device {
	unsigned fs;		/* row of model_fs_kinds (variants.h), by the recorded fstype */
	unsigned release;	/* the recording kernel, major * 1000 + minor; MODEL_UNKNOWN: newest */
	unsigned block_size;	/* MODEL_UNKNOWN: the configuration's */
	unsigned ra_pages;	/* read_ahead_kb / 4; MODEL_UNKNOWN: the configuration's */
	unsigned io_pages;	/* max_sectors_kb / 4; MODEL_UNKNOWN: the configuration's */
	unsigned huge;		/* tmpfs huge=: enum ft_tmpfs_huge values, 0 unknown */
	unsigned flags;		/* MODEL_DEV_* */
};

#define MODEL_DEV_NO_LARGE_FOLIOS	(1u << 0)	/* ext4 data=journal, DAX, encryption */

/* tmpfs huge= (the trace's FT_DEVICE values) */
enum model_tmpfs_huge {
	TMPFS_HUGE_UNKNOWN, TMPFS_HUGE_NEVER, TMPFS_HUGE_ALWAYS, TMPFS_HUGE_WITHIN_SIZE,
	TMPFS_HUGE_ADVISE,
};

enum alloc_fallback {
	ALLOC_FALLBACK_SMALLER,	/* no free block of the order: take a smaller order (page cache) */
	ALLOC_FALLBACK_COMPACT,	/* reclaim/compact until the order is free */
};

/* What the page cache holds at the start (the rows of model_start_caches, variants.c). */
enum start_cache {
	START_CACHE_EMPTY,	/* nothing: every file's first access misses */
	START_CACHE_RECORDED,	/* the pages the trace's FT_START_CACHE records name */
};

/* Whether the recording kernel's proactive reclaim is followed (model_proactive_reclaims). */
enum proactive_reclaim {
	PROACTIVE_RECLAIM_RECORDED,	/* MODEL_PROACTIVE_EVICT evicts as the kernel's DAMON did */
	PROACTIVE_RECLAIM_NONE,		/* ignored: only the model's reclaim evicts */
};

/* The start cache's folio orders (model_start_folios): the kernel's deletes', or a rule's. */
enum start_folios {
	START_FOLIOS_DELETED,	/* MODEL_START_FOLIO folios first, the rule for the rest */
	START_FOLIOS_RULE,	/* every start page by startstate.c's rule */
};

/* Where the memory starts from (the rows of model_start_states, variants.c). */
enum start_state {
	START_EMPTY,		/* all free, every pageblock MOVABLE: memory is a budget */
	START_RECORDED,		/* the trace's first /proc/pagetypeinfo sample */
};

/*
 * The memory as the recorded kernel had it (/proc/pagetypeinfo summed over the zones the page
 * cache can use): pageblocks of each migratetype and their free blocks per order. Types:
 * unmovable, movable, reclaimable, and the rest (HighAtomic, CMA, Isolate) together.
 */
#define MODEL_MIGRATETYPES	4
struct model_zone_state {
	uint64_t pageblocks[MODEL_MIGRATETYPES];
	uint64_t free[MODEL_MIGRATETYPES][MODEL_MAX_ORDER + 1];
	unsigned zones;			/* how many zones it sums (the watermarks count them) */
};

/*
 * A memory cgroup of the configuration beside the first (model_config.memcgs): its limits in
 * bytes, UINT64_MAX for none (v2 memory.max and memory.high, v1 memory.limit_in_bytes).
 */
#define MODEL_MAX_MEMCGS	32	/* the first and 31 more: struct folio keeps 5 bits */
#define MODEL_MEMCG_NONE	0xff	/* no cgroup: model_config.start_cache_memcg */
struct model_memcg {
	uint64_t max_bytes, high_bytes;
};

/* One model's configuration; params.c has a row for each field (bounds, default, option). */
struct model_config {
	unsigned order;			/* max folio order, 0..MODEL_MAX_ORDER */
	unsigned min_order;
	enum folio_policy policy;
	enum write_policy write_policy;
	enum lru_kind lru;
	bool readahead;			/* model kernel readahead on read misses */
	unsigned ra_pages;		/* readahead window max, pages (kernel default 32) */
	unsigned io_pages;		/* the device's largest I/O, pages (bdi->io_pages) */
	uint64_t memory_bytes;		/* page-cache budget (> 0) */
	unsigned page_size;		/* 4096 */

	enum dirty_granularity dirty;
	unsigned block_size;		/* fs block size where the file's device does not say */
	enum reclaim_writeback reclaim_wb;
	uint64_t dirty_expire_ns;	/* dirty_expire_centisecs * 10 ms */
	uint64_t writeback_period_ns;	/* dirty_writeback_centisecs * 10 ms; 0 = no flusher */
	unsigned dirty_background_ratio; /* percent of memory_bytes; *_bytes win when non-zero */
	unsigned dirty_ratio;
	uint64_t dirty_background_bytes;
	uint64_t dirty_bytes;
	/* memory the dirty ratios are of (global_dirtyable_memory()); 0: the model's own */
	uint64_t dirtyable_bytes;

	double device_latency_us;	/* per write I/O */
	double device_bandwidth_mbps;	/* MB/s (10^6 bytes) */

	double pinned_pct;		/* percent of memory pinned by non-cache users, random pfns */
	uint64_t seed;			/* for pinned placement */
	enum alloc_fallback fallback;

	uint64_t interval_ns;		/* time-series interval; 0 = no time series */

	enum ra_rule ra_rule;		/* readahead order rule, by kernel release */
	/*
	 * Per-file largest order (calibration: the orders the kernel used), indexed by file_id;
	 * MODEL_ORDER_DEFAULT or an id past nfile_orders means cfg.order. The caller keeps the
	 * array alive while the model runs.
	 */
	const uint8_t *file_orders;
	uint32_t nfile_orders;
	/*
	 * Per file_id (nfile_orders entries, or NULL): non-zero when the kernel opened no
	 * readahead window for the file (FMODE_RANDOM from fadvise, or never sequential): its
	 * read misses read what they ask, as force_page_cache_ra() does.
	 */
	const uint8_t *file_ra_off;
	/* the trace's devices, indexed by model_access.device; the caller keeps them alive */
	const struct model_device *devices;
	uint32_t ndevices;
	enum large_folios large_folios;
	bool memcg;			/* the memory is a memory cgroup's limit (as recorded) */
	/*
	 * More memory cgroups beside the first (model_access.memcg 0: the one above, whose
	 * limit the memory is when memcg is set): entry i is cgroup i + 1, its own limits,
	 * lruvec and charge, in the same zone. The caller keeps the array alive.
	 */
	const struct model_memcg *memcgs;
	uint32_t nr_memcgs;
	/*
	 * The trace gives the cgroups' statistics flushes (MODEL_STATS_FLUSH from the kernel's
	 * own, 6.14 on): the model keeps no 2 s flush timer of its own
	 */
	bool memcg_flushes;
	/*
	 * The memory cgroups with a dirty domain of their own, bit i for cgroup i: cgroup v2
	 * writeback (CONFIG_CGROUP_WRITEBACK), each a bdi_writeback of its own whose inodes it
	 * first dirtied. 0 under v1 (and without cgroups): the global domain alone.
	 */
	uint32_t dirty_domains;
	/*
	 * Anonymous pages beside the first cgroup's active file list in the workingset size a
	 * file refault distance is compared with (mm/workingset.c workingset_test_recent(): its
	 * NR_ACTIVE_ANON + NR_INACTIVE_ANON while mem_cgroup_get_nr_swap_pages() > 0), as the
	 * trace's first samples had them, counted with swap SWAP_ON; MODEL_ANON accesses change
	 * them.
	 */
	uint64_t workingset_anon_pages;
	enum swap_use swap;
	bool swap_sampled;	/* MODEL_ANON's len (swap free) decides it from then on */
	unsigned max_pagecache_order;	/* MODEL_ORDER_DEFAULT: the kernel's (9 with 4 KiB pages) */

	/* the zone: where it starts from, other users' pressure per pageblock, compaction */
	enum start_state start_state;
	enum start_cache start_cache;	/* the page cache's (MODEL_START_CACHE accesses) */
	enum proactive_reclaim proactive_reclaim;	/* MODEL_PROACTIVE_EVICT followed or not */
	enum start_folios start_folios;	/* MODEL_START_FOLIO taken or not */
	/*
	 * the memory cgroup the start cache is charged to (as model_access.memcg): the root,
	 * which held the pages before the trace as far as the model can tell; MODEL_MEMCG_NONE
	 * where the model has no root apart from a limited cgroup (the start cache left out)
	 */
	uint8_t start_cache_memcg;
	const struct model_zone_state *start;	/* START_RECORDED; the caller keeps it alive */
	double unmovable_blocks_pct;	/* pageblocks held by unmovable allocations */
	double reclaimable_blocks_pct;	/* pageblocks held by reclaimable ones (slab caches) */
	double block_fill_pct;		/* pages in use in each of those pageblocks */
	unsigned extfrag_threshold;	/* vm.extfrag_threshold */
	unsigned compaction_proactiveness;	/* vm.compaction_proactiveness */
};

#define MODEL_ORDER_DEFAULT	0xff

/* Largest folio order for file_id: its per-file order when set, within [min_order, order]. */
unsigned model_file_order(const struct model_config *cfg, uint32_t file_id);
/*
 * The largest folio order of file_id on the trace's device (MODEL_DEVICE_NONE: unknown) as
 * the filesystem allows it (mapping_max_folio_order()) under the configuration; *shmem: the
 * file is on tmpfs. What a model instance sets up for the file when it first sees it.
 */
unsigned model_file_max_order(const struct model_config *cfg, uint32_t file_id,
			      unsigned device, bool *shmem);


/*
 * Device cost presets for --device: "nvme", "sata-ssd", "hdd", "nfs" (a high-latency network
 * filesystem). false for an unknown name.
 */
bool model_device_preset(const char *name, double *latency_us, double *bandwidth_mbps);

/*
 * totalreserve_pages of a machine with this much memory, in bytes: what
 * global_dirtyable_memory() leaves out of its free pages (its high watermark).
 */
uint64_t model_reserve_bytes(uint64_t mem_bytes, unsigned page_size);

/*
 * The bytes one instance of cfg is estimated to need (footprint.c) for a trace of nfiles
 * files touching working_set_pages distinct pages (0: unknown, every page of its memory
 * counted): what model_new() allocates and what grows with the folios it caches.
 */
uint64_t model_footprint(const struct model_config *cfg, uint64_t working_set_pages,
			 uint64_t nfiles);

/* Fills every field with its row's default (params.c). */
void model_config_defaults(struct model_config *cfg);

/* One access, file-relative. file_id: dense small integer the driver assigns per (dev, ino). */
enum model_op {
	MODEL_READ = 1,
	MODEL_WRITE,
	MODEL_MMAP_READ,
	MODEL_MMAP_WRITE,
	MODEL_FSYNC,		/* also fdatasync; len 0: the whole file, else a range (io_uring) */
	MODEL_SYNC_RANGE,
	MODEL_TRUNCATE,		/* new size in pos */
	MODEL_FALLOCATE,
	MODEL_UNLINK,
	/*
	 * the memory cgroups' statistics were flushed (memory.stat read, or the kernel's flush):
	 * pos 0 every cgroup's, pos 1 those of memcg only
	 */
	MODEL_STATS_FLUSH,
	/*
	 * pages others hold in the memory now (in pos): not for the cache; in memcg's limit
	 * besides its page cache when memcg is not the first
	 */
	MODEL_OTHERS,
	MODEL_FADVISE,		/* posix_fadvise(2) of [pos, pos + len), len 0 to EOF; advice */
	MODEL_MADVISE,		/* madvise(2) of a mapping of [pos, pos + len) of the file; advice */
	MODEL_START_CACHE,	/* pages [pos, pos + len) cached before the trace: no access */
	MODEL_SYNC,		/* sync(2) (device MODEL_DEVICE_NONE), syncfs(2) of device */
	/*
	 * memcg's limits were written: memory.max in pos, memory.high in len, in bytes,
	 * UINT64_MAX for none (v1: memory.limit_in_bytes in pos, MODEL_MEMCG_V1 in advice)
	 */
	MODEL_MEMCG_LIMITS,
	/*
	 * the first cgroup's anonymous pages now (pos), which its file refaults count while
	 * swap is free (len 1: free, 0: none; followed with swap_sampled)
	 */
	MODEL_ANON,
	/*
	 * no access: page pos of the file had a PG_readahead mark before the trace, which the
	 * kernel's async readahead from it shows (replay.c note_start_marks() sends it)
	 */
	MODEL_START_MARK,
	/*
	 * no access: pages [pos, pos + len) were evicted before the trace and their shadow
	 * entries remain; advice 1: recently evicted (would come back active), 0: not
	 */
	MODEL_START_SHADOW,
	/*
	 * no access: the recording kernel's proactive reclaimer (DAMON's pageout) evicted pages
	 * [pos, pos + len) of the file; the model's clean folios over them are evicted as
	 * reclaim evicts them (replay.c sends it under --proactive-reclaim=recorded)
	 */
	MODEL_PROACTIVE_EVICT,
	/*
	 * no access: a folio of the page cache before the trace, pages [pos, pos + len) (len a
	 * power of two), as the kernel's first delete of it shows it, its last dirty pages
	 * dirty (replay.c sends it before the file's MODEL_START_CACHE)
	 */
	MODEL_START_FOLIO,
};

/* MODEL_MEMCG_LIMITS of a cgroup of the v1 memory hierarchy */
#define MODEL_MEMCG_V1		1u

/* fallocate(2)'s FALLOC_FL_PUNCH_HOLE, as Linux numbers it */
#define MODEL_FALLOC_PUNCH_HOLE	0x02

/* One access, its fields ordered to fill one 64-byte line: the replay hands millions on. */
struct model_access {
	uint64_t ts;		/* ns, monotonic; never decreasing between calls */
	uint32_t file_id;
	enum model_op op;
	uint64_t pos;
	uint64_t len;
	uint64_t isize;		/* file size after the op */
	bool direct;		/* O_DIRECT: bypasses the cache (counted, not cached) */
	/*
	 * MODEL_WRITE on an O_SYNC/O_DSYNC file or with RWF_SYNC/RWF_DSYNC: written back and
	 * waited for before the call returns (generic_write_sync())
	 */
	bool sync;
	/*
	 * MODEL_READ or MODEL_WRITE with RWF_DONTCACHE: the folios it creates are PG_dropbehind
	 * (filemap/dontcache.c); a write kicks writeback of its range
	 */
	bool dontcache;
	/* MODEL_MMAP_READ or MODEL_MMAP_WRITE through a VM_EXEC mapping (folio_check_references) */
	bool exec;
	/*
	 * MODEL_MMAP_READ from fault-around (filemap_map_pages): only cached, uptodate folios
	 * without PG_readahead are mapped, nothing is read. false: a fault, each missing page
	 * read as filemap_fault() does.
	 */
	bool fault_around;
	/* the memory cgroup the access runs in: 0 the first, i + 1 cfg.memcgs[i] */
	uint8_t memcg;
	uint16_t device;	/* index into cfg.devices, or MODEL_DEVICE_NONE */
	/* MODEL_FADVISE: POSIX_FADV_*; MODEL_MADVISE: MADV_* (Linux's); MODEL_FALLOCATE: mode */
	uint32_t advice;
	uint32_t unit;		/* MODEL_UNITS_GIVEN: the unit (process) the access counts for */
	union {
		/* MODEL_START_CACHE: of the len pages, the last dirty were dirty */
		uint64_t dirty;
		/*
		 * the accesses: the open file (struct file) it went through, whose readahead
		 * state it uses (filemap/openfile.c); 0 unknown: the state the file has
		 */
		uint32_t ofile;
	};
};

/* Running distribution with constant memory: mean exact, p99 from a log-linear histogram. */
struct model_dist {
	uint64_t samples;
	double sum;
	uint64_t max;
	uint64_t p99;		/* filled by model_metrics() */
};

struct model_metrics {
	/* reads */
	uint64_t read_requests, read_hit_requests;	/* a hit: every page already cached */
	uint64_t read_bytes, read_hit_bytes;		/* bytes the application read */
	uint64_t read_io_bytes, read_ios;		/* bytes/I/Os read from the device */
	uint64_t write_read_bytes;			/* reads caused by partial writes */
	uint64_t direct_read_bytes, direct_write_bytes;
	/* writes */
	uint64_t write_requests, write_bytes;		/* bytes the application wrote */
	uint64_t writeback_bytes, writeback_ios;	/* all writeback, all causes */
	uint64_t wb_fsync_bytes, wb_expire_bytes, wb_background_bytes, wb_reclaim_bytes;
	uint64_t wb_sync_bytes;				/* by sync(2) and syncfs(2) */
	uint64_t wb_vmscan_bytes;			/* by the flusher reclaim woke */
	/* folios' pages gone clean -> dirty (nr_dirtied), and written (nr_written) */
	uint64_t dirtied_pages, written_pages;
	/*
	 * folios' pages the flusher's works put under writeback (expiry, background, reclaim's
	 * wakeups): what fs/fs-writeback.c __writeback_single_inode() reports spent of
	 * nr_to_write; fsync's writes do not pass there
	 */
	uint64_t flusher_written_pages;
	uint64_t wb_truncated_bytes;			/* dirty bytes discarded by truncate/unlink */
	uint64_t reclaim_dirty_folios;			/* dirty folios met at the inactive tail */
	uint64_t reclaim_writeback_folios;		/* folios under writeback met there */
	uint64_t reclaim_immediate_pages;		/* nr_vmscan_immediate_reclaim */
	uint64_t reclaim_pageout_pages;			/* nr_vmscan_write: written by reclaim */
	uint64_t rotated_pages;				/* pgrotated: to the tail at writeback end */
	uint64_t flusher_wakeups;			/* by reclaim (WB_REASON_VMSCAN) */
	uint64_t reclaim_stalls;			/* reclaim waited for writeback */
	double reclaim_stall_time_s;
	double sync_wait_time_s;			/* fsync waiting for its I/O */
	uint64_t iosize_hist[MODEL_IOSIZE_BUCKETS];	/* write I/O sizes, log2 buckets */
	uint64_t extents;				/* contiguous writeback extents, per file */
	uint64_t extent_bytes;
	uint64_t throttled;				/* balance_dirty_pages() pauses */
	double throttle_time_s;				/* and their length */
	double writeback_time_s;			/* device model: sum of latency + bytes/bw */
	/* cache */
	uint64_t insertions, inserted_pages;
	/* pages cached before the trace (MODEL_START_CACHE) put in, and those left out */
	uint64_t start_cache_pages, start_cache_left_pages;
	uint64_t insertions_by_order[MODEL_MAX_ORDER + 1];
	uint64_t evictions, evicted_pages;
	uint64_t refaults, refault_activations;		/* pages (workingset_refault_file) */
	uint64_t activations, deactivations;
	uint64_t untouched_evicted_pages;		/* pages evicted that nobody accessed */
	struct model_dist lru_entries, lru_inactive, lru_active;	/* folios, per access */
	struct model_dist lru_pages;
	struct model_dist cached_bytes;
	uint64_t touched_bytes;				/* distinct pages ever accessed * page */
	/* memory (buddy) */
	uint64_t alloc_by_order[MODEL_MAX_ORDER + 1];	/* folios allocated at each order */
	uint64_t alloc_fallbacks;			/* allocations that got a smaller order */
	uint64_t alloc_failures;
	uint64_t compaction_demand;			/* order-N failures with enough free memory */
	uint64_t free_blocks[MODEL_MAX_ORDER + 1];	/* at the end, buddyinfo layout */
	double unusable_index, fragmentation_index;	/* at the end, for cfg.order */
	struct model_dist unusable_milli;		/* over time, index * 1000 */
	uint64_t metadata_bytes_page;			/* struct page per 4 KiB page */
	uint64_t metadata_bytes_folio;			/* per-folio descriptor + pointer per page */
	/* time */
	uint64_t first_ts, last_ts;
	uint64_t accesses;
	struct model_dist untouched_cached_bytes;	/* cached bytes nobody accessed, per access */
	uint64_t dirty_bytes;				/* dirty now (whole folios' pages) */
	/* clean -> dirty transitions by buffered writes (writeback_dirty_folio's count) */
	uint64_t write_dirtied_folios, write_dirtied_pages;
	/* refaults and refault activations in folios (refaults above are pages) */
	uint64_t refault_folios, refault_activation_folios;
	/* LRU list sizes in pages, per access (lru_inactive, lru_active above are folios) */
	struct model_dist lru_inactive_pages, lru_active_pages;
	/*
	 * MGLRU: pages in each generation by age, per access: gen0 the youngest (max_seq), gen3
	 * the oldest a lruvec can keep; every cgroup's together. Zero with the other kinds.
	 */
	struct model_dist lru_gen0_pages, lru_gen1_pages, lru_gen2_pages, lru_gen3_pages;
	uint64_t faultaround_pages;			/* pages fault-around mapped */
	/* requests with no page missing that waited for readahead I/O still in flight */
	uint64_t read_waited_requests, read_waited_bytes;
	/* compaction: direct (in the allocating access) as /proc/vmstat compact_* counts it */
	uint64_t compact_stall, compact_fail, compact_success;
	uint64_t compact_migrate_scanned, compact_free_scanned, compact_migrated;
	/* ... and by kcompactd, woken by a failed allocation or proactive */
	uint64_t compact_daemon_wake, compact_daemon_migrate_scanned;
	uint64_t compact_daemon_free_scanned, compact_daemon_migrated;
	uint64_t compact_proactive;			/* proactive runs */
	/* the allocator's fallbacks (mm_page_alloc_extfrag): claims, steals, pageblocks */
	uint64_t extfrag_claims, extfrag_steals, pageblocks_claimed;
	uint64_t pageblocks[MODEL_MIGRATETYPES];	/* at the end, by type */
	uint64_t zone_pages, zone_free_pages;		/* at the end */
	uint64_t wmark_min, wmark_low, wmark_high;	/* the zone's, 0 without watermarks */
	/* fadvise and madvise calls; those of advice the model leaves out (advice.c) */
	uint64_t advice_calls, advice_ignored;
	uint64_t willneed_pages;			/* pages read by FADV/MADV_WILLNEED */
	uint64_t dontneed_pages;			/* pages FADV_DONTNEED dropped */
	uint64_t dontneed_folios;			/* the folios they were */
	/* pages RWF_DONTCACHE I/O dropped once used (PG_dropbehind), and bytes it wrote back */
	uint64_t dropbehind_pages, wb_dontcache_bytes;
	/*
	 * writes into a folio whose dirty byte range they do not touch, which wrote the range
	 * back and committed it first (NFS: a WRITE and a COMMIT round trip each), the bytes
	 * those wrote and the time the writers waited for them
	 */
	uint64_t range_flushes, wb_flush_bytes;
	double range_flush_wait_s;
};

/* One time-series row, emitted at the end of each interval. */
struct model_sample {
	uint64_t ts;
	uint64_t lru_entries, lru_inactive, lru_active, lru_pages;
	uint64_t cached_bytes, dirty_bytes, writeback_bytes_interval, read_io_bytes_interval;
	double unusable_index, fragmentation_index;
	/* the lists in pages (nr_inactive_file, nr_active_file) */
	uint64_t lru_inactive_pages, lru_active_pages;
	/*
	 * The first memory cgroup's lists in pages (its memory.stat inactive_file, active_file):
	 * the recorded cgroup's, without the pages the others hold (the start cache's root)
	 */
	uint64_t memcg_inactive_pages, memcg_active_pages;
	/* the zone: free blocks per order (buddyinfo), and compaction so far */
	uint64_t free_blocks[MODEL_MAX_ORDER + 1];
	uint64_t compact_stall, compact_success, compact_migrate_scanned;
	/* bytes the application read, those of them found cached, and bytes it wrote */
	uint64_t read_bytes_interval, read_hit_bytes_interval, write_bytes_interval;
	/* MGLRU: pages in each generation by age, youngest first (0 with the other kinds) */
	uint64_t lru_gen_pages[MODEL_LRU_GENS];
};

typedef void (*model_sample_fn)(void *arg, const struct model_sample *s);

/*
 * Interval samples handed to a model's sample function, at most (the one at model_finish()
 * comes on top): a short --interval over a long or damaged trace would otherwise fill memory.
 * model_samples() says how many the run made; a caller that needs them all checks it.
 */
#define MODEL_SAMPLES_MAX	(1u << 20)

struct model;

/* NULL with *why set to a static message when cfg is unusable. */
struct model *model_new(const struct model_config *cfg, const char **why);
void model_free(struct model *m);
const struct model_config *model_config(const struct model *m);
void model_set_sample_fn(struct model *m, model_sample_fn fn, void *arg);

void model_access(struct model *m, const struct model_access *a);
/*
 * Hints the lines the accesses a[1] .. a[n - 1] will touch, a[0] being the one to run next:
 * a runner holding a batch calls it before each access. Changes no state.
 */
void model_prefetch_ahead(const struct model *m, const struct model_access *a, unsigned n);
/* Time passes without an access: flusher ticks, interval samples. */
void model_advance(struct model *m, uint64_t ts);
/* End of trace at ts: last sample; dirty data stays dirty (not written back). */
void model_finish(struct model *m, uint64_t ts);
/*
 * Hands at most max (<= MODEL_SAMPLES_MAX) interval samples to the sample function: a caller
 * keeping fewer need not be called for the rest.
 */
void model_limit_samples(struct model *m, uint64_t max);
/* Interval samples made so far, those past MODEL_SAMPLES_MAX included. */
uint64_t model_samples(const struct model *m);
/* Read requests so far, and those that found every page cached: cheap, per access. */
void model_read_requests(const struct model *m, uint64_t *requests, uint64_t *hits);
/* Totals so far (p99s computed on the way). */
void model_metrics(struct model *m, struct model_metrics *out);

/*
 * Per-unit figures (replay --by): what each access did, counted for the unit it belongs to,
 * its file (MODEL_UNITS_FILE: unit = file_id) or the unit the caller gave it
 * (MODEL_UNITS_GIVEN: model_access.unit, a process). Bytes written back count for the file
 * written back, or for the unit that last wrote to that file. Off by default: then no access
 * pays anything for it.
 */
enum model_units_by { MODEL_UNITS_NONE, MODEL_UNITS_FILE, MODEL_UNITS_GIVEN };

struct model_unit {
	uint64_t read_requests, read_hit_requests, read_bytes;
	uint64_t read_io_bytes;				/* bytes read from the device */
	uint64_t refaults;				/* pages */
	uint64_t evicted_pages;				/* pages reclaim evicted in its accesses */
	uint64_t write_requests, write_bytes;
	uint64_t writeback_bytes;
	uint64_t insertions_by_order[MODEL_MAX_ORDER + 1];	/* folios */
};

/* Before the first access. */
void model_set_units(struct model *m, enum model_units_by by);

/*
 * Bookkeeping that only reports, never decides: a run that reports none of its figures can
 * leave it out, and the figures it does report stay the same to the bit. All of it is kept
 * by default.
 * - ACCESSED_PAGES: which cached pages were accessed, a bit a page (untouched_evicted_bytes,
 *   untouched_cached_bytes_*); left out, every cached page counts as accessed.
 * - TOUCHED_SET: the distinct pages ever accessed (touched_bytes); needs ACCESSED_PAGES,
 *   which says when a page is accessed for the first time in a stay.
 * - SHADOWS: the shadow entries evicted folios leave (refaults, refault_activations,
 *   refault_folios), where the LRU only counts refaults (plain); an LRU whose refaults decide
 *   (two lists, MGLRU: workingset_refault() activates) keeps them whatever the run reports.
 * - ADDRESSES: where each folio lies in memory, the buddy allocator's free lists and
 *   pageblocks (the memory section's figures, free_blocks, the samples of a time series);
 *   left out only where placement decides nothing (memory_count_pages()): the pages are then
 *   counted, not placed.
 */
enum model_keep {
	MODEL_KEEP_ACCESSED_PAGES = 1u << 0,
	MODEL_KEEP_TOUCHED_SET = 1u << 1,
	MODEL_KEEP_SHADOWS = 1u << 2,
	MODEL_KEEP_ADDRESSES = 1u << 3,
	MODEL_KEEP_ALL = MODEL_KEEP_ACCESSED_PAGES | MODEL_KEEP_TOUCHED_SET | MODEL_KEEP_SHADOWS |
			 MODEL_KEEP_ADDRESSES,
};

/* Before the first access: what of enum model_keep the run keeps. */
void model_set_keep(struct model *m, unsigned keep);
/*
 * The units' figures, indexed by unit (*n of them; a unit past it had none). NULL with *n 0
 * when none; *oom: memory ran out on the way and some figures are missing.
 */
const struct model_unit *model_units(const struct model *m, uint32_t *n, bool *oom);

#endif /* FT_MODEL_MODEL_H */
