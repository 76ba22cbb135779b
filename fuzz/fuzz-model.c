// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the models: decoded records through the replay driver into two page
 * cache models (orders 0 and 9, 4 MiB of memory so reclaim runs), the time series on, every
 * report written. `make fuzz` runs it with -timeout: an input that takes longer is reported
 * like a crash, so a hang on some timestamp or length is a finding, not a slow run.
 *
 * The input is a list of 32-byte records, each decoded into one trace record:
 *   u8 kind, u8 flags, u16 file, u32 dt, u64 ts, u64 pos, u64 len (little-endian)
 * kind picks an access operation, a file record or a kernel event; flags pick raw 64-bit
 * values (ts, pos, len, i_size) or small ones (time dt after the previous record, offsets
 * within 64 MiB, lengths up to 1 MiB), so that mutations reach both the models' everyday
 * paths and the damaged values a trace can carry. With F_ADVICE alone of the two top flag
 * bits, the access is an fadvise (even kind) or madvise (odd kind) of advice file >> 8. The first byte of the input also picks
 * the recorded kernel release (readahead rule) and whether the host is synthetic.
 * The records go through the trace writer to a memfd and back through the reader, as
 * replay reads a file.
 *
 * The work of an access is bounded by its pages (MAX_RW_COUNT of them at most), so an input
 * of many long accesses is slow without hanging. To keep every input well inside the time
 * limit, the accesses of one input move FUZZ_PAGES pages in all; later ones are cut short.
 * Lengths no kernel makes are kept as they are: the replay skips them before any work.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "replay/replay.h"
#include "report/report.h"
#include "report/series.h"

#define REC_BYTES	32
#define FUZZ_MEMORY	(4u << 20)
#define FUZZ_SAMPLES	256	/* kept per order: the models still make all of theirs */
#define FUZZ_PAGES	16384	/* pages the accesses of one input may move, 64 MiB */

enum {
	F_RAW_TS = 1 << 0,	/* ts as given, else the previous record's + dt */
	F_RAW_POS = 1 << 1,	/* pos as given, else within 64 MiB */
	F_RAW_LEN = 1 << 2,	/* len as given, else up to 1 MiB */
	F_DIRECT = 1 << 3,
	F_ISIZE = 1 << 4,	/* i_size = pos + len, else 0 (not recorded) */
	F_AROUND = 1 << 5,	/* mmap read by fault-around */
	F_ADVICE = 1 << 6,	/* with bit 7 clear: fadvise or madvise */
};

static void die(const char *what)
{
	fprintf(stderr, "fuzz-model: %s\n", what);
	abort();
}

static uint64_t get_le(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = n; i-- > 0;)
		v = v << 8 | p[i];
	return v;
}

static void append(struct ft_writer *w, const void *rec)
{
	struct ft_error err;

	if (ft_writer_append(w, rec, &err))
		die(err.msg);
}

static void put_host(struct ft_writer *w, unsigned char sel)
{
	static const char *const releases[] = { "6.6.0", "6.12.3", "6.18.0", "" };
	struct ft_host h = {
		.hdr = { .type = FT_HOST, .ts = 0 }, .mem_bytes = 8ull << 30, .page_size = 4096,
		.ncpus = 2, .dirty_background_ratio = 10, .dirty_ratio = 20,
		.dirty_expire_centisecs = 3000, .dirty_writeback_centisecs = 500,
		.flags = sel & 4 ? FT_HOST_SYNTHETIC : 0,
	};
	struct ft_error err;

	strcpy(h.release, releases[sel & 3]);
	if (ft_writer_host(w, &h, NULL, &err))
		die(err.msg);
}

/* len cut to what is left of the input's pages (*budget), unless no kernel makes it. */
static uint64_t within_budget(uint64_t pos, uint64_t len, uint64_t *budget)
{
	uint64_t pages;

	if (len > FT_ACCESS_LEN_MAX || pos > FT_FILE_SIZE_MAX - len)
		return len;
	pages = len / 4096 + 2;		/* an unaligned range spans one page more */
	if (pages > *budget)
		len = *budget > 2 ? (*budget - 2) * 4096 : 0;
	*budget -= pages < *budget ? pages : *budget;
	return len;
}

/* One input record as a trace record; ts carries the running time. */
static void put_record(struct ft_writer *w, const unsigned char *p, uint64_t *ts,
		       uint64_t *budget)
{
	unsigned kind = p[0] % 12, flags = p[1], op = FT_OP_READ + kind, advice = 0;
	uint64_t ino = 1 + get_le(p + 2, 2) % 8, pos = get_le(p + 16, 8), len = get_le(p + 24, 8);
	struct ft_error err;

	if ((flags & 0xc0) == F_ADVICE) {
		op = kind & 1 ? FT_OP_MADVISE : FT_OP_FADVISE;
		advice = p[3] % 16;
		kind = 0;
	}

	*ts = flags & F_RAW_TS ? get_le(p + 8, 8) : *ts + get_le(p + 4, 4);
	if (!(flags & F_RAW_POS))
		pos %= 64u << 20;
	if (!(flags & F_RAW_LEN))
		len %= (1u << 20) + 1;
	if (ft_op_moves_data((__u16)op))
		len = within_budget(pos, len, budget);
	if (kind < 10) {
		struct ft_access a = {
			.hdr = { .type = FT_ACCESS, .size = sizeof(a), .tid = 1, .ts = *ts },
			.ino = ino, .pos = pos, .len = len, .dev = 8 << 20,
			.isize = flags & F_ISIZE ? pos + len : 0, .op = (__u16)op,
			.flags = flags & F_DIRECT ? FT_AF_DIRECT : 0,
			.arg = advice ? advice : flags & F_AROUND ? FT_MMAP_AROUND : FT_MMAP_FAULT,
		};

		append(w, &a);
	} else if (kind == 10) {
		if (ft_writer_file(w, *ts, 8 << 20, ino, pos, NULL, &err))
			die(err.msg);
	} else {
		struct ft_folio_event e = { .hdr = { .type = FT_PAGECACHE_ADD, .size = sizeof(e),
						     .ts = *ts }, .ino = ino, .dev = 8 << 20 };

		append(w, &e);
	}
}

static int trace_memfd(const unsigned char *data, size_t size)
{
	int fd = memfd_create("fuzz-model", MFD_CLOEXEC);
	struct ft_writer *w;
	struct ft_error err;
	uint64_t ts = 1000000000, budget = FUZZ_PAGES;

	if (fd < 0)
		die("memfd_create failed");
	/* the writer closes its descriptor; the memfd stays open for the reader */
	w = ft_writer_fdopen(fcntl(fd, F_DUPFD_CLOEXEC, 3), "fuzz-model", &err);
	if (!w)
		die(err.msg);
	put_host(w, size ? data[0] : 0);
	for (size_t off = 1; off + REC_BYTES <= size; off += REC_BYTES)
		put_record(w, data + off, &ts, &budget);
	if (ft_writer_close(w, &err))
		die(err.msg);
	return fd;
}

/* What must hold whatever the input: the budget, the bound on kept samples. */
static void check(const struct replay *rp)
{
	for (unsigned i = 0; i < rp->ncfg; i++) {
		const struct model_metrics *m = &rp->cols[i].m;

		if (m->cached_bytes.max > FUZZ_MEMORY || m->lru_pages.max > FUZZ_MEMORY / 4096)
			die("the cache grew past its memory");
		if (m->dirty_bytes > FUZZ_MEMORY)
			die("more dirty data than memory");
		if (rp->series.col[i].n > FUZZ_SAMPLES)
			die("the time series kept more samples than allowed");
	}
}

/* Every report and time series, to nowhere: the formatting code sees every value too. */
static void write_reports(const struct replay *rp)
{
	struct report r = { .run = &rp->run, .cols = rp->cols, .ncols = rp->ncfg };
	FILE *f = fopen("/dev/null", "w");

	if (!f)
		die("cannot open /dev/null");
	r.baseline = report_pick_baseline(rp->cols, rp->ncfg);
	report_write_table(f, &r);
	report_write_json(f, &r);
	report_write_csv(f, &r);
	series_write_csv(f, &rp->series);
	series_write_svg(f, &rp->series, "fuzz", NULL);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	static const unsigned orders[] = { 0, 9 };
	struct model_config cfg[2];
	struct replay *rp = malloc(sizeof(*rp));
	struct ft_error err;
	char path[64];
	int fd;

	if (!rp)
		die("out of memory");
	for (unsigned i = 0; i < 2; i++) {
		model_config_defaults(&cfg[i]);
		cfg[i].order = orders[i];
		cfg[i].memory_bytes = FUZZ_MEMORY;
		cfg[i].interval_ns = 1000000;
		cfg[i].pinned_pct = size ? data[0] % 8 : 0;
	}
	fd = trace_memfd(data, size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	replay_init(rp, cfg, 2, MODEL_REC_MEMORY, true);
	rp->threads = 1;
	for (unsigned i = 0; i < 2; i++)
		rp->series.col[i].max = FUZZ_SAMPLES;
	if (replay_file(rp, path, &err) == 0) {
		check(rp);
		write_reports(rp);
	}
	replay_release(rp);
	free(rp);
	close(fd);
	return 0;
}
