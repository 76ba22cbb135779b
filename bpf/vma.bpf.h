// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * madvise(2) on file mappings: the advised address range turned into ranges of the files the
 * mappings show, one access per file-backed VMA it covers (bpf_find_vma, at syscall exit).
 */
#ifndef FT_BPF_VMA_H
#define FT_BPF_VMA_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "access.bpf.h"
#include "arch.bpf.h"

#define MADVISE_MAX_VMAS	8	/* VMAs of one call recorded; the rest are left out */

/*
 * A file on a kernel-internal mount: shared anonymous memory, SysV shm and memfd live in
 * shmem's, with no path anyone opened. Not a file mapping in the trace's sense.
 */
static __always_inline bool internal_file(struct file *file)
{
	return file->f_path.mnt->mnt_flags &
	       bpf_core_enum_value(enum mount_flags, MNT_INTERNAL);
}

/* What the callback found: the VMA holding addr, and its part of [addr, end). */
struct vma_hit {
	__u64 addr, end;	/* in: the part still to look at */
	__u64 next;		/* out: vm_end, where to look next; 0 when no VMA */
	__u64 file;		/* out: its struct file, 0 for anonymous memory */
	__u64 pos, len;		/* out: the file range of the part */
};

static long vma_found(struct task_struct *task, struct vm_area_struct *vma, struct vma_hit *h)
{
	__u64 start = h->addr > vma->vm_start ? h->addr : vma->vm_start;
	__u64 end = h->end < vma->vm_end ? h->end : vma->vm_end;

	h->next = vma->vm_end;
	h->file = (__u64)vma->vm_file;
	h->pos = (start - vma->vm_start) + (vma->vm_pgoff << PAGE_SHIFT);
	h->len = end > start ? end - start : 0;
	return 0;
}

/* madvise(addr, len, advice) succeeded. */
static __always_inline void madvise_call(const struct cur *c, struct pt_regs *regs)
{
	struct vma_hit h = { .addr = syscall_arg(regs, 0) };
	__u32 advice = syscall_arg(regs, 2);

	h.end = h.addr + syscall_arg(regs, 1);
	for (int i = 0; i < MADVISE_MAX_VMAS && h.addr < h.end; i++) {
		struct access x = { .op = FT_OP_MADVISE, .arg = advice };
		struct file *file;

		h.next = 0;
		if (bpf_find_vma(bpf_get_current_task_btf(), h.addr, vma_found, &h, 0) || !h.next)
			break;	/* no VMA there, or the mm busy: the rest is missed */
		file = bpf_rdonly_cast((void *)h.file, bpf_core_type_id_kernel(struct file));
		if (file && h.len && !internal_file(file)) {
			x.pos = h.pos;
			x.len = h.len;
			file_access(c, file, &x);
		}
		h.addr = h.next;
	}
}

#endif /* FT_BPF_VMA_H */
