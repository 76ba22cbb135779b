// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The record programs' settings, written by user space (src/record/loader.c) before load, and
 * their maps. Everything the programs keep between two events is here.
 */
#ifndef FT_BPF_MAPS_H
#define FT_BPF_MAPS_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "trace/events.h"
#include "record.h"

/* Set by user space before load. */
const volatile __u32 self_tgid;		/* folio-trace itself: never traced */
const volatile bool filter_pids;	/* only processes in the pids map */
const volatile bool follow_forks;	/* children of traced processes are traced */
const volatile bool filter_comm;
const volatile char comm_filter[FT_COMM_LEN];
const volatile bool filter_cgroup;	/* only tasks under cgroups[0] */
const volatile bool filter_dev;
const volatile __u32 dev_filter;
const volatile bool no_paths;
const volatile __u64 wakeup_bytes = 1 << 20;	/* wake the reader once this much is queued */
/* mixed into the open files' numbers (file.bpf.h ofile_id()): the recorder's own, random */
const volatile __u64 ofile_key;
const volatile bool track_refaults;	/* the refault counts' tracepoint is attached */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 24);	/* resized by user space */
} events SEC(".maps");

/* Lost records per CPU, indexed by record type. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FT_TYPE_MAX);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FT_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u8);
} pids SEC(".maps");

/*
 * The page fault in progress on each CPU (exceptions:page_fault_user, _kernel), for the
 * events inside it, which are not given the VMA: its address, and the thread, since another
 * task may run on the CPU in between; whether it is a write, and whether a tmpfs page it maps
 * is still to be recorded (record.bpf.c shmem_mapped()).
 */
struct fault_vma {
	__u64 address;
	__u32 tid;
	__u8 shmem_pending;
	__u8 write;
	__u8 pad[2];
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct fault_vma);
} fault_vmas SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cgroups SEC(".maps");

/* What the filters say of a task: src/record/ never sees the events of untraced ones. */
enum verdict {
	V_UNTRACED = 0,
	V_TRACED = 1,
	V_SELF = 2,		/* folio-trace itself: not even its kernel events */
};

/*
 * Per thread: the filters' verdict, computed once (again after exec), and whether it was
 * announced with FT_TASK. Task storage is found from the task itself and goes away with it.
 */
struct task_state {
	__u8 known;		/* verdict computed */
	__u8 verdict;		/* enum verdict */
	__u8 announced;
	__u8 inserted_kept;	/* the folio below is the task's last insertion, and kept */
	__u8 inserted_order;
	__u8 pad[3];
	char comm[FT_COMM_LEN];	/* as announced */
	/* the folio the task inserted last: the refault counts that follow it are its */
	__u64 inserted_ino;
	__u64 inserted_index;
	__u64 inserted_pfn;
	__u32 inserted_dev;
	__u32 pad2;
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_state);
} tasks SEC(".maps");

/*
 * Per CPU: the task of the last event here and what its events need. A thread making call
 * after call (the common case) then costs a per-CPU array lookup, which the verifier inlines,
 * instead of a task-storage lookup and the filters. exec_gen moves on every exec, which may
 * change a verdict or a name: entries of an older generation are refreshed.
 */
struct cpu_state {
	__u64 task;		/* task_struct address; with pid_tgid it names one task */
	__u64 pid_tgid;
	__u32 gen;		/* exec_gen when filled */
	__u8 verdict;		/* the task's */
	__u8 announced;		/* the task's */
	__u16 pad;
	__u64 last_ino;		/* the file last named from this CPU: no map lookup to name it */
	__u32 last_dev;
	__u32 last_gen;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct cpu_state);
} cpu_states SEC(".maps");

__u32 exec_gen;

/* Per CPU: an FT_PRIV_PATH being built (1.3 KiB, too large for the stack). */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct ft_priv_path);
} path_scratch SEC(".maps");

/* Files named already; with a task filter also the files the traced tasks touched. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, FT_MAX_FILES);
	__type(key, struct ft_file_key);
	__type(value, __u8);
} files SEC(".maps");

/* Unlinked inodes already reported. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, struct ft_file_key);
	__type(value, __u8);
} unlinked SEC(".maps");

#endif /* FT_BPF_MAPS_H */
