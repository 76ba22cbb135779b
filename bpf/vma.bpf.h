// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * madvise(2) and msync(2) on file mappings: the address range turned into ranges of the files
 * the mappings show, one access per file-backed VMA it covers (bpf_find_vma, at syscall exit).
 */
#ifndef FT_BPF_VMA_H
#define FT_BPF_VMA_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "access.bpf.h"
#include "arch.bpf.h"

#define MADVISE_MAX_VMAS	8	/* VMAs of one call recorded; the rest are left out */

#define MNT_INTERNAL_BEFORE_6_17	0x4000	/* a #define, not yet enum mount_flags */
#define VM_SHARED_	0x00000008	/* include/linux/mm.h VM_SHARED */
#define MS_SYNC_	4		/* include/uapi/asm-generic/mman-common.h MS_SYNC */

/*
 * A file on a kernel-internal mount: shared anonymous memory, SysV shm and memfd live in
 * shmem's, with no path anyone opened. Not a file mapping in the trace's sense.
 */
static __always_inline bool internal_file(struct file *file)
{
	unsigned long internal = MNT_INTERNAL_BEFORE_6_17;

	if (bpf_core_enum_value_exists(enum mount_flags, MNT_INTERNAL))
		internal = bpf_core_enum_value(enum mount_flags, MNT_INTERNAL);
	return FILE_LOAD(file, f_path.mnt, mnt_flags) & internal;
}

/*
 * The walk: the part of [addr, end) still to look at, the access each file-backed VMA of it
 * gives (op, arg; only a shared mapping's for shared_only); what the callback found of one VMA.
 */
struct vma_walk {
	__u64 addr, end;
	__u16 op;
	bool shared_only;
	__u32 arg;
	__u64 next;		/* the VMA's vm_end, where to look next; 0 when no VMA */
	__u64 file;		/* its struct file, 0 for anonymous memory */
	__u64 pos, len;		/* the file range of its part */
	bool shared;		/* VM_SHARED */
};

static long vma_found(struct task_struct *task, struct vm_area_struct *vma, struct vma_walk *w)
{
	__u64 start = w->addr > vma->vm_start ? w->addr : vma->vm_start;
	__u64 end = w->end < vma->vm_end ? w->end : vma->vm_end;

	w->next = vma->vm_end;
	w->file = (__u64)vma->vm_file;
	w->pos = (start - vma->vm_start) + (vma->vm_pgoff << PAGE_SHIFT);
	w->len = end > start ? end - start : 0;
	w->shared = vma->vm_flags & VM_SHARED_;
	return 0;
}

/* One VMA of the walk (a bpf_loop callback): 1 stops the walk. */
static long walk_vma(__u64 i, struct vma_walk *w)
{
	struct access x = { .op = w->op, .arg = w->arg };
	struct file *file;
	struct cur c;

	if (w->addr >= w->end)
		return 1;
	w->next = 0;
	if (bpf_find_vma(bpf_get_current_task_btf(), w->addr, vma_found, w, 0) || !w->next)
		return 1;	/* no VMA there, or the mm busy: the rest is missed */
	file = typed_file(w->file);
	if (file && w->len && (w->shared || !w->shared_only) && !internal_file(file) &&
	    cur_get(&c)) {
		x.pos = w->pos;
		x.len = w->len;
		file_access(&c, file, &x);
	}
	w->addr = w->next;
	return 0;
}

/*
 * madvise(addr, len, advice) or msync(addr, len, flags) succeeded; each VMA's callback gets the
 * current task afresh. msync with MS_SYNC is vfs_fsync_range(file, start, end, 1) of each
 * shared file mapping's part (mm/msync.c, 6.1 to 6.18): an fdatasync of that range; without
 * it, nothing (MS_ASYNC has done nothing since 2.6.19).
 */
static __always_inline void mapping_call(const struct cur *c, struct pt_regs *regs, long nr,
					 long ret)
{
	struct vma_walk w = { .addr = syscall_arg(regs, 0), .op = FT_OP_MADVISE,
			      .arg = syscall_arg(regs, 2) };

	if (nr == NR_msync) {
		if (!(w.arg & MS_SYNC_))
			return;
		w.op = FT_OP_FDATASYNC;
		w.arg = 0;
		w.shared_only = true;
	}
	w.end = w.addr + syscall_arg(regs, 1);
	bpf_loop(MADVISE_MAX_VMAS, walk_vma, &w, 0);
}

#endif /* FT_BPF_VMA_H */
