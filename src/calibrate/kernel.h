/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the kernel did while the trace was recorded, read from its kernel events and counter
 * samples: the figures calibration holds the model against, and the configuration (readahead
 * window, folio orders per file) the model needs to run as that kernel did.
 */
#ifndef FT_CALIBRATE_KERNEL_H
#define FT_CALIBRATE_KERNEL_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "replay/files.h"
#include "replay/firstpass.h"
#include "trace/trace.h"

/* The sampled counters calibration compares against. */
enum kcounter {
	KC_REFAULT_FILE,	/* workingset_refault_file: pages */
	KC_DIRTIED,		/* nr_dirtied: pages */
	KC_WRITTEN,		/* nr_written: pages */
	KC_PGSTEAL_FILE,	/* pgsteal_file: pages */
	KC_INACTIVE_FILE,	/* nr_inactive_file (pages) or the cgroup's inactive_file (bytes) */
	KC_ACTIVE_FILE,
	KC_COMPACT_STALL,	/* compact_stall: direct compactions */
	KC_COMPACT_SUCCESS,	/* compact_success */
	KC_COMPACT_MIGRATE_SCANNED,	/* compact_migrate_scanned: pages, all compaction */
	KC_COMPACT_DAEMON_WAKE,	/* compact_daemon_wake: kcompactd woken */
	KC_NR
};

/* A /proc/buddyinfo sample, its zones summed: free blocks per order. */
struct kbuddy_sample {
	uint64_t ts;
	uint64_t nr_free[MODEL_MAX_ORDER + 1];
};

/* First and last sample of one counter. */
struct kcounter_span {
	bool seen;
	uint64_t first, last;
};

/* Per file (dev, ino), ids of its own table: its largest order and whether it was accessed. */
struct kfile {
	uint64_t add_folios, add_pages, add_by_order[MODEL_MAX_ORDER + 1];
	uint64_t del_folios, del_pages, del_by_order[MODEL_MAX_ORDER + 1];
	uint64_t dirty_folios, wb_inode_pages;
	uint64_t refault_pages, activate_pages;	/* FT_PAGECACHE_REFAULT, _ACTIVATE */
	uint64_t wb_fs_bytes;	/* its data written back, by its file system's count */
	uint32_t ra_sync, ra_windows;	/* sync readahead calls; windows opened (order, async) */
	/*
	 * the largest order its folios were added at, or its readahead state held when some
	 * were large (kernel.c note_ra_order()); MODEL_ORDER_DEFAULT: no page-cache add seen
	 */
	uint8_t max_order;
	uint8_t ra_max_order;	/* the largest ra->order its readahead events showed */
	bool accessed;		/* has FT_ACCESS records: the model sees it */
	bool dropped;		/* unlinked or truncated: its deletes are not reclaim */
	bool mmapped;		/* mapped: read by faults, not only by read/write calls */
	bool dontcache;		/* read or written with RWF_DONTCACHE: its deletes are drops */
	/* deletes by one task since its last access of the file: a DONTNEED call's, if one ends */
	uint32_t call_tid;
	uint64_t call_del_folios, call_del_pages;
	uint64_t dontneed_folios, dontneed_pages;	/* deleted by posix_fadvise(POSIX_FADV_DONTNEED) */
};

struct kernel_facts {
	bool skip_mmapped;			/* set by the caller: leave mapped files out */
	unsigned skipped_files;
	struct ft_host host;
	bool have_host;
	/* page-cache events of the accessed files */
	uint64_t add_folios, add_pages, add_by_order[MODEL_MAX_ORDER + 1];
	uint64_t del_folios, del_pages;		/* files never unlinked nor truncated */
	/* of those, files with RWF_DONTCACHE I/O, whose deletes are not counted above */
	uint64_t dontcache_del_pages;
	bool have_dontcache;
	/* pages posix_fadvise(POSIX_FADV_DONTNEED) dropped: not in del_* (no reclaim) */
	uint64_t dontneed_folios, dontneed_pages;
	bool have_dontneed;
	uint64_t dirty_folios;			/* writeback_dirty_folio events */
	/* pages of the refaults and recent refaults, per folio (format 1.5, kernels 6.14 on) */
	uint64_t refault_pages, activate_pages;
	uint64_t other_refault_pages;	/* of files the model does not see (metadata, ...) */
	bool have_refault_events;
	uint64_t wb_inode_pages;		/* writeback_single_inode: wrote */
	uint64_t wb_fs_bytes;			/* file systems' own writeback counts */
	bool have_wb_fs;			/* the trace has such counts */
	uint64_t wb_events;			/* all FT_WRITEBACK records */
	unsigned ra_pages;			/* largest readahead window, 0: no events */
	unsigned max_order;			/* largest order added in an accessed file */
	/* counters: system-wide (vmstat) and, under a memory cgroup, the cgroup's */
	struct kcounter_span vm[KC_NR], cg[KC_NR];
	bool have_cgroup;
	/* file ids as the replay driver assigns them, for the per-file orders */
	struct file_table replay_ids;
	struct file_table kids;
	struct kfile *kf;
	size_t nkf, kfcap;
	int vm_idx[KC_NR], cg_idx[KC_NR];	/* counter positions in the samples, -1: none */
	uint64_t kernel_events;			/* records of what the kernel did, all files */
	bool oom;				/* memory ran out: nothing more is noted */
	/*
	 * Set by the caller when a calibration of the same file follows: this read makes its
	 * replay's first pass too (replay/firstpass.h); first_done when cgroups and
	 * start_folios hold what it found (until calibrate takes them).
	 */
	bool want_first_pass;
	bool first_begun, first_failed, first_done;
	struct first_pass first;
	struct replay_cgroups cgroups;
	struct replay_start_folios start_folios;
	bool read_whole;			/* kernel_facts_read got to the end */
	uint64_t lost;
	/* the free memory over time (buddyinfo), and whether pagetypeinfo was sampled */
	int8_t *buddy_order;			/* per buddyinfo counter: its order, -1 none */
	unsigned nbuddy_names;
	struct kbuddy_sample *buddy;
	size_t nbuddy, buddy_cap;
	bool have_pagetypeinfo;
	/* /sys/kernel/mm/lru_gen/enabled as first sampled (bit 0: MGLRU ran), if the kernel has it */
	int lru_gen_idx;
	uint64_t lru_gen_enabled;
	bool have_lru_gen;
	/*
	 * tmpfs: its devices, and its accessed files whose insertions no event showed (shmem
	 * fires no mm_filemap_add_to_page_cache) nor a drop's deletes gave
	 */
	uint32_t shmem_devs[32];
	unsigned nshmem_devs;
	unsigned shmem_unseen;
};

/* Clears k, keeping skip_mmapped. */
void kernel_facts_init(struct kernel_facts *k);
/* Reads path once (after kernel_facts_init). 0, or -1 with err set. */
int kernel_facts_read(struct kernel_facts *k, const char *path, struct ft_error *err);
/*
 * The same from records another reader r takes (a replay): each record in the trace's order,
 * then the end, with that reader's status once it met the end of path without error.
 * kernel_facts_note() is -1 when memory ran out (nothing more is noted then; the end says
 * so).
 */
int kernel_facts_note(struct kernel_facts *k, const struct ft_reader *r, const struct ft_hdr *h);
int kernel_facts_end(struct kernel_facts *k, const char *path, const struct ft_reader_status *st,
		     struct ft_error *err);

/* Whether the model sees the file: accessed, and not left out as mapped. */
static inline bool kfile_modelled(const struct kernel_facts *k, const struct kfile *f)
{
	return f->accessed && !(k->skip_mmapped && f->mmapped);
}

/*
 * Copies path to fd (a new trace, named copy_name in messages) without the accesses of the
 * files left out; the replay file ids are recomputed from what was copied. The copy always
 * ends cleanly: when path was cut or damaged, the reader's line about it is printed here and
 * *cut set, since the replay of the copy cannot see it. fd is closed. 0, or -1 with err set.
 */
int kernel_write_modelled(struct kernel_facts *k, const char *path, int fd,
			  const char *copy_name, bool *cut, struct ft_error *err);
void kernel_facts_release(struct kernel_facts *k);

/*
 * The largest order per replay file id (MODEL_ORDER_DEFAULT where the kernel added nothing),
 * malloc'ed, *n entries; NULL with *n 0 when there are no files or memory.
 */
uint8_t *kernel_file_orders(struct kernel_facts *k, uint32_t *n);

/* The kfile of (dev, ino), added when new; NULL on ENOMEM. */
struct kfile *kernel_kfile(struct kernel_facts *k, __u32 dev, __u64 ino);

/* Sync readahead calls at least this often with no window opened: readahead was off. */
#define KFILE_RA_OFF_MIN_SYNC	8

/*
 * Per replay file id, 1 where the kernel read the file without readahead windows, malloc'ed,
 * n entries (as kernel_file_orders gave); NULL when there are none or no memory.
 */
uint8_t *kernel_file_ra_off(struct kernel_facts *k, uint32_t n, unsigned *nset);

/* last - first of a counter, 0 when it was not sampled. */
static inline uint64_t kcounter_delta(const struct kcounter_span *s)
{
	return s->seen && s->last > s->first ? s->last - s->first : 0;
}

#endif /* FT_CALIBRATE_KERNEL_H */
