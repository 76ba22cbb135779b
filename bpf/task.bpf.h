// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The current task: its per-thread state, its FT_TASK record, and whether it is in a write
 * fault.
 */
#ifndef FT_BPF_TASK_H
#define FT_BPF_TASK_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "arch.bpf.h"
#include "maps.bpf.h"
#include "ringbuf.bpf.h"

static __always_inline struct task_state *task_state(void)
{
	return bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), NULL,
				    BPF_LOCAL_STORAGE_GET_F_CREATE);
}

/* FT_TASK the first time a thread shows up (and after exec), so every tid has a name. */
static __always_inline void note_task(struct task_state *ts)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct ft_task *t;

	if (!ts || ts->announced || (__u32)id == 0)
		return;
	t = reserve_record(FT_TASK, sizeof(*t));
	if (!t)
		return;
	t->pid = id >> 32;
	bpf_get_current_comm(t->comm, sizeof(t->comm));
	__builtin_memcpy(ts->comm, t->comm, sizeof(ts->comm));
	submit(t);
	ts->announced = 1;
}

#define PF_IO_WORKER	0x00000010
#define PF_KTHREAD	0x00200000

/*
 * A folio dirtied by a user write fault on a shared mapping: a task that dirties a file folio
 * inside an exception rather than a syscall is in a write fault, the only exception that does.
 * Kernel and io_uring threads have no such user context.
 */
static __always_inline bool in_user_write_fault(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs;

	if (task->flags & (PF_KTHREAD | PF_IO_WORKER))
		return false;
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	return regs && regs_in_exception(regs);
}

#endif /* FT_BPF_TASK_H */
