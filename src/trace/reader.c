/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Streaming trace reader: one chunk in memory at a time, whatever the trace length.
 * Damage (a cut file, a bad chunk, a malformed record) ends the readable data there; the
 * status then says where and why, and everything before it has been returned.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

#include "trace/deflate.h"
#include "trace/inflate.h"
#include "trace/pack.h"
#include "trace/trace.h"
#include "util/msg.h"
#include "util/progress.h"

/*
 * Records a packed chunk expands into at a time: about UNPACK_WANT bytes, which stay in the
 * CPU's first-level cache until they are read, in a buffer with room for the largest record.
 */
#define UNPACK_WANT	(8u << 10)
#define UNPACK_WINDOW	(UNPACK_WANT + FT_RECORD_MAX + 8)

struct ft_reader {
	int fd;
	char *name;
	unsigned char *raw;	/* inflated records of the current chunk */
	size_t raw_cap, raw_len, pos;
	unsigned char *packed;	/* a packed chunk's items (trace/pack.h), inflated */
	size_t packed_cap;
	/*
	 * A packed chunk expands into raw a window at a time as it is read: records written and
	 * read again while in the CPU's caches, where a whole chunk of them would not be.
	 */
	struct ft_unpacker unpack;
	bool unpacking;		/* items of the current chunk are left in unpack */
	size_t window_start;	/* offset in the chunk's records of the window in raw */
	__u64 chunk_records;	/* st.records when the chunk was loaded */
	__u32 chunk_nrecords;	/* what its header says it holds */
	unsigned char *stored;	/* compressed bytes of the current chunk */
	size_t stored_cap;
	__u64 chunk_start;	/* file offset of the current chunk */
	size_t rec_pos;		/* offset of the last record returned in the chunk */
	struct ft_inflater *inflater;
	bool done;
	bool packed_chunks;	/* FT_FILE_PACKED: its chunks may be packed */
	struct ft_reader_status st;
	struct ft_progress *progress;	/* shown at each chunk, or NULL */
};

/* Reads up to len bytes; returns bytes read (short only at end of file) or -1. */
static ssize_t read_full(int fd, void *buf, size_t len)
{
	unsigned char *p = buf;
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, p + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	return (ssize_t)got;
}

/* Ends the readable data: everything after good_bytes is not returned. */
static void mark_damaged(struct ft_reader *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void mark_damaged(struct ft_reader *r, const char *fmt, ...)
{
	va_list ap;

	r->done = true;
	r->st.truncated = true;
	r->st.clean_end = false;
	r->st.good_bytes = r->st.bytes;
	va_start(ap, fmt);
	vsnprintf(r->st.why, sizeof(r->st.why), fmt, ap);
	va_end(ap);
}

static void reader_free(struct ft_reader *r)
{
	ft_inflater_free(r->inflater);
	if (r->fd > STDIN_FILENO)
		close(r->fd);
	free(r->raw);
	free(r->packed);
	free(r->stored);
	free(r->name);
	free(r);
}

struct ft_reader *ft_reader_open(const char *path, struct ft_error *err)
{
	struct ft_file_header fh;
	struct ft_reader *r;
	ssize_t n;

	r = calloc(1, sizeof(*r));
	if (!r || !(r->name = strdup(path))) {
		ft_error_set(err, path, "out of memory");
		free(r);
		return NULL;
	}
	r->fd = -1;
	r->inflater = ft_inflater_new(FT_INFLATE_BEST);
	if (!r->inflater) {
		ft_error_set(err, path, "out of memory");
		goto fail;
	}
	if (strcmp(path, "-") == 0) {
		r->fd = STDIN_FILENO;
	} else {
		r->fd = open(path, O_RDONLY | O_CLOEXEC);
		if (r->fd < 0) {
			ft_error_set(err, path, "cannot open: %s", strerror(errno));
			r->fd = -1;
			goto fail;
		}
	}
	n = read_full(r->fd, &fh, sizeof(fh));
	if (n < 0) {
		ft_error_set(err, path, "cannot read: %s", strerror(errno));
		goto fail;
	}
	if ((size_t)n < FT_MAGIC_LEN || memcmp(fh.magic, FT_MAGIC, FT_MAGIC_LEN) != 0) {
		ft_error_set(err, path, "not a folio-trace file (no %s magic)", FT_MAGIC);
		goto fail;
	}
	if ((size_t)n < sizeof(fh)) {
		ft_error_set(err, path, "file header cut short (%zd of %zu bytes)", n, sizeof(fh));
		goto fail;
	}
	if (fh.version_major != FT_VERSION_MAJOR) {
		ft_error_set(err, path, "trace format version %u.%u is %s than this folio-trace "
			  "reads (%u.x)", fh.version_major, fh.version_minor,
			  fh.version_major > FT_VERSION_MAJOR ? "newer" : "older",
			  FT_VERSION_MAJOR);
		goto fail;
	}
	if (fh.flags & ~FT_FILE_PACKED) {
		/* flags would announce something every reader must know to read the file */
		ft_error_set(err, path, "trace uses features this folio-trace does not know "
			     "(file flags 0x%llx)", (unsigned long long)fh.flags);
		goto fail;
	}
	if (fh.header_size < sizeof(fh) || fh.header_size > 4096) {
		ft_error_set(err, path, "bad file header size %u", fh.header_size);
		goto fail;
	}
	/* A newer minor version may grow the header: skip what we do not know. */
	for (size_t skip = fh.header_size - sizeof(fh); skip;) {
		unsigned char buf[256];
		size_t want = skip < sizeof(buf) ? skip : sizeof(buf);

		if (read_full(r->fd, buf, want) != (ssize_t)want) {
			ft_error_set(err, path, "file header cut short");
			goto fail;
		}
		skip -= want;
	}
	r->st.version_major = fh.version_major;
	r->st.version_minor = fh.version_minor;
	r->st.created_realtime_ns = fh.created_realtime_ns;
	r->packed_chunks = fh.flags & FT_FILE_PACKED;
	r->st.bytes = fh.header_size;
	r->st.good_bytes = fh.header_size;
	return r;
fail:
	reader_free(r);
	return NULL;
}

void ft_reader_close(struct ft_reader *r)
{
	if (r)
		reader_free(r);
}

static bool grow(unsigned char **buf, size_t *cap, size_t need)
{
	unsigned char *p;

	if (need <= *cap)
		return true;
	p = realloc(*buf, need);
	if (!p)
		return false;
	*buf = p;
	*cap = need;
	return true;
}

/*
 * Records in raw[0..len) by their sizes, when those tile the chunk exactly; -1 when a size is
 * impossible (the record checks of ft_reader_next() then say where).
 */
static int64_t count_records(const unsigned char *raw, size_t len)
{
	int64_t n = 0;
	size_t pos = 0;

	while (len - pos >= sizeof(struct ft_hdr)) {
		const struct ft_hdr *h = (const struct ft_hdr *)(raw + pos);

		if (h->size < sizeof(*h) || h->size % 8 || h->size > len - pos)
			return -1;
		pos += h->size;
		n++;
	}
	return pos == len ? n : -1;
}

/* Loads the next chunk. Returns 1 loaded, 0 no more data (done set), -1 I/O error. */
static int load_chunk(struct ft_reader *r, struct ft_error *err)
{
	struct ft_chunk_header ch;
	size_t raw_len;
	int64_t nrec;
	bool packed;
	ssize_t n;

	n = read_full(r->fd, &ch, sizeof(ch));
	if (n < 0)
		goto io_error;
	if (n == 0) {
		r->done = true;
		if (!r->st.clean_end) {
			r->st.truncated = true;
			snprintf(r->st.why, sizeof(r->st.why),
				 "no end record: the recording was cut short");
		}
		return 0;
	}
	if ((size_t)n < sizeof(ch)) {
		mark_damaged(r, "chunk %llu header cut short (%zd of %zu bytes)",
			     (unsigned long long)r->st.chunks, n, sizeof(ch));
		return 0;
	}
	if (ch.magic != FT_CHUNK_MAGIC) {
		mark_damaged(r, "chunk %llu has a bad magic", (unsigned long long)r->st.chunks);
		return 0;
	}
	if (ch.flags & ~(r->packed_chunks ? FT_CHUNK_PACKED : 0)) {
		mark_damaged(r, "chunk %llu has flags 0x%x this folio-trace does not know",
			     (unsigned long long)r->st.chunks, ch.flags);
		return 0;
	}
	if (ch.raw_size > FT_CHUNK_RAW_MAX || ch.stored_size > compressBound(FT_CHUNK_RAW_MAX) ||
	    ch.stored_size == 0) {
		mark_damaged(r, "chunk %llu has impossible sizes (%u stored, %u raw)",
			     (unsigned long long)r->st.chunks, ch.stored_size, ch.raw_size);
		return 0;
	}
	packed = ch.flags & FT_CHUNK_PACKED;
	if (!grow(&r->stored, &r->stored_cap, ch.stored_size) ||
	    !grow(&r->raw, &r->raw_cap, packed ? UNPACK_WINDOW : ch.raw_size ? ch.raw_size : 1) ||
	    (packed && !grow(&r->packed, &r->packed_cap, ch.raw_size ? ch.raw_size : 1))) {
		ft_error_set(err, r->name, "out of memory");
		return -1;
	}
	n = read_full(r->fd, r->stored, ch.stored_size);
	if (n < 0)
		goto io_error;
	if ((size_t)n < ch.stored_size) {
		mark_damaged(r, "chunk %llu cut short (%zd of %u bytes)",
			     (unsigned long long)r->st.chunks, n, ch.stored_size);
		return 0;
	}
	if (ft_deflate_crc32(r->stored, ch.stored_size) != ch.crc32) {
		mark_damaged(r, "chunk %llu fails its checksum", (unsigned long long)r->st.chunks);
		return 0;
	}
	raw_len = ch.raw_size;
	if (!ft_inflate(r->inflater, r->stored, ch.stored_size, packed ? r->packed : r->raw,
			ch.raw_size)) {
		mark_damaged(r, "chunk %llu does not decompress", (unsigned long long)r->st.chunks);
		return 0;
	}
	r->window_start = 0;
	if (packed) {
		/* its records come a window at a time; their count is checked at its end */
		ft_unpack_start(&r->unpack, r->packed, ch.raw_size);
		r->unpacking = true;
		r->chunk_records = r->st.records;
		r->chunk_nrecords = ch.nrecords;
		raw_len = 0;
	}
	/*
	 * The count is the one cross-check of the header fields the checksum does not cover
	 * (a packed chunk's is made at its end, unpack_window())
	 */
	nrec = packed ? -1 : count_records(r->raw, raw_len);
	if (nrec >= 0 && nrec != ch.nrecords) {
		mark_damaged(r, "chunk %llu holds %lld records, its header says %u",
			     (unsigned long long)r->st.chunks, (long long)nrec, ch.nrecords);
		return 0;
	}
	r->raw_len = raw_len;
	r->pos = 0;
	r->chunk_start = r->st.bytes;
	r->st.chunks++;
	r->st.bytes += sizeof(ch) + ch.stored_size;
	r->st.good_bytes = r->st.bytes;
	if (r->progress)
		ft_progress_update(r->progress, r->st.bytes, r->st.records);
	return 1;
io_error:
	ft_error_set(err, r->name, "read error: %s", strerror(errno));
	return -1;
}

/*
 * The next window of a packed chunk's records, or at its end the check of their count.
 * Returns 1 (the chunk's records so far were returned whatever follows).
 */
static int unpack_window(struct ft_reader *r)
{
	const char *why = NULL;
	long n;

	if (ft_unpack_done(&r->unpack)) {
		__u64 got = r->st.records - r->chunk_records;

		r->unpacking = false;
		if (got != r->chunk_nrecords) {
			mark_damaged(r, "chunk %llu holds %llu records, its header says %u",
				     (unsigned long long)r->st.chunks - 1, (unsigned long long)got,
				     r->chunk_nrecords);
			r->st.good_bytes = r->chunk_start;
		}
		return 1;
	}
	n = ft_unpack_some(&r->unpack, r->raw, UNPACK_WANT, UNPACK_WINDOW, &why);
	if (n <= 0) {
		mark_damaged(r, "chunk %llu has %s", (unsigned long long)r->st.chunks - 1,
			     n < 0 ? why : "a record larger than a window");
		r->st.good_bytes = r->chunk_start;
		return 1;
	}
	r->window_start += r->raw_len;
	r->raw_len = (size_t)n;
	r->pos = 0;
	return 1;
}

/* Variable parts within the record, strings terminated: NULL if fine, else what is wrong. */
static const char *check_variable_part(const struct ft_hdr *h)
{
	switch (h->type) {
	case FT_FILE: {
		const struct ft_file *f = (const void *)h;

		return sizeof(*f) + f->path_len > h->size ? "path past the record" : NULL;
	}
	case FT_START_CACHE: {
		const struct ft_start_cache *sc = (const void *)h;

		return sizeof(*sc) + (size_t)sc->nranges * sizeof(struct ft_page_range) > h->size ?
		       "ranges past the record" : NULL;
	}
	case FT_START_SHADOWS: {
		const struct ft_start_shadows *ss = (const void *)h;

		return sizeof(*ss) + (size_t)ss->nranges * sizeof(struct ft_page_range) > h->size ?
		       "ranges past the record" : NULL;
	}
	case FT_CGROUP: {
		const struct ft_cgroup *c = (const void *)h;

		return sizeof(*c) + c->path_len > h->size ? "path past the record" : NULL;
	}
	case FT_COUNTER_NAMES: {
		const struct ft_counter_names *n = (const void *)h;
		const char *p = ft_counter_names_first(n);
		unsigned nuls = 0;

		if (sizeof(*n) + (size_t)n->names_len > h->size)
			return "names past the record";
		for (__u32 i = 0; i < n->names_len; i++)
			nuls += p[i] == '\0';
		if (nuls != n->count || (n->names_len && p[n->names_len - 1] != '\0'))
			return "name count does not match";
		return NULL;
	}
	case FT_COUNTERS: {
		const struct ft_counters *c = (const void *)h;

		return sizeof(*c) + (size_t)c->count * 8 > h->size ? "values past the record"
								   : NULL;
	}
	case FT_HOST: {
		const struct ft_host *ho = (const void *)h;

		if (sizeof(*ho) + (size_t)ho->ndevs * sizeof(struct ft_host_dev) > h->size)
			return "devices past the record";
		if (!memchr(ho->release, 0, sizeof(ho->release)) ||
		    !memchr(ho->hostname, 0, sizeof(ho->hostname)))
			return "unterminated host strings";
		for (__u32 i = 0; i < ho->ndevs; i++) {
			const struct ft_host_dev *d = &ft_host_devs(ho)[i];

			if (!memchr(d->fstype, 0, sizeof(d->fstype)) ||
			    !memchr(d->name, 0, sizeof(d->name)))
				return "unterminated device strings";
		}
		return NULL;
	}
	default:
		return NULL;
	}
}

/* Returns h, the record at pos, and moves past it. */
static inline int take_record(struct ft_reader *r, const struct ft_hdr *h,
			      const struct ft_hdr **rec)
{
	r->rec_pos = r->pos;
	r->pos += h->size;
	r->st.records++;
	/* An end record counts only as the very last thing in the file. */
	r->st.clean_end = h->type == FT_END;
	*rec = h;
	return FT_READ_MORE;
}

static __attribute__((noinline)) int
reader_next_checked(struct ft_reader *r, const struct ft_hdr **rec, struct ft_error *err)
{
	const struct ft_hdr *h;
	const char *bad;
	size_t min;

	while (!r->done && r->pos >= r->raw_len) {
		int ret = r->unpacking ? unpack_window(r) : load_chunk(r, err);

		if (ret < 0)
			return FT_READ_ERROR;
	}
	if (r->done)
		return FT_READ_EOF;
	if (r->raw_len - r->pos < sizeof(*h)) {
		mark_damaged(r, "chunk %llu ends inside a record", (unsigned long long)r->st.chunks - 1);
		r->st.good_bytes = r->chunk_start;
		return FT_READ_EOF;
	}
	h = (const struct ft_hdr *)(r->raw + r->pos);
	min = ft_record_min_size(h->type);
	if (h->size < sizeof(*h) || h->size % 8 || h->size > r->raw_len - r->pos ||
	    h->size < min || (bad = check_variable_part(h))) {
		mark_damaged(r, "chunk %llu holds a malformed %s record",
			     (unsigned long long)r->st.chunks - 1, ft_type_name(h->type));
		/* The chunk's earlier records were returned; its later ones are not trusted. */
		r->st.good_bytes = r->chunk_start;
		return FT_READ_EOF;
	}
	return take_record(r, h, rec);
}

/*
 * Most records are accesses of the full size in the chunk loaded: nothing to check beyond
 * that (an access has no variable part), so they are returned here, a call the compiler can
 * inline; every other case takes the checks above.
 */
int ft_reader_next(struct ft_reader *r, const struct ft_hdr **rec, struct ft_error *err)
{
	const struct ft_hdr *h;

	/* pos never passes raw_len */
	if (r->done || r->raw_len - r->pos < sizeof(struct ft_access))
		return reader_next_checked(r, rec, err);
	h = (const struct ft_hdr *)(r->raw + r->pos);
	if (h->type != FT_ACCESS || h->size != sizeof(struct ft_access))
		return reader_next_checked(r, rec, err);
	return take_record(r, h, rec);
}

void ft_reader_progress(struct ft_reader *r, struct ft_progress *p, const char *what, bool quiet)
{
	ft_progress_start(p, what, "records", ft_progress_file_size(r->fd), quiet);
	r->progress = p;
}

void ft_reader_status(const struct ft_reader *r, struct ft_reader_status *st)
{
	*st = r->st;
}

const char *ft_reader_where(const struct ft_reader *r, char *buf, size_t len)
{
	snprintf(buf, len, "record %llu (byte %zu of chunk %llu at file byte %llu)",
		 (unsigned long long)r->st.records, r->window_start + r->rec_pos,
		 (unsigned long long)r->st.chunks - 1, (unsigned long long)r->chunk_start);
	return buf;
}

int ft_reader_report_end(const struct ft_reader *r)
{
	if (!r->st.truncated)
		return 0;
	ft_warn("%s: trace incomplete at byte %llu: %s; results cover the %llu records before it",
		r->name, (unsigned long long)r->st.good_bytes, r->st.why,
		(unsigned long long)r->st.records);
	return 1;
}
