// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * FT_ACCESS records: what the application asked of a file, from whichever interface asked
 * (syscalls, io_uring, AIO, the in-kernel copies, page faults).
 */
#ifndef FT_BPF_ACCESS_H
#define FT_BPF_ACCESS_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#include "arch.bpf.h"
#include "file.bpf.h"
#include "ringbuf.bpf.h"
#include "task.bpf.h"

/* One access: the fields of struct ft_access after the file. */
struct access {
	__u64 pos;
	__u64 len;
	__u32 arg;
	__u32 ofile;	/* ofile_id() of the struct file, 0 when none is known */
	__u16 op;
	__u16 flags;
};

/* pos of an access that moved the file position: the position after it, less its length. */
#define POS_FROM_FILE	((__u64)-1)

/* Every field written: reserved ring-buffer memory is not zeroed. */
static __always_inline void emit_access(const struct cur *c, __u64 ino, __u32 dev, __u64 isize,
					const struct access *x)
{
	struct ft_access *a = reserve_record(FT_ACCESS, sizeof(*a), cur_tid(c));

	if (!a)
		return;
	a->ino = ino;
	a->pos = x->pos;
	a->len = x->len;
	a->isize = isize;
	a->dev = dev;
	a->op = x->op;
	a->flags = x->flags;
	a->arg = x->arg;
	a->ofile = x->ofile;
	submit(a);
}

/*
 * An access through an open file of the current, traced task: regular files of filesystems
 * that cache pages only, --dev applied, the file's open flags added, and POS_FROM_FILE
 * resolved. An append lands at EOF whatever the position said. file: from typed_file()
 * (file.bpf.h).
 */
static __always_inline void file_access(const struct cur *c, struct file *file,
					struct access *x)
{
	struct inode *inode = FILE_LOAD(file, f_inode);
	unsigned int f_flags;
	__u64 isize, ino;
	__u32 dev;

	if (!inode || (FILE_LOAD(inode, i_mode) & S_IFMT) != S_IFREG ||
	    !fs_keeps_page_cache(FILE_LOAD(inode, i_sb, s_magic)))
		return;
	dev = FILE_LOAD(inode, i_sb, s_dev);
	if (filter_dev && dev != dev_filter)
		return;
	ino = FILE_LOAD(inode, i_ino);
	isize = FILE_LOAD(inode, i_size);
	f_flags = FILE_LOAD(file, f_flags);
	/* a mapping's faults and advice go through the page cache whatever the open said */
	if ((f_flags & O_DIRECT) && (x->op == FT_OP_READ || x->op == FT_OP_WRITE))
		x->flags |= FT_AF_DIRECT;
	if (f_flags & O_APPEND)
		x->flags |= FT_AF_APPEND;
	if ((f_flags & O_DSYNC) && x->op == FT_OP_WRITE)
		x->flags |= FT_AF_SYNC;
	if (x->op == FT_OP_WRITE && (x->flags & FT_AF_APPEND))
		x->pos = isize - x->len;
	else if (x->pos == POS_FROM_FILE)
		x->pos = FILE_LOAD(file, f_pos) - x->len;
	x->ofile = ofile_id(file);
	note_task(c);
	note_file_id(c, inode, FILE_LOAD(file, f_path.dentry), dev, ino);
	emit_access(c, ino, dev, isize, x);
}

/* The same through a file descriptor of the current task. */
static __always_inline void fd_access(const struct cur *c, __u64 fd, struct access *x)
{
	struct file *file = fd_to_file(fd);

	if (file)
		file_access(c, file, x);
}

#endif /* FT_BPF_ACCESS_H */
