// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Writes the seed corpus of fuzz-reader into DIR: small valid traces made with the writer,
 * cut and damaged copies of them, and the structured forms fuzz-reader also takes (chunk
 * payloads of raw records, "u16 length + bytes" each, valid and with malformed records; and
 * chunks as stored, "u16 0x8000|length, u16 raw size, compressed bytes", valid and damaged
 * behind a right checksum).
 * Usage: make-corpus DIR   (make fuzz-corpus refreshes fuzz/corpus/reader/)
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "trace/trace.h"

struct blob {
	unsigned char *p;
	size_t len;
};

static void fail(const char *what, const char *detail)
{
	fprintf(stderr, "make-corpus: %s: %s\n", what, detail);
	exit(1);
}

static void check(int ret, const struct ft_error *err)
{
	if (ret)
		fail("writer", err->msg);
}

static struct blob slurp(const char *path)
{
	struct blob b = { 0 };
	FILE *f = fopen(path, "rb");
	long n;

	if (!f || fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		fail(path, "cannot read");
	b.len = (size_t)n;
	b.p = malloc(b.len + 1);
	if (!b.p || fread(b.p, 1, b.len, f) != b.len)
		fail(path, "cannot read");
	fclose(f);
	return b;
}

static void spit(const char *dir, const char *name, const void *p, size_t len)
{
	char path[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "wb");
	if (!f || fwrite(p, 1, len, f) != len || fclose(f))
		fail(path, "cannot write");
}

static struct ft_writer *open_trace(const char *dir, const char *name, struct ft_error *err)
{
	char path[4096];
	struct ft_writer *w;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	w = ft_writer_open(path, 0644, err);
	if (!w)
		fail("writer", err->msg);
	return w;
}

/* A fixed creation time, so regenerating the corpus changes no file that did not change. */
static void close_trace(struct ft_writer *w, const char *dir, const char *name,
			struct ft_error *err, bool clean)
{
	char path[4096];
	struct ft_file_header fh;
	FILE *f;

	if (clean)
		check(ft_writer_close(w, err), err);
	else
		ft_writer_abort(w);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r+b");
	if (!f || fread(&fh, sizeof(fh), 1, f) != 1)
		fail(path, "cannot reread");
	fh.created_realtime_ns = 1764720000000000000ULL;	/* 2025-12-03 00:00 UTC */
	if (fseek(f, 0, SEEK_SET) || fwrite(&fh, sizeof(fh), 1, f) != 1 || fclose(f))
		fail(path, "cannot rewrite");
}

static void write_host(struct ft_writer *w, struct ft_error *err)
{
	struct ft_host host = {
		.hdr = { .type = FT_HOST, .ts = 1000 },
		.mem_bytes = 8ULL << 30, .page_size = 4096, .ncpus = 2,
		.dirty_background_ratio = 10, .dirty_ratio = 20,
		.dirty_expire_centisecs = 3000, .dirty_writeback_centisecs = 500,
		.ndevs = 1,
	};
	struct ft_host_dev dev = { .dev = 8 << 20 | 1, .block_size = 4096 };

	strcpy(host.release, "6.12.0-fuzz");
	strcpy(host.hostname, "seed");
	strcpy(dev.fstype, "xfs");
	strcpy(dev.name, "/dev/vda1");
	check(ft_writer_host(w, &host, &dev, err), err);
}

static void write_access(struct ft_writer *w, __u64 ts, __u64 ino, __u16 op, __u64 pos,
			 __u64 len, struct ft_error *err)
{
	struct ft_access a = {
		.hdr = { .type = FT_ACCESS, .size = sizeof(a), .tid = 42, .ts = ts },
		.ino = ino, .pos = pos, .len = len, .isize = pos + len, .dev = 8 << 20 | 1,
		.op = op,
	};

	check(ft_writer_append(w, &a, err), err);
}

static void write_kernel_events(struct ft_writer *w, __u64 ts, struct ft_error *err)
{
	struct ft_folio_event fe = {
		.hdr = { .type = FT_PAGECACHE_ADD, .size = sizeof(fe), .ts = ts },
		.ino = 12, .index = 16, .pfn = 0x1234, .dev = 8 << 20 | 1, .order = 4,
	};
	struct ft_writeback wb = {
		.hdr = { .type = FT_WRITEBACK, .size = sizeof(wb), .ts = ts + 1 },
		.ino = 12, .nr_pages = 16, .dev = 8 << 20 | 1, .kind = FT_WB_WRITTEN,
	};
	struct ft_vmscan vm = {
		.hdr = { .type = FT_VMSCAN, .size = sizeof(vm), .ts = ts + 2 },
		.nr_scanned = 32, .nr_reclaimed = 30, .nr_dirty = 2, .kind = FT_VM_SHRINK_INACTIVE,
		.priority = 12,
	};
	struct ft_readahead ra = {
		.hdr = { .type = FT_READAHEAD, .size = sizeof(ra), .ts = ts + 3 },
		.ino = 12, .index = 32, .size = 32, .async_size = 16, .dev = 8 << 20 | 1,
		.kind = FT_RA_ORDER, .order = 2,
	};
	struct ft_lost lost = {
		.hdr = { .type = FT_LOST, .size = sizeof(lost), .ts = ts + 4 }, .count = 3,
	};
	struct ft_task task = {
		.hdr = { .type = FT_TASK, .size = sizeof(task), .tid = 42, .ts = ts }, .pid = 42,
	};

	strcpy(task.comm, "seed");
	check(ft_writer_append(w, &task, err), err);
	check(ft_writer_append(w, &fe, err), err);
	fe.hdr.type = FT_PAGECACHE_DELETE;
	check(ft_writer_append(w, &fe, err), err);
	fe.hdr.type = FT_FOLIO_DIRTY;
	fe.order = FT_ORDER_UNKNOWN;
	check(ft_writer_append(w, &fe, err), err);
	check(ft_writer_append(w, &wb, err), err);
	check(ft_writer_append(w, &vm, err), err);
	check(ft_writer_append(w, &ra, err), err);
	check(ft_writer_append(w, &lost, err), err);
}

static void write_counters(struct ft_writer *w, __u64 ts, struct ft_error *err)
{
	static const char *const names[] = { "nr_dirty", "nr_writeback", "pgpgout" };
	__u64 values[3] = { ts, ts * 2, ts * 3 };

	check(ft_writer_counter_names(w, ts, FT_SRC_VMSTAT, 3, names, err), err);
	check(ft_writer_counters(w, ts, FT_SRC_VMSTAT, 3, values, err), err);
	values[0]++;
	check(ft_writer_counters(w, ts + 1000, FT_SRC_VMSTAT, 3, values, err), err);
}

/* Every record type, two chunks. */
static void make_small(const char *dir, struct ft_error *err)
{
	struct ft_writer *w = open_trace(dir, "valid-small.ftr", err);

	write_host(w, err);
	check(ft_writer_file(w, 1100, 8 << 20 | 1, 12, 1 << 20, "/data/db.bin", err), err);
	check(ft_writer_file(w, 1101, 8 << 20 | 1, 13, 0, "", err), err);
	for (__u16 op = FT_OP_READ; op < FT_OP_MAX; op++)
		write_access(w, 2000 + op, 12, op, 4096ULL * op, 8192, err);
	check(ft_writer_flush(w, err), err);
	write_kernel_events(w, 3000, err);
	write_counters(w, 4000, err);
	close_trace(w, dir, "valid-small.ftr", err, true);
}

static void make_simple_traces(const char *dir, struct ft_error *err)
{
	struct ft_writer *w;

	w = open_trace(dir, "valid-empty.ftr", err);
	close_trace(w, dir, "valid-empty.ftr", err, true);

	w = open_trace(dir, "valid-counters.ftr", err);
	write_counters(w, 100, err);
	close_trace(w, dir, "valid-counters.ftr", err, true);

	/* A recording killed after a flush: no end record. */
	w = open_trace(dir, "unclosed.ftr", err);
	write_host(w, err);
	write_access(w, 10, 5, FT_OP_WRITE, 0, 100, err);
	check(ft_writer_flush(w, err), err);
	write_access(w, 11, 5, FT_OP_WRITE, 100, 100, err);
	close_trace(w, dir, "unclosed.ftr", err, false);
}

static size_t first_chunk_offset(const struct blob *b)
{
	const struct ft_file_header *fh = (const void *)b->p;

	return fh->header_size;
}

/* The checksum covers the stored bytes that follow the chunk header. */
static void rechecksum(struct ft_chunk_header *ch)
{
	ch->crc32 = (__u32)crc32(0L, (const unsigned char *)(ch + 1), ch->stored_size);
}

/* Cut and damaged copies of valid-small.ftr. */
static void make_damaged(const char *dir, const struct blob *b)
{
	size_t c0 = first_chunk_offset(b);
	unsigned char *p = malloc(b->len + 8);
	struct ft_chunk_header *ch = (void *)(p + c0);
	struct ft_file_header *fh = (void *)p;

	spit(dir, "cut-in-header.ftr", b->p, 20);
	spit(dir, "cut-in-chunk-header.ftr", b->p, c0 + 10);
	spit(dir, "cut-in-first-chunk.ftr", b->p, c0 + sizeof(*ch) + 9);
	spit(dir, "cut-in-last-chunk.ftr", b->p, b->len - 7);

#define DAMAGED(name, change)				\
	do {						\
		memcpy(p, b->p, b->len);		\
		change;					\
		spit(dir, name, p, b->len);		\
	} while (0)
	DAMAGED("bad-crc.ftr", ch->crc32 ^= 1);
	/* Damage behind a right checksum, so the inflate step itself has to notice. */
	DAMAGED("bad-zlib.ftr", (p[c0 + sizeof(*ch) + ch->stored_size / 2] ^= 0x55,
				 rechecksum(ch)));
	DAMAGED("bad-zlib-header.ftr", (p[c0 + sizeof(*ch)] ^= 0x01, rechecksum(ch)));
	DAMAGED("bad-raw-size-small.ftr", (ch->raw_size -= 8));
	DAMAGED("bad-chunk-magic.ftr", ch->magic = 0);
	DAMAGED("bad-raw-size.ftr", ch->raw_size = FT_CHUNK_RAW_MAX + 1);
	DAMAGED("bad-stored-size.ftr", ch->stored_size = 0xffffff00u);
	DAMAGED("bad-version.ftr", fh->version_major = FT_VERSION_MAJOR + 1);
	DAMAGED("bad-header-size.ftr", fh->header_size = 8);
	DAMAGED("newer-minor-header.ftr", fh->version_minor = FT_VERSION_MINOR + 1);
	/* header fields the checksum does not cover */
	DAMAGED("bad-nrecords.ftr", ch->nrecords++);
	DAMAGED("bad-chunk-flags.ftr", ch->flags = 1);
	DAMAGED("bad-file-flags.ftr", fh->flags = 2);
#undef DAMAGED
	memcpy(p, b->p, b->len);
	memcpy(p + b->len, "FTCKjunk", 8);
	spit(dir, "trailing-junk.ftr", p, b->len + 8);
	free(p);
}

/* The chunks of a trace as fuzz-reader's structured input: "u16 len + raw records" each. */
static struct blob structured_form(const struct blob *b)
{
	struct blob out = { .p = malloc(2 * b->len + 65536) };
	size_t off = first_chunk_offset(b);

	while (off + sizeof(struct ft_chunk_header) <= b->len) {
		const struct ft_chunk_header *ch = (const void *)(b->p + off);
		uLongf raw_len = ch->raw_size;

		if (raw_len > 65535)
			fail("structured form", "chunk too large for a seed");
		out.p[out.len] = (unsigned char)raw_len;
		out.p[out.len + 1] = (unsigned char)(raw_len >> 8);
		if (uncompress(out.p + out.len + 2, &raw_len, (const void *)(ch + 1),
			       ch->stored_size) != Z_OK)
			fail("structured form", "chunk does not inflate");
		out.len += 2 + raw_len;
		off += sizeof(*ch) + ch->stored_size;
	}
	return out;
}

/* First record of a type in a structured blob, or NULL. */
static struct ft_hdr *find_record(struct blob *s, __u16 type)
{
	size_t off = 0;

	while (off + 2 <= s->len) {
		size_t len = s->p[off] | (size_t)s->p[off + 1] << 8, pos = off + 2;

		while (pos + sizeof(struct ft_hdr) <= off + 2 + len) {
			struct ft_hdr *h = (void *)(s->p + pos);

			if (h->type == type)
				return h;
			pos += h->size;
		}
		off += 2 + len;
	}
	return NULL;
}

static void make_structured(const char *dir, const struct blob *small)
{
	struct blob s = structured_form(small);
	unsigned char *saved = malloc(s.len);
	struct ft_hdr *h;

	spit(dir, "rec-valid-small.bin", s.p, s.len);
	memcpy(saved, s.p, s.len);
#define MALFORMED(name, type, rec_type, change)			\
	do {							\
		memcpy(s.p, saved, s.len);			\
		h = find_record(&s, type);			\
		if (h) {					\
			rec_type *r = (void *)h;		\
			(void)r;				\
			change;					\
			spit(dir, name, s.p, s.len);		\
		}						\
	} while (0)
	MALFORMED("rec-file-path-too-long.bin", FT_FILE, struct ft_file, r->path_len = 60000);
	MALFORMED("rec-names-count.bin", FT_COUNTER_NAMES, struct ft_counter_names, r->count++);
	MALFORMED("rec-names-len.bin", FT_COUNTER_NAMES, struct ft_counter_names,
		  r->names_len = 0xfffffff0u);
	MALFORMED("rec-counters-count.bin", FT_COUNTERS, struct ft_counters, r->count = 9999);
	MALFORMED("rec-host-ndevs.bin", FT_HOST, struct ft_host, r->ndevs = 0x10000000u);
	MALFORMED("rec-host-unterminated.bin", FT_HOST, struct ft_host,
		  memset(r->release, 'x', sizeof(r->release)));
	MALFORMED("rec-size-odd.bin", FT_ACCESS, struct ft_access, r->hdr.size = 44);
	MALFORMED("rec-size-zero.bin", FT_ACCESS, struct ft_access, r->hdr.size = 0);
	MALFORMED("rec-size-short.bin", FT_ACCESS, struct ft_access, r->hdr.size = 16);
	MALFORMED("rec-unknown-type.bin", FT_TASK, struct ft_task, r->hdr.type = 63);
	MALFORMED("rec-end-early.bin", FT_ACCESS, struct ft_access, r->hdr.type = FT_END);
#undef MALFORMED
	free(saved);
	free(s.p);
}

enum stored_damage {
	STORED_AS_IS,
	STORED_FLIP_BODY,	/* a deflate byte changed */
	STORED_NO_TRAILER,	/* Adler-32 trailer cut off */
	STORED_RAW_SHORT,	/* raw size claims fewer bytes than inflate gives */
	STORED_RAW_LONG,
	STORED_DICT_FLAG,	/* zlib header asks for a preset dictionary */
};

/* The chunks of a trace in the stored structured form, the first one damaged as told. */
static void stored_form(const char *dir, const char *name, const struct blob *b,
			enum stored_damage damage)
{
	unsigned char *out = malloc(b->len + 64);
	size_t off = first_chunk_offset(b), len = 0;

	for (unsigned i = 0; off + sizeof(struct ft_chunk_header) <= b->len; i++) {
		const struct ft_chunk_header *ch = (const void *)(b->p + off);
		size_t stored = ch->stored_size, raw = ch->raw_size;
		unsigned char *z;

		if (stored > 0x7fff || raw > 0xffff)
			fail("stored form", "chunk too large for a seed");
		z = out + len + 4;
		memcpy(z, ch + 1, stored);
		if (i == 0) {
			switch (damage) {
			case STORED_AS_IS:
				break;
			case STORED_FLIP_BODY:
				z[stored / 2] ^= 0x55;
				break;
			case STORED_NO_TRAILER:
				stored -= 4;
				break;
			case STORED_RAW_SHORT:
				raw -= 8;
				break;
			case STORED_RAW_LONG:
				raw += 8;
				break;
			case STORED_DICT_FLAG:
				/* FDICT set, FCHECK fixed up so the header still passes its mod 31 */
				z[1] = (unsigned char)((z[1] | 0x20) & 0xe0);
				z[1] = (unsigned char)(z[1] + (31 - ((unsigned)z[0] << 8 | z[1]) % 31) % 31);
				break;
			}
		}
		out[len] = (unsigned char)stored;
		out[len + 1] = (unsigned char)(stored >> 8 | 0x80);
		out[len + 2] = (unsigned char)raw;
		out[len + 3] = (unsigned char)(raw >> 8);
		len += 4 + stored;
		off += sizeof(*ch) + ch->stored_size;
	}
	spit(dir, name, out, len);
	free(out);
}

static void make_stored(const char *dir, const struct blob *small)
{
	stored_form(dir, "stored-valid-small.bin", small, STORED_AS_IS);
	stored_form(dir, "stored-bad-deflate.bin", small, STORED_FLIP_BODY);
	stored_form(dir, "stored-no-trailer.bin", small, STORED_NO_TRAILER);
	stored_form(dir, "stored-raw-short.bin", small, STORED_RAW_SHORT);
	stored_form(dir, "stored-raw-long.bin", small, STORED_RAW_LONG);
	stored_form(dir, "stored-dict-flag.bin", small, STORED_DICT_FLAG);
}

int main(int argc, char **argv)
{
	struct ft_error err;
	char path[4096];
	struct blob small;

	if (argc != 2) {
		fprintf(stderr, "usage: make-corpus DIR\n");
		return 2;
	}
	make_small(argv[1], &err);
	make_simple_traces(argv[1], &err);
	snprintf(path, sizeof(path), "%s/valid-small.ftr", argv[1]);
	small = slurp(path);
	make_damaged(argv[1], &small);
	make_structured(argv[1], &small);
	make_stored(argv[1], &small);
	free(small.p);
	return 0;
}
