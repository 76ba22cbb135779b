// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * All the record BPF programs know of the architecture, in one place: x86-64, the only one
 * for now (configure builds without record on other hosts). A port gives the same names its
 * own values here, chosen by the host configure found:
 *   - the target architecture of libbpf's <bpf/bpf_tracing.h>
 *   - the base page size
 *   - open(2) flags whose values differ between architectures
 *   - the numbers of the syscalls recorded, and where pt_regs keeps their arguments
 *     (src/record/loader.c attaches to each recorded call's syscalls:sys_exit_NAME)
 *   - how pt_regs tells an exception (a page fault) from a syscall
 *   - where the kernel's array of struct page starts
 */
#ifndef FT_BPF_ARCH_H
#define FT_BPF_ARCH_H

#ifdef __BPF_TRACING_H__
#error "arch.bpf.h must come before <bpf/bpf_tracing.h>, which reads __TARGET_ARCH_x86"
#endif
#define __TARGET_ARCH_x86

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define PAGE_SHIFT	12

#define O_APPEND	00002000
#define O_DSYNC		00010000
#define O_DIRECT	00040000

/* exc_page_fault()'s error code (arch/x86/include/asm/trap_pf.h) */
#define X86_PF_PROT	0x1	/* the page was present: a protection fault */
#define X86_PF_WRITE	0x2

/* Syscall numbers of the calls recorded. */
enum {
	NR_read = 0, NR_write = 1, NR_pread64 = 17, NR_pwrite64 = 18, NR_readv = 19,
	NR_writev = 20, NR_msync = 26, NR_madvise = 28, NR_sendfile = 40, NR_fsync = 74,
	NR_fdatasync = 75, NR_truncate = 76, NR_ftruncate = 77, NR_sync = 162, NR_readahead = 187,
	NR_io_submit = 209, NR_fadvise64 = 221, NR_splice = 275, NR_sync_file_range = 277,
	NR_fallocate = 285, NR_preadv = 295, NR_pwritev = 296, NR_syncfs = 306,
	NR_copy_file_range = 326, NR_preadv2 = 327, NR_pwritev2 = 328,
};

/* Argument n (0 to 5) of the syscall: di, si, dx, r10, r8, r9 in the x86-64 syscall ABI. */
static __always_inline __u64 syscall_arg(const struct pt_regs *regs, int n)
{
	switch (n) {
	case 0:
		return regs->di;
	case 1:
		return regs->si;
	case 2:
		return regs->dx;
	case 3:
		return regs->r10;
	case 4:
		return regs->r8;
	default:
		return regs->r9;
	}
}

/* x86 marks a task inside an exception with orig_ax = -1; a syscall keeps its number there. */
static __always_inline bool regs_in_exception(const struct pt_regs *regs)
{
	return (long)regs->orig_ax == -1;
}

static __always_inline long syscall_nr(const struct pt_regs *regs)
{
	return (long)regs->orig_ax;
}

/* Where struct pages start: randomized with KASLR, else the fixed x86-64 base. */
extern const void vmemmap_base __ksym __weak;
#define VMEMMAP_START_DEFAULT	0xffffea0000000000ul

static __always_inline void read_vmemmap_start(unsigned long *start)
{
	*start = VMEMMAP_START_DEFAULT;
	if (&vmemmap_base)
		bpf_probe_read_kernel(start, sizeof(*start), &vmemmap_base);
}

#endif /* FT_BPF_ARCH_H */
