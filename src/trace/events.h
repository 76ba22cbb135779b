/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace record layouts: the one definition both sides use.
 *
 * The BPF programs (bpf/) fill these structs into the ring buffer; src/record/ copies them
 * unchanged into trace chunks; src/trace/ reads them back. Everything is little-endian, naturally aligned and
 * padded by hand so the layout is the same for clang -target bpf and for the host compiler.
 * Every record starts with struct ft_hdr and its size is a multiple of 8.
 *
 * Include <linux/types.h> (user space) or vmlinux.h (BPF) first: only __u8.. __u64 are used.
 * The byte-by-byte description is folio-trace(5); keep the two in step.
 */
#ifndef FT_TRACE_EVENTS_H
#define FT_TRACE_EVENTS_H

#define FT_COMM_LEN	16
#define FT_RELEASE_LEN	65
#define FT_FSTYPE_LEN	16
#define FT_DEVNAME_LEN	32

enum ft_type {
	/* Trace metadata, written by user space. */
	FT_HOST = 1,		/* struct ft_host + ndevs * struct ft_host_dev */
	FT_FILE = 2,		/* struct ft_file + path bytes */
	FT_TASK = 3,		/* struct ft_task: tid -> pid, comm */
	FT_COUNTER_NAMES = 4,	/* struct ft_counter_names + NUL-separated names */
	FT_COUNTERS = 5,	/* struct ft_counters + count * __u64 */
	FT_LOST = 6,		/* struct ft_lost */
	FT_END = 7,		/* struct ft_end: clean end of recording */
	FT_DEVICE = 8,		/* struct ft_device: one per device of FT_HOST, after it */
	FT_CGROUP = 9,		/* struct ft_cgroup + path bytes: a memory cgroup's name (1.1) */
	FT_CGROUP_LIMITS = 10,	/* struct ft_cgroup_limits: a memory cgroup's limits (1.2) */
	FT_START_CACHE = 11,	/* struct ft_start_cache + nranges * struct ft_page_range: a
				 * file's pages cached before the trace (1.3) */
	FT_START_SHADOWS = 12,	/* struct ft_start_shadows + nranges * struct ft_page_range: a
				 * file's pages evicted before the trace whose shadow entries
				 * remain (1.4) */

	/* What the application asked for: drives the replay. */
	FT_ACCESS = 16,		/* struct ft_access */

	/* What the kernel did: for calibration. */
	FT_PAGECACHE_ADD = 32,	/* struct ft_folio_event */
	FT_PAGECACHE_DELETE = 33, /* struct ft_folio_event */
	FT_FOLIO_DIRTY = 34,	/* struct ft_folio_event (FT_ORDER_UNKNOWN where not known) */
	FT_WRITEBACK = 35,	/* struct ft_writeback */
	FT_VMSCAN = 36,		/* struct ft_vmscan */
	FT_READAHEAD = 37,	/* struct ft_readahead */
	FT_BLOCK = 38,		/* struct ft_block: one block-layer request completed */
	FT_PAGECACHE_REFAULT = 39, /* struct ft_folio_event: the folio just inserted replaced a
				 * shadow entry (workingset_refault_file counted it) (1.5) */
	FT_PAGECACHE_ACTIVATE = 40, /* struct ft_folio_event: that refault was recent
				 * (workingset_activate_file counted it) (1.5) */

	FT_TYPE_MAX = 64	/* types are < FT_TYPE_MAX; readers skip types they do not know */
};

/* Common header. ts: CLOCK_MONOTONIC ns (bpf_ktime_get_ns) for events; write time for metadata. */
struct ft_hdr {
	__u16 type;		/* enum ft_type */
	__u16 size;		/* whole record in bytes, header included, multiple of 8 */
	__u32 tid;		/* thread id (0 for records made by folio-trace itself) */
	__u64 ts;
};

/* ---- metadata ------------------------------------------------------------------------------ */

struct ft_host_dev {
	__u32 dev;		/* kernel dev_t encoding: major << 20 | minor (s_dev) */
	__u32 block_size;	/* filesystem block size, bytes */
	char fstype[FT_FSTYPE_LEN];	/* "ext4", "xfs", "tmpfs", ... */
	char name[FT_DEVNAME_LEN];	/* mount source, e.g. "/dev/vda" (NUL padded) */
};

struct ft_host {
	struct ft_hdr hdr;
	__u64 mem_bytes;	/* MemTotal */
	__u64 memory_limit;	/* memory cgroup limit of the recorded command, 0 if none */
	__u64 start_realtime_ns; /* CLOCK_REALTIME at start of recording */
	__u64 start_mono_ns;	/* CLOCK_MONOTONIC at the same instant */
	__u32 page_size;
	__u32 ncpus;
	/* writeback sysctls (vm.*) at start; 0 where unknown, except the *_bytes forms */
	__u32 dirty_background_ratio;
	__u32 dirty_ratio;
	__u64 dirty_background_bytes;
	__u64 dirty_bytes;
	__u32 dirty_expire_centisecs;
	__u32 dirty_writeback_centisecs;
	__u32 ndevs;		/* struct ft_host_dev entries following */
	__u32 flags;		/* FT_HOST_* */
	char release[FT_RELEASE_LEN];	/* uname -r */
	char hostname[FT_RELEASE_LEN];
	__u16 unrecorded;	/* FT_UNREC_*: events this kernel has no tracepoint for (1.2) */
	__u8 pad[4];
	/* struct ft_host_dev devs[ndevs]; */
};

/*
 * What the page cache of a device does that FT_HOST does not say: readahead and I/O sizes
 * of its backing device (bdi), tmpfs huge pages, and mount options that change writeback.
 */
struct ft_device {
	struct ft_hdr hdr;
	__u32 dev;		/* s_dev as in ft_host_dev */
	__u32 ra_pages;		/* the bdi's read_ahead_kb in pages; 0 unknown */
	__u32 io_pages;		/* the bdi's io_pages: the block queue's max_sectors_kb in
				 * pages; 0 unknown */
	__u16 huge;		/* enum ft_huge: tmpfs huge= */
	__u16 flags;		/* FT_DEV_* */
};

enum ft_huge {
	FT_HUGE_UNKNOWN = 0,	/* not tmpfs, or not known */
	FT_HUGE_NEVER = 1,
	FT_HUGE_ALWAYS = 2,
	FT_HUGE_WITHIN_SIZE = 3,
	FT_HUGE_ADVISE = 4,
};

#define FT_DEV_DATA_JOURNAL	(1u << 0)	/* ext4 mounted data=journal */
#define FT_DEV_DAX		(1u << 1)	/* dax: file data bypasses the page cache */
#define FT_DEV_SYNC		(1u << 2)	/* mounted sync: every write is written through */

#define FT_HOST_NO_PATHS	(1u << 0)	/* recorded with --no-paths */
#define FT_HOST_SYNTHETIC	(1u << 1)	/* made by synth/import, not recorded live */
/* the memory cgroups' statistics flushes are in the trace (FT_VM_MEMCG_FLUSH) */
#define FT_HOST_MEMCG_FLUSHES	(1u << 2)
/*
 * the accesses are of files whose filesystem caches pages: procfs, sysfs and the like are left
 * out. Traces without it hold reads of those too (see replay's files_without_page_cache).
 */
#define FT_HOST_PAGECACHE_FS	(1u << 3)

/*
 * ft_host.unrecorded: kinds of events the recording kernel could not give (it lacks their
 * tracepoints), so the trace holds none of them whatever the workload did. 0 in traces
 * before 1.2 and wherever everything was recorded.
 */
#define FT_UNREC_MMAP_READS	(1u << 0)	/* mm_filemap_fault and _map_pages: 6.12 on */
#define FT_UNREC_READAHEAD	(1u << 1)	/* page_cache_ra_* (FT_READAHEAD): 6.18 on */
#define FT_UNREC_IOMAP_WB	(1u << 2)	/* iomap (xfs) writeback bytes */
#define FT_UNREC_EXT4_WB	(1u << 3)	/* ext4_writepages_result */
#define FT_UNREC_BTRFS_WB	(1u << 4)	/* btrfs_finish_ordered_extent (btrfs loaded) */
#define FT_UNREC_IO_URING	(1u << 5)	/* io_uring completions */
#define FT_UNREC_RECLAIM	(1u << 6)	/* one or more mm_vmscan_* */
#define FT_UNREC_BLOCK		(1u << 7)	/* block_rq_complete */
#define FT_UNREC_PAGECACHE	(1u << 8)	/* page-cache insertions and deletions */
#define FT_UNREC_DIRTY		(1u << 9)	/* writeback_dirty_folio */
#define FT_UNREC_WRITEBACK	(1u << 10)	/* writeback_single_inode, _pages_written */
#define FT_UNREC_PROCESSES	(1u << 11)	/* fork, exec, cgroup moves */
#define FT_UNREC_MEMCG_FLUSH	(1u << 12)	/* memcg_flush_stats: 6.14 on */
#define FT_UNREC_REFAULTS	(1u << 13)	/* mod_memcg_lruvec_state (refaults): 6.14 on */
#define FT_UNREC_KINDS		14

/*
 * A file seen in the trace. Emitted once per file before its first event: once per (dev, ino),
 * and again, marked FT_FILE_REUSED, for a new file whose inode took the number of one the
 * trace named before (since 1.3): readers take the events after it as another file's.
 */
struct ft_file {
	struct ft_hdr hdr;
	__u64 ino;
	__u64 size;		/* i_size when first seen */
	__u32 dev;
	__u16 path_len;		/* bytes of path following, no NUL; 0 when unknown/--no-paths */
	__u16 flags;		/* FT_FILE_* */
	/* char path[path_len], then zero padding to a multiple of 8 */
};

#define FT_FILE_REUSED	(1u << 0)	/* (dev, ino) named before: a new file (i_generation) */
/*
 * the path of a file an earlier FT_FILE met without one (first met in a kernel event, its name
 * known later): the same file, named now (since 1.5)
 */
#define FT_FILE_NAMED	(1u << 1)

/*
 * The pages of a file that were in the page cache before the trace, probed without touching
 * their LRU state (cachestat(2), mincore(2) on a PROT_READ MAP_SHARED mapping: neither marks a
 * folio accessed) when the recorder first meets the file, after its FT_FILE. Pages the trace's
 * own FT_PAGECACHE_ADD events inserted before the probe are taken out, pages its
 * FT_PAGECACHE_DELETE events removed before the probe put back, so the ranges are the cache as
 * it was before the file's first event. A file with more ranges than one record holds has
 * several records; the counts are the same in each. A file first met in a writeback event (no
 * path) is probed when an access names it, nr_dirty counting the pages written back in
 * between. No record: the file was not probed (no path to open, its pages changed by the trace
 * before its name came, --no-start-cache, or a trace before 1.3), which readers take as
 * unknown.
 * Folio orders are not known to user space: readers apply the rule folio-trace(5) states.
 */
struct ft_start_cache {
	struct ft_hdr hdr;	/* hdr.ts: when probed */
	__u64 ino;
	__u64 nr_cache;		/* pages cached, all records of the file: the ranges' sum */
	__u64 nr_dirty;		/* of them dirty, as cachestat counted them at the probe */
	__u64 nr_writeback;	/* of them under writeback, likewise */
	__u64 probe_ns;		/* what the probe cost, ns */
	__u32 dev;
	__u16 flags;		/* FT_SC_* */
	__u16 nranges;		/* struct ft_page_range entries following in this record */
	/* struct ft_page_range ranges[nranges]; */
};

/* [start, start + len) pages of the file, sorted and disjoint within a record */
struct ft_page_range {
	__u64 start;
	__u64 len;
};

#define FT_SC_CACHESTAT	(1u << 0)	/* counts from cachestat(2) (6.5 on) */
#define FT_SC_MINCORE	(1u << 1)	/* ranges from mincore(2) (else cachestat alone) */
#define FT_SC_NO_DIRTY	(1u << 2)	/* dirty and writeback not known: no cachestat, or
					 * the trace's events moved pages before the probe */
#define FT_SC_CUT	(1u << 3)	/* more ranges than the recorder keeps: the last is cut */

/*
 * Pages of a file evicted before the trace whose shadow entries are still in its page cache
 * (cachestat(2)'s nr_evicted, 6.5 on): a read of one is a refault (workingset_refault()).
 * Each record's ranges are all recently evicted (FT_SS_RECENT: cachestat's
 * nr_recently_evicted, a refault distance within the workingset at the probe, so they would
 * come back active) or none are. Written after the file's FT_START_CACHE records.
 */
struct ft_start_shadows {
	struct ft_hdr hdr;	/* hdr.ts: when probed */
	__u64 ino;
	__u64 nr_evicted;	/* pages with a shadow entry, the whole file, at the probe */
	__u64 nr_recent;	/* of them recently evicted */
	__u64 probe_ns;		/* what locating them cost, ns */
	__u32 dev;
	__u16 flags;		/* FT_SS_* */
	__u16 nranges;		/* struct ft_page_range entries following in this record */
	/* struct ft_page_range ranges[nranges]; */
};

#define FT_SS_RECENT	(1u << 0)	/* this record's ranges were recently evicted */
#define FT_SS_CUT	(1u << 1)	/* more ranges than the recorder locates: some left out */

struct ft_task {
	struct ft_hdr hdr;	/* hdr.tid: the thread */
	__u32 pid;		/* thread group id */
	__u32 pad;
	char comm[FT_COMM_LEN];
	/* Since 1.1 (older records end before it: ft_task_cgroup() reads it): the id of the
	 * thread's memory cgroup when it was announced, as an FT_CGROUP names it; 0 unknown. */
	__u64 cgroup;
};

#define FT_TASK_SIZE_1_0	40	/* struct ft_task without cgroup */

/*
 * A memory cgroup some task of the trace was in, before the first FT_TASK that names it. id is
 * the kernel's id of the cgroup (its kernfs node: the inode number of its directory); the
 * path is the directory under the root of its hierarchy, "/" for the root itself, empty when
 * the cgroup was gone before it could be looked up.
 */
struct ft_cgroup {
	struct ft_hdr hdr;
	__u64 id;
	__u16 path_len;		/* bytes of path following, no NUL */
	__u16 flags;		/* FT_CG_* */
	__u32 pad;
	/* char path[path_len], then zero padding to a multiple of 8 */
};

#define FT_CG_V1	(1u << 0)	/* the memory controller's own (v1) hierarchy, else v2 */

#define FT_LIMIT_NONE	(~0ull)	/* a limit set to "max", unlimited, or not known */

/*
 * A memory cgroup's limits in bytes: after its FT_CGROUP, and again when the recorder's
 * sampling (--interval) sees one change. v2: memory.max, .high, .low and .min; v1:
 * memory.limit_in_bytes as max and memory.soft_limit_in_bytes as soft, high FT_LIMIT_NONE,
 * low and min 0. A limit v2 does not have (soft) is FT_LIMIT_NONE.
 */
struct ft_cgroup_limits {
	struct ft_hdr hdr;
	__u64 id;		/* as in ft_cgroup */
	__u64 max, high, low, min, soft;
};

enum ft_counter_source {
	FT_SRC_VMSTAT = 1,	/* /proc/vmstat, by name */
	FT_SRC_MEMINFO = 2,	/* /proc/meminfo, values in bytes */
	FT_SRC_BUDDYINFO = 3,	/* /proc/buddyinfo: names "NODE/ZONE/ORDER", free blocks */
	FT_SRC_CGROUP = 4,	/* memory cgroup of the recorded command (memory.stat and usage) */
	FT_SRC_PAGETYPEINFO = 5, /* /proc/pagetypeinfo: "NODE/ZONE/TYPE/ORDER" free blocks,
				  * "NODE/ZONE/TYPE/blocks" pageblocks, "pageblock_order" */
	FT_SRC_EXTFRAG_UNUSABLE = 6, /* debugfs extfrag/unusable_index: "NODE/ZONE/ORDER",
				  * thousandths */
	FT_SRC_EXTFRAG_INDEX = 7, /* debugfs extfrag/extfrag_index: "NODE/ZONE/ORDER",
				  * thousandths plus 1000 (-1.000 is 0) */
	FT_SRC_LRU_GEN = 8,	/* /sys/kernel/mm/lru_gen: "enabled" (the mask, 0 off: MGLRU
				 * runs when its bit 0 is set), "min_ttl_ms" */
};

/* Names for one source's counters; a later FT_COUNTER_NAMES for a source replaces the earlier. */
struct ft_counter_names {
	struct ft_hdr hdr;
	__u16 source;		/* enum ft_counter_source */
	__u16 count;
	__u32 names_len;	/* bytes of names following: count NUL-terminated strings */
	/* char names[names_len], then zero padding to a multiple of 8 */
};

struct ft_counters {
	struct ft_hdr hdr;	/* hdr.ts: when sampled */
	__u16 source;
	__u16 count;		/* equals the count of the source's names record */
	__u32 pad;
	/* __u64 values[count]; */
};

/* Events lost between the kernel and the trace. type 0: unknown type (ring buffer full). */
struct ft_lost {
	struct ft_hdr hdr;
	__u32 cpu;
	__u16 type;
	__u16 pad;
	__u64 count;
};

struct ft_end {
	struct ft_hdr hdr;
	__u64 events;		/* event records written (all types but metadata) */
	__u64 lost;		/* sum of all FT_LOST counts */
};

/* ---- application accesses ------------------------------------------------------------------ */

enum ft_access_op {
	FT_OP_READ = 1,		/* read/pread64/readv/preadv(2): [pos, pos+len) bytes returned */
	FT_OP_WRITE = 2,	/* write/pwrite64/writev/pwritev(2): bytes written */
	FT_OP_MMAP_READ = 3,	/* filemap fault/map_pages: pages [pos, pos+len) mapped;
				 * arg = enum ft_mmap_kind */
	FT_OP_MMAP_WRITE = 4,	/* write fault on a shared file mapping */
	FT_OP_FSYNC = 5,	/* fsync: whole file */
	FT_OP_FDATASYNC = 6,	/* fdatasync: whole file */
	FT_OP_SYNC_RANGE = 7,	/* sync_file_range: [pos, pos+len), len 0 = to EOF; arg = flags */
	FT_OP_TRUNCATE = 8,	/* truncate/ftruncate: new size in pos */
	FT_OP_FALLOCATE = 9,	/* fallocate: [pos, pos+len); arg = mode */
	FT_OP_UNLINK = 10,	/* last link of the file removed: its cache is dropped */
	FT_OP_FADVISE = 11,	/* posix_fadvise: [pos, pos+len), len 0 = to EOF; arg = POSIX_FADV_* */
	FT_OP_MADVISE = 12,	/* madvise on a file mapping: [pos, pos+len) of the FILE the
				 * advised addresses map; arg = MADV_* */
	FT_OP_SYNC = 13,	/* sync(2): every file system; dev and ino 0 (1.3) */
	FT_OP_SYNCFS = 14,	/* syncfs(2): the file system of dev; ino 0 (1.3) */
	FT_OP_MAX
};

/*
 * FT_OP_READ and FT_OP_WRITE's arg: the interface that moved the bytes. The data of the in-kernel
 * copies never reaches the caller's memory; each side of one is a record of its own.
 */
enum ft_rw_via {
	FT_VIA_SYSCALL = 0,	/* read/write(2) and their p, v and 2 forms */
	FT_VIA_IO_URING = 1,	/* io_uring READ/WRITE, READV/WRITEV, *_FIXED: bytes completed */
	FT_VIA_AIO = 2,		/* io_submit(2) PREAD/PWRITE/PREADV/PWRITEV: bytes asked for */
	FT_VIA_COPY_FILE_RANGE = 3,
	FT_VIA_SENDFILE = 4,
	FT_VIA_SPLICE = 5,	/* splice(2): the side that is a file */
};

/*
 * FT_OP_MMAP_READ's arg: which kernel path mapped the pages. A fault (filemap_fault) reads a
 * missing page, with read-around; fault-around (filemap_map_pages) maps only pages already
 * cached and uptodate, never reads. 0: not recorded (older traces, imports). A replay takes
 * any other value for a fault.
 */
enum ft_mmap_kind {
	FT_MMAP_UNKNOWN = 0,
	FT_MMAP_FAULT = 1,	/* mm_filemap_fault: one page */
	FT_MMAP_AROUND = 2,	/* mm_filemap_map_pages: the range fault-around tried */
	/*
	 * a tmpfs file's page not present in the faulting process (the page fault itself:
	 * shmem_fault() fires no mm_filemap_fault), one page, before the fault is handled;
	 * FT_OP_MMAP_WRITE's arg too (1.8)
	 */
	FT_MMAP_SHMEM = 3,
};

#define FT_AF_DIRECT	(1u << 0)	/* O_DIRECT: bypasses the page cache */
#define FT_AF_APPEND	(1u << 1)	/* O_APPEND */
#define FT_AF_VECTOR	(1u << 2)	/* readv/writev family */
#define FT_AF_POSITIONAL (1u << 3)	/* pread/pwrite family: file position unchanged */
#define FT_AF_SYNC	(1u << 4)	/* O_SYNC/O_DSYNC or RWF_*SYNC write */
/* RWF_DONTCACHE read or write (6.14+): its folios leave the cache once used (1.3) */
#define FT_AF_DONTCACHE	(1u << 5)
/* mmap_read or mmap_write through a VM_EXEC mapping (1.3); 0 in older traces: not exec */
#define FT_AF_EXEC	(1u << 6)

struct ft_access {
	struct ft_hdr hdr;
	__u64 ino;
	__u64 pos;		/* byte offset in the file */
	__u64 len;		/* bytes (result of the syscall, never negative) */
	__u64 isize;		/* i_size after the operation */
	__u32 dev;
	__u16 op;		/* enum ft_access_op */
	__u16 flags;		/* FT_AF_* */
	__u32 arg;		/* per-op argument (see enum ft_access_op) */
	/*
	 * The open file the access went through (1.7): the same number for every access of one
	 * struct file (an open(2), shared by dup(2) and fork(2); a mapping's vm_file), which
	 * keeps its own readahead state; 0 where unknown (older traces, imports, sync(2)).
	 * Recorders number them apart within a trace, not across traces.
	 */
	__u32 ofile;
};

/* ---- kernel events ------------------------------------------------------------------------- */

#define FT_ORDER_UNKNOWN 0xff

/* filemap:mm_filemap_add_to_page_cache / delete_from_page_cache, writeback:writeback_dirty_folio */
struct ft_folio_event {
	struct ft_hdr hdr;
	__u64 ino;
	__u64 index;		/* page index of the folio's first page */
	__u64 pfn;
	__u32 dev;
	__u8 order;		/* folio order, FT_ORDER_UNKNOWN where the event has none */
	__u8 flags;		/* FT_FE_* (since 1.5; 0 before) */
	__u8 pad[2];
};

/*
 * pagecache_delete by a proactive reclaimer: a DAMON worker thread (kdamond) evicting the
 * cold folios its pageout scheme finds (mm/damon/paddr.c, damon_pa_pageout(), through
 * reclaim_pages() and shrink_folio_list()), which no memory pressure of the trace decides
 */
#define FT_FE_PROACTIVE	(1u << 0)

enum ft_writeback_kind {
	FT_WB_WRITTEN = 1,	/* pages written by one writeback pass (writeback_pages_written:
				 * per bdi, dev 0) */
	FT_WB_SINGLE_INODE = 2,	/* writeback:writeback_single_inode: one inode, nr_pages = wrote */
	FT_WB_WRITEPAGE = 3,	/* one folio started, index set (reserved: the kernel's
				 * wbc_writepage event names no inode) */
	FT_WB_IOMAP = 4,	/* iomap:iomap_writeback_folio: nr_pages = bytes queued (bytes!) */
	FT_WB_EXT4 = 5,		/* ext4:ext4_writepages_result: nr_pages = pages submitted for
				 * the inode's data, index = its writeback_index */
	FT_WB_BTRFS = 6,	/* btrfs:btrfs_finish_ordered_extent: index = first page of a
				 * range of file data written, nr_pages = its bytes (bytes!) */
};

struct ft_writeback {
	struct ft_hdr hdr;
	__u64 ino;		/* 0 when the event is per bdi */
	__u64 index;
	__u64 nr_pages;		/* pages (bytes for FT_WB_IOMAP) */
	__u32 dev;
	__u16 kind;		/* enum ft_writeback_kind */
	__u16 reason;		/* kernel's enum wb_reason where known */
};

enum ft_vmscan_kind {
	FT_VM_LRU_ISOLATE = 1,		/* nr_scanned = nr_taken, a = lru */
	FT_VM_SHRINK_INACTIVE = 2,
	FT_VM_SHRINK_ACTIVE = 3,	/* nr_scanned = taken, nr_reclaimed = deactivated */
	FT_VM_WRITE_FOLIO = 4,		/* a = pfn */
	FT_VM_KSWAPD_WAKE = 5,		/* a = order */
	FT_VM_DIRECT_RECLAIM = 6,	/* a = order */
	/*
	 * memcg:memcg_flush_stats that flushed (force or needs_flush): the memory cgroups'
	 * statistics reclaim's shadow shrinker reads (count_shadow_nodes()) were brought up to
	 * date. a = the flushed cgroup's id (as ft_cgroup's; its subtree is flushed),
	 * nr_scanned = its pending updates. 6.14 on.
	 */
	FT_VM_MEMCG_FLUSH = 7,
};

struct ft_vmscan {
	struct ft_hdr hdr;
	__u64 nr_scanned;
	__u64 nr_reclaimed;
	__u64 nr_dirty;
	__u64 nr_writeback;
	__u64 nr_immediate;
	__u64 nr_activate;	/* file list */
	__u64 a;		/* kind-specific, see enum ft_vmscan_kind */
	__u32 nid;
	__u16 kind;
	__s16 priority;
};

enum ft_readahead_kind {
	FT_RA_UNBOUNDED = 1,	/* readahead:page_cache_ra_unbounded */
	FT_RA_ORDER = 2,	/* readahead:page_cache_ra_order */
	FT_RA_SYNC = 3,		/* readahead:page_cache_sync_ra */
	FT_RA_ASYNC = 4,	/* readahead:page_cache_async_ra */
};

struct ft_readahead {
	struct ft_hdr hdr;
	__u64 ino;
	__u64 index;		/* start (window start or request index) */
	__u64 size;		/* window pages (or req_count for sync/async) */
	__u64 async_size;
	__u32 dev;
	__u16 kind;
	__u8 order;
	__u8 pad;
};

enum ft_block_op {
	FT_BLK_READ = 1,
	FT_BLK_WRITE = 2,
	FT_BLK_FLUSH = 3,
	FT_BLK_DISCARD = 4,	/* discard, secure erase, write zeroes */
	FT_BLK_OTHER = 5,
};

#define FT_BLK_SYNC	(1u << 0)	/* REQ_SYNC */
#define FT_BLK_META	(1u << 1)	/* REQ_META: filesystem metadata */
#define FT_BLK_FUA	(1u << 2)	/* REQ_FUA */
#define FT_BLK_PREFLUSH	(1u << 3)	/* REQ_PREFLUSH: cache flush first */

/*
 * block:block_rq_complete: a request of a block device done, whatever issued it (file data,
 * journal, metadata, swap, raw device I/O): the device's own total. hdr.ts is the completion.
 */
struct ft_block {
	struct ft_hdr hdr;
	__u64 sector;		/* first 512-byte sector */
	__u64 start_ns;		/* when the request was made (CLOCK_MONOTONIC); 0 unknown */
	__u64 issue_ns;		/* when it went to the device; 0 unknown */
	__u32 dev;		/* the partition (or whole disk) as s_dev encodes it */
	__u32 bytes;		/* bytes completed */
	__u8 op;		/* enum ft_block_op */
	__u8 error;		/* the kernel's blk_status_t: 0 done */
	__u16 flags;		/* FT_BLK_* */
	__u32 pad;
};

#endif /* FT_TRACE_EVENTS_H */
