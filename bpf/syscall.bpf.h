// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Syscalls: a finished recorded call turned into its accesses, from its number, its result
 * and the argument registers saved at entry (still intact at exit).
 */
#ifndef FT_BPF_SYSCALL_H
#define FT_BPF_SYSCALL_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "access.bpf.h"
#include "arch.bpf.h"
#include "trace/events.h"

#define RWF_DSYNC	0x02
#define RWF_SYNC	0x04
#define RWF_APPEND	0x10
#define RWF_DONTCACHE	0x80	/* 6.14+; EOPNOTSUPP where the fs lacks FOP_DONTCACHE */
#define POSIX_FADV_WILLNEED	3

/* RWF_* flags of a call (the *2 forms, AIO, io_uring). */
static __always_inline __u16 rwf_flags(__u64 rwf, bool write)
{
	__u16 f = 0;

	if (rwf & RWF_DONTCACHE)
		f |= FT_AF_DONTCACHE;

	if (write && (rwf & (RWF_DSYNC | RWF_SYNC)))
		f |= FT_AF_SYNC;
	if (write && (rwf & RWF_APPEND))
		f |= FT_AF_APPEND;
	return f;
}

/* The *2 forms: offset -1 means the file position. */
static __always_inline void rw2_call(struct access *x, struct pt_regs *regs)
{
	__u64 pos = syscall_arg(regs, 3);

	x->flags = FT_AF_VECTOR | rwf_flags(syscall_arg(regs, 5), x->op == FT_OP_WRITE);
	if (pos != (__u64)-1) {
		x->flags |= FT_AF_POSITIONAL;
		x->pos = pos;
	}
}

static __always_inline bool is_write_call(long nr)
{
	return nr == NR_write || nr == NR_pwrite64 || nr == NR_writev || nr == NR_pwritev ||
	       nr == NR_pwritev2;
}

/* read/write and their p, v and 2 forms: the bytes the call returned. */
static __always_inline void rw_call(const struct cur *c, struct pt_regs *regs, long nr, long ret)
{
	struct access x = { .pos = POS_FROM_FILE, .len = ret, .arg = FT_VIA_SYSCALL };

	x.op = is_write_call(nr) ? FT_OP_WRITE : FT_OP_READ;
	switch (nr) {
	case NR_read: case NR_write:
		break;
	case NR_pread64: case NR_pwrite64:
		x.flags = FT_AF_POSITIONAL;
		x.pos = syscall_arg(regs, 3);
		break;
	case NR_readv: case NR_writev:
		x.flags = FT_AF_VECTOR;
		break;
	case NR_preadv: case NR_pwritev:
		x.flags = FT_AF_POSITIONAL | FT_AF_VECTOR;
		x.pos = syscall_arg(regs, 3);
		break;
	case NR_preadv2: case NR_pwritev2:
		rw2_call(&x, regs);
		break;
	default:
		return;
	}
	if (ret > 0)	/* 0: nothing moved (EOF, empty buffer) */
		fd_access(c, syscall_arg(regs, 0), &x);
}

/*
 * sync(2) and syncfs(2): every dirty file of every file system, or of the fd's, whatever the
 * fd is (a directory often). ino 0: no file; dev 0 for sync(2).
 */
static __always_inline void sync_call(const struct cur *c, struct pt_regs *regs, long nr)
{
	struct access x = { .op = nr == NR_sync ? FT_OP_SYNC : FT_OP_SYNCFS };
	struct file *file;
	__u32 dev = 0;

	if (nr == NR_syncfs) {
		file = fd_to_file(syscall_arg(regs, 0));
		if (!file)
			return;
		dev = FILE_LOAD(file, f_inode, i_sb, s_dev);
		if (filter_dev && dev != dev_filter)
			return;
	}
	note_task(c);
	emit_access(c, 0, dev, 0, &x);
}

/* open(2) and its kin: the new open file is told apart from any before it (note_open()). */
static __always_inline void open_call(const struct cur *c, struct pt_regs *regs, long nr, long ret)
{
	struct file *f = fd_to_file(ret);

	(void)regs, (void)nr;
	if (f)
		note_open(f, cur_tid(c));
}

/* Calls on an fd that move no data: syncs, size changes, hints. */
static __always_inline void fd_call(const struct cur *c, struct pt_regs *regs, long nr, long ret)
{
	struct access x = {};

	switch (nr) {
	case NR_sync: case NR_syncfs:
		if (ret == 0)
			sync_call(c, regs, nr);
		return;
	case NR_fsync:
		x.op = FT_OP_FSYNC;
		break;
	case NR_fdatasync:
		x.op = FT_OP_FDATASYNC;
		break;
	case NR_sync_file_range: case NR_fadvise64:	/* (fd, offset, len, flags or advice) */
		x.op = nr == NR_fadvise64 ? FT_OP_FADVISE : FT_OP_SYNC_RANGE;
		x.pos = syscall_arg(regs, 1);
		x.len = syscall_arg(regs, 2);
		x.arg = syscall_arg(regs, 3);
		break;
	case NR_readahead:	/* (fd, offset, count): ksys_readahead() is a POSIX_FADV_WILLNEED */
		x.op = FT_OP_FADVISE;
		x.pos = syscall_arg(regs, 1);
		x.len = syscall_arg(regs, 2);
		x.arg = POSIX_FADV_WILLNEED;
		break;
	case NR_ftruncate:
		x.op = FT_OP_TRUNCATE;
		x.pos = syscall_arg(regs, 1);
		break;
	case NR_fallocate:
		x.op = FT_OP_FALLOCATE;
		x.arg = syscall_arg(regs, 1);
		x.pos = syscall_arg(regs, 2);
		x.len = syscall_arg(regs, 3);
		break;
	default:
		return;
	}
	fd_access(c, syscall_arg(regs, 0), &x);
}

/*
 * One side of an in-kernel copy: with an offset pointer the call read and advanced *off (the
 * file position stays), without one it advanced the file position; ret bytes either way.
 */
static __always_inline void copy_side(const struct cur *c, __u64 fd, __u64 off_ptr, __u16 op,
				      __u32 via, long ret)
{
	struct access x = { .op = op, .pos = POS_FROM_FILE, .len = ret, .arg = via };
	__u64 end;

	if (off_ptr) {
		if (bpf_probe_read_user(&end, sizeof(end), (const void *)off_ptr))
			return;
		x.pos = end - ret;
		x.flags = FT_AF_POSITIONAL;
	}
	fd_access(c, fd, &x);
}

/*
 * copy_file_range, sendfile and splice: a read of the source and a write of the destination,
 * each where it is a regular file (splice's other side is a pipe, sendfile's often a socket).
 * Their arguments: (in, in_off, out, out_off) but sendfile's (out, in, in_off).
 */
static __always_inline void copy_call(const struct cur *c, struct pt_regs *regs, long nr,
				      long ret)
{
	__u64 in = syscall_arg(regs, 0), in_off = syscall_arg(regs, 1);
	__u64 out = syscall_arg(regs, 2), out_off = syscall_arg(regs, 3);
	__u32 via = nr == NR_splice ? FT_VIA_SPLICE : FT_VIA_COPY_FILE_RANGE;

	if (ret <= 0)
		return;
	if (nr == NR_sendfile) {
		in = syscall_arg(regs, 1);
		in_off = syscall_arg(regs, 2);
		out = syscall_arg(regs, 0);
		out_off = 0;
		via = FT_VIA_SENDFILE;
	}
	copy_side(c, in, in_off, FT_OP_READ, via, ret);
	copy_side(c, out, out_off, FT_OP_WRITE, via, ret);
}

#endif /* FT_BPF_SYSCALL_H */
