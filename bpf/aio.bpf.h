// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Linux AIO: the iocbs io_submit(2) accepted, read back from the caller's memory at syscall
 * exit, each an access of the length asked for (completions have no tracepoint). Buffered
 * AIO on a regular file does its I/O inside io_submit, so this is what moved, up to EOF.
 */
#ifndef FT_BPF_AIO_H
#define FT_BPF_AIO_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "access.bpf.h"
#include "syscall.bpf.h"

#define IOCB_CMD_PREAD		0
#define IOCB_CMD_PWRITE		1
#define IOCB_CMD_FSYNC		2
#define IOCB_CMD_FDSYNC		3
#define IOCB_CMD_PREADV		7
#define IOCB_CMD_PWRITEV	8

#define AIO_MAX_IOCBS	1024	/* per io_submit call recorded */
#define AIO_MAX_IOVECS	64	/* of a PREADV/PWRITEV iocb summed; more are left out */

struct aio_walk {
	__u64 iocbpp;		/* the caller's array of iocb pointers */
};

/* Summing the iovecs of a vectored iocb. */
struct iovec_sum {
	__u64 iov;		/* the caller's array */
	__u64 sum;
};

static long iovec_add(__u64 i, struct iovec_sum *s)
{
	struct iovec v;

	if (bpf_probe_read_user(&v, sizeof(v), (const void *)(s->iov + i * sizeof(v))))
		return 1;
	s->sum += v.iov_len;
	return 0;
}

/* Bytes of a vectored iocb: the sum of its iovecs' lengths. */
static __always_inline __u64 iovec_bytes(__u64 iov, __u64 count)
{
	struct iovec_sum s = { .iov = iov };

	bpf_loop(count < AIO_MAX_IOVECS ? count : AIO_MAX_IOVECS, iovec_add, &s, 0);
	return s.sum;
}

/* The access of one iocb; false when its opcode is none of those recorded. */
static __always_inline bool iocb_access(const struct iocb *cb, struct access *x)
{
	bool write = cb->aio_lio_opcode == IOCB_CMD_PWRITE || cb->aio_lio_opcode == IOCB_CMD_PWRITEV;

	x->arg = FT_VIA_AIO;
	x->pos = cb->aio_offset;
	x->len = cb->aio_nbytes;
	x->flags = FT_AF_POSITIONAL | rwf_flags(cb->aio_rw_flags, write);
	x->op = write ? FT_OP_WRITE : FT_OP_READ;
	switch (cb->aio_lio_opcode) {
	case IOCB_CMD_PREAD: case IOCB_CMD_PWRITE:
		return true;
	case IOCB_CMD_PREADV: case IOCB_CMD_PWRITEV:
		x->flags |= FT_AF_VECTOR;
		x->len = iovec_bytes(cb->aio_buf, cb->aio_nbytes);
		return true;
	case IOCB_CMD_FSYNC: case IOCB_CMD_FDSYNC:
		*x = (struct access){ .arg = 0 };
		x->op = cb->aio_lio_opcode == IOCB_CMD_FSYNC ? FT_OP_FSYNC : FT_OP_FDATASYNC;
		return true;
	default:
		return false;
	}
}

static long aio_one(__u64 i, struct aio_walk *w)
{
	struct access x;
	struct iocb cb;
	__u64 p;
	struct cur c;

	if (bpf_probe_read_user(&p, sizeof(p), (const void *)(w->iocbpp + i * sizeof(p))) ||
	    bpf_probe_read_user(&cb, sizeof(cb), (const void *)p))
		return 1;
	if (iocb_access(&cb, &x) && cur_get(&c))
		fd_access(&c, cb.aio_fildes, &x);
	return 0;
}

/*
 * io_submit(ctx, nr, iocbpp) returned how many of the iocbs it took, first ones first. Each
 * iocb gets the current task afresh (c is not passed into the loop's callback).
 */
static __always_inline void aio_call(const struct cur *c, struct pt_regs *regs, long nr,
				     long ret)
{
	struct aio_walk w = { .iocbpp = syscall_arg(regs, 2) };

	if (ret > 0)
		bpf_loop(ret < AIO_MAX_IOCBS ? ret : AIO_MAX_IOCBS, aio_one, &w, 0);
}

#endif /* FT_BPF_AIO_H */
