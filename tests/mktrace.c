/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mktrace [KIND] FILE: writes a small hand-made trace for the CLI tests.
 *   sample     one record of every type (tests/sample-trace.c), the default
 *   empty      a host record and nothing else
 *   counters   a host record and counter samples, no accesses
 *   truncated  1 MiB written to a file, then the file truncated to zero
 */
#include <stdio.h>
#include <string.h>

#include "sample-trace.h"

static const struct ft_host host = {
	.hdr = { .ts = 1000 }, .mem_bytes = 1ull << 30, .page_size = 4096, .ncpus = 2,
	.dirty_background_ratio = 10, .dirty_ratio = 20, .dirty_expire_centisecs = 3000,
	.dirty_writeback_centisecs = 500, .release = "6.18.0-test", .hostname = "testhost",
};

static int write_counters(struct ft_writer *w, struct ft_error *err)
{
	static const char *const names[] = { "nr_dirtied", "nr_written" };

	if (ft_writer_host(w, &host, NULL, err) ||
	    ft_writer_counter_names(w, 1000, FT_SRC_VMSTAT, 2, names, err))
		return -1;
	for (__u64 s = 0; s < 5; s++) {
		const __u64 v[2] = { 100 + s, 90 + s };

		if (ft_writer_counters(w, 1000 + s * 1000000000ull, FT_SRC_VMSTAT, 2, v, err))
			return -1;
	}
	return 0;
}

/* 256 writes of 4 KiB (1 MiB) at t = 1 ms.., then truncate to 0 before any writeback. */
static int write_truncated(struct ft_writer *w, struct ft_error *err)
{
	struct ft_access a = { .hdr = { .type = FT_ACCESS, .size = sizeof(a), .tid = 5 },
			       .ino = 7, .dev = 254u << 20, .op = FT_OP_WRITE, .len = 4096 };

	if (ft_writer_host(w, &host, NULL, err) ||
	    ft_writer_file(w, 1000, 254u << 20, 7, 0, "/data/f", err))
		return -1;
	for (unsigned i = 0; i < 256; i++) {
		a.hdr.ts = 1000000ull * (i + 1);
		a.pos = 4096ull * i;
		a.isize = a.pos + 4096;
		if (ft_writer_append(w, &a, err))
			return -1;
	}
	a.hdr.ts = 300000000ull;
	a.op = FT_OP_TRUNCATE;
	a.pos = a.len = a.isize = 0;
	return ft_writer_append(w, &a, err);
}

int main(int argc, char **argv)
{
	const char *kind = argc == 3 ? argv[1] : "sample";
	struct ft_writer *w;
	struct ft_error err;
	int ret;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: mktrace [sample|empty|counters|truncated] FILE\n");
		return 2;
	}
	w = ft_writer_open(argv[argc - 1], 0644, &err);
	if (!w) {
		fprintf(stderr, "mktrace: %s\n", err.msg);
		return 1;
	}
	if (strcmp(kind, "sample") == 0) {
		ret = sample_trace_write(w, &err);
	} else if (strcmp(kind, "empty") == 0) {
		ret = ft_writer_host(w, &host, NULL, &err);
	} else if (strcmp(kind, "counters") == 0) {
		ret = write_counters(w, &err);
	} else if (strcmp(kind, "truncated") == 0) {
		ret = write_truncated(w, &err);
	} else {
		fprintf(stderr, "mktrace: unknown kind '%s'\n", kind);
		ft_writer_abort(w);
		return 2;
	}
	if (ret) {
		fprintf(stderr, "mktrace: %s\n", err.msg);
		ft_writer_abort(w);
		return 1;
	}
	if (ft_writer_close(w, &err)) {
		fprintf(stderr, "mktrace: %s\n", err.msg);
		return 1;
	}
	return 0;
}
