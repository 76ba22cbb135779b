/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where synthetic and imported records go. Generators and parsers write through this small
 * interface instead of the trace writer itself, so unit tests can count what they produce
 * without a file.
 */
#ifndef FT_IMPORT_SINK_H
#define FT_IMPORT_SINK_H

#include "trace/trace.h"

struct ft_sink {
	int (*append)(void *ctx, const void *rec, struct ft_error *err);
	int (*file)(void *ctx, __u64 ts, __u32 dev, __u64 ino, __u64 size, const char *path,
		    struct ft_error *err);
	int (*host)(void *ctx, const struct ft_host *host, const struct ft_host_dev *devs,
		    struct ft_error *err);
	void *ctx;
};

/* A sink that appends to an open trace writer. */
void ft_sink_init_writer(struct ft_sink *sink, struct ft_writer *w);

struct ft_progress;

/*
 * A sink that passes everything on to inner and shows how far the work is on a progress line:
 * by the position in input_fd (an input file being converted) when it is >= 0, else by the
 * number of records appended.
 */
struct ft_progress_sink {
	struct ft_sink inner;
	struct ft_progress *progress;
	int input_fd;
	__u64 records;
};
void ft_sink_init_progress(struct ft_sink *sink, struct ft_progress_sink *ps,
			   const struct ft_sink *inner, struct ft_progress *progress, int input_fd);

static inline int ft_sink_append(struct ft_sink *s, const void *rec, struct ft_error *err)
{
	return s->append(s->ctx, rec, err);
}

static inline int ft_sink_file(struct ft_sink *s, __u64 ts, __u32 dev, __u64 ino, __u64 size,
			       const char *path, struct ft_error *err)
{
	return s->file(s->ctx, ts, dev, ino, size, path, err);
}

static inline int ft_sink_host(struct ft_sink *s, const struct ft_host *host,
			       const struct ft_host_dev *devs, struct ft_error *err)
{
	return s->host(s->ctx, host, devs, err);
}

#endif
