// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Files: fd -> struct file, an inode's device and type, and the FT_PRIV_PATH record that
 * names a file the first time the traced tasks touch it.
 */
#ifndef FT_BPF_FILE_H
#define FT_BPF_FILE_H

#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>

#include "maps.bpf.h"
#include "ringbuf.bpf.h"
#include "task.bpf.h"

#define S_IFMT		00170000
#define S_IFREG		0100000

/* Names a file by walking its dentry up to the filesystem root (d_path is not callable). */
static __always_inline void emit_path(struct dentry *d, struct inode *inode, __u32 dev, __u32 tid)
{
	struct ft_priv_path *p;
	__u32 off = 0;
	int i;

	/*
	 * Not reserve_record(): this 1.3 KiB record is left unzeroed, as user space reads only the
	 * depth names filled in; and lost, it counts as the FT_FILE it would have become.
	 */
	p = bpf_ringbuf_reserve(&events, sizeof(*p), 0);
	if (!p) {
		count_lost(FT_FILE);
		return;
	}
	fill_hdr(&p->hdr, FT_PRIV_PATH, sizeof(*p), tid);
	p->ino = BPF_CORE_READ(inode, i_ino);
	p->size = BPF_CORE_READ(inode, i_size);
	p->dev = dev;
	p->depth = 0;
	p->truncated = 1;
	for (i = 0; i < FT_PATH_DEPTH && d && !no_paths; i++) {
		struct dentry *parent = BPF_CORE_READ(d, d_parent);
		const unsigned char *name;
		long n;

		if (parent == d) {
			p->truncated = 0;
			break;
		}
		if (off >= FT_PATH_NAMES)
			break;
		name = BPF_CORE_READ(d, d_name.name);
		n = bpf_probe_read_kernel_str(&p->names[off & (FT_PATH_NAMES - 1)], FT_NAME_MAX,
					      name);
		if (n <= 0)
			break;
		off += n;
		p->depth++;
		d = parent;
	}
	if (no_paths)
		p->truncated = 0;
	submit(p);
}

/* First dentry alias of an inode, for files met without a struct file (mmap). */
static __always_inline struct dentry *inode_alias(struct inode *inode)
{
	struct hlist_node *first = BPF_CORE_READ(inode, i_dentry.first);

	if (!first)
		return NULL;
	return (struct dentry *)((char *)first - bpf_core_field_offset(struct dentry, d_u));
}

/* A file not named from this CPU last: named now unless it was before. */
static __noinline void name_file(struct inode *inode, struct dentry *d, __u32 dev, __u64 ino,
				 __u32 tid)
{
	struct ft_file_key key = { .dev = dev, .ino = ino };
	__u8 one = 1;

	if (bpf_map_lookup_elem(&files, &key))
		return;
	bpf_map_update_elem(&files, &key, &one, BPF_ANY);
	emit_path(d ? d : inode_alias(inode), inode, dev, tid);
}

/*
 * Remembers a file the traced tasks touch and names it the first time. A CPU usually sees one
 * file for a while: the one it named last skips the map lookup.
 */
static __always_inline void note_file_id(const struct cur *c, struct inode *inode,
					 struct dentry *d, __u32 dev, __u64 ino)
{
	struct cpu_state *cs = c->cs;

	if (cs->last_ino == ino && cs->last_dev == dev)
		return;
	cs->last_ino = ino;
	cs->last_dev = dev;
	name_file(inode, d, dev, ino, cur_tid(c));
}

/* Typed view of a kernel pointer read as a number: direct loads instead of probe reads. */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;

/*
 * fd -> struct file of the current task. Only the slot of the fd array needs a probe read (a
 * variable index); the rest are direct loads through BTF-typed pointers, several times cheaper
 * on the hottest path (every read and write).
 */
static __always_inline struct file *fd_to_file(__u64 fd)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct files_struct *files = task->files;
	struct fdtable *fdt;
	struct file **fds;
	struct file *f = NULL;

	if (!files)
		return NULL;
	fdt = files->fdt;
	if (!fdt || fd >= fdt->max_fds)
		return NULL;
	fds = fdt->fd;
	if (bpf_probe_read_kernel(&f, sizeof(f), &fds[fd]) || !f)
		return NULL;
	return bpf_rdonly_cast(f, bpf_core_type_id_kernel(struct file));
}

#endif /* FT_BPF_FILE_H */
