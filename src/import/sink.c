/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace-writer sink: every call forwards to the writer API. */
#include "import/sink.h"

static int writer_append(void *ctx, const void *rec, struct ft_error *err)
{
	return ft_writer_append(ctx, rec, err);
}

static int writer_file(void *ctx, __u64 ts, __u32 dev, __u64 ino, __u64 size, const char *path,
		       struct ft_error *err)
{
	return ft_writer_file(ctx, ts, dev, ino, size, path, err);
}

static int writer_host(void *ctx, const struct ft_host *host, const struct ft_host_dev *devs,
		       struct ft_error *err)
{
	return ft_writer_host(ctx, host, devs, err);
}

void ft_sink_init_writer(struct ft_sink *sink, struct ft_writer *w)
{
	sink->append = writer_append;
	sink->file = writer_file;
	sink->host = writer_host;
	sink->ctx = w;
}
