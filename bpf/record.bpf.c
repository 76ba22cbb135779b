// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * folio-trace record: the kernel side. Tracepoint, tp_btf and raw_tp programs only (no
 * fentry/kprobe on our kernels). Every program builds one record of events.h in the ring
 * buffer; src/record/ copies them into the trace unchanged.
 *
 * Syscalls: the sys_exit_* programs are attached (by src/record/loader.c) to the exit
 * tracepoints of the recorded calls only, so no other syscall of the system runs a program.
 * They resolve the fd to its struct file (task->files->fdt, CO-RE) and build the FT_ACCESS
 * records. io_uring reads
 * and writes are recorded at their completion, AIO at io_submit(2).
 * File deletion has no tracepoint with an inode, so FT_OP_UNLINK is emitted when the page cache
 * drops a folio of an inode whose i_nlink is 0 (the final iput truncating an unlinked file).
 *
 * Hot paths cost what cannot be avoided: a thread's filter verdict and FT_TASK state come from
 * a per-CPU entry about the last task (task.bpf.h), typed pointers are read with direct loads
 * rather than probe reads, and records are filled once, never zeroed first.
 *
 * This file holds the programs; what they share is in headers, one job each: arch.bpf.h
 * (everything x86-64), maps.bpf.h (settings and maps), ringbuf.bpf.h (reserving and submitting
 * records), task.bpf.h (the current task), filter.bpf.h (which events the trace keeps),
 * file.bpf.h (fd and inode to file, naming files), access.bpf.h (FT_ACCESS records),
 * syscall.bpf.h, aio.bpf.h, uring.bpf.h and vma.bpf.h (decoding what each interface asked),
 * folio.bpf.h (folios).
 */
#include "arch.bpf.h"	/* first: it sets bpf_tracing.h's target architecture */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include <bpf/bpf_core_read.h>

#include "trace/events.h"
#include "record.h"
#include "access.bpf.h"
#include "aio.bpf.h"
#include "file.bpf.h"
#include "filter.bpf.h"
#include "folio.bpf.h"
#include "maps.bpf.h"
#include "ringbuf.bpf.h"
#include "syscall.bpf.h"
#include "task.bpf.h"
#include "uring.bpf.h"
#include "vma.bpf.h"

char LICENSE[] SEC("license") = "GPL";

/* ---- syscalls -------------------------------------------------------------------------------- */

/* The path is still in the caller's memory at exit; user space resolves it. */
static __always_inline void truncate_call(const struct cur *c, struct pt_regs *regs, long nr,
					  long ret)
{
	struct ft_priv_truncate *t;

	note_task(c);
	t = reserve_record(FT_PRIV_TRUNCATE, sizeof(*t), cur_tid(c));
	if (!t)
		return;
	t->length = syscall_arg(regs, 1);
	t->pid = c->pid_tgid >> 32;
	t->pad = 0;
	if (bpf_probe_read_user_str(t->path, sizeof(t->path), (const void *)syscall_arg(regs, 0)) < 0)
		t->path[0] = '\0';
	/* Read at once: a relative path needs the process's cwd while it still exists. */
	bpf_ringbuf_submit(t, BPF_RB_FORCE_WAKEUP);
}

/* The record of a syscalls:sys_exit_NAME event, as its format file in tracefs says. */
struct syscall_exit {
	__u64 common;
	__s32 nr;
	__s32 pad;
	__s64 ret;
};

/*
 * Every syscall program starts here: a failed call is no access, an untraced task has none.
 * At exit the saved argument registers are still intact and the fd still open (the call held
 * a reference to its file): everything is recorded then, no program on entry, no per-thread
 * map between the two.
 */
static __always_inline struct pt_regs *syscall_start(struct cur *c, long ret)
{
	if (ret < 0 || !cur_get(c) || !cur_traced(c))
		return NULL;
	return (struct pt_regs *)bpf_task_pt_regs(bpf_get_current_task_btf());
}

/*
 * One program per family of calls, each attached to its calls' exit tracepoints: small
 * programs the verifier checks quickly, and a short way to the call's decoding. decode:
 * void decode(const struct cur *, struct pt_regs *, long nr, long ret).
 */
#define SYSCALL_PROGRAM(name, decode)					\
	SEC("tracepoint")						\
	int name(struct syscall_exit *ctx)				\
	{								\
		struct pt_regs *regs;					\
		struct cur c;						\
									\
		if ((regs = syscall_start(&c, ctx->ret)))		\
			decode(&c, regs, ctx->nr, ctx->ret);		\
		return 0;						\
	}

SYSCALL_PROGRAM(sys_exit_rw, rw_call)
SYSCALL_PROGRAM(sys_exit_fd, fd_call)
SYSCALL_PROGRAM(sys_exit_copy, copy_call)
SYSCALL_PROGRAM(sys_exit_aio, aio_call)
SYSCALL_PROGRAM(sys_exit_mapping, mapping_call)
SYSCALL_PROGRAM(sys_exit_truncate, truncate_call)
SYSCALL_PROGRAM(sys_exit_open, open_call)

/*
 * Two programs for the two argument lists of io_uring_complete; the loader keeps the one this
 * kernel's BTF shows. (ctx, req, cqe) from 6.3 on:
 */
SEC("raw_tp/io_uring_complete")
int BPF_PROG(uring_complete_rw, void *ring, struct io_kiocb *req, struct io_uring_cqe *cqe)
{
	uring_complete(req, BPF_CORE_READ(cqe, res));
	return 0;
}

/* (ctx, req, user_data, res, cflags, extra1, extra2) before. */
SEC("raw_tp/io_uring_complete")
int BPF_PROG(uring_complete_rw_res, void *ring, struct io_kiocb *req, __u64 user_data, int res)
{
	uring_complete(req, res);
	return 0;
}

/* ---- mmap ------------------------------------------------------------------------------------ */

#define VM_EXEC	0x00000004	/* include/linux/mm.h: a #define, not in BTF */

#define VM_SHARED	0x00000008
#define TMPFS_MAGIC	0x01021994
#define MM_SHMEMPAGES	3	/* include/linux/mm_types_task.h, an anonymous enum: 4.5 on */

/* The fault in progress on this CPU: where, whose, and what its error code says. */
static __always_inline void note_fault(unsigned long address, unsigned long error_code)
{
	__u32 zero = 0;
	struct fault_vma *s = bpf_map_lookup_elem(&fault_vmas, &zero);

	if (s) {
		s->address = address;
		s->tid = (__u32)bpf_get_current_pid_tgid();
		s->shmem_pending = !(error_code & X86_PF_PROT);
		s->write = (error_code & X86_PF_WRITE) != 0;
	}
}

/* x86 exc_page_fault(): every fault, before the filemap fault it may lead to. */
SEC("tp_btf/page_fault_user")
int BPF_PROG(fault_user, unsigned long address, struct pt_regs *regs, unsigned long error_code)
{
	note_fault(address, error_code);
	return 0;
}

/* A copy to or from user memory that faults in a file mapping (read(2) into one) */
SEC("tp_btf/page_fault_kernel")
int BPF_PROG(fault_kernel, unsigned long address, struct pt_regs *regs,
	     unsigned long error_code)
{
	note_fault(address, error_code);
	return 0;
}

/* What a fault's VMA says: its file and where in it the page is, its flags. */
struct fault_walk {
	__u64 address;
	__u64 file;		/* its struct file, 0 for anonymous memory */
	__u64 pos;		/* the page's byte offset in the file */
	__u64 flags;		/* vm_flags */
};

static long fault_vma_found(struct task_struct *task, struct vm_area_struct *vma,
			    struct fault_walk *w)
{
	w->file = (__u64)vma->vm_file;
	w->pos = ((w->address - vma->vm_start) >> PAGE_SHIFT << PAGE_SHIFT) +
		 (vma->vm_pgoff << PAGE_SHIFT);
	w->flags = vma->vm_flags;
	return 0;
}

/*
 * shmem_fault() fires no mm_filemap_fault: a tmpfs file's fault is recorded from the fault's
 * VMA, one record a fault, of the page not present it faulted on (fault-around maps others
 * beside it, recorded apart): a write through a shared mapping as FT_OP_MMAP_WRITE (it
 * allocates, as shmem_get_folio_gfp() does, the folio huge=advise makes huge for a
 * VM_HUGEPAGE mapping). A private mapping's write fault maps an anonymous copy and goes
 * unrecorded from 6.2 on. Memory of kernel-internal mounts (shared anonymous memory, SysV
 * shm, memfd) is no file of the trace.
 */
static __always_inline void shmem_fault(struct fault_vma *s)
{
	struct access x = { .op = FT_OP_MMAP_READ, .arg = FT_MMAP_SHMEM, .len = 1 << PAGE_SHIFT };
	struct fault_walk w = { .address = s->address };
	struct file *file;
	struct cur c;

	s->shmem_pending = 0;
	if (!cur_get(&c) || !cur_traced(&c) ||
	    bpf_find_vma(bpf_get_current_task_btf(), w.address, fault_vma_found, &w, 0) ||
	    !w.file)
		return;
	file = typed_file(w.file);
	if (FILE_LOAD(file, f_inode, i_sb, s_magic) != TMPFS_MAGIC || internal_file(file))
		return;
	if (s->write && (w.flags & VM_SHARED))
		x.op = FT_OP_MMAP_WRITE;
	x.flags = (w.flags & VM_EXEC) ? FT_AF_EXEC : 0;
	x.pos = w.pos;
	file_access(&c, file, &x);
}

/*
 * 6.2 on: when the fault maps a tmpfs page, which counts it in the process's MM_SHMEMPAGES
 * (kmem:rss_stat; every other counter leaves at once). Interrupts are on there, so the VMA
 * lookup unlocks at once, where in the page fault tracepoint it would defer the unlock to an
 * interrupt (bpf_find_vma(): irq_work), which cost 7 us a fault in a VM.
 */
SEC("tp_btf/rss_stat")
int BPF_PROG(shmem_mapped, struct mm_struct *mm, int member)
{
	__u32 zero = 0;
	struct fault_vma *s;

	if (member != MM_SHMEMPAGES)
		return 0;
	s = bpf_map_lookup_elem(&fault_vmas, &zero);
	if (s && s->shmem_pending && s->tid == (__u32)bpf_get_current_pid_tgid())
		shmem_fault(s);
	return 0;
}

/*
 * 6.1 counts a task's faults in its own cache (SPLIT_RSS_COUNTING) and traces rss_stat only
 * when it syncs them, every 64 faults: the VMA is looked up at the fault itself, deferred
 * unlock and all (a write through a private mapping is then recorded as a read).
 */
SEC("tp_btf/page_fault_user")
int BPF_PROG(shmem_fault_6_1, unsigned long address, struct pt_regs *regs,
	     unsigned long error_code)
{
	__u32 zero = 0;
	struct fault_vma *s;

	note_fault(address, error_code);	/* as fault_user does, whichever runs first */
	s = bpf_map_lookup_elem(&fault_vmas, &zero);
	if (s && s->shmem_pending)
		shmem_fault(s);
	return 0;
}

/*
 * mm/vmscan.c folio_check_references() activates a file folio referenced through an
 * executable mapping at its first reference: a fault through a VM_EXEC VMA says so
 * (FT_AF_EXEC). The VMA is looked up at the fault's address; with no fault noted for this
 * thread (a kernel without the tracepoint), or the mm busy, the fault is not exec, and its
 * open file (the mapping's vm_file, whose readahead state do_sync_mmap_readahead() uses)
 * unknown.
 */
static __always_inline void fault_vma(const struct cur *c, struct access *x)
{
	__u32 zero = 0;
	struct fault_vma *s = bpf_map_lookup_elem(&fault_vmas, &zero);
	struct fault_walk w;

	if (!s || s->tid != cur_tid(c))
		return;
	w.address = s->address;
	if (bpf_find_vma(bpf_get_current_task_btf(), w.address, fault_vma_found, &w, 0))
		return;
	x->flags = (w.flags & VM_EXEC) ? FT_AF_EXEC : 0;
	x->ofile = w.file ? ofile_id((void *)w.file) : 0;
}

static __always_inline int mmap_access(struct address_space *mapping, __u64 first, __u64 last,
				       __u32 kind)
{
	struct access x = { .op = FT_OP_MMAP_READ, .arg = kind };
	struct inode *inode;
	struct cur c;
	__u32 dev;
	__u64 ino;

	if (!mapping || !cur_get(&c) || !cur_traced(&c))
		return 0;
	inode = mapping->host;
	if (!inode || (inode->i_mode & S_IFMT) != S_IFREG)
		return 0;
	dev = inode->i_sb->s_dev;
	if (filter_dev && dev != dev_filter)
		return 0;
	ino = inode->i_ino;
	fault_vma(&c, &x);
	note_task(&c);
	note_file_id(&c, inode, NULL, dev, ino);
	/* a fault may read; fault-around maps cached pages only */
	x.pos = first << PAGE_SHIFT;
	x.len = (last - first + 1) << PAGE_SHIFT;
	emit_access(&c, ino, dev, inode->i_size, &x);
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

/*
 * A kernel event about a file: whether the trace keeps it (c filled then), with the file's
 * device and inode number. inode: a BTF-typed pointer; self_kept: kernel_event_passes().
 */
static __always_inline bool inode_event_of(struct cur *c, struct inode *inode, bool self_kept,
					   __u32 *dev, __u64 *ino)
{
	if (!inode)
		return false;
	*dev = inode->i_sb->s_dev;
	*ino = inode->i_ino;
	return cur_get(c) &&
	       kernel_event_passes(c->cs->verdict, self_kept, *dev, *ino, inode_gen(inode));
}

static __always_inline bool inode_event(struct cur *c, struct inode *inode, __u32 *dev,
					__u64 *ino)
{
	return inode_event_of(c, inode, false, dev, ino);
}

/* Kernel events carry the inode: the file is named here when no syscall named it first. */
static __always_inline void folio_record(const struct cur *c, __u64 *ctx, struct folio *folio,
					 struct inode *inode, __u32 dev, __u64 ino, __u16 type,
					 __u8 flags)
{
	struct ft_folio_event *e;

	note_task(c);
	note_file_id(c, inode, NULL, dev, ino);
	e = reserve_record(type, sizeof(*e), cur_tid(c));
	if (!e)
		return;
	e->ino = ino;
	e->index = folio->index;
	e->pfn = folio_pfn(ctx);
	e->dev = dev;
	e->order = folio_order(folio);
	e->pad[0] = e->pad[1] = 0;
	e->flags = flags;
	submit(e);
}

/*
 * The task's last insertion, kept or not: filemap_add_folio() counts the refault of the folio
 * it inserted (workingset_refault()) right after this event, in the same task (mm/filemap.c,
 * 6.14 to 6.18), and the refault's counter update names no folio.
 */
static __always_inline void note_insertion(__u64 *ctx, struct folio *folio, bool kept,
					   __u32 dev, __u64 ino)
{
	struct task_state *ts;

	if (!track_refaults)
		return;
	ts = bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), NULL, 0);
	if (!ts)
		return;
	ts->inserted_kept = kept;
	if (!kept)
		return;
	ts->inserted_ino = ino;
	ts->inserted_dev = dev;
	ts->inserted_index = folio->index;
	ts->inserted_pfn = folio_pfn(ctx);
	ts->inserted_order = folio_order(folio);
}

SEC("tp_btf/mm_filemap_add_to_page_cache")
int BPF_PROG(pagecache_add, struct folio *folio)
{
	struct inode *inode = folio_inode(folio);
	struct cur c;
	__u32 dev = 0;
	__u64 ino = 0;
	bool kept = inode_event(&c, inode, &dev, &ino);

	if (kept)
		folio_record(&c, ctx, folio, inode, dev, ino, FT_PAGECACHE_ADD, 0);
	note_insertion(ctx, folio, kept, dev, ino);
	return 0;
}

/*
 * Which folios refaulted, and which of those the refault found recent: workingset_refault()
 * and lru_gen_refault() add the folio's pages to workingset_refault_file, then, when its
 * shadow is recent, to workingset_activate_file (mm/workingset.c, 6.14 to 6.18). The counter
 * updates fire for every statistic: all but those two return at once.
 */
SEC("tp_btf/mod_memcg_lruvec_state")
int BPF_PROG(memcg_lruvec_stat, struct mem_cgroup *memcg, int item, int val)
{
	struct ft_folio_event *e;
	struct task_state *ts;
	struct cur c;
	__u16 type;

	if (item == bpf_core_enum_value(enum node_stat_item, WORKINGSET_REFAULT_FILE))
		type = FT_PAGECACHE_REFAULT;
	else if (item == bpf_core_enum_value(enum node_stat_item, WORKINGSET_ACTIVATE_FILE))
		type = FT_PAGECACHE_ACTIVATE;
	else
		return 0;
	ts = bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), NULL, 0);
	if (!ts || !ts->inserted_kept || !cur_get(&c))
		return 0;
	if (type == FT_PAGECACHE_ACTIVATE)
		ts->inserted_kept = 0;	/* the last count a folio's refault makes */
	e = reserve_record(type, sizeof(*e), cur_tid(&c));
	if (!e)
		return 0;
	e->ino = ts->inserted_ino;
	e->index = ts->inserted_index;
	e->pfn = ts->inserted_pfn;
	e->dev = ts->inserted_dev;
	e->order = ts->inserted_order;
	e->flags = e->pad[0] = e->pad[1] = 0;
	submit(e);
	return 0;
}

/* An unlinked file losing its cache: its last link is gone (reported once per inode). */
static __always_inline void note_unlinked(const struct cur *c, struct inode *inode, __u32 dev,
					  __u64 ino)
{
	struct ft_file_key key = { .dev = dev, .gen = inode_gen(inode), .ino = ino };
	struct access x = { .op = FT_OP_UNLINK };
	__u8 one = 1;

	if (inode->i_nlink != 0 || (inode->i_mode & S_IFMT) != S_IFREG ||
	    bpf_map_lookup_elem(&unlinked, &key))
		return;
	bpf_map_update_elem(&unlinked, &key, &one, BPF_ANY);
	note_task(c);
	note_file_id(c, inode, NULL, dev, ino);
	emit_access(c, ino, dev, 0, &x);
}

/*
 * FT_FE_PROACTIVE when the current task is a DAMON worker (a kernel thread named kdamond.N),
 * traced or not (a whole-system recording traces it too): its deletes are its pageout
 * scheme's, not the trace's reclaim nor truncation.
 */
static __always_inline __u8 proactive_reclaimer(void)
{
	struct task_struct *task = bpf_get_current_task_btf();
	char comm[8];

	if (!(task->flags & PF_KTHREAD) || bpf_get_current_comm(comm, sizeof(comm)))
		return 0;
	return comm[0] == 'k' && comm[1] == 'd' && comm[2] == 'a' && comm[3] == 'm' &&
	       comm[4] == 'o' && comm[5] == 'n' ? FT_FE_PROACTIVE : 0;
}

SEC("tp_btf/mm_filemap_delete_from_page_cache")
int BPF_PROG(pagecache_delete, struct folio *folio)
{
	struct inode *inode = folio_inode(folio);
	struct cur c;
	__u32 dev;
	__u64 ino;

	if (!inode_event_of(&c, inode, true, &dev, &ino))
		return 0;
	note_unlinked(&c, inode, dev, ino);
	folio_record(&c, ctx, folio, inode, dev, ino, FT_PAGECACHE_DELETE, proactive_reclaimer());
	return 0;
}

/* The application side of a write fault: the whole folio becomes dirty. */
static __always_inline void mmap_write(const struct cur *c, struct inode *inode, __u32 dev,
				       __u64 ino, __u64 index, __u8 order)
{
	struct access x = { .op = FT_OP_MMAP_WRITE };

	if (!cur_traced(c) || (inode->i_mode & S_IFMT) != S_IFREG)
		return;
	x.pos = index << PAGE_SHIFT;
	x.len = (__u64)1 << (PAGE_SHIFT + order);
	emit_access(c, ino, dev, inode->i_size, &x);
}

/* Fires where the kernel accounts nr_dirtied, so the pages summed here match /proc/vmstat. */
SEC("tp_btf/writeback_dirty_folio")
int BPF_PROG(folio_dirty, struct folio *folio, struct address_space *mapping)
{
	struct ft_folio_event *e;
	struct cur c;
	__u64 index, ino;
	__u32 dev;
	__u8 order;

	if (!folio || !mapping || !inode_event(&c, mapping->host, &dev, &ino))
		return 0;
	index = folio->index;
	order = folio_order(folio);
	note_task(&c);
	note_file_id(&c, mapping->host, NULL, dev, ino);
	if (in_user_write_fault())
		mmap_write(&c, mapping->host, dev, ino, index, order);
	e = reserve_record(FT_FOLIO_DIRTY, sizeof(*e), cur_tid(&c));
	if (!e)
		return 0;
	e->ino = ino;
	e->index = index;
	e->pfn = folio_pfn(ctx);
	e->dev = dev;
	e->order = order;
	e->flags = e->pad[0] = e->pad[1] = 0;
	submit(e);
	return 0;
}

/* ---- writeback ------------------------------------------------------------------------------- */

/* One FT_WRITEBACK record, every field written. */
static __always_inline void writeback_record(const struct cur *c, __u16 kind, __u32 dev,
					     __u64 ino, __u64 index, __u64 nr, __u16 reason)
{
	struct ft_writeback *w;

	note_task(c);
	w = reserve_record(FT_WRITEBACK, sizeof(*w), cur_tid(c));
	if (!w)
		return;
	w->ino = ino;
	w->index = index;
	w->nr_pages = nr;
	w->dev = dev;
	w->kind = kind;
	w->reason = reason;
	submit(w);
}

/* Pages the flusher wrote in one round (per bdi: no file). */
SEC("tp_btf/writeback_pages_written")
int BPF_PROG(writeback_pages_written, long pages)
{
	struct cur c;

	if (cur_get(&c) && c.cs->verdict != V_SELF)
		writeback_record(&c, FT_WB_WRITTEN, 0, 0, 0, pages, 0);
	return 0;
}

SEC("tp_btf/writeback_single_inode")
int BPF_PROG(writeback_single_inode, struct inode *inode, struct writeback_control *wbc,
	     unsigned long nr_to_write)
{
	struct cur c;
	__u32 dev;
	__u64 ino;
	long left;

	if (!wbc)
		return 0;
	left = wbc->nr_to_write;
	if (nr_to_write == (unsigned long)left || !inode_event(&c, inode, &dev, &ino))
		return 0;	/* wrote nothing */
	writeback_record(&c, FT_WB_SINGLE_INODE, dev, ino, inode->i_mapping->writeback_index,
			 nr_to_write - left, 0);
	return 0;
}

/*
 * iomap (xfs): bytes of one folio queued for writeback, the exact write-back volume. Before
 * 6.17 the same event, with the same arguments, is iomap_writepage (the loader retargets).
 */
SEC("tp_btf/iomap_writeback_folio")
int BPF_PROG(iomap_writeback_folio, struct inode *inode, loff_t offset, __u64 length)
{
	struct cur c;
	__u32 dev;
	__u64 ino;

	if (inode_event(&c, inode, &dev, &ino))
		writeback_record(&c, FT_WB_IOMAP, dev, ino, offset >> PAGE_SHIFT, length, 0);
	return 0;
}

/*
 * ext4: the pages one ext4_writepages() call submitted for the inode's data, whoever asked
 * (the flusher, fsync, sync_file_range); writeback_single_inode sees only the first.
 */
SEC("tp_btf/ext4_writepages_result")
int BPF_PROG(ext4_writepages_result, struct inode *inode, struct writeback_control *wbc,
	     int ret, int pages_written)
{
	struct cur c;
	__u32 dev;
	__u64 ino;

	if (pages_written <= 0 || !wbc || !inode_event(&c, inode, &dev, &ino))
		return 0;
	writeback_record(&c, FT_WB_EXT4, dev, ino, inode->i_mapping->writeback_index,
			 pages_written, 0);
	return 0;
}

/* btrfs: a range of file data written (an ordered extent, or its part, finished), in bytes. */
SEC("tp_btf/btrfs_finish_ordered_extent")
int BPF_PROG(btrfs_writeback_done, const struct btrfs_inode *binode, __u64 start, __u64 len,
	     bool uptodate)
{
	struct inode *inode = (struct inode *)&binode->vfs_inode;
	struct cur c;
	__u32 dev;
	__u64 ino;

	if (!binode || !uptodate || !len || !inode_event(&c, inode, &dev, &ino))
		return 0;
	writeback_record(&c, FT_WB_BTRFS, dev, ino, start >> PAGE_SHIFT, len, 0);
	return 0;
}

/* ---- block layer: every request a device completes ------------------------------------------- */

static __always_inline __u8 block_op(__u32 op)
{
	if (op == bpf_core_enum_value(enum req_op, REQ_OP_READ))
		return FT_BLK_READ;
	if (op == bpf_core_enum_value(enum req_op, REQ_OP_WRITE))
		return FT_BLK_WRITE;
	if (op == bpf_core_enum_value(enum req_op, REQ_OP_FLUSH))
		return FT_BLK_FLUSH;
	if (op == bpf_core_enum_value(enum req_op, REQ_OP_DISCARD) ||
	    op == bpf_core_enum_value(enum req_op, REQ_OP_SECURE_ERASE) ||
	    op == bpf_core_enum_value(enum req_op, REQ_OP_WRITE_ZEROES))
		return FT_BLK_DISCARD;
	return FT_BLK_OTHER;
}

static __always_inline __u16 block_flags(__u64 f)
{
	return (f & (1ull << bpf_core_enum_value(enum req_flag_bits, __REQ_SYNC)) ? FT_BLK_SYNC : 0) |
	       (f & (1ull << bpf_core_enum_value(enum req_flag_bits, __REQ_META)) ? FT_BLK_META : 0) |
	       (f & (1ull << bpf_core_enum_value(enum req_flag_bits, __REQ_FUA)) ? FT_BLK_FUA : 0) |
	       (f & (1ull << bpf_core_enum_value(enum req_flag_bits, __REQ_PREFLUSH)) ?
		FT_BLK_PREFLUSH : 0);
}

/*
 * Runs in whatever context completes the request (often an interrupt): the record names no
 * task. The device is the partition the request went to, as files' s_dev names it.
 */
SEC("tp_btf/block_rq_complete")
int BPF_PROG(block_complete, struct request *rq, blk_status_t error, unsigned int nr_bytes)
{
	struct block_device *part;
	struct gendisk *disk;
	struct ft_block *b;
	__u32 dev;

	if (!rq || !nr_bytes)
		return 0;
	part = rq->part;
	disk = rq->q->disk;
	if (part)
		dev = part->bd_dev;
	else if (disk)
		dev = (__u32)disk->major << 20 | (__u32)disk->first_minor;
	else
		return 0;
	if (filter_dev && dev != dev_filter)
		return 0;
	b = reserve_record(FT_BLOCK, sizeof(*b), 0);
	if (!b)
		return 0;
	b->sector = rq->__sector;
	b->start_ns = rq->start_time_ns;
	b->issue_ns = rq->io_start_time_ns;
	b->dev = dev;
	b->bytes = nr_bytes;
	b->op = block_op(rq->cmd_flags & 0xff);
	b->error = error;
	b->flags = block_flags(rq->cmd_flags);
	b->pad = 0;
	submit(b);
	return 0;
}

/* ---- reclaim: system-wide memory pressure, kept whatever the task filter ------------------ */

/* One reclaim step of a kind: every field written, those a kind has no use for 0. */
static __always_inline struct ft_vmscan *vmscan_reserve(__u16 kind, __u32 nid, __s16 priority,
							  __u64 a)
{
	struct ft_vmscan *v;
	struct cur c;

	if (!cur_get(&c))
		return NULL;
	note_task(&c);
	v = reserve_record(FT_VMSCAN, sizeof(*v), cur_tid(&c));
	if (!v)
		return NULL;
	v->nr_scanned = v->nr_reclaimed = v->nr_dirty = v->nr_writeback = 0;
	v->nr_immediate = v->nr_activate = 0;
	v->kind = kind;
	v->nid = nid;
	v->priority = priority;
	v->a = a;
	return v;
}

static __always_inline void lru_isolate(unsigned long nr_taken, int lru)
{
	struct ft_vmscan *v = vmscan_reserve(FT_VM_LRU_ISOLATE, 0, -1, lru);

	if (!v)
		return;
	v->nr_scanned = nr_taken;
	submit(v);
}

/* Two argument lists again, one program each: 6.1 passes isolate_mode before lru, 6.12 not. */
SEC("tp_btf/mm_vmscan_lru_isolate")
int BPF_PROG(vmscan_lru_isolate, int highest_zoneidx, int order, unsigned long nr_requested,
	     unsigned long nr_scanned, unsigned long nr_skipped, unsigned long nr_taken, int lru)
{
	lru_isolate(nr_taken, lru);
	return 0;
}

SEC("tp_btf/mm_vmscan_lru_isolate")
int BPF_PROG(vmscan_lru_isolate_mode, int highest_zoneidx, int order, unsigned long nr_requested,
	     unsigned long nr_scanned, unsigned long nr_skipped, unsigned long nr_taken,
	     isolate_mode_t mode, int lru)
{
	lru_isolate(nr_taken, lru);
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
	v->nr_dirty = stat->nr_dirty;
	v->nr_writeback = stat->nr_writeback;
	v->nr_immediate = stat->nr_immediate;
	v->nr_activate = stat->nr_activate[1];
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

/*
 * The memory cgroups' statistics flushed: the LRU sizes count_shadow_nodes() lets reclaim keep
 * shadows by are those of the last flush, so the refaults a replay can find follow these
 * times. Only calls that flushed (the tracepoint fires for every call, 6.14 on).
 */
SEC("tp_btf/memcg_flush_stats")
int BPF_PROG(memcg_flush, struct mem_cgroup *memcg, s64 stats_updates, bool force,
	     bool needs_flush)
{
	struct ft_vmscan *v;

	if (!force && !needs_flush)
		return 0;
	v = vmscan_reserve(FT_VM_MEMCG_FLUSH, 0, -1, BPF_CORE_READ(memcg, css.cgroup, kn, id));
	if (!v)
		return 0;
	v->nr_scanned = stats_updates < 0 ? 0 : stats_updates;
	submit(v);
	return 0;
}

/* ---- readahead ------------------------------------------------------------------------------- */

static __always_inline int readahead_event(struct inode *inode, __u16 kind, __u64 index,
					   __u64 size, __u64 async, __u8 order)
{
	struct ft_readahead *r;
	struct cur c;
	__u32 dev;
	__u64 ino;

	if (!inode_event(&c, inode, &dev, &ino))
		return 0;
	note_task(&c);
	note_file_id(&c, inode, NULL, dev, ino);
	r = reserve_record(FT_READAHEAD, sizeof(*r), cur_tid(&c));
	if (!r)
		return 0;
	r->ino = ino;
	r->index = index;
	r->size = size;
	r->async_size = async;
	r->dev = dev;
	r->kind = kind;
	r->order = order;
	r->pad = 0;
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
	__u8 order = 0;

	if (!ra)
		return 0;
	if (bpf_core_field_exists(ra->order))	/* 6.18 on, with these tracepoints' arguments */
		order = ra->order;
	return readahead_event(inode, kind, index, size, ra->async_size, order);
}

SEC("tp_btf/page_cache_ra_order")
int BPF_PROG(ra_order, struct inode *inode, unsigned long index, struct file_ra_state *ra)
{
	return ra_state_event(inode, FT_RA_ORDER, ra, index, ra ? ra->size : 0);
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

/*
 * exec: the filters are asked again (--comm), and a thread already in the trace that runs a
 * new program is announced again by its new name. Every CPU's entry about it is now stale.
 */
SEC("tp_btf/sched_process_exec")
int BPF_PROG(process_exec, struct task_struct *p, pid_t old_pid, struct linux_binprm *bprm)
{
	struct task_state *ts = bpf_task_storage_get(&tasks, bpf_get_current_task_btf(), NULL, 0);
	char comm[FT_COMM_LEN];

	if (!ts)
		return 0;
	ts->known = 0;
	__sync_fetch_and_add(&exec_gen, 1);
	if (!ts->announced)
		return 0;
	bpf_get_current_comm(comm, sizeof(comm));
	for (int i = 0; i < FT_COMM_LEN; i++) {
		if (comm[i] != ts->comm[i]) {
			ts->announced = 0;
			break;
		}
		if (!comm[i])
			break;
	}
	return 0;
}

/*
 * A task moved to another cgroup: the filters are asked again (--cgroup) and, if it is in
 * the trace already, it is announced again with its new memory cgroup at its next event, so
 * what it does from then on counts there.
 */
SEC("tp_btf/cgroup_attach_task")
int BPF_PROG(cgroup_attach, struct cgroup *dst, const char *path, struct task_struct *task,
	     bool threadgroup)
{
	struct task_state *ts = bpf_task_storage_get(&tasks, task, NULL, 0);

	if (!ts)
		return 0;
	ts->known = 0;
	ts->announced = 0;
	__sync_fetch_and_add(&exec_gen, 1);
	return 0;
}
