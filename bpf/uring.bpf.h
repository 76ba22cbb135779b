// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * io_uring: read and write requests at their completion (io_uring:io_uring_complete), when the
 * bytes moved are known; syncs, fadvise and fallocate; opens (a new open file). The request
 * still holds its file and its kiocb, whose position has moved past the bytes, wherever it
 * started (an offset, or the file position).
 */
#ifndef FT_BPF_URING_H
#define FT_BPF_URING_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "access.bpf.h"
#include "syscall.bpf.h"

/* The access of a completed request; false for opcodes that are not reads or writes. */
static __always_inline bool uring_op(__u8 opcode, struct access *x)
{
	if (opcode == bpf_core_enum_value(enum io_uring_op, IORING_OP_READ) ||
	    opcode == bpf_core_enum_value(enum io_uring_op, IORING_OP_READ_FIXED))
		x->op = FT_OP_READ;
	else if (opcode == bpf_core_enum_value(enum io_uring_op, IORING_OP_WRITE) ||
		 opcode == bpf_core_enum_value(enum io_uring_op, IORING_OP_WRITE_FIXED))
		x->op = FT_OP_WRITE;
	else if (opcode == bpf_core_enum_value(enum io_uring_op, IORING_OP_READV) ||
		 (bpf_core_enum_value_exists(enum io_uring_op, IORING_OP_READV_FIXED) &&
		  opcode == bpf_core_enum_value(enum io_uring_op, IORING_OP_READV_FIXED)))
		x->op = FT_OP_READ, x->flags = FT_AF_VECTOR;
	else if (opcode == bpf_core_enum_value(enum io_uring_op, IORING_OP_WRITEV) ||
		 (bpf_core_enum_value_exists(enum io_uring_op, IORING_OP_WRITEV_FIXED) &&
		  opcode == bpf_core_enum_value(enum io_uring_op, IORING_OP_WRITEV_FIXED)))
		x->op = FT_OP_WRITE, x->flags = FT_AF_VECTOR;
	else
		return false;
	return true;
}

#define IORING_FSYNC_DATASYNC	(1U << 0)	/* include/uapi/linux/io_uring.h */

/* io_fadvise.len: a u32 before 6.9 (the sqe's len alone), a u64 since (its addr too) */
static __always_inline __u64 uring_fadvise_len(struct io_fadvise *fa)
{
	__u32 len32 = 0;
	__u64 len = 0;

	if (bpf_core_field_size(fa->len) == sizeof(len32)) {
		bpf_core_read(&len32, sizeof(len32), &fa->len);
		return len32;
	}
	bpf_core_read(&len, sizeof(len), &fa->len);
	return len;
}

/*
 * The access of a completed request that moves no data (its result 0 on success): FSYNC (a
 * range, to the end of the file when its length is 0: io_fsync()), SYNC_FILE_RANGE, FADVISE
 * and FALLOCATE, as the system calls of the same names are recorded. false for other opcodes.
 */
static __always_inline bool uring_sync_op(struct io_kiocb *req, __u8 opcode, struct access *x)
{
	struct io_sync *sync = (struct io_sync *)&req->cmd;
	struct io_fadvise *fa = (struct io_fadvise *)&req->cmd;

	if (opcode == bpf_core_enum_value(enum io_uring_op, IORING_OP_FSYNC)) {
		x->op = BPF_CORE_READ(sync, flags) & IORING_FSYNC_DATASYNC ? FT_OP_FDATASYNC :
									     FT_OP_FSYNC;
		x->pos = BPF_CORE_READ(sync, off);
		x->len = BPF_CORE_READ(sync, len);
		x->arg = 0;	/* as fsync(2)'s: the calls of the op carry no argument */
	} else if (opcode == bpf_core_enum_value(enum io_uring_op, IORING_OP_SYNC_FILE_RANGE)) {
		x->op = FT_OP_SYNC_RANGE;
		x->pos = BPF_CORE_READ(sync, off);
		x->len = BPF_CORE_READ(sync, len);
		x->arg = BPF_CORE_READ(sync, flags);
	} else if (opcode == bpf_core_enum_value(enum io_uring_op, IORING_OP_FALLOCATE)) {
		x->op = FT_OP_FALLOCATE;
		x->pos = BPF_CORE_READ(sync, off);
		x->len = BPF_CORE_READ(sync, len);
		x->arg = BPF_CORE_READ(sync, mode);
	} else if (opcode == bpf_core_enum_value(enum io_uring_op, IORING_OP_FADVISE)) {
		x->op = FT_OP_FADVISE;
		x->pos = BPF_CORE_READ(fa, offset);
		x->len = uring_fadvise_len(fa);
		x->arg = BPF_CORE_READ(fa, advice);
	} else {
		return false;
	}
	return true;
}

/*
 * IORING_OP_OPENAT and OPENAT2 that installed a descriptor (not a direct one, file_slot 0):
 * the new open file is noted as an open(2)'s is (note_open()). The completion runs in the
 * submitter or in one of its io-wq workers, which share its descriptor table.
 */
static __always_inline void uring_opened(struct io_kiocb *req, __u8 opcode, int res)
{
	struct io_open *o = (struct io_open *)&req->cmd;
	struct file *file;
	struct cur c;

	if (res < 0 || (opcode != bpf_core_enum_value(enum io_uring_op, IORING_OP_OPENAT) &&
			opcode != bpf_core_enum_value(enum io_uring_op, IORING_OP_OPENAT2)) ||
	    BPF_CORE_READ(o, file_slot) || !cur_get(&c) || !cur_traced(&c))
		return;
	file = fd_to_file(res);
	if (file)
		note_open(file, cur_tid(&c));
}

/* req: a raw tracepoint argument, read with probe reads; res: the completion's result. */
static __always_inline void uring_complete(struct io_kiocb *req, int res)
{
	struct access x = { .arg = FT_VIA_IO_URING };
	struct io_rw *rw = (struct io_rw *)&req->cmd;
	__u8 opcode = BPF_CORE_READ(req, opcode);
	struct file *file;
	struct cur c;

	if (!res && uring_sync_op(req, opcode, &x)) {
		if (cur_get(&c) && cur_traced(&c) && (file = typed_file(BPF_CORE_READ(req, file))))
			file_access(&c, file, &x);
		return;
	}
	if (res <= 0 || !uring_op(opcode, &x)) {
		uring_opened(req, opcode, res);
		return;
	}
	if (!cur_get(&c) || !cur_traced(&c))
		return;
	file = typed_file(BPF_CORE_READ(rw, kiocb.ki_filp));
	if (!file)
		return;
	x.len = res;
	/* No positional flag: whether the request named an offset is a bit without a name. */
	x.pos = BPF_CORE_READ(rw, kiocb.ki_pos) - res;
	x.flags |= rwf_flags(BPF_CORE_READ(rw, flags), x.op == FT_OP_WRITE);
	file_access(&c, file, &x);
}

#endif /* FT_BPF_URING_H */
