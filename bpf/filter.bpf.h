// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which events the trace keeps: folio-trace's own never; then -p, --comm, --cgroup for the
 * task and --dev for the file; kernel events of other tasks for the files traced tasks touched.
 */
#ifndef FT_BPF_FILTER_H
#define FT_BPF_FILTER_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "maps.bpf.h"

static __always_inline bool comm_matches(void)
{
	char comm[FT_COMM_LEN];

	bpf_get_current_comm(comm, sizeof(comm));
	for (int i = 0; i < FT_COMM_LEN; i++) {
		if (comm[i] != comm_filter[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
}

static __always_inline bool task_filtered(void)
{
	return filter_pids || filter_comm || filter_cgroup;
}

/*
 * What the filters say of the current task. Worked out once per thread and kept (task.bpf.h):
 * a thread's process never changes, its name only at exec (then asked again), its cgroup
 * seldom.
 */
static __always_inline __u8 task_verdict(__u64 pid_tgid)
{
	__u32 tgid = pid_tgid >> 32;

	if (tgid == self_tgid)
		return V_SELF;
	if (filter_pids && !bpf_map_lookup_elem(&pids, &tgid))
		return V_UNTRACED;
	if (filter_comm && !comm_matches())
		return V_UNTRACED;
	if (filter_cgroup && bpf_current_task_under_cgroup(&cgroups, 0) != 1)
		return V_UNTRACED;
	return V_TRACED;
}

/*
 * Kernel events often run in other contexts (flusher, kswapd): with a task filter they are kept
 * when they concern a file the traced tasks touched. verdict: the current task's. folio-trace's
 * own are dropped (its trace file's pages), except where self_kept says the event is never
 * about its own file: a deletion it causes is of another's (its start-state probe may hold a
 * removed file's last reference, so shmem frees the pages when the probe closes it).
 */
static __always_inline bool kernel_event_passes(__u8 verdict, bool self_kept, __u32 dev,
						__u64 ino, __u32 gen)
{
	struct ft_file_key key = { .dev = dev, .gen = gen, .ino = ino };

	if (verdict == V_SELF && !self_kept)
		return false;
	if (verdict == V_SELF)
		verdict = V_UNTRACED;
	if (filter_dev && dev != dev_filter)
		return false;
	if (verdict == V_TRACED || !task_filtered())
		return true;
	return bpf_map_lookup_elem(&files, &key) != NULL;
}

#endif /* FT_BPF_FILTER_H */
