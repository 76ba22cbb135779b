/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Trace writer: records are appended to a raw chunk buffer; a full buffer (or a flush) is
 * compressed as one independent zlib stream behind a chunk header. A failed write cuts the file
 * back to the end of the last whole chunk, so what was written stays readable.
 *
 * A recorder cannot wait for compression while the kernel fills its ring buffer: with
 * ft_writer_background() full buffers go to a thread of their own that compresses and writes
 * them in order, while appending goes on into a spare buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trace/deflate.h"
#include "trace/pack.h"
#include "trace/trace.h"

#define BG_BUFFERS	4	/* raw chunks in flight: bursts of 4 MiB wait for no one */

/* A full raw buffer waiting for the thread. */
struct pending_chunk {
	unsigned char *raw;
	size_t len;
	__u32 nrecords;
};

/* The background thread's side; everything in it is under lock. */
struct writer_bg {
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;		/* a chunk queued, written, or stop */
	struct pending_chunk queue[BG_BUFFERS];	/* oldest first */
	unsigned queued;
	unsigned char *spare[BG_BUFFERS];	/* empty buffers for the appending side */
	unsigned nspare;
	bool busy;			/* a chunk is out of the queue, being written */
	bool stop;
	bool failed;
	struct ft_error err;		/* why, when failed */
};

struct ft_writer {
	int fd;
	struct ft_output output;	/* where the file goes when opened by name */
	bool own_output;
	bool regular;		/* fsync and cut-back only make sense on regular files */
	bool failed;		/* after a write error every call fails */
	char *name;
	unsigned char *raw;
	size_t raw_len;
	unsigned char *packed;	/* the chunk packed; whoever writes chunks uses it */
	unsigned char *out;	/* compressed chunk; the thread's alone when there is one */
	size_t out_cap;
	struct ft_deflater *def;
	struct writer_bg *bg;	/* NULL: chunks are compressed and written by the caller */
	__u32 nrecords;
	__u64 good_offset;	/* file offset after the last whole chunk */
	__u64 last_ts;		/* latest timestamp appended: the end record's time */
	struct ft_writer_stats st;
};

/* On failure, cuts the file back to the last whole chunk: it then ends on a whole chunk. */
static int write_all(struct ft_writer *w, const void *buf, size_t len, struct ft_error *err)
{
	const unsigned char *p = buf;

	while (len) {
		ssize_t n = write(w->fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int e = n < 0 ? errno : ENOSPC;

			/* a temporary file never takes the name: nothing of it is kept */
			if (w->own_output && ft_output_is_temp(&w->output))
				return ft_error_set(err, w->name, "write failed: %s", strerror(e));
			/* Drop the partial chunk: the file then ends on a whole chunk. */
			if (w->regular && ftruncate(w->fd, (off_t)w->good_offset) == 0)
				lseek(w->fd, (off_t)w->good_offset, SEEK_SET);
			return ft_error_set(err, w->name, "write failed: %s (trace kept up to byte %llu)",
					 strerror(e), (unsigned long long)w->good_offset);
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Compresses and writes one chunk. good_offset and the byte counts move only here, by whoever
 * writes chunks: the caller, or the background thread (then under its lock, for the stats).
 */
static int write_chunk(struct ft_writer *w, const unsigned char *raw, size_t len,
		       __u32 nrecords, struct ft_error *err)
{
	struct ft_chunk_header ch = { .magic = FT_CHUNK_MAGIC };
	size_t as_is, packed = ft_pack_records(raw, len, w->packed, len, &as_is), stored;

	if (packed) {
		/*
		 * packed accesses deflate to about half, but inflating them would cost a reader
		 * most of what packing saved: a chunk of them is stored as it is; other records
		 * (a recording's kernel events) deflate well and cheaply
		 */
		ch.flags = FT_CHUNK_PACKED;
		if (as_is <= packed / 8)
			stored = ft_deflate_store(w->packed, packed, w->out, w->out_cap);
		else
			stored = ft_deflate(w->def, w->packed, packed, w->out, w->out_cap);
	} else {
		stored = ft_deflate(w->def, raw, len, w->out, w->out_cap);
	}
	if (!stored)
		return ft_error_set(err, w->name, "compression failed");
	ch.stored_size = (__u32)stored;
	ch.raw_size = (__u32)(packed ? packed : len);
	ch.crc32 = ft_deflate_crc32(w->out, stored);
	ch.nrecords = nrecords;
	if (write_all(w, &ch, sizeof(ch), err) || write_all(w, w->out, stored, err))
		return -1;
	if (w->bg)
		pthread_mutex_lock(&w->bg->lock);
	w->good_offset += sizeof(ch) + stored;
	w->st.stored_bytes = w->good_offset;
	w->st.raw_bytes += len;
	w->st.chunks++;
	if (w->bg)
		pthread_mutex_unlock(&w->bg->lock);
	return 0;
}

static struct ft_writer *writer_new(int fd, const char *name, bool timestamp,
				    const struct ft_output *out, struct ft_error *err)
{
	struct ft_writer *w = calloc(1, sizeof(*w));
	struct ft_file_header fh = { .version_major = FT_VERSION_MAJOR,
				     .version_minor = FT_VERSION_MINOR,
				     .header_size = sizeof(fh), .flags = FT_FILE_PACKED };
	struct timespec now;
	struct stat sb;

	if (w) {
		w->out_cap = ft_deflate_bound(FT_CHUNK_RAW_DEFAULT);
		w->raw = malloc(FT_CHUNK_RAW_DEFAULT);
		w->packed = malloc(FT_CHUNK_RAW_DEFAULT);
		w->out = malloc(w->out_cap);
		w->name = strdup(name);
		w->def = ft_deflater_new();
	}
	if (!w || !w->raw || !w->packed || !w->out || !w->name || !w->def) {
		ft_error_set(err, name, "out of memory");
		goto fail;
	}
	w->fd = fd;
	if (out) {
		w->output = *out;
		w->own_output = true;
	}
	w->regular = fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode);
	memcpy(fh.magic, FT_MAGIC, FT_MAGIC_LEN);
	if (timestamp) {
		clock_gettime(CLOCK_REALTIME, &now);
		fh.created_realtime_ns = (__u64)now.tv_sec * 1000000000ull + (__u64)now.tv_nsec;
	}
	if (write_all(w, &fh, sizeof(fh), err))
		goto fail;
	w->good_offset = sizeof(fh);
	w->st.stored_bytes = sizeof(fh);
	return w;
fail:
	if (w) {
		free(w->raw);
		free(w->packed);
		free(w->out);
		free(w->name);
		ft_deflater_free(w->def);
		free(w);
	}
	close(fd);
	return NULL;
}

struct ft_writer *ft_writer_fdopen(int fd, const char *name, struct ft_error *err)
{
	return writer_new(fd, name, true, NULL, err);
}

struct ft_writer *ft_writer_open_with(const char *path, const struct ft_writer_options *opts,
				      struct ft_error *err)
{
	const struct ft_output_opts oo = {
		.mode = opts->mode ? opts->mode : 0600, .force = opts->force,
		.dash_is_stdout = true, .in_place_if_new = opts->in_place_if_new,
		.inputs = opts->inputs, .ninputs = opts->ninputs,
	};
	struct ft_output out;
	struct ft_writer *w;
	int fd;

	if (ft_output_open(&out, path, &oo, err))
		return NULL;
	/* the writer closes its descriptor; the output keeps its own until commit or abort */
	fd = fcntl(out.fd, F_DUPFD_CLOEXEC, 3);
	if (fd < 0) {
		ft_error_set(err, path, "cannot write: %s", strerror(errno));
		ft_output_abort(&out, false);
		return NULL;
	}
	w = writer_new(fd, strcmp(path, "-") ? path : "(stdout)", !opts->no_timestamp, &out, err);
	if (!w)
		ft_output_abort(&out, false);
	return w;
}

struct ft_writer *ft_writer_open(const char *path, unsigned mode, struct ft_error *err)
{
	const struct ft_writer_options opts = { .mode = mode };

	return ft_writer_open_with(path, &opts, err);
}

/* Hands the raw buffer to the thread and takes a spare one, once there is one. */
static int queue_chunk(struct ft_writer *w, struct ft_error *err)
{
	struct writer_bg *bg = w->bg;
	int rc = 0;

	pthread_mutex_lock(&bg->lock);
	while (!bg->nspare && !bg->failed)
		pthread_cond_wait(&bg->cond, &bg->lock);
	if (bg->failed) {
		*err = bg->err;
		w->failed = true;
		rc = -1;
	} else {
		bg->queue[bg->queued++] = (struct pending_chunk){ w->raw, w->raw_len, w->nrecords };
		w->raw = bg->spare[--bg->nspare];
		pthread_cond_broadcast(&bg->cond);
	}
	pthread_mutex_unlock(&bg->lock);
	return rc;
}

int ft_writer_flush(struct ft_writer *w, struct ft_error *err)
{
	if (w->failed)
		return ft_error_set(err, w->name, "trace writer stopped after an earlier error");
	if (!w->nrecords)
		return 0;
	if (w->bg ? queue_chunk(w, err) : write_chunk(w, w->raw, w->raw_len, w->nrecords, err)) {
		w->failed = true;
		return -1;
	}
	w->raw_len = 0;
	w->nrecords = 0;
	return 0;
}

/* The thread: oldest queued chunk first, until told to stop with nothing left to write. */
static void *bg_main(void *arg)
{
	struct ft_writer *w = arg;
	struct writer_bg *bg = w->bg;

	pthread_mutex_lock(&bg->lock);
	for (;;) {
		struct pending_chunk c;
		int rc;

		while (!bg->queued && !bg->stop)
			pthread_cond_wait(&bg->cond, &bg->lock);
		if (!bg->queued)
			break;
		c = bg->queue[0];
		memmove(bg->queue, bg->queue + 1, --bg->queued * sizeof(*bg->queue));
		bg->busy = true;
		pthread_mutex_unlock(&bg->lock);
		/* After a failure what follows is dropped: the file ends on a whole chunk. */
		rc = bg->failed ? 0 : write_chunk(w, c.raw, c.len, c.nrecords, &bg->err);
		pthread_mutex_lock(&bg->lock);
		if (rc)
			bg->failed = true;
		bg->busy = false;
		bg->spare[bg->nspare++] = c.raw;
		pthread_cond_broadcast(&bg->cond);
	}
	pthread_mutex_unlock(&bg->lock);
	return NULL;
}

static void bg_free(struct writer_bg *bg)
{
	for (unsigned i = 0; i < bg->nspare; i++)
		free(bg->spare[i]);
	pthread_mutex_destroy(&bg->lock);
	pthread_cond_destroy(&bg->cond);
	free(bg);
}

int ft_writer_background(struct ft_writer *w, struct ft_error *err)
{
	struct writer_bg *bg = calloc(1, sizeof(*bg));

	if (!bg)
		return ft_error_set(err, w->name, "out of memory");
	pthread_mutex_init(&bg->lock, NULL);
	pthread_cond_init(&bg->cond, NULL);
	for (; bg->nspare < BG_BUFFERS - 1; bg->nspare++) {
		bg->spare[bg->nspare] = malloc(FT_CHUNK_RAW_DEFAULT);
		if (!bg->spare[bg->nspare]) {
			bg_free(bg);
			return ft_error_set(err, w->name, "out of memory");
		}
	}
	w->bg = bg;
	if (pthread_create(&bg->thread, NULL, bg_main, w)) {
		w->bg = NULL;
		bg_free(bg);
		return ft_error_set(err, w->name, "cannot start the compression thread");
	}
	return 0;
}

int ft_writer_drain(struct ft_writer *w, struct ft_error *err)
{
	struct writer_bg *bg = w->bg;
	int rc;

	if (ft_writer_flush(w, err) || !bg)
		return w->failed ? -1 : 0;
	pthread_mutex_lock(&bg->lock);
	while ((bg->queued || bg->busy) && !bg->failed)
		pthread_cond_wait(&bg->cond, &bg->lock);
	rc = bg->failed ? -1 : 0;
	if (rc) {
		*err = bg->err;
		w->failed = true;
	}
	pthread_mutex_unlock(&bg->lock);
	return rc;
}

/* Lets the thread write what is queued, then ends it: chunks are the caller's again. */
static int bg_stop(struct ft_writer *w, struct ft_error *err)
{
	struct writer_bg *bg = w->bg;
	int rc = 0;

	if (!bg)
		return 0;
	pthread_mutex_lock(&bg->lock);
	bg->stop = true;
	pthread_cond_broadcast(&bg->cond);
	pthread_mutex_unlock(&bg->lock);
	pthread_join(bg->thread, NULL);
	if (bg->failed) {
		if (err)
			*err = bg->err;
		w->failed = true;
		rc = -1;
	}
	w->bg = NULL;
	bg_free(bg);
	return rc;
}

/* Checks a caller's record the way the reader will, so no writer makes an unreadable file. */
static int check_record(const struct ft_writer *w, const struct ft_hdr *h, struct ft_error *err)
{
	size_t min = ft_record_min_size(h->type);

	if (h->size < sizeof(*h) || h->size % 8 || h->size > FT_RECORD_MAX)
		return ft_error_set(err, w->name, "bad record size %u for type %u", h->size, h->type);
	if (h->type == 0 || h->type >= FT_TYPE_MAX)
		return ft_error_set(err, w->name, "bad record type %u", h->type);
	if (min && h->size < min)
		return ft_error_set(err, w->name, "record %s too short: %u < %zu bytes",
				 ft_type_name(h->type), h->size, min);
	return 0;
}

int ft_writer_append(struct ft_writer *w, const void *rec, struct ft_error *err)
{
	const struct ft_hdr *h = rec;

	if (w->failed)
		return ft_error_set(err, w->name, "trace writer stopped after an earlier error");
	if (check_record(w, h, err))
		return -1;
	if (w->raw_len + h->size > FT_CHUNK_RAW_DEFAULT && ft_writer_flush(w, err))
		return -1;
	memcpy(w->raw + w->raw_len, rec, h->size);
	w->raw_len += h->size;
	w->nrecords++;
	w->st.records++;
	if (h->ts > w->last_ts)
		w->last_ts = h->ts;
	if (!ft_is_metadata(h->type))
		w->st.events++;
	else if (h->type == FT_LOST)
		w->st.lost += ((const struct ft_lost *)rec)->count;
	return 0;
}

static size_t round8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

/* Appends a fixed struct followed by tail bytes, zero padded to a multiple of 8. */
static int append_with_tail(struct ft_writer *w, void *fixed, size_t fixed_size,
			    const void *tail, size_t tail_len, struct ft_error *err)
{
	unsigned char buf[FT_RECORD_MAX];
	struct ft_hdr *h = fixed;
	size_t size = round8(fixed_size + tail_len);

	if (size > FT_RECORD_MAX)
		return ft_error_set(err, w->name, "%s record too large (%zu bytes)",
				 ft_type_name(h->type), size);
	h->size = (__u16)size;
	memcpy(buf, fixed, fixed_size);
	if (tail_len)
		memcpy(buf + fixed_size, tail, tail_len);
	memset(buf + fixed_size + tail_len, 0, size - fixed_size - tail_len);
	return ft_writer_append(w, buf, err);
}

int ft_writer_file(struct ft_writer *w, __u64 ts, __u32 dev, __u64 ino, __u64 size,
		   const char *path, struct ft_error *err)
{
	return ft_writer_file_flags(w, ts, dev, ino, size, path, 0, err);
}

int ft_writer_file_flags(struct ft_writer *w, __u64 ts, __u32 dev, __u64 ino, __u64 size,
			 const char *path, __u16 flags, struct ft_error *err)
{
	union ft_file_buf buf;

	ft_file_build(&buf, ts, dev, ino, size, path, flags);
	return ft_writer_append(w, &buf, err);
}

const struct ft_hdr *ft_file_build(union ft_file_buf *buf, __u64 ts, __u32 dev, __u64 ino,
				   __u64 size, const char *path, __u16 flags)
{
	struct ft_file *f = &buf->file;
	size_t len = path ? strlen(path) : 0;

	if (len > FT_FILE_PATH_MAX)
		len = FT_FILE_PATH_MAX;	/* PATH_MAX: longer paths are cut, never refused */
	memset(buf, 0, sizeof(*f) + round8(len));
	*f = (struct ft_file){ .hdr = { .type = FT_FILE, .ts = ts,
					.size = (__u16)(sizeof(*f) + round8(len)) },
			       .ino = ino, .size = size, .dev = dev, .flags = flags,
			       .path_len = (__u16)len };
	if (len)
		memcpy(buf->bytes + sizeof(*f), path, len);
	return &f->hdr;
}

#define SC_RANGES_PER_RECORD \
	((FT_RECORD_MAX - sizeof(struct ft_start_cache)) / sizeof(struct ft_page_range))

/*
 * A record of size bytes (its nranges field at *nranges) followed by ranges, as many records
 * as the ranges need (at least one); both start records are laid out alike.
 */
static int append_ranged(struct ft_writer *w, void *rec, size_t size, __u16 *nranges,
			 const struct ft_page_range *ranges, size_t total, struct ft_error *err)
{
	size_t done = 0;

	do {
		size_t n = total - done < SC_RANGES_PER_RECORD ? total - done : SC_RANGES_PER_RECORD;

		*nranges = (__u16)n;
		if (append_with_tail(w, rec, size, ranges + done, n * sizeof(*ranges), err))
			return -1;
		done += n;
	} while (done < total);
	return 0;
}

int ft_writer_start_cache(struct ft_writer *w, const struct ft_start_cache *sc,
			  const struct ft_page_range *ranges, size_t nranges, struct ft_error *err)
{
	struct ft_start_cache r = *sc;

	r.hdr.type = FT_START_CACHE;
	return append_ranged(w, &r, sizeof(r), &r.nranges, ranges, nranges, err);
}

int ft_writer_start_shadows(struct ft_writer *w, const struct ft_start_shadows *ss,
			    const struct ft_page_range *ranges, size_t nranges,
			    struct ft_error *err)
{
	struct ft_start_shadows r = *ss;

	r.hdr.type = FT_START_SHADOWS;
	return append_ranged(w, &r, sizeof(r), &r.nranges, ranges, nranges, err);
}

int ft_writer_cgroup(struct ft_writer *w, __u64 ts, __u64 id, __u16 flags, const char *path,
		     struct ft_error *err)
{
	struct ft_cgroup c = { .hdr = { .type = FT_CGROUP, .ts = ts }, .id = id, .flags = flags };
	size_t len = strlen(path);

	if (len > 4096)
		len = 4096;	/* as ft_writer_file */
	c.path_len = (__u16)len;
	return append_with_tail(w, &c, sizeof(c), path, len, err);
}

int ft_writer_counter_names(struct ft_writer *w, __u64 ts, __u16 source, __u16 count,
			    const char *const *names, struct ft_error *err)
{
	struct ft_counter_names n = { .hdr = { .type = FT_COUNTER_NAMES, .ts = ts },
				      .source = source, .count = count };
	char buf[FT_RECORD_MAX];
	size_t len = 0;

	for (unsigned i = 0; i < count; i++) {
		size_t l = strlen(names[i]) + 1;

		if (sizeof(n) + len + l > sizeof(buf))
			return ft_error_set(err, w->name, "too many counter names for one record");
		memcpy(buf + len, names[i], l);
		len += l;
	}
	n.names_len = (__u32)len;
	return append_with_tail(w, &n, sizeof(n), buf, len, err);
}

int ft_writer_counters(struct ft_writer *w, __u64 ts, __u16 source, __u16 count,
		       const __u64 *values, struct ft_error *err)
{
	struct ft_counters c = { .hdr = { .type = FT_COUNTERS, .ts = ts },
				 .source = source, .count = count };

	return append_with_tail(w, &c, sizeof(c), values, (size_t)count * sizeof(*values), err);
}

int ft_writer_host(struct ft_writer *w, const struct ft_host *host,
		   const struct ft_host_dev *devs, struct ft_error *err)
{
	struct ft_host h = *host;

	h.hdr.type = FT_HOST;
	h.release[FT_RELEASE_LEN - 1] = '\0';
	h.hostname[FT_RELEASE_LEN - 1] = '\0';
	return append_with_tail(w, &h, sizeof(h), devs, (size_t)h.ndevs * sizeof(*devs), err);
}

void ft_writer_stats(const struct ft_writer *w, struct ft_writer_stats *st)
{
	if (w->bg)
		pthread_mutex_lock(&w->bg->lock);
	*st = w->st;
	st->stored_bytes = w->good_offset;
	if (w->bg)
		pthread_mutex_unlock(&w->bg->lock);
}

static void writer_free(struct ft_writer *w)
{
	free(w->raw);
	free(w->packed);
	free(w->out);
	free(w->name);
	ft_deflater_free(w->def);
	free(w);
}

int ft_writer_close(struct ft_writer *w, struct ft_error *err)
{
	struct ft_end end = { .hdr = { .type = FT_END, .size = sizeof(end) } };
	int ret = 0;

	end.hdr.ts = w->last_ts;
	end.events = w->st.events;
	end.lost = w->st.lost;
	if (ft_writer_append(w, &end, err) || ft_writer_flush(w, err) || bg_stop(w, err))
		ret = -1;
	bg_stop(w, NULL);	/* after an error above: the file as far as it got */
	if (!ret && w->regular && fsync(w->fd) < 0)
		ret = ft_error_set(err, w->name, "fsync failed: %s", strerror(errno));
	if (close(w->fd) < 0 && !ret)
		ret = ft_error_set(err, w->name, "close failed: %s", strerror(errno));
	/* only a whole trace takes the target's name */
	if (w->own_output) {
		if (ret)
			ft_output_abort(&w->output, w->st.chunks > 0);
		else if (ft_output_commit(&w->output, err))
			ret = -1;
	}
	writer_free(w);
	return ret;
}

int ft_writer_place(struct ft_writer *w, struct ft_error *err)
{
	if (!w->own_output || !ft_output_is_temp(&w->output))
		return 0;
	if (ft_output_place(&w->output, err)) {
		w->own_output = false;	/* released: nothing left of it to remove */
		return -1;
	}
	return 0;
}

void ft_writer_abort(struct ft_writer *w)
{
	bg_stop(w, NULL);
	close(w->fd);
	/* a trace made in place (record) stays when it holds a whole chunk: it reads as cut */
	if (w->own_output)
		ft_output_abort(&w->output, w->st.chunks > 0);
	writer_free(w);
}
