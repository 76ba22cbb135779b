/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace record, user-space side: the parts recorder.c puts together.
 *   idset.c     set of (u32, u64) keys: files and tasks already described in the trace
 *   mounts.c    mounted filesystems: host description and path prefixes
 *   host.c      the FT_HOST record
 *   devices.c   the FT_DEVICE records: readahead, I/O size, tmpfs huge pages, mount options
 *   sampler.c   /proc/vmstat, /proc/meminfo, /proc/buddyinfo, memory cgroup samples
 *   consumer.c  ring-buffer records -> trace records (FT_FILE before a file's first event)
 *   cgroups.c   FT_CGROUP: the memory cgroup ids of tasks, named by their directories
 *   loader.c    BPF skeleton: filters, load, attach, lost counters
 *   progress.c  the live progress line
 *   memcg.c     a memory cgroup (v1 or v2) limiting the recorded command (--memory-limit)
 *   child.c     the traced command's process (-- COMMAND)
 */
#ifndef FT_RECORD_RECORD_H
#define FT_RECORD_RECORD_H

#include <linux/types.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "trace/trace.h"
#include "util/u64map.h"

/* ---- idset ---------------------------------------------------------------------------------- */

struct ft_idset {
	struct ft_idset_slot *slots;
	size_t cap;		/* power of two */
	size_t used;
};

void ft_idset_init(struct ft_idset *s);
void ft_idset_free(struct ft_idset *s);
/* Adds (a, b). Returns 1 when new, 0 when present, -1 when out of memory. */
int ft_idset_add(struct ft_idset *s, __u32 a, __u64 b);
bool ft_idset_has(const struct ft_idset *s, __u32 a, __u64 b);

/* ---- mounts --------------------------------------------------------------------------------- */

struct ft_mount {
	__u32 dev;		/* kernel encoding: major << 20 | minor */
	__u32 block_size;
	char *fstype;
	char *source;
	char *dir;		/* mount point of the filesystem root ("/" in mountinfo) */
	char *options;		/* the super block's options (mountinfo's last field) */
	bool pseudo;		/* proc, sysfs, cgroup...: no file data, left out of FT_HOST */
};

struct ft_mounts {
	struct ft_mount *m;
	size_t n;
};

/* Reads /proc/self/mountinfo: one entry per device. */
int ft_mounts_load(struct ft_mounts *ms, struct ft_error *err);
void ft_mounts_free(struct ft_mounts *ms);
const struct ft_mount *ft_mounts_find(const struct ft_mounts *ms, __u32 dev);
/* dev_t of user space (makedev) -> the kernel's s_dev encoding used in traces. */
__u32 ft_kdev(unsigned long long udev);

/* ---- host ----------------------------------------------------------------------------------- */

/*
 * Writes FT_HOST: uname, page size, MemTotal, CPUs, vm.dirty_*, the kinds of events this
 * kernel could not give (FT_UNREC_*) and the mounted devices; then an FT_DEVICE for each of
 * those devices.
 */
int ft_write_host(struct ft_writer *w, const struct ft_mounts *ms, __u32 flags,
		  __u16 unrecorded, __u64 memory_limit, struct ft_error *err);

/* ---- devices -------------------------------------------------------------------------------- */

/*
 * FT_DEVICE of a mounted filesystem, from sysfs and its mount options; sysfs: "/sys" (tests
 * give a tree of their own). Fields not found stay 0 (unknown).
 */
void ft_device_describe(const struct ft_mount *m, const char *sysfs, __u32 page_size,
			struct ft_device *d);
/* tmpfs huge= and the FT_DEV_* flags of a mount's super-block options. */
void ft_device_options(const char *fstype, const char *options, __u16 *huge, __u16 *flags);
__u64 ft_now_mono_ns(void);

/* ---- sampler -------------------------------------------------------------------------------- */

struct ft_sampler;

/* cgroup_dir: memory cgroup (v1) to sample as FT_SRC_CGROUP, or NULL. */
struct ft_sampler *ft_sampler_new(const char *cgroup_dir);
void ft_sampler_free(struct ft_sampler *s);
/* Reads every source and appends FT_COUNTER_NAMES (first time or when names change) and
 * FT_COUNTERS. A source that cannot be read is skipped (it may not exist here). */
int ft_sampler_sample(struct ft_sampler *s, struct ft_writer *w, struct ft_error *err);
/*
 * The same in two steps, so that the events before the reading can be written first: the
 * sample takes effect in a replay where it stands in the trace.
 */
int ft_sampler_read(struct ft_sampler *s, struct ft_error *err);
int ft_sampler_write(struct ft_sampler *s, struct ft_writer *w, struct ft_error *err);

/* Parsers, exposed for tests: text of the file -> names and values (caller frees via
 * ft_counter_list_free). */
struct ft_counter_list {
	char **names;
	__u64 *values;
	size_t n, cap;
};
void ft_counter_list_free(struct ft_counter_list *l);
int ft_parse_vmstat(const char *text, struct ft_counter_list *l);
int ft_parse_meminfo(const char *text, struct ft_counter_list *l);
int ft_parse_buddyinfo(const char *text, struct ft_counter_list *l);
int ft_parse_pagetypeinfo(const char *text, struct ft_counter_list *l);
/* debugfs extfrag/unusable_index (offset 0) or extfrag_index (offset 1000): thousandths */
int ft_parse_extfrag(const char *text, unsigned offset, struct ft_counter_list *l);

/* ---- cgroups ------------------------------------------------------------------------------- */

/* A cgroup named in the trace and found: where its limit files are, what they said last. */
struct known_cgroup {
	__u64 id;
	char *dir;
	struct ft_cgroup_limits limits;
};

struct ft_cgroups {
	struct ft_idset named;	/* (0, id) with an FT_CGROUP in the trace */
	const char *root;	/* mount point of the memory controller's hierarchy; NULL: none */
	bool v1;		/* its own (v1) hierarchy, else the unified one */
	struct known_cgroup *known;
	size_t n, cap;
};

/* The hierarchy from the mounts (ms outlives c). */
void ft_cgroups_init(struct ft_cgroups *c, const struct ft_mounts *ms);
void ft_cgroups_free(struct ft_cgroups *c);
/*
 * FT_CGROUP for id the first time it is met (none for 0), then its FT_CGROUP_LIMITS. 0, or -1
 * with err set.
 */
int ft_cgroups_name(struct ft_cgroups *c, struct ft_writer *w, __u64 ts, __u64 id,
		    struct ft_error *err);
/* FT_CGROUP_LIMITS for each cgroup named whose limits changed since last written. */
int ft_cgroups_check_limits(struct ft_cgroups *c, struct ft_writer *w, __u64 ts,
			    struct ft_error *err);
/* The limits of the cgroup directory dir, in a v1 or the v2 hierarchy (id and hdr untouched). */
void ft_cgroup_read_limits(const char *dir, bool v1, struct ft_cgroup_limits *l);
/* The directory under root whose inode number is id, as "/a/b" ("/": root); false: none. */
bool ft_cgroup_find(const char *root, __u64 id, char *path, size_t len);

/* ---- start state of the page cache (pageset.c, startcache.c, startpend.c) ------------------- */

/* Sorted, disjoint page ranges of one file. */
struct ft_pageset {
	struct ft_page_range *r;
	size_t n, cap;
};

void ft_pageset_free(struct ft_pageset *s);
/* 0, or -1 on ENOMEM. */
int ft_pageset_add(struct ft_pageset *s, __u64 start, __u64 len);
int ft_pageset_remove(struct ft_pageset *s, __u64 start, __u64 len);
bool ft_pageset_overlaps(const struct ft_pageset *s, __u64 start, __u64 len);
/* Does the set hold every page of [start, start + len)? */
bool ft_pageset_covers(const struct ft_pageset *s, __u64 start, __u64 len);
__u64 ft_pageset_pages(const struct ft_pageset *s);

struct ft_start_shadow_sets {
	struct ft_start_shadows ss;	/* counts and flags (the ranges' sets below) */
	struct ft_pageset old, recent;	/* pages evicted, their shadows left: not / recently */
};
/*
 * The pages of path (which must still be (dev, ino)) in the page cache now, without marking
 * any accessed, into *s; *sc gets the counts, flags, hdr.ts (when probed) and the probe's cost.
 * Where cachestat(2) counts shadow entries, the pages they stand for into *shadows.
 * -1: not probed (cannot open it, not the file, ENOMEM).
 */
int ft_start_cache_probe(const char *path, __u32 dev, __u64 ino, struct ft_start_cache *sc,
			 struct ft_pageset *s, struct ft_start_shadow_sets *shadows);

/* One file's probe while its records are held. */
struct ft_start_probe {
	struct ft_start_cache sc;
	struct ft_pageset start;	/* the start state */
	struct ft_start_shadow_sets shadows;
	struct ft_pageset added;	/* folios the trace inserted before the probe */
	struct ft_pageset readded;	/* of those, pages it had inserted before already */
	/* of the trace's insertions before the probe, those that refaulted, and were recent */
	struct ft_pageset refaulted, activated;
	__u64 corrected;		/* pages the folio events before the probe moved */
};

/* CLOCK_REALTIME in ns (host.c): the host record's start, the start state's file births */
__u64 ft_realtime_ns(void);

/* Records held until the probes made while reading them can be corrected (startpend.c). */
struct ft_start_hold {
	unsigned char *buf;
	size_t len, cap;
	struct ft_start_probe *p;
	size_t np, cap_p;
	/* totals, for the summary */
	__u64 probed, probe_ns, corrected;
	__u64 since_realtime_ns;	/* the recording's start: files born after have no start */
};

void ft_start_hold_free(struct ft_start_hold *h);
static inline bool ft_start_hold_active(const struct ft_start_hold *h)
{
	return h->np > 0;
}
/*
 * Probes a file met now; its records are held from here on. dirty: pages the trace wrote back
 * of it before, counted dirty with those the probe finds. 0, or -1 on ENOMEM.
 */
int ft_start_hold_probe(struct ft_start_hold *h, const char *path, __u32 dev, __u64 ino,
			__u64 dirty);
/*
 * Before the first probe, once the traced command is forked (it keeps its own setting): no
 * huge pages for this process (PR_SET_THP_DISABLE), unless it has a setting already. mincore(2)
 * probes through a mapping of the file, and a mapping of a file on a tmpfs that allows huge
 * pages registers the process with khugepaged (mm/khugepaged.c khugepaged_enter_vma()),
 * which may collapse the file's base pages while the mapping lasts: the recorder would change
 * the folios it records. Its own memory is not what the trace is about either.
 */
void ft_start_probes_keep_folios(void);
/* A record to write while the hold is active. */
int ft_start_hold_record(struct ft_start_hold *h, const struct ft_hdr *rec);
bool ft_start_hold_full(const struct ft_start_hold *h);
/* Writes the held records, each probe's FT_START_CACHE in its place, and empties the hold. */
int ft_start_hold_flush(struct ft_start_hold *h, struct ft_writer *w, struct ft_error *err);

/* ---- consumer ------------------------------------------------------------------------------- */

/*
 * startlate.c: files met in an event before their name, probed when it comes if the trace has
 * not changed their pages yet.
 */
struct ft_start_late {
	struct u64map files;	/* file_key(dev, ino) -> state and pages written back */
	size_t pending;		/* of them not named yet */
};

void ft_start_late_init(struct ft_start_late *l);
void ft_start_late_free(struct ft_start_late *l);
/* A file met without a name. 0, or -1 on ENOMEM. */
int ft_start_late_met(struct ft_start_late *l, __u32 dev, __u64 ino);
/* An event, of such a file or not: what it did to the file's pages. */
void ft_start_late_event(struct ft_start_late *l, const struct ft_hdr *h);
/*
 * The file (dev, ino) named: true when it was met without a name and may be probed now, with
 * *dirty the pages the trace wrote back of it before (dirty at the start).
 */
bool ft_start_late_named(struct ft_start_late *l, __u32 dev, __u64 ino, __u64 *dirty);

struct ft_consumer {
	struct ft_writer *w;
	const struct ft_mounts *mounts;
	struct ft_idset files;	/* (dev, ino) with an FT_FILE in the trace */
	struct u64map gens;	/* file_key(dev, ino) -> i_generation + 1 of its last name */
	struct ft_cgroups cgroups;	/* memory cgroups of the tasks */
	__u32 last_dev;		/* the file of the previous event: most events repeat it */
	__u64 last_ino;
	bool no_paths;
	bool no_start_cache;	/* --no-start-cache: files are not probed */
	struct ft_start_hold hold;
	struct ft_start_late late;	/* files met before their name */
	struct u64map unnamed;	/* file_key(dev, ino) -> 1 while its FT_FILE has no path */
	struct u64map opens;	/* ft_access.ofile -> opens of a struct file numbered so */
	bool dev_set;		/* --dev, applied here to truncate(2) by path */
	__u32 dev;
	bool failed;		/* a write failed: stop recording */
	struct ft_error err;
	__u64 events;		/* ring-buffer records turned into trace records */
};

void ft_consumer_init(struct ft_consumer *c, struct ft_writer *w, const struct ft_mounts *ms,
		      bool no_paths);
void ft_consumer_fini(struct ft_consumer *c);
/* ring_buffer_sample_fn: one record of the ring buffer. Non-zero stops the poll. */
int ft_consumer_handle(void *ctx, void *data, size_t size);
/*
 * Records held for the start state are written once a drain of the ring buffer that began at
 * drain_start (or later) is over: every event before the probes is read then. 0, or -1 with
 * c->err set.
 */
int ft_consumer_settle(struct ft_consumer *c, __u64 drain_start);
/*
 * A file met before any event of it (mapped when the recording starts): its FT_FILE and its
 * start state, unless already named. 0, or -1 with c->err set.
 */
int ft_consumer_file_at_start(struct ft_consumer *c, const char *path, __u32 dev, __u64 ino,
			      __u64 size, __u64 ts);
/* startmaps.c: the files the processes have mapped now, met as above. 0, or -1. */
int ft_start_maps(struct ft_consumer *c, const __u32 *pids, size_t npids);
static inline bool ft_consumer_holding(const struct ft_consumer *c)
{
	return ft_start_hold_active(&c->hold);
}

/* ---- loader --------------------------------------------------------------------------------- */

struct ft_filters {
	const __u32 *pids;	/* -p, or the command's pid */
	size_t npids;
	bool follow_forks;
	const char *comm;
	const char *cgroup;	/* cgroup v2 directory */
	bool dev_set;
	__u32 dev;
	bool no_paths;
};

struct ft_bpf;

/* Privileges, BTF and tracefs (mounted when missing): before anything is created. */
int ft_bpf_check(struct ft_error *err);
/* Loads and attaches (after ft_bpf_check). */
struct ft_bpf *ft_bpf_open(const struct ft_filters *f, __u64 ring_bytes, struct ft_error *err);
/* Traces one more process (the command, started after load). */
int ft_bpf_add_pid(struct ft_bpf *b, __u32 pid, struct ft_error *err);
int ft_bpf_ring_fd(const struct ft_bpf *b);
/* FT_UNREC_*: the kinds of events this kernel has no tracepoint for. */
__u16 ft_bpf_unrecorded(const struct ft_bpf *b);
void ft_bpf_detach(struct ft_bpf *b);
/*
 * Appends FT_LOST for counts that grew since the last call (per CPU and type), and returns
 * the total lost so far in *total.
 */
int ft_bpf_write_lost(struct ft_bpf *b, struct ft_writer *w, __u64 *total, struct ft_error *err);
void ft_bpf_close(struct ft_bpf *b);

/* ---- progress ------------------------------------------------------------------------------- */

struct record_progress {
	bool tty;
	__u64 last_ns, last_events;
	bool shown;
};

void record_progress_init(struct record_progress *p, int fd);
void record_progress_begin(struct record_progress *p, __u64 now_ns);
void record_progress_update(struct record_progress *p, __u64 now_ns, __u64 events, __u64 bytes,
			__u64 lost);
/* Ends the line so later messages start on their own. */
void record_progress_done(struct record_progress *p);

/* ---- memcg ---------------------------------------------------------------------------------- */

/* A memory cgroup for the command. */
struct ft_memcg {
	char *dir;		/* NULL when none */
	pid_t keeper;		/* removes dir once record is gone and the cgroup is empty */
	int keeper_fd;		/* closing it, or dying, lets the keeper do so */
};

/*
 * Creates a memory cgroup limited to limit bytes and its keeper (first removing cgroups of
 * recorders that no longer run).
 */
int ft_memcg_create(struct ft_memcg *m, __u64 limit, struct ft_error *err);
int ft_memcg_add(const struct ft_memcg *m, int pid, struct ft_error *err);
/* Removes the cgroup once its tasks are gone, or leaves that to the keeper. */
void ft_memcg_remove(struct ft_memcg *m);

/* ---- child ---------------------------------------------------------------------------------- */

struct ft_child {
	pid_t pid;
	int go_fd;		/* write a byte: exec now; close: give up */
	int exec_fd;		/* reads errno if exec failed, EOF when it succeeded */
	bool exited;
	int status;		/* waitpid status, once exited */
};

/* Forks cmd held before exec; the child gets orig_mask back. Warns and fails on error. */
int ft_child_fork(struct ft_child *c, char **cmd, const sigset_t *orig_mask, bool trace_stdout);
/* Lets the command run; false (with a message) when it could not be executed. */
bool ft_child_release(struct ft_child *c, const char *name);
/* Notes the exit status if the command has exited (ft_child_reap) or once it has (wait). */
void ft_child_reap(struct ft_child *c);
void ft_child_wait(struct ft_child *c);
/* Makes sure the command is gone: never run when still held, else SIGTERM. */
void ft_child_stop(struct ft_child *c);
/* Warns when the command failed or was killed (after it exited). */
void ft_child_report(const struct ft_child *c, const char *name);

#endif /* FT_RECORD_RECORD_H */
