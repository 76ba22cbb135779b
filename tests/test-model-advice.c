// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * posix_fadvise(2) and madvise(2) in the model, each case what Linux 6.18 did on xfs with
 * read_ahead_kb 128 (ra_pages 32) and max_sectors_kb 1280 (io_pages 320) for the same calls
 * (src/model/advice.c says how it was seen): FADV_RANDOM reads the request alone;
 * FADV_WILLNEED reads max(io_pages, ra_pages), FADV_SEQUENTIAL doubling ra_pages; DONTNEED
 * drops only folios wholly inside the range and leaves dirty ones to writeback; faults of an
 * MADV_HUGEPAGE mapping read two PMD folios, one with MADV_RANDOM too; MADV_RANDOM reads the
 * faulting page; MADV_SEQUENTIAL reads ra_pages from the fault; tmpfs ignores fadvise, and
 * huge=advise gives a VM_HUGEPAGE fault a PMD folio. Advice and readahead state belong to the
 * open file (struct file) the calls go through, as recorded since format 1.7; calls that name
 * none share the file's one state.
 */
#include "model/model.h"
#include "model/variants.h"
#include "model-harness.h"
#include "tap.h"

#define PAGE	4096ull
#define MiB	(1024ull * 1024)
#define FILE_SIZE (32 * MiB)

enum { FADV_NORMAL, FADV_RANDOM, FADV_SEQUENTIAL, FADV_WILLNEED, FADV_DONTNEED };
enum { MADV_NORMAL_, MADV_RANDOM_, MADV_SEQUENTIAL_, MADV_HUGEPAGE_ = 14 };

static struct model *make_with(const struct model_device *dev, unsigned ra_pages)
{
	struct model_config c;
	const char *why = NULL;
	struct model *m;

	model_config_defaults(&c);
	c.order = 9;
	c.memory_bytes = 256 * MiB;
	c.readahead = true;
	c.ra_pages = ra_pages;
	c.io_pages = 320;
	c.ra_rule = RA_RULE_6_17;
	if (dev) {
		c.devices = dev;
		c.ndevices = 1;
	}
	m = model_new(&c, &why);
	if (!m)
		diag("model_new: %s", why);
	return m;
}

static struct model *make(void)
{
	return make_with(NULL, 32);
}

static void do_op(struct model *m, enum model_op o, uint64_t pos, uint64_t len, uint32_t advice)
{
	struct model_access a = { .op = o, .pos = pos, .len = len, .isize = FILE_SIZE,
				  .advice = advice, .device = MODEL_DEVICE_NONE };

	model_access(m, &a);
}

/* The call through open file ofile (0: none named). */
static void op_via(struct model *m, uint32_t ofile, enum model_op o, uint64_t pos, uint64_t len,
		   uint32_t advice)
{
	struct model_access a = { .op = o, .pos = pos, .len = len, .isize = FILE_SIZE,
				  .advice = advice, .device = MODEL_DEVICE_NONE, .ofile = ofile };

	model_access(m, &a);
}

static void fault(struct model *m, uint64_t page)
{
	do_op(m, MODEL_MMAP_READ, page * PAGE, PAGE, 0);
}

/* Pages fault-around maps in [first, first + n): the cached, uptodate, unmarked ones. */
static uint64_t cached_pages(struct model *m, uint64_t first, uint64_t n)
{
	uint64_t before = metrics(m).faultaround_pages;
	struct model_access a = { .op = MODEL_MMAP_READ, .pos = first * PAGE, .len = n * PAGE,
				  .isize = FILE_SIZE, .fault_around = true,
				  .device = MODEL_DEVICE_NONE };

	model_access(m, &a);
	return metrics(m).faultaround_pages - before;
}

static void test_fadvise_random(void)
{
	struct model *m = make();
	struct model_metrics x;

	do_op(m, MODEL_FADVISE, 0, 0, FADV_RANDOM);
	do_op(m, MODEL_READ, MiB, 64 * 1024, 0);
	x = metrics(m);
	is_u64(x.inserted_pages, 16, "FADV_RANDOM: a 64 KiB read reads its 16 pages alone");
	is_u64(x.insertions_by_order[0], 16, "in base pages");
	is_u64(x.advice_calls, 1, "one advice call counted");
	do_op(m, MODEL_READ, 0, 16 * 1024, 0);
	is_u64(metrics(m).inserted_pages, 20, "16 KiB at the start: 4 pages, no window");
	do_op(m, MODEL_FADVISE, 0, 0, FADV_NORMAL);
	do_op(m, MODEL_READ, 4 * MiB, 16 * 1024, 0);
	do_op(m, MODEL_READ, 4 * MiB + 16 * 1024, 16 * 1024, 0);
	is_u64(metrics(m).inserted_pages, 20 + 4 + 8,
	       "FADV_NORMAL: a sequential miss opens a window again (4 + 8 pages)");
	model_free(m);
}

/*
 * Open file 2 advised FADV_RANDOM, reading at random; open file 1 reading sequentially between
 * its reads, with a state of its own (file->f_ra, f_mode): a window (4 + 8 pages, as a lone
 * reader's); named by no open file, the same calls share one state, the advice and the last
 * read's position with it. Returns the pages inserted after the advised read, then after all.
 */
static void two_readers(uint32_t seq, uint32_t rnd, uint64_t *advised, uint64_t *all)
{
	struct model *m = make();

	op_via(m, rnd, MODEL_FADVISE, 0, 0, FADV_RANDOM);
	op_via(m, rnd, MODEL_READ, 8 * MiB, 64 * 1024, 0);
	*advised = metrics(m).inserted_pages;
	op_via(m, seq, MODEL_READ, 4 * MiB, 16 * 1024, 0);
	op_via(m, rnd, MODEL_READ, 12 * MiB, 16 * 1024, 0);
	op_via(m, seq, MODEL_READ, 4 * MiB + 16 * 1024, 16 * 1024, 0);
	*all = metrics(m).inserted_pages;
	model_free(m);
}

static void test_open_files(void)
{
	uint64_t advised, all;

	two_readers(1, 2, &advised, &all);
	is_u64(advised, 16, "open file 2 advised FADV_RANDOM: a 64 KiB read reads its 16 pages");
	is_u64(all, 16 + 4 + 4 + 8,
	       "open file 1, read between, keeps its own state: its second read opens a window");
	two_readers(0, 0, &advised, &all);
	is_u64(advised, 16, "naming no open file: the same 16 pages");
	is_u64(all, 16 + 4 + 4 + 4,
	       "naming no open file: one state, the advice for every read (4 pages each)");
}

/*
 * A file's open files close before its final iput (the unlink event): a file that comes under
 * its number starts from file_ra_state_init()'s state, not from the advice of the old file's
 * last reader. Returns the pages two sequential 16 KiB reads through ofile insert.
 */
static uint64_t read_after_unlink(uint32_t old_ofile, uint32_t new_ofile)
{
	struct model *m = make();
	uint64_t before;

	op_via(m, old_ofile, MODEL_FADVISE, 0, 0, FADV_RANDOM);
	op_via(m, old_ofile, MODEL_READ, 8 * MiB, 64 * 1024, 0);
	op_via(m, 0, MODEL_UNLINK, 0, 0, 0);
	before = metrics(m).inserted_pages;
	op_via(m, new_ofile, MODEL_READ, 4 * MiB, 16 * 1024, 0);
	op_via(m, new_ofile, MODEL_READ, 4 * MiB + 16 * 1024, 16 * 1024, 0);
	before = metrics(m).inserted_pages - before;
	model_free(m);
	return before;
}

static void test_unlink_forgets_open_files(void)
{
	is_u64(read_after_unlink(2, 3), 4 + 8,
	       "after unlink a new open file reads with a fresh state: a window (4 + 8 pages)");
	is_u64(read_after_unlink(2, 2), 4 + 8,
	       "after unlink the old open file's number again: a fresh state too");
	is_u64(read_after_unlink(0, 0), 4 + 8,
	       "after unlink, naming no open file: the old file's advice is gone");
}

static void test_fadvise_willneed(void)
{
	struct model *m = make();
	struct model_metrics x;

	do_op(m, MODEL_FADVISE, 0, 8 * MiB, FADV_WILLNEED);
	x = metrics(m);
	is_u64(x.willneed_pages, 320, "FADV_WILLNEED of 8 MiB reads io_pages, 320 pages");
	is_u64(x.insertions_by_order[0], 320, "in base pages");
	is_u64(x.read_ios, 1, "in one I/O");
	is_u64(x.read_requests, 0, "no read request");
	model_free(m);

	m = make_with(NULL, 512);
	do_op(m, MODEL_FADVISE, 0, 0, FADV_SEQUENTIAL);
	do_op(m, MODEL_FADVISE, 0, 8 * MiB, FADV_WILLNEED);
	is_u64(metrics(m).willneed_pages, 1024,
	       "FADV_SEQUENTIAL doubles ra_pages (512): WILLNEED reads 1024 pages");
	model_free(m);

	m = make();
	do_op(m, MODEL_MADVISE, 4 * MiB, 64 * 1024, 3);
	is_u64(metrics(m).willneed_pages, 16, "MADV_WILLNEED of 64 KiB reads its 16 pages");
	model_free(m);
}

static void test_fadvise_dontneed(void)
{
	struct model *m = make();
	struct model_metrics x;

	/* 2 MiB at 4 MiB: windows of 320 base pages, 80 order-2 and 20 order-4 folios (6.18) */
	do_op(m, MODEL_READ, 4 * MiB, 2 * MiB, 0);
	x = metrics(m);
	is_u64(x.insertions_by_order[0], 320, "the read's window: 320 base pages");
	is_u64(x.insertions_by_order[2], 80, "the first async window: 80 order-2 folios");
	is_u64(x.insertions_by_order[4], 20, "the second: 20 order-4 folios");
	do_op(m, MODEL_FADVISE, 1400 * PAGE, PAGE, FADV_DONTNEED);
	is_u64(metrics(m).dontneed_pages, 0, "DONTNEED of one page of an order-2 folio: none");
	do_op(m, MODEL_FADVISE, 1400 * PAGE, 4 * PAGE, FADV_DONTNEED);
	is_u64(metrics(m).dontneed_pages, 4, "of its four pages: the folio goes");
	do_op(m, MODEL_FADVISE, 1025 * PAGE + 1, PAGE, FADV_DONTNEED);
	is_u64(metrics(m).dontneed_pages, 4, "a range with no whole page drops nothing");
	do_op(m, MODEL_FADVISE, 1025 * PAGE, PAGE, FADV_DONTNEED);
	is_u64(metrics(m).dontneed_pages, 5, "a whole base page goes");
	is_u64(cached_pages(m, 1024, 4), 3, "its neighbours stay");

	do_op(m, MODEL_WRITE, 1030 * PAGE, PAGE, 0);
	do_op(m, MODEL_FADVISE, 0, 0, FADV_DONTNEED);
	x = metrics(m);
	is_u64(x.dontneed_pages, 959, "DONTNEED of the file: every clean folio (960 - 1 dirty)");
	is_u64(x.writeback_bytes, PAGE, "the dirty page is written back");
	is_u64(cached_pages(m, 1030, 1), 1, "and stays cached (under writeback at the time)");
	model_free(m);
}

static void test_madvise_hugepage(void)
{
	struct model *m = make();
	struct model_metrics x;

	do_op(m, MODEL_MADVISE, 0, FILE_SIZE, MADV_HUGEPAGE_);
	fault(m, 1280);
	x = metrics(m);
	is_u64(x.insertions_by_order[9], 2, "MADV_HUGEPAGE: a fault at 5 MiB reads two PMD folios");
	is_u64(x.inserted_pages, 1024, "4 MiB from 4 MiB");
	is_u64(cached_pages(m, 1024, 512), 512, "the first is cached, unmarked");
	fault(m, 1536);
	is_u64(metrics(m).inserted_pages, 1024,
	       "a fault on the marked second one reads nothing (ra->start left as it was)");
	fault(m, 2048);
	x = metrics(m);
	is_u64(x.insertions_by_order[9], 4, "a fault at 8 MiB: two more");
	model_free(m);

	m = make();
	do_op(m, MODEL_MADVISE, 0, FILE_SIZE, MADV_HUGEPAGE_);
	do_op(m, MODEL_MADVISE, 0, FILE_SIZE, MADV_RANDOM_);
	fault(m, 1280);
	x = metrics(m);
	is_u64(x.insertions_by_order[9], 1, "MADV_HUGEPAGE with MADV_RANDOM: one PMD folio");
	model_free(m);
}

static void test_madvise_random_sequential(void)
{
	struct model *m = make();

	do_op(m, MODEL_MADVISE, 0, FILE_SIZE, MADV_RANDOM_);
	fault(m, 1280);
	is_u64(metrics(m).inserted_pages, 1, "MADV_RANDOM: the faulting page alone");
	fault(m, 1281);
	is_u64(metrics(m).inserted_pages, 2, "and the next one alone");
	do_op(m, MODEL_MADVISE, 0, FILE_SIZE, MADV_NORMAL_);
	fault(m, 4000);
	is_u64(metrics(m).inserted_pages, 34, "MADV_NORMAL: read-around again, 32 pages");
	model_free(m);

	m = make();
	do_op(m, MODEL_MADVISE, 0, FILE_SIZE, MADV_SEQUENTIAL_);
	fault(m, 1280);
	is_u64(metrics(m).inserted_pages, 32, "MADV_SEQUENTIAL: 32 pages");
	is_u64(cached_pages(m, 1264, 16), 0, "none before the fault (not read around)");
	is_u64(cached_pages(m, 1280, 32), 32, "all from it");
	model_free(m);
}

static void test_tmpfs(void)
{
	struct model_device d = {
		.fs = model_fs_kind_for("tmpfs"), .release = 6018, .block_size = 4096,
		.ra_pages = 32, .io_pages = 320, .huge = TMPFS_HUGE_ADVISE,
	};
	struct model *m = make_with(&d, 32);
	struct model_access a = { .op = MODEL_FADVISE, .len = 8 * MiB, .isize = FILE_SIZE,
				  .advice = FADV_WILLNEED, .device = 0 };
	struct model_metrics x;

	model_access(m, &a);
	x = metrics(m);
	is_u64(x.inserted_pages, 0, "tmpfs: FADV_WILLNEED is ignored");
	is_u64(x.advice_ignored, 1, "and counted as ignored");
	a = (struct model_access){ .op = MODEL_MMAP_READ, .pos = 5 * MiB, .len = PAGE,
				   .isize = FILE_SIZE, .device = 0 };
	model_access(m, &a);
	is_u64(metrics(m).insertions_by_order[0], 1, "huge=advise: a fault takes a base page");
	a.op = MODEL_MADVISE;
	a.advice = MADV_HUGEPAGE_;
	model_access(m, &a);
	a.op = MODEL_MMAP_READ;
	a.pos = 9 * MiB;
	model_access(m, &a);
	is_u64(metrics(m).insertions_by_order[9], 1, "with MADV_HUGEPAGE a PMD folio");
	a.op = MODEL_WRITE;
	a.pos = 12 * MiB;
	a.len = 2 * MiB;
	model_access(m, &a);
	x = metrics(m);
	is_u64(x.insertions_by_order[9], 1, "a write(2) after it, 2 MiB aligned: no PMD folio");
	is_u64(x.insertions_by_order[0], 1 + 512, "but base pages: a write has no VMA");
	model_free(m);
}

int main(void)
{
	test_fadvise_random();
	test_open_files();
	test_unlink_forgets_open_files();
	test_fadvise_willneed();
	test_fadvise_dontneed();
	test_madvise_hugepage();
	test_madvise_random_sequential();
	test_tmpfs();
	return done_testing();
}
