// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The current task: whether the filters keep its events (worked out once per thread), its
 * FT_TASK record, and whether it is in a write fault.
 */
#ifndef FT_BPF_TASK_H
#define FT_BPF_TASK_H

#include "vmlinux.h"
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_helpers.h>

#include "arch.bpf.h"
#include "filter.bpf.h"
#include "maps.bpf.h"
#include "ringbuf.bpf.h"

/* The current task as an event sees it. */
struct cur {
	__u64 pid_tgid;		/* from the one bpf_get_current_pid_tgid() call of the event */
	struct cpu_state *cs;	/* this CPU's, now about the current task */
};

/*
 * The thread a record names. Kernel events of tasks the filters leave out can still be kept
 * (reclaim, or writeback of a file a traced task touched): they name no thread, so that with a
 * filter only the selected tasks appear in the trace.
 */
static __always_inline __u32 cur_tid(const struct cur *c)
{
	return c->cs->verdict == V_TRACED ? (__u32)c->pid_tgid : 0;
}

/* The per-CPU entry missed: the task's own storage, or the filters when it has none yet. */
static __noinline void cur_refresh(struct cpu_state *cs, __u64 task, __u64 pid_tgid, __u32 gen)
{
	struct task_state *ts = bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), NULL,
						     BPF_LOCAL_STORAGE_GET_F_CREATE);

	cs->task = task;
	cs->pid_tgid = pid_tgid;
	cs->gen = gen;
	if (!ts) {
		/* No memory for it: the filters every time, and no name rather than many. */
		cs->task = 0;
		cs->verdict = task_verdict(pid_tgid);
		cs->announced = 1;
		return;
	}
	if (!ts->known) {
		ts->verdict = task_verdict(pid_tgid);
		ts->known = 1;
	}
	cs->verdict = ts->verdict;
	cs->announced = ts->announced;
}

/* Fills c for the current task; false only if the per-CPU map is missing (never). */
static __always_inline bool cur_get(struct cur *c)
{
	__u32 zero = 0, gen = exec_gen;
	struct cpu_state *cs = bpf_map_lookup_elem(&cpu_states, &zero);
	__u64 task = bpf_get_current_task();

	if (!cs)
		return false;
	c->pid_tgid = bpf_get_current_pid_tgid();
	c->cs = cs;
	if (cs->task != task || cs->pid_tgid != c->pid_tgid || cs->gen != gen)
		cur_refresh(cs, task, c->pid_tgid, gen);
	return true;
}

static __always_inline bool cur_traced(const struct cur *c)
{
	return c->cs->verdict == V_TRACED;
}

/*
 * The id of the current task's memory cgroup (its kernfs node: the directory's inode number),
 * which charges the page cache it reads: the css of the memory controller, in its own (v1)
 * hierarchy or in the unified one. Without a memory controller, the unified cgroup.
 */
static __always_inline __u64 current_memcg_id(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct cgroup_subsys_state *css = NULL;
	struct css_set *set;
	int sub;

	if (!bpf_core_enum_value_exists(enum cgroup_subsys_id, memory_cgrp_id))
		return bpf_get_current_cgroup_id();
	sub = bpf_core_enum_value(enum cgroup_subsys_id, memory_cgrp_id);
	if (sub < 0 || sub >= CGROUP_SUBSYS_COUNT)
		return 0;
	set = BPF_CORE_READ(task, cgroups);
	if (!set || bpf_core_read(&css, sizeof(css), &set->subsys[sub]) || !css)
		return 0;
	return BPF_CORE_READ(css, cgroup, kn, id);
}

/* FT_TASK the first time a thread has an event in the trace (and after exec). */
static __noinline void announce_task(struct cpu_state *cs, __u64 pid_tgid)
{
	struct task_state *ts = bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), NULL, 0);
	struct ft_task *t;

	if ((__u32)pid_tgid == 0 || (ts && ts->announced)) {
		cs->announced = 1;
		return;
	}
	t = reserve_record(FT_TASK, sizeof(*t), (__u32)pid_tgid);
	if (!t)
		return;		/* counted lost; the next event tries again */
	cs->announced = 1;
	t->pid = pid_tgid >> 32;
	t->pad = 0;
	t->cgroup = current_memcg_id();
	bpf_get_current_comm(t->comm, sizeof(t->comm));
	if (ts) {
		__builtin_memcpy(ts->comm, t->comm, sizeof(ts->comm));
		ts->announced = 1;
	}
	submit(t);
}

static __always_inline void note_task(const struct cur *c)
{
	if (!c->cs->announced && c->cs->verdict == V_TRACED)
		announce_task(c->cs, c->pid_tgid);
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
