// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * folio-trace record: the kernel side. Tracepoint, tp_btf and raw_tp programs only (no
 * fentry/kprobe on our kernels). Every program builds one record of events.h in the ring
 * buffer; src/record/ copies them into the trace unchanged.
 *
 * Syscalls: sys_exit decodes the call from the saved registers, resolves fd -> struct file
 * (task->files->fdt, CO-RE), keeps regular files only and builds the FT_ACCESS record.
 * File deletion has no tracepoint with an inode, so FT_OP_UNLINK is emitted when the page cache
 * drops a folio of an inode whose i_nlink is 0 (the final iput truncating an unlinked file).
 */
#include "arch.bpf.h"	/* first: it sets bpf_tracing.h's target architecture */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "trace/events.h"
#include "record.h"

char LICENSE[] SEC("license") = "GPL";

#define S_IFMT		00170000
#define S_IFREG		0100000
#define RWF_DSYNC	0x02
#define RWF_SYNC	0x04
#define RWF_APPEND	0x10

/* Set by user space before load. */
const volatile __u32 self_tgid;		/* folio-trace itself: never traced */
const volatile bool filter_pids;	/* only processes in the pids map */
const volatile bool follow_forks;	/* children of traced processes are traced */
const volatile bool filter_comm;
const volatile char comm_filter[FT_COMM_LEN];
const volatile bool filter_cgroup;	/* only tasks under cgroups[0] */
const volatile bool filter_dev;
const volatile __u32 dev_filter;
const volatile bool no_paths;
const volatile __u64 wakeup_bytes = 1 << 20;	/* wake the reader once this much is queued */

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, 1 << 24);	/* resized by user space */
} events SEC(".maps");

/* Lost records per CPU, indexed by record type. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, FT_TYPE_MAX);
	__type(key, __u32);
	__type(value, __u64);
} lost SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_HASH);
	__uint(max_entries, FT_MAX_PIDS);
	__type(key, __u32);
	__type(value, __u8);
} pids SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_CGROUP_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u32);
} cgroups SEC(".maps");

/*
 * Per thread: announced with FT_TASK yet, and the last file it touched. Task storage is found
 * from the task itself (cheaper than a hash lookup on every event) and goes away with it.
 */
struct task_state {
	__u64 last_ino;
	__u32 last_dev;
	__u8 announced;
	__u8 pad[3];
	char comm[FT_COMM_LEN];	/* as announced */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct task_state);
} tasks SEC(".maps");

/* Files named already; with a task filter also the files the traced tasks touched. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, FT_MAX_FILES);
	__type(key, struct ft_file_key);
	__type(value, __u8);
} files SEC(".maps");

/* Unlinked inodes already reported. */
struct {
	__uint(type, BPF_MAP_TYPE_LRU_HASH);
	__uint(max_entries, 4096);
	__type(key, struct ft_file_key);
	__type(value, __u8);
} unlinked SEC(".maps");

/* ---- helpers ------------------------------------------------------------------------------- */

static __always_inline void count_lost(__u32 type)
{
	__u64 *n;

	if (type == FT_PRIV_TRUNCATE)
		type = FT_ACCESS;	/* it would have become one */
	n = bpf_map_lookup_elem(&lost, &type);

	if (n)
		(*n)++;
}

static __always_inline void fill_hdr(struct ft_hdr *h, __u16 type, __u16 size)
{
	h->type = type;
	h->size = size;
	h->tid = (__u32)bpf_get_current_pid_tgid();
	h->ts = bpf_ktime_get_ns();
}

/*
 * Waking the reader for every record costs more than making it; it polls on a short timer
 * anyway, so only a filling buffer wakes it early.
 */
static __always_inline void submit(void *rec)
{
	__u64 queued = bpf_ringbuf_query(&events, BPF_RB_AVAIL_DATA);

	bpf_ringbuf_submit(rec, queued >= wakeup_bytes ? BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
}

/*
 * A zeroed record of the given type and size in the ring buffer, its header filled; NULL, with
 * the record counted lost, when the buffer is full. The caller decides what NULL means.
 */
static __always_inline void *reserve_record(__u16 type, __u16 size)
{
	struct ft_hdr *h = bpf_ringbuf_reserve(&events, size, 0);

	if (!h) {
		count_lost(type);
		return NULL;
	}
	__builtin_memset(h, 0, size);
	fill_hdr(h, type, size);
	return h;
}

static __always_inline struct task_state *task_state(void)
{
	return bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), NULL,
				    BPF_LOCAL_STORAGE_GET_F_CREATE);
}

/* FT_TASK the first time a thread shows up (and after exec), so every tid has a name. */
static __always_inline void note_task(struct task_state *ts)
{
	__u64 id = bpf_get_current_pid_tgid();
	struct ft_task *t;

	if (!ts || ts->announced || (__u32)id == 0)
		return;
	t = reserve_record(FT_TASK, sizeof(*t));
	if (!t)
		return;
	t->pid = id >> 32;
	bpf_get_current_comm(t->comm, sizeof(t->comm));
	__builtin_memcpy(ts->comm, t->comm, sizeof(ts->comm));
	submit(t);
	ts->announced = 1;
}

static __always_inline bool comm_matches(void)
{
	char comm[FT_COMM_LEN];

	bpf_get_current_comm(comm, sizeof(comm));
	for (int i = 0; i < FT_COMM_LEN; i++) {
		if (comm[i] != comm_filter[i])
			return false;
		if (!comm[i])
			break;
	}
	return true;
}

static __always_inline bool task_filtered(void)
{
	return filter_pids || filter_comm || filter_cgroup;
}

/* Whether the current task is one we trace. */
static __always_inline bool task_passes(void)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;

	if (tgid == self_tgid)
		return false;
	if (filter_pids && !bpf_map_lookup_elem(&pids, &tgid))
		return false;
	if (filter_comm && !comm_matches())
		return false;
	if (filter_cgroup && bpf_current_task_under_cgroup(&cgroups, 0) != 1)
		return false;
	return true;
}

/*
 * Kernel events often run in other contexts (flusher, kswapd): with a task filter they are kept
 * when they concern a file the traced tasks touched.
 */
static __always_inline bool kernel_event_passes(__u32 dev, __u64 ino)
{
	struct ft_file_key key = { .dev = dev, .ino = ino };

	if ((__u32)(bpf_get_current_pid_tgid() >> 32) == self_tgid)
		return false;
	if (filter_dev && dev != dev_filter)
		return false;
	if (!task_filtered() || task_passes())
		return true;
	return bpf_map_lookup_elem(&files, &key) != NULL;
}

static __always_inline bool is_regular(struct inode *inode)
{
	return (BPF_CORE_READ(inode, i_mode) & S_IFMT) == S_IFREG;
}

static __always_inline __u32 inode_dev(struct inode *inode)
{
	return BPF_CORE_READ(inode, i_sb, s_dev);
}

/* A kernel event about inode: its dev and ino, and whether the trace keeps it. */
static __always_inline bool inode_event_passes(struct inode *inode, __u32 *dev, __u64 *ino)
{
	if (!inode)
		return false;
	*dev = inode_dev(inode);
	*ino = BPF_CORE_READ(inode, i_ino);
	return kernel_event_passes(*dev, *ino);
}

/* Names a file by walking its dentry up to the filesystem root (d_path is not callable). */
static __always_inline void emit_path(struct dentry *d, struct inode *inode, __u32 dev)
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
	fill_hdr(&p->hdr, FT_PRIV_PATH, sizeof(*p));
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

/*
 * Remembers a file the traced tasks touch and names it the first time. A thread usually works
 * on one file for a while: its last file skips the map lookup.
 */
static __always_inline void note_file_id(struct task_state *ts, struct inode *inode,
					 struct dentry *d, __u32 dev, __u64 ino)
{
	struct ft_file_key key = { .dev = dev, .ino = ino };
	__u8 one = 1;

	if (ts && ts->last_ino == ino && ts->last_dev == dev)
		return;
	if (ts) {
		ts->last_ino = ino;
		ts->last_dev = dev;
	}
	if (bpf_map_lookup_elem(&files, &key))
		return;
	bpf_map_update_elem(&files, &key, &one, BPF_ANY);
	emit_path(d ? d : inode_alias(inode), inode, dev);
}

static __always_inline void note_file(struct task_state *ts, struct inode *inode)
{
	note_file_id(ts, inode, NULL, inode_dev(inode), BPF_CORE_READ(inode, i_ino));
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

/* ---- syscalls -------------------------------------------------------------------------------- */

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

/*
 * Everything is recorded at sys_exit, where the saved argument registers are still intact:
 * no program on sys_enter (which would run for every syscall of the system) and no per-thread
 * map between the two. The fd is still open, since the call held a reference to its file.
 */
static __always_inline int record_access(struct call *c, long ret)
{
	struct task_state *ts;
	struct ft_access *a;
	struct inode *inode;
	struct file *file;
	unsigned int f_flags;
	__u32 dev;

	if (ret < 0 || ((c->op == FT_OP_READ || c->op == FT_OP_WRITE) && ret == 0))
		return 0;	/* failed, or nothing moved (EOF, empty buffer) */
	if (!task_passes())
		return 0;
	file = fd_to_file(c->fd);
	if (!file)
		return 0;
	inode = file->f_inode;
	if (!inode || (inode->i_mode & S_IFMT) != S_IFREG)
		return 0;
	dev = inode->i_sb->s_dev;
	if (filter_dev && dev != dev_filter)
		return 0;
	f_flags = file->f_flags;
	if (f_flags & O_DIRECT)
		c->flags |= FT_AF_DIRECT;
	if (f_flags & O_APPEND)
		c->flags |= FT_AF_APPEND;
	if ((f_flags & O_DSYNC) && c->op == FT_OP_WRITE)
		c->flags |= FT_AF_SYNC;
	ts = task_state();
	note_task(ts);
	note_file_id(ts, inode, file->f_path.dentry, dev, inode->i_ino);
	a = reserve_record(FT_ACCESS, sizeof(*a));
	if (!a)
		return 0;
	a->ino = inode->i_ino;
	a->dev = dev;
	a->isize = inode->i_size;
	a->op = c->op;
	a->flags = c->flags;
	a->arg = c->arg;
	a->pos = c->pos;
	a->len = c->len;
	if (c->op == FT_OP_READ || c->op == FT_OP_WRITE) {
		a->len = ret;
		if (c->op == FT_OP_WRITE && (c->flags & FT_AF_APPEND))
			a->pos = a->isize - ret;	/* appends land at EOF, any pos */
		else if (!(c->flags & FT_AF_POSITIONAL))
			a->pos = file->f_pos - ret;
	}
	submit(a);
	return 0;
}

/* The path is still in the caller's memory at exit; user space resolves it. */
static __always_inline int record_truncate(struct pt_regs *regs, long ret)
{
	struct ft_priv_truncate *t;

	if (ret < 0 || !task_passes())
		return 0;
	note_task(task_state());
	t = reserve_record(FT_PRIV_TRUNCATE, sizeof(*t));
	if (!t)
		return 0;
	t->length = syscall_arg(regs, 1);
	t->pid = bpf_get_current_pid_tgid() >> 32;
	bpf_probe_read_user_str(t->path, sizeof(t->path), (const void *)syscall_arg(regs, 0));
	/* Read at once: a relative path needs the process's cwd while it still exists. */
	bpf_ringbuf_submit(t, BPF_RB_FORCE_WAKEUP);
	return 0;
}

SEC("tp_btf/sys_exit")
int BPF_PROG(sys_exit, struct pt_regs *regs, long ret)
{
	struct call c = {};
	long id;

	if (!regs)
		return 0;
	id = syscall_nr(regs);
	if (id == NR_truncate)
		return record_truncate(regs, ret);
	if (!decode_call(regs, id, &c))
		return 0;
	return record_access(&c, ret);
}

/* ---- mmap ------------------------------------------------------------------------------------ */

static __always_inline int mmap_access(struct address_space *mapping, __u64 first, __u64 last,
				       __u32 kind)
{
	struct inode *inode;
	struct ft_access *a;
	__u32 dev;

	if (!mapping)
		return 0;
	inode = BPF_CORE_READ(mapping, host);
	if (!inode || !is_regular(inode) || !task_passes())
		return 0;
	dev = inode_dev(inode);
	if (filter_dev && dev != dev_filter)
		return 0;
	struct task_state *ts = task_state();

	note_task(ts);
	note_file(ts, inode);
	a = reserve_record(FT_ACCESS, sizeof(*a));
	if (!a)
		return 0;
	a->ino = BPF_CORE_READ(inode, i_ino);
	a->dev = dev;
	a->isize = BPF_CORE_READ(inode, i_size);
	a->op = FT_OP_MMAP_READ;
	a->arg = kind;		/* a fault may read; fault-around maps cached pages only */
	a->pos = first << PAGE_SHIFT;
	a->len = (last - first + 1) << PAGE_SHIFT;
	submit(a);
	return 0;
}

SEC("tp_btf/mm_filemap_fault")
int BPF_PROG(filemap_fault, struct address_space *mapping, unsigned long index)
{
	return mmap_access(mapping, index, index, FT_MMAP_FAULT);
}

SEC("tp_btf/mm_filemap_map_pages")
int BPF_PROG(filemap_map_pages, struct address_space *mapping, unsigned long index,
	     unsigned long last_index)
{
	return mmap_access(mapping, index, last_index, FT_MMAP_AROUND);
}

/* ---- page cache ------------------------------------------------------------------------------ */

static __always_inline __u8 folio_order(struct folio *folio)
{
	unsigned long head = 1ul << bpf_core_enum_value(enum pageflags, PG_head);

	if (!(BPF_CORE_READ(folio, flags.f) & head))
		return 0;
	return BPF_CORE_READ(folio, _flags_1) & 0xff;
}

/*
 * pfn of the folio given as tp_btf argument 0. The verifier forbids arithmetic on the typed
 * pointer, so its value is read back from the program context as a plain number.
 */
static __always_inline __u64 folio_pfn(__u64 *ctx)
{
	unsigned long base, addr = 0;

	read_vmemmap_start(&base);
	bpf_probe_read_kernel(&addr, sizeof(addr), ctx);
	return (addr - base) / bpf_core_type_size(struct page);
}

/* The file a page-cache folio belongs to, or NULL. */
static __always_inline struct inode *folio_inode(struct folio *folio)
{
	struct address_space *mapping;

	if (!folio)
		return NULL;
	mapping = BPF_CORE_READ(folio, mapping);
	if (!mapping)
		return NULL;
	return BPF_CORE_READ(mapping, host);
}

/* Kernel events carry the inode: the file is named here when no syscall named it first. */
static __always_inline int folio_event(__u64 *ctx, struct folio *folio, struct inode *inode,
				       __u16 type)
{
	struct ft_folio_event *e;
	__u32 dev = inode_dev(inode);
	__u64 ino = BPF_CORE_READ(inode, i_ino);

	if (!kernel_event_passes(dev, ino))
		return 0;
	struct task_state *ts = task_state();

	note_task(ts);
	note_file(ts, inode);
	e = reserve_record(type, sizeof(*e));
	if (!e)
		return 0;
	e->ino = ino;
	e->dev = dev;
	e->index = BPF_CORE_READ(folio, index);
	e->pfn = folio_pfn(ctx);
	e->order = folio_order(folio);
	submit(e);
	return 0;
}

SEC("tp_btf/mm_filemap_add_to_page_cache")
int BPF_PROG(pagecache_add, struct folio *folio)
{
	struct inode *inode = folio_inode(folio);

	return inode ? folio_event(ctx, folio, inode, FT_PAGECACHE_ADD) : 0;
}

/* An unlinked file losing its cache: its last link is gone (reported once per inode). */
static __always_inline int note_unlinked(struct inode *inode)
{
	struct ft_file_key key = { .dev = inode_dev(inode), .ino = BPF_CORE_READ(inode, i_ino) };
	struct ft_access *a;
	__u8 one = 1;

	if (BPF_CORE_READ(inode, i_nlink) != 0 || !is_regular(inode) ||
	    bpf_map_lookup_elem(&unlinked, &key) || !kernel_event_passes(key.dev, key.ino))
		return 0;
	bpf_map_update_elem(&unlinked, &key, &one, BPF_ANY);
	struct task_state *ts = task_state();

	note_task(ts);
	note_file(ts, inode);
	a = reserve_record(FT_ACCESS, sizeof(*a));
	if (!a)
		return 0;
	a->ino = key.ino;
	a->dev = key.dev;
	a->op = FT_OP_UNLINK;
	submit(a);
	return 0;
}

SEC("tp_btf/mm_filemap_delete_from_page_cache")
int BPF_PROG(pagecache_delete, struct folio *folio)
{
	struct inode *inode = folio_inode(folio);

	if (!inode)
		return 0;
	note_unlinked(inode);
	return folio_event(ctx, folio, inode, FT_PAGECACHE_DELETE);
}

/* Fires where the kernel accounts nr_dirtied, so the pages summed here match /proc/vmstat. */
#define PF_IO_WORKER	0x00000010
#define PF_KTHREAD	0x00200000

/*
 * A folio dirtied by a user write fault on a shared mapping: a task that dirties a file folio
 * inside an exception rather than a syscall is in a write fault, the only exception that does.
 * Kernel and io_uring threads have no such user context.
 */
static __always_inline bool in_user_write_fault(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	struct pt_regs *regs;

	if (task->flags & (PF_KTHREAD | PF_IO_WORKER))
		return false;
	regs = (struct pt_regs *)bpf_task_pt_regs(task);
	return regs && regs_in_exception(regs);
}

/* The application side of a write fault: the whole folio becomes dirty. */
static __always_inline int mmap_write(struct inode *inode, __u32 dev, __u64 ino, __u64 index,
				      __u8 order)
{
	struct ft_access *a;

	if (!task_passes() || !is_regular(inode))
		return 0;
	a = reserve_record(FT_ACCESS, sizeof(*a));
	if (!a)
		return 0;
	a->ino = ino;
	a->dev = dev;
	a->isize = BPF_CORE_READ(inode, i_size);
	a->op = FT_OP_MMAP_WRITE;
	a->pos = index << PAGE_SHIFT;
	a->len = (__u64)1 << (PAGE_SHIFT + order);
	submit(a);
	return 0;
}

SEC("tp_btf/writeback_dirty_folio")
int BPF_PROG(folio_dirty, struct folio *folio, struct address_space *mapping)
{
	struct inode *inode;
	struct ft_folio_event *e;
	__u32 dev;
	__u64 ino;

	if (!folio || !mapping)
		return 0;
	inode = BPF_CORE_READ(mapping, host);
	if (!inode_event_passes(inode, &dev, &ino))
		return 0;
	struct task_state *ts = task_state();

	__u64 index = BPF_CORE_READ(folio, index);
	__u8 order = folio_order(folio);

	note_task(ts);
	note_file(ts, inode);
	if (in_user_write_fault())
		mmap_write(inode, dev, ino, index, order);
	e = reserve_record(FT_FOLIO_DIRTY, sizeof(*e));
	if (!e)
		return 0;
	e->ino = ino;
	e->dev = dev;
	e->index = index;
	e->pfn = folio_pfn(ctx);
	e->order = order;
	submit(e);
	return 0;
}

/* ---- writeback ------------------------------------------------------------------------------- */

/* Pages the flusher wrote in one round (per bdi: no file). */
SEC("tp_btf/writeback_pages_written")
int BPF_PROG(writeback_pages_written, long pages)
{
	struct ft_writeback *w;

	note_task(task_state());
	w = reserve_record(FT_WRITEBACK, sizeof(*w));
	if (!w)
		return 0;
	w->kind = FT_WB_WRITTEN;
	w->nr_pages = pages;
	submit(w);
	return 0;
}

SEC("tp_btf/writeback_single_inode")
int BPF_PROG(writeback_single_inode, struct inode *inode, struct writeback_control *wbc,
	     unsigned long nr_to_write)
{
	struct ft_writeback *w;
	__u32 dev;
	__u64 ino;
	long left;

	if (!inode || !wbc)
		return 0;
	dev = inode_dev(inode);
	ino = BPF_CORE_READ(inode, i_ino);
	left = BPF_CORE_READ(wbc, nr_to_write);
	if (nr_to_write == (unsigned long)left || !kernel_event_passes(dev, ino))
		return 0;	/* wrote nothing */
	note_task(task_state());
	w = reserve_record(FT_WRITEBACK, sizeof(*w));
	if (!w)
		return 0;
	w->kind = FT_WB_SINGLE_INODE;
	w->dev = dev;
	w->ino = ino;
	w->index = BPF_CORE_READ(inode, i_mapping, writeback_index);
	w->nr_pages = nr_to_write - left;
	submit(w);
	return 0;
}

/* iomap (xfs): bytes of one folio queued for writeback, the exact write-back volume. */
SEC("tp_btf/iomap_writeback_folio")
int BPF_PROG(iomap_writeback_folio, struct inode *inode, loff_t offset, __u64 length)
{
	struct ft_writeback *w;
	__u32 dev;
	__u64 ino;

	if (!inode_event_passes(inode, &dev, &ino))
		return 0;
	note_task(task_state());
	w = reserve_record(FT_WRITEBACK, sizeof(*w));
	if (!w)
		return 0;
	w->kind = FT_WB_IOMAP;
	w->dev = dev;
	w->ino = ino;
	w->index = offset >> PAGE_SHIFT;
	w->nr_pages = length;
	submit(w);
	return 0;
}

/* ---- reclaim: system-wide memory pressure, kept whatever the task filter ------------------ */

/* One reclaim step of a kind: the fields each kind has no use for stay 0. */
static __always_inline struct ft_vmscan *vmscan_reserve(__u16 kind, __u32 nid, __s16 priority,
							  __u64 a)
{
	struct ft_vmscan *v;

	note_task(task_state());
	v = reserve_record(FT_VMSCAN, sizeof(*v));
	if (!v)
		return NULL;
	v->kind = kind;
	v->nid = nid;
	v->priority = priority;
	v->a = a;
	return v;
}

SEC("tp_btf/mm_vmscan_lru_isolate")
int BPF_PROG(vmscan_lru_isolate, int highest_zoneidx, int order, unsigned long nr_requested,
	     unsigned long nr_scanned, unsigned long nr_skipped, unsigned long nr_taken, int lru)
{
	struct ft_vmscan *v = vmscan_reserve(FT_VM_LRU_ISOLATE, 0, -1, lru);

	if (!v)
		return 0;
	v->nr_scanned = nr_taken;
	submit(v);
	return 0;
}

SEC("tp_btf/mm_vmscan_lru_shrink_inactive")
int BPF_PROG(vmscan_shrink_inactive, int nid, unsigned long nr_scanned,
	     unsigned long nr_reclaimed, struct reclaim_stat *stat, int priority, int file)
{
	struct ft_vmscan *v;

	if (!stat)
		return 0;
	v = vmscan_reserve(FT_VM_SHRINK_INACTIVE, nid, priority, file);
	if (!v)
		return 0;
	v->nr_scanned = nr_scanned;
	v->nr_reclaimed = nr_reclaimed;
	v->nr_dirty = BPF_CORE_READ(stat, nr_dirty);
	v->nr_writeback = BPF_CORE_READ(stat, nr_writeback);
	v->nr_immediate = BPF_CORE_READ(stat, nr_immediate);
	v->nr_activate = BPF_CORE_READ(stat, nr_activate[1]);
	submit(v);
	return 0;
}

SEC("tp_btf/mm_vmscan_lru_shrink_active")
int BPF_PROG(vmscan_shrink_active, int nid, unsigned long nr_taken, unsigned long nr_active,
	     unsigned long nr_deactivated, unsigned long nr_referenced, int priority, int file)
{
	struct ft_vmscan *v = vmscan_reserve(FT_VM_SHRINK_ACTIVE, nid, priority, file);

	if (!v)
		return 0;
	v->nr_scanned = nr_taken;
	v->nr_reclaimed = nr_deactivated;
	v->nr_activate = nr_active;
	submit(v);
	return 0;
}

SEC("tp_btf/mm_vmscan_write_folio")
int BPF_PROG(vmscan_write_folio, struct folio *folio)
{
	struct ft_vmscan *v = vmscan_reserve(FT_VM_WRITE_FOLIO, 0, -1, folio_pfn(ctx));

	if (v)
		submit(v);
	return 0;
}

SEC("tp_btf/mm_vmscan_kswapd_wake")
int BPF_PROG(vmscan_kswapd_wake, int nid, int zid, int order)
{
	struct ft_vmscan *v = vmscan_reserve(FT_VM_KSWAPD_WAKE, nid, -1, order);

	if (v)
		submit(v);
	return 0;
}

SEC("tp_btf/mm_vmscan_direct_reclaim_begin")
int BPF_PROG(vmscan_direct_reclaim, int order, gfp_t gfp_flags)
{
	struct ft_vmscan *v = vmscan_reserve(FT_VM_DIRECT_RECLAIM, 0, -1, order);

	if (v)
		submit(v);
	return 0;
}

/* ---- readahead ------------------------------------------------------------------------------- */

static __always_inline int readahead_event(struct inode *inode, __u16 kind, __u64 index,
					   __u64 size, __u64 async, __u8 order)
{
	struct ft_readahead *r;
	__u32 dev;
	__u64 ino;

	if (!inode_event_passes(inode, &dev, &ino))
		return 0;
	struct task_state *ts = task_state();

	note_task(ts);
	note_file(ts, inode);
	r = reserve_record(FT_READAHEAD, sizeof(*r));
	if (!r)
		return 0;
	r->dev = dev;
	r->ino = ino;
	r->kind = kind;
	r->index = index;
	r->size = size;
	r->async_size = async;
	r->order = order;
	submit(r);
	return 0;
}

SEC("tp_btf/page_cache_ra_unbounded")
int BPF_PROG(ra_unbounded, struct inode *inode, unsigned long index, unsigned long nr_to_read,
	     unsigned long lookahead_size)
{
	return readahead_event(inode, FT_RA_UNBOUNDED, index, nr_to_read, lookahead_size, 0);
}

/* The window being read: start, size, async_size and order of the readahead state. */
static __always_inline int ra_state_event(struct inode *inode, __u16 kind,
					  struct file_ra_state *ra, __u64 index, __u64 size)
{
	if (!ra)
		return 0;
	return readahead_event(inode, kind, index, size, BPF_CORE_READ(ra, async_size),
			       BPF_CORE_READ(ra, order));
}

SEC("tp_btf/page_cache_ra_order")
int BPF_PROG(ra_order, struct inode *inode, unsigned long index, struct file_ra_state *ra)
{
	return ra_state_event(inode, FT_RA_ORDER, ra, index, ra ? BPF_CORE_READ(ra, size) : 0);
}

SEC("tp_btf/page_cache_sync_ra")
int BPF_PROG(ra_sync, struct inode *inode, unsigned long index, struct file_ra_state *ra,
	     unsigned long req_count)
{
	return ra_state_event(inode, FT_RA_SYNC, ra, index, req_count);
}

SEC("tp_btf/page_cache_async_ra")
int BPF_PROG(ra_async, struct inode *inode, unsigned long index, struct file_ra_state *ra,
	     unsigned long req_count)
{
	return ra_state_event(inode, FT_RA_ASYNC, ra, index, req_count);
}

/* ---- processes ------------------------------------------------------------------------------- */

/* -- COMMAND: children of a traced process are traced too. */
SEC("tp_btf/sched_process_fork")
int BPF_PROG(process_fork, struct task_struct *parent, struct task_struct *child)
{
	__u32 tgid = bpf_get_current_pid_tgid() >> 32;
	__u32 pid;
	__u8 one = 1;

	if (!follow_forks || !child || !bpf_map_lookup_elem(&pids, &tgid))
		return 0;
	pid = BPF_CORE_READ(child, tgid);
	bpf_map_update_elem(&pids, &pid, &one, BPF_ANY);
	return 0;
}

/* A thread already in the trace that runs a new program is announced again by its new name. */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(process_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct task_state *ts = bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), NULL, 0);
	char comm[FT_COMM_LEN];

	if (!ts || !ts->announced)
		return 0;
	bpf_get_current_comm(comm, sizeof(comm));
	for (int i = 0; i < FT_COMM_LEN; i++) {
		if (comm[i] != ts->comm[i]) {
			ts->announced = 0;
			note_task(ts);
			break;
		}
		if (!comm[i])
			break;
	}
	return 0;
}
