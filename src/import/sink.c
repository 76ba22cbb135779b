/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The trace-writer sink: every call forwards to the writer API. */
#include <unistd.h>

#include "import/sink.h"
#include "util/progress.h"

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

/* Every this many records the line may be redrawn: a clock read, at most a seek. */
#define PROGRESS_RECORDS 4096

static int progress_append(void *ctx, const void *rec, struct ft_error *err)
{
	struct ft_progress_sink *ps = ctx;

	if (++ps->records % PROGRESS_RECORDS == 0) {
		off_t at = ps->input_fd >= 0 ? lseek(ps->input_fd, 0, SEEK_CUR) : -1;

		ft_progress_update(ps->progress, at >= 0 ? (__u64)at : ps->records, ps->records);
	}
	return ft_sink_append(&ps->inner, rec, err);
}

static int progress_file(void *ctx, __u64 ts, __u32 dev, __u64 ino, __u64 size,
			 const char *path, struct ft_error *err)
{
	struct ft_progress_sink *ps = ctx;

	return ft_sink_file(&ps->inner, ts, dev, ino, size, path, err);
}

static int progress_host(void *ctx, const struct ft_host *host, const struct ft_host_dev *devs,
			 struct ft_error *err)
{
	struct ft_progress_sink *ps = ctx;

	return ft_sink_host(&ps->inner, host, devs, err);
}

void ft_sink_init_progress(struct ft_sink *sink, struct ft_progress_sink *ps,
			   const struct ft_sink *inner, struct ft_progress *progress, int input_fd)
{
	*ps = (struct ft_progress_sink){
		.inner = *inner, .progress = progress, .input_fd = input_fd,
	};
	sink->append = progress_append;
	sink->file = progress_file;
	sink->host = progress_host;
	sink->ctx = ps;
}
