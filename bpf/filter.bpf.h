// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which events the trace keeps: folio-trace's own never; then -p, --comm, --cgroup for the
 * task and --dev for the file; kernel events of other tasks for the files traced tasks touched.
 */
#ifndef FT_BPF_FILTER_H
#define FT_BPF_FILTER_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "file.bpf.h"
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

/* Whether the current task is one we trace. */
static __always_inline bool task_passes(void)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	if (tgid == self_tgid)
		return false;
	if (filter_pids && !bpf_map_lookup_elem(&pids, &tgid))
		return false;
	if (filter_comm && !comm_matches())
		return false;
	if (filter_cgroup && bpf_current_task_under_cgroup(&cgroups, 0) != 1)
		return false;
	return true;
}

/*
 * Kernel events often run in other contexts (flusher, kswapd): with a task filter they are kept
 * when they concern a file the traced tasks touched.
 */
static __always_inline bool kernel_event_passes(__u32 dev, __u64 ino)
{
	struct ft_file_key key = { .dev = dev, .ino = ino };

	if ((__u32)(bpf_get_current_pid_tgid() >> 32) == self_tgid)
		return false;
	if (filter_dev && dev != dev_filter)
		return false;
	if (!task_filtered() || task_passes())
		return true;
	return bpf_map_lookup_elem(&files, &key) != NULL;
}

/* A kernel event about inode: its dev and ino, and whether the trace keeps it. */
static __always_inline bool inode_event_passes(struct inode *inode, __u32 *dev, __u64 *ino)
{
	if (!inode)
		return false;
	*dev = inode_dev(inode);
	*ino = BPF_CORE_READ(inode, i_ino);
	return kernel_event_passes(*dev, *ino);
}

#endif /* FT_BPF_FILTER_H */
