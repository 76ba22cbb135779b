// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * io_uring: read and write requests at their completion (io_uring:io_uring_complete), when the
 * bytes moved are known. The request still holds its file and its kiocb, whose position has
 * moved past the bytes, wherever it started (an offset, or the file position).
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
