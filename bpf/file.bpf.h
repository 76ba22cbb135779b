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

/*
 * Whether a filesystem's regular files are read through the page cache: procfs, sysfs and
 * the other kernel-made filesystems answer reads from their own text (seq_file, kernfs) and
 * cache no folio, so their accesses are no page-cache accesses (include/uapi/linux/magic.h).
 * hugetlbfs's folios are never on an LRU nor reclaimed: left out too.
 */
static __always_inline bool fs_keeps_page_cache(unsigned long magic)
{
	switch (magic) {
	case 0x9fa0:		/* PROC_SUPER_MAGIC */
	case 0x62656572:	/* SYSFS_MAGIC */
	case 0x27e0eb:		/* CGROUP_SUPER_MAGIC */
	case 0x63677270:	/* CGROUP2_SUPER_MAGIC */
	case 0x64626720:	/* DEBUGFS_MAGIC */
	case 0x74726163:	/* TRACEFS_MAGIC */
	case 0x73636673:	/* SECURITYFS_MAGIC */
	case 0xf97cff8c:	/* SELINUX_MAGIC */
	case 0x43415d53:	/* SMACK_MAGIC */
	case 0xcafe4a11:	/* BPF_FS_MAGIC */
	case 0x62656570:	/* CONFIGFS_MAGIC */
	case 0x6165676c:	/* PSTOREFS_MAGIC */
	case 0xde5e81e4:	/* EFIVARFS_MAGIC */
	case 0x65735543:	/* FUSE_CTL_SUPER_MAGIC */
	case 0x42494e4d:	/* BINFMTFS_MAGIC */
	case 0x958458f6:	/* HUGETLBFS_MAGIC */
		return false;
	}
	return true;
}

/* A struct file's address as a number: the verifier allows no arithmetic on a typed pointer. */
static __always_inline __u64 file_address(const void *file)
{
	__u64 addr = 0;

	bpf_probe_read_kernel(&addr, sizeof(addr), &file);
	return addr;
}

/*
 * The trace's number of an open file (ft_access.ofile): the address of its struct file,
 * mixed with a key of this recording's own, so that the trace tells open files apart without
 * giving kernel addresses away. Never 0 (unknown). A struct file freed and made again at the
 * same address gets the same number: user space tells the opens apart (note_open()).
 */
static __always_inline __u32 ofile_id(const void *file)
{
	__u64 addr = file_address(file), h;
	__u32 id;

	h = (addr ^ ofile_key) * 0x9e3779b97f4a7c15ull;
	id = (__u32)(h >> 32);

	return id ? id : 1;
}

/*
 * A traced task (thread tid) opened the file: the accesses through its number from now on are
 * a new open file's (struct ft_priv_open). The slab hands a closed file's memory to the next
 * open at once (a close and an open of the same file in a loop get the same address every
 * time), while the kernel gives each open a fresh readahead state and no advice
 * (do_dentry_open()). A record, not a map the accesses look up: opens are rare, accesses are
 * the hottest path.
 */
static __always_inline void note_open(const void *file, __u32 tid)
{
	struct ft_priv_open *o = reserve_record(FT_PRIV_OPEN, sizeof(*o), tid);

	if (!o)
		return;
	o->ofile = ofile_id(file);
	o->pad = 0;
	submit(o);
}

/* The walk up a file's dentries, one step per bpf_loop iteration. */
struct path_walk {
	struct ft_priv_path *p;	/* this CPU's scratch record */
	__u64 d;		/* the dentry whose name comes next */
	__u32 off;		/* bytes of names so far */
	bool at_root;
};

static long path_step(__u64 i, struct path_walk *w)
{
	struct dentry *d = (struct dentry *)w->d, *parent;
	struct ft_priv_path *p = w->p;
	long n;

	if (!d || !p || w->off >= FT_PATH_NAMES)
		return 1;
	parent = BPF_CORE_READ(d, d_parent);
	if (parent == d) {
		w->at_root = true;
		return 1;
	}
	n = bpf_probe_read_kernel_str(&p->names[w->off & (FT_PATH_NAMES - 1)], FT_NAME_MAX,
				      BPF_CORE_READ(d, d_name.name));
	if (n <= 0)
		return 1;
	w->off += n;
	p->depth++;
	w->d = (__u64)parent;
	return 0;
}

/*
 * Names a file by walking its dentry up to the filesystem root (d_path is not callable). The
 * record is built in a per-CPU scratch and copied out: the walk, a loop the verifier would
 * otherwise unroll in every program naming files, is a bpf_loop over it. Lost, it counts as
 * the FT_FILE it would have become. Names past the depth filled are whatever was there: user
 * space reads only the depth names.
 */
static __always_inline void emit_path(struct dentry *d, struct inode *inode, __u32 dev, __u32 tid)
{
	__u32 zero = 0;
	struct ft_priv_path *p = bpf_map_lookup_elem(&path_scratch, &zero);
	struct path_walk w = { .p = p, .d = (__u64)d };

	if (!p)
		return;
	fill_hdr(&p->hdr, FT_PRIV_PATH, sizeof(*p), tid);
	p->ino = BPF_CORE_READ(inode, i_ino);
	p->size = BPF_CORE_READ(inode, i_size);
	p->gen = BPF_CORE_READ(inode, i_generation);
	p->dev = dev;
	p->depth = 0;
	if (!no_paths)
		bpf_loop(FT_PATH_DEPTH, path_step, &w, 0);
	p->truncated = !no_paths && !w.at_root;
	if (bpf_ringbuf_output(&events, p, sizeof(*p), 0))
		count_lost(FT_FILE);
}

/* First dentry alias of an inode, for files met without a struct file (mmap). */
static __always_inline struct dentry *inode_alias(struct inode *inode)
{
	struct hlist_node *first = BPF_CORE_READ(inode, i_dentry.first);

	if (!first)
		return NULL;
	return (struct dentry *)((char *)first - bpf_core_field_offset(struct dentry, d_u));
}

/* The inode's i_generation: with (dev, ino), one file however often its number is reused. */
static __always_inline __u32 inode_gen(struct inode *inode)
{
	return inode ? BPF_CORE_READ(inode, i_generation) : 0;
}

/* A file not named from this CPU last: named now unless it was before. */
static __noinline void name_file(struct inode *inode, struct dentry *d, __u32 dev, __u64 ino,
				 __u32 tid)
{
	struct ft_file_key key = { .dev = dev, .gen = inode_gen(inode), .ino = ino };
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
	__u32 gen = inode_gen(inode);

	if (cs->last_ino == ino && cs->last_dev == dev && cs->last_gen == gen)
		return;
	cs->last_ino = ino;
	cs->last_dev = dev;
	cs->last_gen = gen;
	name_file(inode, d, dev, ino, cur_tid(c));
}

#ifdef FT_PROBE_READS
/*
 * Kernels before 6.2 have no bpf_rdonly_cast: a struct file found as a number (in an fd
 * table, a request, a VMA) is followed with probe reads. The loader picks this build of the
 * programs there.
 */
#define typed_file(p)		((struct file *)(p))
#define FILE_LOAD(...)		BPF_CORE_READ(__VA_ARGS__)
#else
/* Typed view of a kernel pointer read as a number: direct loads instead of probe reads. */
extern void *bpf_rdonly_cast(const void *obj, __u32 btf_id) __ksym;
#define typed_file(p)		\
	((struct file *)bpf_rdonly_cast((void *)(p), bpf_core_type_id_kernel(struct file)))
/* libbpf's p->a->b... chain, the direct-load spelling of BPF_CORE_READ(p, a, b...) */
#define FILE_LOAD(...)		___arrow(__VA_ARGS__)
#endif

/*
 * fd -> struct file of the current task. Only the slot of the fd array needs a probe read (a
 * variable index); the rest are direct loads through BTF-typed pointers, several times cheaper
 * on the hottest path (every read and write), where the kernel can type the file (6.2 on).
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
	return typed_file(f);
}

#endif /* FT_BPF_FILE_H */
