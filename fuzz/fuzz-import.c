/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libFuzzer target for the importers. The first input byte picks one (ftrace text, fio iolog,
 * libCacheSim csv or oracleGeneral), the rest is its input. Whatever the input, an importer
 * must not crash, and every record it makes must be one the trace writer (and so the reader)
 * accepts, every access within the kernel's bounds (ft_access_problem): anything else aborts,
 * so the fuzzer reports it.
 */
#include <stdio.h>
#include <stdlib.h>

#include "import/import.h"

static int (*const importers[])(struct import_ctx *c, FILE *in) = {
	import_ftrace, import_fio_iolog, import_lcs_csv, import_lcs_oracle,
};

static void refused(const struct ft_error *err)
{
	fprintf(stderr, "fuzz-import: an importer made a record the writer refuses: %s\n",
		err->msg);
	abort();
}

static int fuzz_append(void *ctx, const void *rec, struct ft_error *err)
{
	const struct ft_hdr *h = rec;
	char why[160];

	if (ft_writer_append(ctx, rec, err))
		refused(err);
	/* an access no kernel makes is a bad line, never a record the replay must skip */
	if (h->type == FT_ACCESS && ft_access_problem(rec, why, sizeof(why))) {
		fprintf(stderr, "fuzz-import: an importer made a damaged access: %s\n", why);
		abort();
	}
	return 0;
}

static int fuzz_file(void *ctx, __u64 ts, __u32 dev, __u64 ino, __u64 size, const char *path,
		     struct ft_error *err)
{
	if (ft_writer_file(ctx, ts, dev, ino, size, path, err))
		refused(err);
	return 0;
}

static int fuzz_host(void *ctx, const struct ft_host *host, const struct ft_host_dev *devs,
		     struct ft_error *err)
{
	if (ft_writer_host(ctx, host, devs, err))
		refused(err);
	return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct ft_error err = { "" };
	struct import_ctx c;
	struct ft_writer *w;
	struct ft_sink sink;
	FILE *in;

	if (size < 1)
		return 0;
	in = fmemopen((void *)(data + 1), size - 1 ? size - 1 : 1, "r");
	if (!in)
		return 0;
	if (size == 1)
		fgetc(in);	/* fmemopen refuses size 0: read the one byte away */
	w = ft_writer_open("/dev/null", 0, &err);
	if (!w)
		abort();
	sink = (struct ft_sink){ .append = fuzz_append, .file = fuzz_file, .host = fuzz_host,
				 .ctx = w };
	if (import_ctx_init(&c, &sink, "fuzz", &err) == 0) {
		c.strict = data[0] & 0x80;
		importers[data[0] % (sizeof(importers) / sizeof(importers[0]))](&c, in);
		import_ctx_free(&c);
	}
	ft_writer_abort(w);
	fclose(in);
	return 0;
}
