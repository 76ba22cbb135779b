/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libCacheSim oracleGeneral export: forward pass, then next-access times filled backwards. */
#define _GNU_SOURCE	/* O_TMPFILE, mkostemp() */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "codec/libcachesim.h"
#include "export/export.h"
#include "util/error.h"

#define BATCH 8192	/* records per read/write */

static int io_error(struct ft_error *err, const char *name, const char *what)
{
	return ft_error_set(err, name, "%s: %s", what, errno ? strerror(errno) : "short transfer");
}

static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Pass 1: all requests, next-access -1 for now. Returns the count, or -1. */
static int64_t write_forward(struct req_stream *s, int fd, const char *name, unsigned char *buf,
			     struct ft_error *err)
{
	struct export_req req;
	size_t n = 0;
	int64_t total = 0;
	int ret;

	while ((ret = req_stream_next(s, &req, err)) == 1) {
		uint32_t t = req.time_s > UINT32_MAX ? UINT32_MAX : (uint32_t)req.time_s;

		oracle_pack(buf + n * ORACLE_REC_SIZE, t, req.obj_id, req.obj_size, -1);
		total++;
		if (++n == BATCH) {
			if (write_all(fd, buf, n * ORACLE_REC_SIZE))
				return io_error(err, name, "write failed");
			n = 0;
		}
	}
	if (ret < 0)
		return -1;
	if (n && write_all(fd, buf, n * ORACLE_REC_SIZE))
		return io_error(err, name, "write failed");
	return total;
}

/* Fills next-access of records [first, first + n) of the batch in buf, last record first. */
static int fill_batch(struct u64map *last, unsigned char *buf, int64_t first, size_t n,
		      const char *name, struct ft_error *err)
{
	for (size_t i = n; i-- > 0;) {
		unsigned char *p = buf + i * ORACLE_REC_SIZE;
		uint64_t obj = oracle_obj_id(p), *v;
		bool added;

		v = u64map_get_or_add(last, obj, 0, &added);
		if (!v)
			return ft_error_set(err, name, "out of memory");
		oracle_set_next(p, added ? -1 : (int64_t)*v);
		*v = (uint64_t)(first + (int64_t)i + 1);	/* 1-based request number */
	}
	return 0;
}

/* Pass 2: backwards over the file, batch by batch, rewriting each batch in place. */
static int fill_next_access(int fd, int64_t total, const char *name, unsigned char *buf,
			    struct ft_error *err)
{
	struct u64map last;
	int64_t end = total;
	int ret = 0;

	if (u64map_init(&last, 1 << 16))
		return io_error(err, name, "out of memory");
	while (end > 0 && !ret) {
		int64_t first = end > BATCH ? end - BATCH : 0;
		size_t n = (size_t)(end - first), bytes = n * ORACLE_REC_SIZE;
		off_t off = (off_t)first * ORACLE_REC_SIZE;

		errno = 0;
		if (pread(fd, buf, bytes, off) != (ssize_t)bytes)
			ret = io_error(err, name, "read back failed");
		else if (fill_batch(&last, buf, first, n, name, err))
			ret = -1;
		else if (pwrite(fd, buf, bytes, off) != (ssize_t)bytes)
			ret = io_error(err, name, "write failed");
		end = first;
	}
	u64map_free(&last);
	return ret;
}

static int copy_out(int fd, int out, const char *name, unsigned char *buf,
		    struct ft_error *err)
{
	ssize_t n;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return io_error(err, name, "temporary file");
	while ((n = read(fd, buf, BATCH * ORACLE_REC_SIZE)) > 0)
		if (write_all(out, buf, (size_t)n))
			return io_error(err, name, "write failed");
	return n < 0 ? io_error(err, name, "temporary file") : 0;
}

/* A file without a name, gone with its descriptor: nothing is left behind on any exit. */
static int unnamed_work_file(const char *name, struct ft_error *err)
{
	const char *dir = getenv("TMPDIR");
	char tmpl[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0)
		return fd;
	/* filesystems without O_TMPFILE: a name for as long as it takes to remove it */
	snprintf(tmpl, sizeof(tmpl), "%s/folio-trace-export.XXXXXX", dir);
	fd = mkostemp(tmpl, O_CLOEXEC);
	if (fd < 0)
		return io_error(err, name, "cannot create a temporary file");
	unlink(tmpl);
	return fd;
}

int export_oracle(struct req_stream *s, struct ft_output *out, struct ft_error *err)
{
	const char *name = ft_output_name(out);
	unsigned char *buf = malloc(BATCH * ORACLE_REC_SIZE);
	int64_t total;
	int fd, ret = -1;

	if (!buf)
		return io_error(err, name, "out of memory");
	fd = out->direct ? unnamed_work_file(name, err) : out->fd;
	if (fd < 0) {
		free(buf);
		return -1;
	}
	total = write_forward(s, fd, name, buf, err);
	if (total >= 0 && fill_next_access(fd, total, name, buf, err) == 0)
		ret = out->direct ? copy_out(fd, out->fd, name, buf, err) : 0;
	if (out->direct)
		close(fd);
	free(buf);
	return ret;
}
