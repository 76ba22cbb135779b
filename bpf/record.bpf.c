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
 *
 * This file holds the programs; what they share is in headers, one job each: arch.bpf.h
 * (everything x86-64), maps.bpf.h (settings and maps), ringbuf.bpf.h (reserving and submitting
 * records), task.bpf.h (the current task), filter.bpf.h (which events the trace keeps),
 * file.bpf.h (fd and inode to file, naming files), folio.bpf.h and syscall.bpf.h (decoding).
 */
#include "arch.bpf.h"	/* first: it sets bpf_tracing.h's target architecture */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "trace/events.h"
#include "record.h"
#include "file.bpf.h"
#include "filter.bpf.h"
#include "folio.bpf.h"
#include "maps.bpf.h"
#include "ringbuf.bpf.h"
#include "syscall.bpf.h"
#include "task.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* ---- syscalls -------------------------------------------------------------------------------- */

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

/* Fires where the kernel accounts nr_dirtied, so the pages summed here match /proc/vmstat. */
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
