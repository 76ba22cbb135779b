// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Syscalls: which recorded call a finished syscall is, and its arguments, from the number and
 * the argument registers saved at entry.
 */
#ifndef FT_BPF_SYSCALL_H
#define FT_BPF_SYSCALL_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "arch.bpf.h"
#include "trace/events.h"

#define RWF_DSYNC	0x02
#define RWF_SYNC	0x04
#define RWF_APPEND	0x10

/* One finished call, decoded from its number and argument registers. */
struct call {
	__u64 fd;
	__u64 pos;
	__u64 len;
	__u32 arg;
	__u16 op;
	__u16 flags;
};

/* The *2 forms: offset -1 means the file position; RWF_* flags per call. */
static __always_inline __u16 rwf_flags(__u64 pos, __u64 rwf, bool write)
{
	__u16 f = FT_AF_VECTOR;

	if (pos != (__u64)-1)
		f |= FT_AF_POSITIONAL;
	if (write && (rwf & (RWF_DSYNC | RWF_SYNC)))
		f |= FT_AF_SYNC;
	if (write && (rwf & RWF_APPEND))
		f |= FT_AF_APPEND;
	return f;
}

/* False for calls not recorded. */
static __always_inline bool decode_call(struct pt_regs *regs, long id, struct call *c)
{
	__u64 a3;

	switch (id) {
	case NR_read: case NR_readv:
		c->op = FT_OP_READ;
		c->flags = id == NR_readv ? FT_AF_VECTOR : 0;
		break;
	case NR_write: case NR_writev:
		c->op = FT_OP_WRITE;
		c->flags = id == NR_writev ? FT_AF_VECTOR : 0;
		break;
	case NR_pread64: case NR_preadv:
		c->op = FT_OP_READ;
		c->flags = FT_AF_POSITIONAL | (id == NR_preadv ? FT_AF_VECTOR : 0);
		c->pos = syscall_arg(regs, 3);
		break;
	case NR_pwrite64: case NR_pwritev:
		c->op = FT_OP_WRITE;
		c->flags = FT_AF_POSITIONAL | (id == NR_pwritev ? FT_AF_VECTOR : 0);
		c->pos = syscall_arg(regs, 3);
		break;
	case NR_preadv2: case NR_pwritev2:
		c->op = id == NR_preadv2 ? FT_OP_READ : FT_OP_WRITE;
		a3 = syscall_arg(regs, 3);
		c->flags = rwf_flags(a3, syscall_arg(regs, 5), id == NR_pwritev2);
		c->pos = a3;
		break;
	case NR_fsync:
		c->op = FT_OP_FSYNC;
		break;
	case NR_fdatasync:
		c->op = FT_OP_FDATASYNC;
		break;
	case NR_sync_file_range:
		c->op = FT_OP_SYNC_RANGE;
		c->pos = syscall_arg(regs, 1);
		c->len = syscall_arg(regs, 2);
		c->arg = syscall_arg(regs, 3);
		break;
	case NR_ftruncate:
		c->op = FT_OP_TRUNCATE;
		c->pos = syscall_arg(regs, 1);
		break;
	case NR_fallocate:
		c->op = FT_OP_FALLOCATE;
		c->arg = syscall_arg(regs, 1);
		c->pos = syscall_arg(regs, 2);
		c->len = syscall_arg(regs, 3);
		break;
	default:
		return false;
	}
	c->fd = syscall_arg(regs, 0);
	return true;
}

#endif /* FT_BPF_SYSCALL_H */
