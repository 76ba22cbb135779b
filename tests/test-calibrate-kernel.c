// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * calibrate on a hand-written trace whose kernel events and counters are known: what is
 * read from them (counts over the accessed files only, per-file orders, readahead off, the
 * window, counter deltas), and a model run whose figures follow from the accesses.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calibrate/calibrate.h"
#include "tap.h"

#define DEV	8
enum { INO_SEQ = 1, INO_RAND = 2, INO_MAPPED = 3, INO_UNTOUCHED = 4, INO_GONE = 5, INO_W = 6 };

static char trace_path[64];

struct tb {
	struct ft_writer *w;
	struct ft_error err;
	uint64_t ts;
	uint32_t tid;		/* of the records appended */
	bool failed;
};

static void tb_append(struct tb *t, void *rec)
{
	struct ft_hdr *h = rec;

	h->ts = t->ts += 1000;
	h->tid = t->tid;
	if (!t->failed && ft_writer_append(t->w, rec, &t->err))
		t->failed = true;
}

static void tb_file(struct tb *t, uint64_t ino, uint64_t size)
{
	if (!t->failed && ft_writer_file(t->w, t->ts, DEV, ino, size, "", &t->err))
		t->failed = true;
}

static void tb_access(struct tb *t, uint16_t op, uint64_t ino, uint64_t pos, uint64_t len,
		      uint64_t isize)
{
	struct ft_access a = { .hdr = { .type = FT_ACCESS, .size = sizeof(a) }, .ino = ino,
			       .pos = pos, .len = len, .isize = isize, .dev = DEV, .op = op };

	tb_append(t, &a);
}

static void tb_fadvise(struct tb *t, uint64_t ino, uint32_t advice)
{
	struct ft_access a = { .hdr = { .type = FT_ACCESS, .size = sizeof(a) }, .ino = ino,
			       .len = 1 << 20, .isize = 1 << 20, .dev = DEV, .op = FT_OP_FADVISE,
			       .arg = advice };

	tb_append(t, &a);
}

static void tb_folio(struct tb *t, uint16_t type, uint64_t ino, uint64_t index, uint8_t order)
{
	struct ft_folio_event e = { .hdr = { .type = type, .size = sizeof(e) }, .ino = ino,
				    .index = index, .dev = DEV, .order = order };

	tb_append(t, &e);
}

/* A readahead event; order: ra->order as the tracepoint showed it. */
static void tb_ra_order(struct tb *t, uint16_t kind, uint64_t ino, uint64_t size, uint8_t order)
{
	struct ft_readahead r = { .hdr = { .type = FT_READAHEAD, .size = sizeof(r) }, .ino = ino,
				  .size = size, .dev = DEV, .kind = kind, .order = order };

	tb_append(t, &r);
}

static void tb_ra(struct tb *t, uint16_t kind, uint64_t ino, uint64_t size)
{
	tb_ra_order(t, kind, ino, size, 0);
}

static void tb_writeback(struct tb *t, uint16_t kind, uint64_t ino, uint64_t pages)
{
	struct ft_writeback w = { .hdr = { .type = FT_WRITEBACK, .size = sizeof(w) }, .ino = ino,
				  .nr_pages = pages, .dev = ino ? DEV : 0, .kind = kind };

	tb_append(t, &w);
}

static void tb_counters(struct tb *t, uint16_t src, uint16_t n, const __u64 *v)
{
	if (!t->failed && ft_writer_counters(t->w, t->ts += 1000, src, n, v, &t->err))
		t->failed = true;
}

static const char *const vm_names[] = {
	"pgpgin", "workingset_refault_file", "nr_dirtied", "nr_written", "pgsteal_file",
	"nr_inactive_file", "nr_active_file",
};
static const char *const cg_names[] = {
	"inactive_file", "total_inactive_file", "total_active_file", "workingset_refault_file",
	"total_workingset_refault_file",
};

static void write_header(struct tb *t)
{
	struct ft_host host = {
		.hdr = { .ts = 1 }, .mem_bytes = 1ull << 30, .memory_limit = 64ull << 20,
		.page_size = 4096, .ncpus = 1, .dirty_ratio = 20, .dirty_background_ratio = 10,
		.dirty_expire_centisecs = 3000, .dirty_writeback_centisecs = 500, .ndevs = 1,
		.release = "6.18.1-test",
	};
	struct ft_host_dev dev = { .dev = DEV, .block_size = 4096, .fstype = "ext4",
				   .name = "/dev/test" };
	static const __u64 vm0[] = { 5, 100, 200, 300, 400, 50, 60 };
	static const __u64 cg0[] = { 0, 0, 0, 0, 1 };

	if (!t->w || ft_writer_host(t->w, &host, &dev, &t->err) ||
	    ft_writer_counter_names(t->w, t->ts, FT_SRC_VMSTAT, 7, vm_names, &t->err) ||
	    ft_writer_counter_names(t->w, t->ts, FT_SRC_CGROUP, 5, cg_names, &t->err))
		t->failed = true;
	tb_counters(t, FT_SRC_VMSTAT, 7, vm0);
	tb_counters(t, FT_SRC_CGROUP, 5, cg0);
	tb_file(t, INO_SEQ, 16384);
	tb_file(t, INO_RAND, 1 << 20);
	tb_file(t, INO_MAPPED, 4096);
	tb_file(t, INO_GONE, 8192);
	tb_file(t, INO_W, 0);
}

/*
 * seq: one 4 KiB read at 0 of a 16 KiB file; the kernel added order 2 once and order 0 three
 * times, deleted two order-2 folios. rand: ten 4 KiB reads 20 pages apart, ten sync
 * readahead calls, no window. mapped: one fault, two order-3 adds. untouched: adds, never
 * accessed. gone: unlinked, its deletes are not reclaim. w: 64 KiB written at 0, fsync.
 */
static void write_events(struct tb *t)
{
	static const __u64 vm1[] = { 9, 107, 211, 313, 417, 1000, 500 };
	static const __u64 cg1[] = { 1, 40960, 8192, 9, 4 };

	tb_ra(t, FT_RA_SYNC, INO_SEQ, 1);
	tb_ra(t, FT_RA_ORDER, INO_SEQ, 64);
	tb_folio(t, FT_PAGECACHE_ADD, INO_SEQ, 0, 2);
	for (int i = 0; i < 3; i++)
		tb_folio(t, FT_PAGECACHE_ADD, INO_SEQ, 4 + i, 0);
	tb_access(t, FT_OP_READ, INO_SEQ, 0, 4096, 16384);
	/*
	 * ra->order as stored, above the folios added: the mapping allows it (seq, which got
	 * large folios), or is left raised by a mapping without them (rand, base pages alone)
	 */
	tb_ra_order(t, FT_RA_ASYNC, INO_SEQ, 4, 5);
	tb_ra_order(t, FT_RA_ORDER, INO_SEQ, 64, 7);	/* as asked: not what it stored */
	for (int i = 0; i < 10; i++) {
		tb_ra_order(t, FT_RA_SYNC, INO_RAND, 1, 2);
		tb_folio(t, FT_PAGECACHE_ADD, INO_RAND, 20 * i + 1, 0);
		tb_access(t, FT_OP_READ, INO_RAND, (20 * i + 1) * 4096ull, 4096, 1 << 20);
	}
	tb_folio(t, FT_PAGECACHE_ADD, INO_MAPPED, 0, 3);
	tb_folio(t, FT_PAGECACHE_ADD, INO_MAPPED, 8, 3);
	tb_access(t, FT_OP_MMAP_READ, INO_MAPPED, 0, 4096, 4096);
	for (int i = 0; i < 100; i++)
		tb_folio(t, FT_PAGECACHE_ADD, INO_UNTOUCHED, i, 0);
	tb_ra(t, FT_RA_ORDER, INO_UNTOUCHED, 512);	/* a window elsewhere still sets ra_pages */
	for (int i = 0; i < 3; i++)
		tb_folio(t, FT_PAGECACHE_DELETE, INO_GONE, i, 0);
	tb_access(t, FT_OP_UNLINK, INO_GONE, 0, 0, 0);
	for (int i = 0; i < 4; i++) {
		tb_folio(t, FT_PAGECACHE_ADD, INO_W, 4 * i, 2);
		tb_folio(t, FT_FOLIO_DIRTY, INO_W, 4 * i, FT_ORDER_UNKNOWN);
	}
	tb_access(t, FT_OP_WRITE, INO_W, 0, 65536, 65536);
	tb_access(t, FT_OP_FSYNC, INO_W, 0, 0, 65536);
	/* the per-bdi pass is not a file's; the untouched file's inode is not counted */
	tb_writeback(t, FT_WB_WRITTEN, 0, 1000);
	tb_writeback(t, FT_WB_SINGLE_INODE, INO_W, 16);
	tb_writeback(t, FT_WB_SINGLE_INODE, INO_UNTOUCHED, 7);
	/* the file system's own count: 10 ext4 pages and 5000 iomap bytes; not the untouched's */
	tb_writeback(t, FT_WB_EXT4, INO_W, 10);
	tb_writeback(t, FT_WB_IOMAP, INO_W, 5000);
	tb_writeback(t, FT_WB_EXT4, INO_UNTOUCHED, 3);
	tb_folio(t, FT_PAGECACHE_DELETE, INO_SEQ, 0, 2);
	tb_folio(t, FT_PAGECACHE_DELETE, INO_SEQ, 8, 2);
	tb_counters(t, FT_SRC_VMSTAT, 7, vm1);
	tb_counters(t, FT_SRC_CGROUP, 5, cg1);
}

static int write_trace(void)
{
	struct tb t = { .ts = 1000000 };

	t.w = ft_writer_open(trace_path, 0600, &t.err);
	t.failed = !t.w;
	write_header(&t);
	write_events(&t);
	if (!t.w)
		return -1;
	if (t.failed) {
		ft_writer_abort(t.w);
		return -1;
	}
	return ft_writer_close(t.w, &t.err);
}

static void test_kernel_facts(void)
{
	struct kernel_facts k = { 0 };
	struct ft_error err;
	uint8_t *orders, *off;
	uint32_t n;
	unsigned nset;

	kernel_facts_init(&k);
	ok(kernel_facts_read(&k, trace_path, &err) == 0, "kernel facts read");
	/* seq 1 + 3, rand 10, mapped 2, w 4: the untouched file's 100 are not counted */
	is_u64(k.add_folios, 20, "folios added to accessed files");
	is_u64(k.add_pages, 4 + 3 + 10 + 16 + 16, "pages added to accessed files");
	is_u64(k.add_by_order[0], 13, "order-0 adds");
	is_u64(k.add_by_order[2], 5, "order-2 adds");
	is_u64(k.add_by_order[3], 2, "order-3 adds");
	is_u64(k.del_folios, 2, "deletes of the unlinked file are not evictions");
	is_u64(k.del_pages, 8, "two order-2 folios evicted");
	is_u64(k.dirty_folios, 4, "folios dirtied");
	is_u64(k.wb_inode_pages, 16, "pages written by writeback_single_inode of accessed files");
	is_u64(k.wb_events, 6, "writeback records");
	ok(k.have_wb_fs, "the trace has file systems' writeback counts");
	is_u64(k.wb_fs_bytes, 10 * 4096 + 5000, "bytes the file systems wrote back, accessed files");
	is_u64(k.ra_pages, 512, "largest readahead window");
	is_u64(k.max_order, 5, "largest order of an accessed file (seq's readahead state)");
	is_u64(kcounter_delta(&k.vm[KC_REFAULT_FILE]), 7, "vmstat refault delta");
	is_u64(kcounter_delta(&k.vm[KC_DIRTIED]), 11, "nr_dirtied delta");
	is_u64(kcounter_delta(&k.vm[KC_WRITTEN]), 13, "nr_written delta");
	is_u64(kcounter_delta(&k.vm[KC_PGSTEAL_FILE]), 17, "pgsteal_file delta");
	ok(k.have_cgroup, "cgroup samples seen");
	is_u64(kcounter_delta(&k.cg[KC_REFAULT_FILE]), 3, "the total_ cgroup counter wins");
	is_u64(k.cg[KC_INACTIVE_FILE].last, 40960, "cgroup inactive_file, bytes (total_)");
	orders = kernel_file_orders(&k, &n);
	is_u64(n, 5, "one order per replay file id (the untouched file has none)");
	if (orders && n == 5) {
		is_u64(orders[0], 5, "seq: order 5, its readahead state's (order-2 folios added)");
		is_u64(orders[1], 0, "rand: order 0, base pages alone (its state's 2 not taken)");
		is_u64(orders[2], 3, "mapped: order 3");
		is_u64(orders[3], MODEL_ORDER_DEFAULT, "gone: no add, default");
		is_u64(orders[4], 2, "w: order 2");
	}
	off = kernel_file_ra_off(&k, n, &nset);
	is_u64(nset, 1, "one file read without readahead");
	ok(off && n == 5 && off[1] && !off[0], "it is the random one");
	free(orders);
	free(off);
	kernel_facts_release(&k);

	k = (struct kernel_facts){ .skip_mmapped = true };
	kernel_facts_init(&k);
	ok(kernel_facts_read(&k, trace_path, &err) == 0, "kernel facts read, mapped files out");
	is_u64(k.add_folios, 18, "the mapped file's adds are left out");
	is_u64(k.max_order, 5, "and its order, the seq file's 5 left");
	is_u64(k.skipped_files, 1, "one file left out");
	kernel_facts_release(&k);
}

static const struct calib_row *find_row(const struct calibration *c, const char *metric,
					const char *source)
{
	for (unsigned i = 0; i < c->nrows; i++)
		if (!strcmp(c->rows[i].metric, metric) && !strcmp(c->rows[i].source, source))
			return &c->rows[i];
	return NULL;
}

static void is_row(const struct calibration *c, const char *metric, const char *source,
		   uint64_t model, uint64_t kernel)
{
	const struct calib_row *r = find_row(c, metric, source);
	char what[160];

	snprintf(what, sizeof(what), "%s (%s): model", metric, source);
	ok(r != NULL, "row %s (%s) present", metric, source);
	if (!r)
		return;
	is_u64(r->model, model, what);
	snprintf(what, sizeof(what), "%s (%s): kernel", metric, source);
	is_u64(r->kernel, kernel, what);
}

/*
 * The model, mapped file left out: seq reads page 0 of a 4-page file: an initial window of
 * 4 pages at order 0 (6.17 rule); rand: 10 pages as asked; w: 64 KiB sized writes capped at
 * the kernel's order 2: four order-2 folios, all written by the fsync.
 */
static void test_calibrate_run(void)
{
	struct calibration c;
	struct ft_error err;

	ok(calibrate_file(&c, trace_path, &(struct calibrate_request){ .skip_mmapped = true },
			  &err) == 0, "calibrated");
	is_u64(c.cfg.memory_bytes, 64ull << 20, "memory: the cgroup limit");
	ok(c.cgroup_limit, "said to be the limit");
	is_u64(c.cfg.ra_pages, 512, "ra_pages from the window");
	is_u64(c.cfg.order, 5, "largest order: the seq file's readahead state's");
	ok(c.cfg.ra_rule == RA_RULE_6_17, "6.17 readahead rule for 6.18");
	is_u64(c.nfiles_ra_off, 1, "readahead off for the random file");
	is_row(&c, "insertions, pages", "mm_filemap_add_to_page_cache", 4 + 10 + 16, 33);
	is_row(&c, "insertions at order 2, folios", "mm_filemap_add_to_page_cache", 4, 5);
	is_row(&c, "insertions at order 0, folios", "mm_filemap_add_to_page_cache", 14, 13);
	is_row(&c, "folios dirtied", "writeback_dirty_folio", 4, 4);
	is_row(&c, "pages written back", "nr_written", 16, 13);
	is_row(&c, "pages dirtied", "nr_dirtied", 16, 11);
	/* the flusher wrote none in the model: the fsync did (no __writeback_single_inode()) */
	is_row(&c, "pages written back by the flusher", "writeback_single_inode", 0, 16);
	/* a mapped file left out: the cgroup's refaults count it too, an upper bound */
	is_row(&c, "refaults", "memory.stat workingset_refault_file", 0, 3);
	ok(find_row(&c, "refaults", "memory.stat workingset_refault_file")->scope ==
	   CALIB_CGROUP_BOUND, "refaults with files left out: an upper bound");
	is_row(&c, "LRU pages at the end", "memory.stat inactive_file + active_file", 30, 12);
	ok(find_row(&c, "pages dirtied", "nr_dirtied")->scope == CALIB_SYSTEM,
	   "nr_dirtied is system-wide");
}

/*
 * POSIX_FADV_DONTNEED: the deletes a task made of a file before its DONTNEED call's record
 * were the call's (two order-0 pages of task 5): drops, not evictions. One made by another
 * task (task 6, order 1) before a DONTNEED of task 5 that deleted nothing stays an eviction,
 * and so does one of task 5 followed by its read.
 */
static void test_dontneed(void)
{
	enum { INO_DN = 7 };
	struct tb t = { .ts = 1000000 };
	struct kernel_facts k = { 0 };
	struct ft_error err;
	char path[sizeof(trace_path) + 8];

	snprintf(path, sizeof(path), "%s.dn", trace_path);
	t.w = ft_writer_open(path, 0600, &t.err);
	t.failed = !t.w;
	write_header(&t);
	tb_file(&t, INO_DN, 1 << 20);
	t.tid = 5;
	tb_folio(&t, FT_PAGECACHE_DELETE, INO_DN, 0, 0);
	tb_folio(&t, FT_PAGECACHE_DELETE, INO_DN, 1, 0);
	tb_fadvise(&t, INO_DN, POSIX_FADV_DONTNEED);
	t.tid = 6;
	tb_folio(&t, FT_PAGECACHE_DELETE, INO_DN, 2, 1);
	t.tid = 5;
	tb_fadvise(&t, INO_DN, POSIX_FADV_DONTNEED);
	tb_folio(&t, FT_PAGECACHE_DELETE, INO_DN, 4, 0);
	tb_access(&t, FT_OP_READ, INO_DN, 0, 4096, 1 << 20);
	ok(t.w && !t.failed && ft_writer_close(t.w, &t.err) == 0, "DONTNEED trace written");
	kernel_facts_init(&k);
	ok(kernel_facts_read(&k, path, &err) == 0, "kernel facts read");
	ok(k.have_dontneed, "the trace has DONTNEED calls");
	is_u64(k.dontneed_pages, 2, "the call's two pages dropped");
	is_u64(k.del_folios, 2, "another task's delete and one before a read: evictions");
	is_u64(k.del_pages, 3, "... of 2 + 1 pages");
	kernel_facts_release(&k);
	unlink(path);
}

static void test_rel_error(void)
{
	struct calib_row r = { .model = 110, .kernel = 100 };
	double e;

	ok(calib_rel_error(&r, &e), "error defined");
	is_dbl(e, 0.1, 1e-12, "(110 - 100) / 100");
	r = (struct calib_row){ .model = 0, .kernel = 0 };
	ok(calib_rel_error(&r, &e) && e == 0, "0 against 0 is no error");
	r = (struct calib_row){ .model = 5, .kernel = 0 };
	ok(!calib_rel_error(&r, &e), "5 against 0 is undefined");
}

int main(void)
{
	snprintf(trace_path, sizeof(trace_path), "/tmp/ft-calib-kernel-%d.ftr", (int)getpid());
	ok(write_trace() == 0, "trace written");
	test_kernel_facts();
	test_calibrate_run();
	test_rel_error();
	test_dontneed();
	unlink(trace_path);
	return done_testing();
}
