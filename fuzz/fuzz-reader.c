// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer target for the trace reader (./configure --enable-fuzz; make fuzz).
 *
 * Two ways to read an input, so mutations reach both the container and the records:
 *  - it starts with "FOLIO", the start of the trace magic: the input is a whole .ftr file,
 *    read as is. This finds what a cut or damaged file does to the header and chunk checks.
 *  - anything else is a list of chunk payloads, each "u16 little-endian length, raw record
 *    bytes"; the harness adds a valid file header and compresses and checksums each payload
 *    itself. Without this, nearly every mutation of a record would die at the chunk's
 *    checksum and the record checks would never be fuzzed. Here the harness also knows
 *    where each record is, so every record returned must be the next one of the input,
 *    byte for byte: nothing skipped, invented or misaligned.
 *    A length with the top bit set ("u16 0x8000|len, u16 raw_size, len stored bytes") is
 *    a chunk whose compressed bytes come from the input as they are, checksummed by the
 *    harness: that fuzzes the inflate step behind the checksum. The records of such a chunk
 *    are not known in advance, so the byte-for-byte check stops there.
 *    A length with bit 14 set ("u16 0x4000|len, len bytes") is a packed chunk's items
 *    (trace/pack.h), compressed and checksummed by the harness: that fuzzes the expansion.
 *    Its records are not known in advance either.
 *
 * The reader is fed through a memfd opened as /proc/self/fd/N, as a file argument would be.
 * Every record returned is read in full (paths, names, values, devices) so an accessor that
 * runs past the record trips ASan, and the status must agree with what was returned.
 *
 * FT_FUZZ_WRITE_TRACE=PATH: also write the file the reader was given to PATH, to turn a
 * structured crash input into a plain trace for fuzz/regress/.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

#include "trace/pack.h"
#include "trace/trace.h"

#define FUZZ_MAX_CHUNKS	64
#define RAW_MODE_PREFIX	"FOLIO"
#define FRAME_STORED	0x8000u		/* frame holds compressed bytes, not records */
#define FRAME_PACKED	0x4000u		/* frame holds a packed chunk's items */

/* Where the structured input's chunk payloads are: the records the reader must return. */
struct payloads {
	const unsigned char *p[FUZZ_MAX_CHUNKS];
	size_t len[FUZZ_MAX_CHUNKS];
	unsigned n;		/* payloads of known records, before any stored frame */
	bool opaque;		/* a stored frame followed: records past n are not known */
	unsigned cur;		/* payload the next record comes from */
	size_t off;		/* its offset there */
};

struct byte_buf {
	unsigned char *p;
	size_t len, cap;
};

static void die(const char *what)
{
	fprintf(stderr, "fuzz-reader: %s\n", what);
	abort();
}

static void buf_put(struct byte_buf *b, const void *p, size_t len)
{
	if (b->len + len > b->cap) {
		size_t cap = (b->len + len) * 2;

		b->p = realloc(b->p, cap);
		if (!b->p)
			die("out of memory");
		b->cap = cap;
	}
	memcpy(b->p + b->len, p, len);
	b->len += len;
}

static void put_file_header(struct byte_buf *b)
{
	struct ft_file_header fh = { .version_major = FT_VERSION_MAJOR,
				     .version_minor = FT_VERSION_MINOR,
				     .header_size = sizeof(fh), .flags = FT_FILE_PACKED };

	memcpy(fh.magic, FT_MAGIC, FT_MAGIC_LEN);
	buf_put(b, &fh, sizeof(fh));
}

/*
 * The record count a writer puts in a chunk header for these raw bytes: the records their
 * sizes tile. Where the sizes do not tile, the reader stops at the bad record anyway.
 */
static __u32 tiled_records(const unsigned char *raw, size_t len)
{
	__u32 n = 0;

	for (size_t pos = 0; len - pos >= sizeof(struct ft_hdr); n++) {
		__u16 size = (__u16)(raw[pos + 2] | raw[pos + 3] << 8);

		if (size < sizeof(struct ft_hdr) || size > len - pos)
			break;
		pos += size;
	}
	return n;
}

/* The records packed items expand to, as the writer would count them (0: malformed). */
static __u32 packed_records(const unsigned char *items, size_t len)
{
	static unsigned char out[64 << 10];
	struct ft_unpacker u;
	const char *why;
	__u32 n = 0;

	ft_unpack_start(&u, items, len);
	while (!ft_unpack_done(&u)) {
		long got = ft_unpack_some(&u, out, sizeof(out), sizeof(out), &why);

		if (got <= 0)
			return 0;
		n += tiled_records(out, (size_t)got);
	}
	return n;
}

/* A chunk header with a right checksum and record count, then the stored bytes. */
static void put_stored_chunk(struct byte_buf *b, const unsigned char *z, size_t stored,
			     size_t raw_size, __u32 nrecords, __u32 flags)
{
	struct ft_chunk_header ch = { .magic = FT_CHUNK_MAGIC, .flags = flags };

	ch.stored_size = (__u32)stored;
	ch.raw_size = (__u32)raw_size;
	ch.crc32 = (__u32)crc32(0L, z, (uInt)stored);
	ch.nrecords = nrecords;
	buf_put(b, &ch, sizeof(ch));
	buf_put(b, z, stored);
}

/* One valid chunk around raw record bytes, or packed items (flags FT_CHUNK_PACKED). */
static void put_chunk(struct byte_buf *b, const unsigned char *raw, size_t len, __u32 flags)
{
	uLongf stored = compressBound(len);
	unsigned char *z = malloc(stored);

	if (!z)
		die("out of memory");
	if (compress2(z, &stored, raw, len, 1) != Z_OK)
		die("compress2 failed");
	put_stored_chunk(b, z, stored, len,
			 flags ? packed_records(raw, len) : tiled_records(raw, len), flags);
	free(z);
}

/* The record count of compressed bytes from the input: what they inflate to, if they do. */
static __u32 stored_records(const unsigned char *z, size_t stored, size_t raw_size)
{
	unsigned char *raw = malloc(raw_size ? raw_size : 1);
	uLongf got = raw_size;
	__u32 n = 0;

	if (!raw)
		die("out of memory");
	if (uncompress(raw, &got, z, stored) == Z_OK)
		n = tiled_records(raw, got);
	free(raw);
	return n;
}

/* Structured input -> a trace whose chunks are all valid containers. */
static void build_trace(struct byte_buf *b, struct payloads *pl, const unsigned char *data,
			size_t size)
{
	unsigned frames = 0;

	put_file_header(b);
	while (size >= 2 && frames++ < FUZZ_MAX_CHUNKS) {
		size_t len = (size_t)data[0] | (size_t)data[1] << 8, raw_size = 0;
		bool stored = len & FRAME_STORED, packed = !stored && (len & FRAME_PACKED);

		data += 2;
		size -= 2;
		if (stored) {
			if (size < 2)
				break;
			len &= ~(size_t)FRAME_STORED;
			raw_size = (size_t)data[0] | (size_t)data[1] << 8;
			data += 2;
			size -= 2;
		}
		if (packed)
			len &= ~(size_t)FRAME_PACKED;
		if (len > size)
			len = size;
		if (packed) {
			put_chunk(b, data, len, FT_CHUNK_PACKED);
			pl->opaque = true;
		} else if (stored) {
			put_stored_chunk(b, data, len, raw_size,
					 stored_records(data, len, raw_size), 0);
			pl->opaque = true;
		} else {
			put_chunk(b, data, len, 0);
			if (!pl->opaque) {
				pl->p[pl->n] = data;
				pl->len[pl->n++] = len;
			}
		}
		data += len;
		size -= len;
	}
}

/* The record returned must be the next one in the payloads (chunks hold whole records). */
static void check_next_record(struct payloads *pl, const struct ft_hdr *h)
{
	while (pl->cur < pl->n && pl->off >= pl->len[pl->cur]) {
		pl->cur++;
		pl->off = 0;
	}
	if (pl->cur == pl->n) {
		if (pl->opaque)
			return;
		die("a record beyond the input");
	}
	if (h->size > pl->len[pl->cur] - pl->off ||
	    memcmp(h, pl->p[pl->cur] + pl->off, h->size) != 0)
		die("the record returned is not the next one of the input");
	pl->off += h->size;
}

static int trace_memfd(const unsigned char *data, size_t size)
{
	int fd = memfd_create("fuzz-trace", MFD_CLOEXEC);

	if (fd < 0)
		die("memfd_create failed");
	while (size) {
		ssize_t n = write(fd, data, size);

		if (n <= 0)
			die("memfd write failed");
		data += n;
		size -= (size_t)n;
	}
	return fd;
}

static void save_trace(const unsigned char *data, size_t size)
{
	const char *path = getenv("FT_FUZZ_WRITE_TRACE");
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		die("cannot write FT_FUZZ_WRITE_TRACE");
}

/* Reads every byte a consumer may read; returns a value so the reads are not optimised out. */
static unsigned long touch_record(const struct ft_hdr *h)
{
	unsigned long sum = strlen(ft_type_name(h->type));

	switch (h->type) {
	case FT_FILE: {
		const struct ft_file *f = (const void *)h;

		for (unsigned i = 0; i < f->path_len; i++)
			sum += (unsigned char)ft_file_path(f)[i];
		break;
	}
	case FT_COUNTER_NAMES: {
		const struct ft_counter_names *n = (const void *)h;
		const char *name = ft_counter_names_first(n);

		for (unsigned i = 0; i < n->count; i++) {
			size_t len = strlen(name);

			sum += len;
			name += len + 1;
		}
		break;
	}
	case FT_COUNTERS: {
		const struct ft_counters *c = (const void *)h;

		for (unsigned i = 0; i < c->count; i++)
			sum += ft_counters_values(c)[i];
		break;
	}
	case FT_HOST: {
		const struct ft_host *ho = (const void *)h;

		sum += strlen(ho->release) + strlen(ho->hostname);
		for (unsigned i = 0; i < ho->ndevs; i++)
			sum += strlen(ft_host_devs(ho)[i].fstype) + strlen(ft_host_devs(ho)[i].name);
		break;
	}
	case FT_ACCESS:
		sum += strlen(ft_op_name(((const struct ft_access *)h)->op));
		break;
	default:
		break;
	}
	/* The whole record is the caller's to read. */
	for (unsigned i = 0; i < h->size; i++)
		sum += ((const unsigned char *)h)[i];
	return sum;
}

/* What the reader promises about its status once the data ends. */
static void check_status(struct ft_reader *r, __u64 records, size_t file_size, int end)
{
	struct ft_reader_status st;

	ft_reader_status(r, &st);
	if (end == FT_READ_ERROR)
		return;		/* an I/O error: no promise about the rest */
	if (st.records != records)
		die("status counts other records than were returned");
	if (st.good_bytes > file_size || st.bytes > file_size)
		die("status points past the end of the file");
	if (st.good_bytes > st.bytes)
		die("readable data ends after the bytes consumed");
	if (st.clean_end && st.truncated)
		die("clean end and truncated at once");
	if (st.truncated && !st.why[0])
		die("truncated without saying why");
	if (!st.truncated && st.good_bytes != file_size)
		die("not truncated, yet the file has unread bytes");
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size)
{
	struct byte_buf trace = { 0 };
	struct payloads pl = { .n = 0 };
	bool structured = false;
	const unsigned char *file = data;
	size_t file_size = size;
	const struct ft_hdr *h;
	struct ft_reader *r;
	struct ft_error err;
	char path[64];
	__u64 records = 0;
	volatile unsigned long sink = 0;
	int fd, ret;

	if (size < strlen(RAW_MODE_PREFIX) ||
	    memcmp(data, RAW_MODE_PREFIX, strlen(RAW_MODE_PREFIX)) != 0) {
		structured = true;
		build_trace(&trace, &pl, data, size);
		file = trace.p;
		file_size = trace.len;
	}
	err.msg[0] = '\0';
	save_trace(file, file_size);
	fd = trace_memfd(file, file_size);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	r = ft_reader_open(path, &err);
	if (r) {
		while ((ret = ft_reader_next(r, &h, &err)) == FT_READ_MORE) {
			sink += touch_record(h);
			if (structured)
				check_next_record(&pl, h);
			records++;
		}
		check_status(r, records, file_size, ret);
		if (ret == FT_READ_EOF && ft_reader_next(r, &h, &err) != FT_READ_EOF)
			die("reader goes on after its end");
		ft_reader_close(r);
	} else if (!err.msg[0]) {
		die("open failed without a message");
	}
	close(fd);
	free(trace.p);
	(void)sink;
	return 0;
}
