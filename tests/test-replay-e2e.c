/*
 * The replay driver end to end: traces written here with the trace writer, replayed through
 * real model instances, with the numbers the model must give for them.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "replay/replay.h"
#include "tap.h"

#define MiB (1ull << 20)
#define DEV_A ((8u << 20) | 1)

struct tb {
	struct ft_writer *w;
	struct ft_error err;
	uint64_t ts;
	int failed;
};

static char trace_path[256];

static void tb_open(struct tb *t, uint64_t mem_bytes, unsigned block_size)
{
	struct ft_host host = {
		.hdr = { .ts = 1 }, .mem_bytes = mem_bytes, .page_size = 4096, .ncpus = 1,
		.dirty_ratio = 30, .dirty_background_ratio = 10, .dirty_expire_centisecs = 3000,
		.dirty_writeback_centisecs = 500, .ndevs = 1, .release = "6.18.0-test",
		.flags = FT_HOST_SYNTHETIC,
	};
	struct ft_host_dev dev = { .dev = DEV_A, .block_size = block_size, .fstype = "xfs",
				   .name = "/dev/test" };

	memset(t, 0, sizeof(*t));
	t->ts = 1000000000;
	t->w = ft_writer_open(trace_path, 0600, &t->err);
	if (!t->w || ft_writer_host(t->w, &host, &dev, &t->err))
		t->failed = 1;
}

static void tb_file(struct tb *t, uint64_t ino, uint64_t size)
{
	if (!t->failed && ft_writer_file(t->w, t->ts, DEV_A, ino, size, "", &t->err))
		t->failed = 1;
}

/* One access 1 us after the previous one. */
static void tb_access(struct tb *t, __u16 op, uint64_t ino, uint64_t pos, uint64_t len,
		      uint64_t isize)
{
	struct ft_access a = {
		.hdr = { .type = FT_ACCESS, .size = sizeof(a), .tid = 1, .ts = t->ts },
		.ino = ino, .pos = pos, .len = len, .isize = isize, .dev = DEV_A, .op = op,
	};

	t->ts += 1000;
	if (!t->failed && ft_writer_append(t->w, &a, &t->err))
		t->failed = 1;
}

/* One kernel event at ts (its kind does not matter to the replay, only its time). */
static void tb_kernel_event(struct tb *t, uint64_t ts)
{
	struct ft_vmscan v = { .hdr = { .type = FT_VMSCAN, .size = sizeof(v), .ts = ts },
			       .kind = FT_VM_KSWAPD_WAKE };

	if (!t->failed && ft_writer_append(t->w, &v, &t->err))
		t->failed = 1;
}

static int tb_close(struct tb *t)
{
	if (!t->failed && ft_writer_close(t->w, &t->err))
		t->failed = 1;
	if (t->failed)
		diag("trace writer: %s", t->err.msg);
	return t->failed ? -1 : 0;
}

/* Defaults of the command line, then the test's choices. */
static void base_config(struct model_config *c, unsigned order)
{
	model_config_defaults(c);
	c->order = order;
	c->readahead = false;
	c->policy = FOLIO_POLICY_FIXED;
	c->interval_ns = 1000000000;
}

/* Replays trace_path with one configuration per order and model threads; NULL on failure. */
static struct replay *run_threads(const unsigned *orders, unsigned n, enum lru_kind lru,
				  uint64_t memory, unsigned threads, struct ft_error *err)
{
	struct model_config cfg[REPLAY_MAX_CONFIGS];
	struct replay *rp = malloc(sizeof(*rp));

	for (unsigned i = 0; i < n; i++) {
		base_config(&cfg[i], orders[i]);
		cfg[i].lru = lru;
		if (memory)
			cfg[i].memory_bytes = memory;
	}
	if (replay_init(rp, cfg, n, memory ? MODEL_REC_MEMORY : 0, true) == 0)
		rp->threads = threads;
	if (!rp->ncfg || replay_file(rp, trace_path, err) < 0) {
		diag("replay: %s", err->msg);
		replay_release(rp);
		free(rp);
		return NULL;
	}
	return rp;
}

static struct replay *run(const unsigned *orders, unsigned n, enum lru_kind lru,
			  uint64_t memory, struct ft_error *err)
{
	return run_threads(orders, n, lru, memory, 0, err);
}

static void done(struct replay *rp)
{
	if (rp) {
		replay_release(rp);
		free(rp);
	}
}

/* 64 MiB read front to back twice in 1 MiB reads: orders 0, 4 and 9 in one pass. */
static void test_sequential_read(void)
{
	static const unsigned orders[] = { 0, 4, 9 };
	static const uint64_t entries[] = { 16384, 1024, 32 };
	/* the second pass hits; at order 9 so does the second 1 MiB of each 2 MiB folio */
	static const uint64_t hits[] = { 64, 64, 96 };
	struct ft_error err;
	struct replay *rp;
	struct tb t;

	tb_open(&t, 1ull << 30, 2048);
	tb_file(&t, 5, 64 * MiB);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t pos = 0; pos < 64 * MiB; pos += MiB)
			tb_access(&t, FT_OP_READ, 5, pos, MiB, 64 * MiB);
	ok(tb_close(&t) == 0, "sequential trace written");
	rp = run(orders, 3, LRU_TWO_LIST, 0, &err);
	ok(rp != NULL, "sequential trace replayed");
	if (!rp)
		return;
	is_u64(rp->run.accesses, 128, "accesses fed");
	is_u64(rp->run.files, 1, "one file");
	ok(rp->run.clean_end && !rp->run.truncated, "trace read to its end");
	is_str(rp->run.release, "6.18.0-test", "host release kept");
	for (unsigned i = 0; i < 3; i++) {
		const struct model_metrics *m = &rp->cols[i].m;
		const struct model_config *c = &rp->cols[i].cfg;
		char what[64];

		snprintf(what, sizeof(what), "order %u: LRU entries max", orders[i]);
		is_u64(m->lru_entries.max, entries[i], what);
		snprintf(what, sizeof(what), "order %u: folios inserted", orders[i]);
		is_u64(m->insertions, entries[i], what);
		snprintf(what, sizeof(what), "order %u: all inserted at the order", orders[i]);
		is_u64(m->insertions_by_order[orders[i]], entries[i], what);
		snprintf(what, sizeof(what), "order %u: pages inserted", orders[i]);
		is_u64(m->inserted_pages, 16384, what);
		snprintf(what, sizeof(what), "order %u: read hits", orders[i]);
		is_u64(m->read_hit_requests, hits[i], what);
		snprintf(what, sizeof(what), "order %u: device bytes read once", orders[i]);
		is_u64(m->read_io_bytes, 64 * MiB, what);
		snprintf(what, sizeof(what), "order %u: nothing evicted", orders[i]);
		is_u64(m->evictions, 0, what);
		snprintf(what, sizeof(what), "order %u: label", orders[i]);
		ok(atoi(rp->cols[i].label + 6) == (int)orders[i], "%s", what);
		is_u64(c->memory_bytes, 1ull << 30, "memory from the host record");
		is_u64(c->block_size, 2048, "block size of the file's device");
		is_u64(c->dirty_ratio, 30, "dirty_ratio from the host record");
		is_u64(m->read_bytes, 128 * MiB, "bytes read");
	}
	done(rp);
}

/* A cyclic scan one page larger than memory misses every time under a plain LRU. */
static void test_cyclic_scan(void)
{
	static const unsigned order0[] = { 0 };
	const uint64_t pages = 64, size = (pages + 1) * 4096;
	struct ft_error err;
	struct replay *rp;
	struct tb t;

	tb_open(&t, 1ull << 30, 4096);
	tb_file(&t, 7, size);
	for (int cycle = 0; cycle < 10; cycle++)
		for (uint64_t pos = 0; pos < size; pos += 4096)
			tb_access(&t, FT_OP_READ, 7, pos, 4096, size);
	ok(tb_close(&t) == 0, "cyclic trace written");
	rp = run(order0, 1, LRU_PLAIN, pages * 4096, &err);
	ok(rp != NULL, "cyclic trace replayed");
	if (!rp)
		return;
	is_u64(rp->cols[0].cfg.memory_bytes, pages * 4096, "--memory wins over the host");
	is_u64(rp->cols[0].m.read_requests, 650, "650 reads");
	is_u64(rp->cols[0].m.read_hit_requests, 0, "every read misses");
	is_u64(rp->cols[0].m.evictions, 650 - 64, "every miss past the first 64 evicts");
	done(rp);
}

/* Misses of a textbook LRU cache of `cap` pages over the reference string. */
static uint64_t textbook_lru_misses(const uint32_t *ref, unsigned n, unsigned cap)
{
	uint64_t *last_use = calloc(1024, sizeof(*last_use)), misses = 0;
	unsigned cached = 0;

	for (unsigned i = 0; i < n; i++) {
		if (!last_use[ref[i]]) {
			misses++;
			if (cached == cap) {
				unsigned victim = 0;

				for (unsigned p = 0; p < 1024; p++)
					if (last_use[p] && (!last_use[victim] ||
							    last_use[p] < last_use[victim]))
						victim = p;
				last_use[victim] = 0;
			} else {
				cached++;
			}
		}
		last_use[ref[i]] = i + 1;
	}
	free(last_use);
	return misses;
}

static void test_textbook_lru(void)
{
	static const unsigned order0[] = { 0 };
	enum { NREF = 5000, NPAGES = 200, CAP = 64 };
	uint32_t *ref = malloc(NREF * sizeof(*ref));
	uint64_t x = 12345, want;
	struct ft_error err;
	struct replay *rp;
	struct tb t;

	/* skewed: half the references go to 40 hot pages */
	for (unsigned i = 0; i < NREF; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		ref[i] = (x >> 33) % 2 ? (uint32_t)((x >> 40) % 40)
				       : (uint32_t)((x >> 20) % NPAGES);
	}
	want = textbook_lru_misses(ref, NREF, CAP);
	tb_open(&t, 1ull << 30, 4096);
	tb_file(&t, 9, NPAGES * 4096);
	for (unsigned i = 0; i < NREF; i++)
		tb_access(&t, FT_OP_READ, 9, (uint64_t)ref[i] * 4096, 4096, NPAGES * 4096);
	ok(tb_close(&t) == 0, "random trace written");
	rp = run(order0, 1, LRU_PLAIN, CAP * 4096, &err);
	ok(rp != NULL, "random trace replayed");
	if (rp) {
		diag("textbook LRU: %llu misses of %d", (unsigned long long)want, NREF);
		is_u64(rp->cols[0].m.read_requests - rp->cols[0].m.read_hit_requests, want,
		       "plain LRU misses equal a textbook LRU's");
	}
	done(rp);
	free(ref);
}

/* 64 MiB written in 1 MiB writes, then fsync: everything goes out once, by fsync. */
static void test_write_fsync(void)
{
	static const unsigned orders[] = { 0, 9 };
	struct ft_error err;
	struct replay *rp;
	struct tb t;

	tb_open(&t, 1ull << 30, 4096);
	tb_file(&t, 11, 0);
	for (uint64_t pos = 0; pos < 64 * MiB; pos += MiB)
		tb_access(&t, FT_OP_WRITE, 11, pos, MiB, pos + MiB);
	tb_access(&t, FT_OP_FSYNC, 11, 0, 0, 64 * MiB);
	ok(tb_close(&t) == 0, "write trace written");
	rp = run(orders, 2, LRU_TWO_LIST, 0, &err);
	ok(rp != NULL, "write trace replayed");
	if (!rp)
		return;
	for (unsigned i = 0; i < 2; i++) {
		const struct model_metrics *m = &rp->cols[i].m;

		is_u64(m->write_bytes, 64 * MiB, "bytes written");
		is_u64(m->writeback_bytes, 64 * MiB, "written back once");
		is_u64(m->wb_fsync_bytes, 64 * MiB, "all of it by fsync");
		is_u64(m->read_io_bytes + m->write_read_bytes, 0, "full writes read nothing");
	}
	done(rp);
}

/* Zero-length reads and unknown ops are ignored; impossible ranges are damage, skipped. */
static void test_ignored(void)
{
	static const unsigned order0[] = { 0 };
	struct ft_error err;
	struct replay *rp;
	struct tb t;

	tb_open(&t, 1ull << 30, 4096);
	tb_access(&t, FT_OP_READ, 3, 0, 4096, 8192);
	tb_access(&t, FT_OP_READ, 3, 8192, 0, 8192);
	tb_access(&t, 200, 3, 0, 4096, 8192);
	tb_access(&t, FT_OP_READ, 3, UINT64_MAX - 10, 4096, 8192);
	tb_access(&t, FT_OP_WRITE, 3, 1ull << 62, 1ull << 62, 0);
	tb_access(&t, FT_OP_READ, 4, 1ull << 60, 4096, (1ull << 60) + 4096);
	ok(tb_close(&t) == 0, "small trace written");
	rp = run(order0, 1, LRU_TWO_LIST, 0, &err);
	ok(rp != NULL, "small trace replayed");
	if (rp) {
		is_u64(rp->run.accesses, 2, "two accesses fed");
		is_u64(rp->run.ignored, 2, "zero-length read, unknown op ignored");
		is_u64(rp->run.bad, 2, "ranges past 2^63 skipped as damaged");
		is_u64(rp->cols[0].m.read_requests, 2, "the model saw both reads, one at 2^60");
	}
	done(rp);
}

/* A cut trace gives the results of what was readable and says it was cut. */
static void test_truncated(void)
{
	static const unsigned order0[] = { 0 };
	struct ft_error err;
	struct replay *rp;
	struct tb t;
	off_t size;
	int fd;

	tb_open(&t, 1ull << 30, 4096);
	for (uint64_t i = 0; i < 20000; i++) {
		tb_access(&t, FT_OP_READ, 4, (i % 1000) * 4096, 4096, 1000 * 4096);
		if (i % 5000 == 4999 && ft_writer_flush(t.w, &t.err))
			t.failed = 1;
	}
	ok(tb_close(&t) == 0, "chunked trace written");
	fd = open(trace_path, O_RDWR);
	size = lseek(fd, 0, SEEK_END);
	ok(fd >= 0 && ftruncate(fd, size - 100) == 0, "trace cut");
	close(fd);
	rp = run(order0, 1, LRU_TWO_LIST, 0, &err);
	ok(rp != NULL, "cut trace still replays");
	if (rp) {
		ok(rp->run.truncated && !rp->run.clean_end, "and says it was cut");
		is_u64(rp->run.accesses, 15000, "the three whole chunks were replayed");
	}
	done(rp);
}

static void test_not_a_trace(void)
{
	static const unsigned order0[] = { 0 };
	struct ft_error err;
	struct replay *rp;
	FILE *f = fopen(trace_path, "w");

	fputs("this is not a trace, just some text long enough for a header\n", f);
	fclose(f);
	rp = run(order0, 1, LRU_TWO_LIST, 0, &err);
	ok(rp == NULL, "not a trace: refused");
	ok(strstr(err.msg, trace_path) != NULL, "message names the file: %s", err.msg);
	done(rp);
}

/* Accesses over 10 s, 1 s intervals: both models give the same number of samples. */
static void test_series(void)
{
	static const unsigned orders[] = { 0, 9 };
	struct ft_error err;
	struct replay *rp;
	struct tb t;

	tb_open(&t, 1ull << 30, 4096);
	for (unsigned i = 0; i < 100; i++) {
		tb_access(&t, FT_OP_WRITE, 6, (uint64_t)i * 65536, 65536,
			  (uint64_t)(i + 1) * 65536);
		t.ts += 100000000 - 1000;	/* 100 ms apart */
	}
	ok(tb_close(&t) == 0, "timed trace written");
	rp = run(orders, 2, LRU_TWO_LIST, 0, &err);
	ok(rp != NULL, "timed trace replayed");
	if (rp) {
		diag("samples: %zu and %zu", rp->series.col[0].n, rp->series.col[1].n);
		ok(rp->series.col[0].n >= 9 && rp->series.col[0].n <= 11, "about 10 samples");
		is_u64(rp->series.col[0].n, rp->series.col[1].n, "same samples for each order");
		is_u64(rp->series.col[1].order, 9, "series know their order");
		is_u64(rp->series.t0, 1000000000, "time origin is the first access");
	}
	done(rp);
}


/*
 * 1 MiB written, then only kernel events for 40 s: the flusher must still write it back by
 * age (dirty_expire 30 s). Without the events the replay ends at the write, data still dirty.
 */
static void test_time_between_accesses(void)
{
	static const unsigned order0[] = { 0 };
	struct ft_error err;
	struct replay *rp;
	struct tb t;

	for (int with_events = 0; with_events < 2; with_events++) {
		tb_open(&t, 1ull << 30, 4096);
		tb_access(&t, FT_OP_WRITE, 8, 0, MiB, MiB);
		for (int s = 1; with_events && s <= 40; s++)
			tb_kernel_event(&t, 1000000000ull + s * 1000000000ull);
		ok(tb_close(&t) == 0, "write-then-idle trace written");
		rp = run(order0, 1, LRU_TWO_LIST, 0, &err);
		ok(rp != NULL, "write-then-idle trace replayed");
		if (!rp)
			continue;
		if (with_events) {
			is_u64(rp->cols[0].m.wb_expire_bytes, MiB, "idle time writes back by age");
			is_u64(rp->cols[0].m.dirty_bytes, 0, "nothing left dirty");
			ok(rp->series.col[0].n >= 40, "samples through the idle time (%zu)",
			   rp->series.col[0].n);
		} else {
			is_u64(rp->cols[0].m.wb_expire_bytes, 0, "no age writeback without time");
			is_u64(rp->cols[0].m.dirty_bytes, MiB, "still dirty at the end");
		}
		done(rp);
	}
}

/* Models in threads see exactly the serial stream: every figure and sample is the same. */
static void test_threads_same_results(void)
{
	static const unsigned orders[] = { 0, 2, 4, 9 };
	struct ft_error err;
	struct replay *serial, *threaded;
	uint64_t x = 99;
	unsigned same = 0, same_series = 0;
	struct tb t;

	tb_open(&t, 1ull << 30, 4096);
	for (unsigned i = 0; i < 30000; i++) {
		x = x * 6364136223846793005ull + 1442695040888963407ull;
		tb_access(&t, (x >> 60) < 4 ? FT_OP_WRITE : FT_OP_READ, 1 + (x >> 62),
			  ((x >> 20) % 8192) * 4096, 4096 << ((x >> 50) % 4), 64 * MiB);
		if (i % 1000 == 999)
			tb_kernel_event(&t, t.ts += 700000000);
	}
	ok(tb_close(&t) == 0, "mixed trace written");
	serial = run_threads(orders, 4, LRU_TWO_LIST, 16 * MiB, 1, &err);
	threaded = run_threads(orders, 4, LRU_TWO_LIST, 16 * MiB, 3, &err);
	ok(serial && threaded, "mixed trace replayed with 1 and 3 model threads");
	if (serial && threaded) {
		is_u64(threaded->pipe.nworkers, 0, "workers gone after the replay");
		for (unsigned i = 0; i < 4; i++) {
			const struct series_col *a = &serial->series.col[i];
			const struct series_col *b = &threaded->series.col[i];

			same += memcmp(&serial->cols[i].m, &threaded->cols[i].m,
				       sizeof(serial->cols[i].m)) == 0;
			same_series += a->n == b->n && a->n > 0 &&
				       memcmp(a->v, b->v, a->n * sizeof(a->v[0])) == 0;
		}
		is_u64(same, 4, "same metrics for every order");
		is_u64(same_series, 4, "same time series for every order");
		ok(serial->cols[0].m.evictions > 0 && serial->cols[0].m.writeback_bytes > 0,
		   "the trace exercises reclaim and writeback");
	}
	done(serial);
	done(threaded);
}

/* Without a host record the memory size is not known: the replay asks for --memory. */
static void test_no_host(void)
{
	static const unsigned order0[] = { 0 };
	struct ft_error err;
	struct replay *rp;
	struct tb t;

	memset(&t, 0, sizeof(t));
	t.ts = 1000;
	t.w = ft_writer_open(trace_path, 0600, &t.err);
	t.failed = !t.w;
	tb_access(&t, FT_OP_READ, 3, 0, 4096, 4096);
	ok(tb_close(&t) == 0, "trace without host written");
	rp = run(order0, 1, LRU_TWO_LIST, 0, &err);
	ok(rp == NULL && strstr(err.msg, "give --memory"), "no host, no --memory: refused");
	done(rp);
	rp = run(order0, 1, LRU_TWO_LIST, 8 * MiB, &err);
	ok(rp && rp->cols[0].m.read_requests == 1, "no host, --memory given: replayed");
	done(rp);
}

static unsigned count_str(const char *s, const char *what)
{
	unsigned n = 0;

	for (; (s = strstr(s, what)); s++)
		n++;
	return n;
}

/* A trace without accesses still reports (zeros, nones) and plots (empty axes). */
static void test_empty(void)
{
	static const unsigned orders[] = { 0, 9 };
	struct ft_error err;
	struct replay *rp;
	struct tb t;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	tb_open(&t, 1ull << 30, 4096);
	ok(tb_close(&t) == 0, "empty trace written");
	rp = run(orders, 2, LRU_TWO_LIST, 0, &err);
	ok(rp != NULL, "empty trace replayed");
	if (!rp)
		return;
	is_u64(rp->run.accesses + rp->cols[0].m.accesses + rp->cols[1].m.insertions, 0,
	       "nothing happened");
	f = open_memstream(&buf, &len);
	is_i64(series_write_svg(f, &rp->series, "empty", NULL), 0, "empty plot written");
	fclose(f);
	is_u64(count_str(buf, "class=\"series\""), 4,
	       "no data: one series per order in the LRU and fragmentation panels");
	ok(strstr(buf, "nan") == NULL && strstr(buf, "inf") == NULL, "no NaN in the SVG");
	ok(strstr(buf, "</svg>") != NULL, "SVG closed");
	free(buf);
	done(rp);
}

/*
 * Pages two reads of a file (128 KiB at 0, 4 KiB at 128 KiB) and a 2 MiB read at the start of
 * another bring in with the default readahead: the device's window and largest I/O from an
 * FT_DEVICE record (when ra_pages is given), else the configuration's (set: the user's
 * options).
 */
static uint64_t device_window_pages(uint32_t ra_pages, uint32_t io_pages, unsigned set,
				    uint64_t *big)
{
	struct ft_device d = {
		.hdr = { .type = FT_DEVICE, .size = sizeof(d), .ts = 1 }, .dev = DEV_A,
		.ra_pages = ra_pages, .io_pages = io_pages,
	};
	struct model_config cfg;
	struct ft_error err;
	struct replay *rp = malloc(sizeof(*rp));
	uint64_t pages = 0;
	struct tb t;

	tb_open(&t, 1ull << 30, 4096);
	if (ra_pages && !t.failed && ft_writer_append(t.w, &d, &t.err))
		t.failed = 1;
	tb_file(&t, 7, 64 * MiB);
	tb_file(&t, 8, 64 * MiB);
	tb_access(&t, FT_OP_READ, 7, 0, 128 * 1024, 64 * MiB);
	tb_access(&t, FT_OP_READ, 7, 128 * 1024, 4096, 64 * MiB);
	tb_access(&t, FT_OP_READ, 8, 0, 2 * MiB, 64 * MiB);
	if (tb_close(&t) < 0 || !rp)
		goto out;
	model_config_defaults(&cfg);
	cfg.order = 0;
	cfg.interval_ns = 0;
	if (set & MODEL_REC_RA_PAGES)
		cfg.ra_pages = 32;
	replay_init(rp, &cfg, 1, set, false);
	if (replay_file(rp, trace_path, &err) < 0) {
		diag("replay: %s", err.msg);
	} else {
		pages = rp->cols[0].m.inserted_pages;
		*big = pages;
	}
	replay_release(rp);
out:
	free(rp);
	return pages;
}

static void test_device_record(void)
{
	uint64_t all = 0;

	/*
	 * ra_pages 32: the 128 KiB read opens a window of 32, marked at 16, which it reaches:
	 * 32 more marked at 32, which the 4 KiB read reaches: 32 more, 96 in all. ra_pages 64:
	 * one window of 64 marked at 32, then 64 more: 128. The 2 MiB read opens a window of
	 * min(512, io_pages) and reaches two marks: 320 x 3 = 960 with io_pages 320, 512 x 2 =
	 * 1024 with 512 (6.17's ra->size = max(size, next size)).
	 */
	device_window_pages(0, 0, 0, &all);
	is_u64(all, 96 + 960, "no FT_DEVICE: the defaults, ra_pages 32 and io_pages 320");
	device_window_pages(64, 512, 0, &all);
	is_u64(all, 128 + 1024, "FT_DEVICE ra_pages 64, io_pages 512: the device's windows");
	device_window_pages(64, 512, MODEL_REC_RA_PAGES, &all);
	is_u64(all, 96 + 1024, "--ra-pages given: the user's window, the device's I/O size");
}

int main(void)
{
	snprintf(trace_path, sizeof(trace_path), "%s/ft-replay-e2e-%d.ftr",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
	test_sequential_read();
	test_cyclic_scan();
	test_textbook_lru();
	test_write_fsync();
	test_ignored();
	test_truncated();
	test_not_a_trace();
	test_series();
	test_time_between_accesses();
	test_threads_same_results();
	test_no_host();
	test_empty();
	test_device_record();
	unlink(trace_path);
	return done_testing();
}
