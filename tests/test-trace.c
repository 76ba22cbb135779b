/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Trace format: writer/reader round trip of every record type, a multi-chunk stream (written in
 * line and by the compression thread), a cut at every byte offset, damaged chunks, bad headers,
 * and a full disk.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "sample-trace.h"
#include "tap.h"
#include "trace/filewb.h"

struct blob {
	unsigned char *data;
	size_t len;
};

static char tmpdir[] = "/tmp/ft-test-trace.XXXXXX";

static void path_in_tmp(char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", tmpdir, name);
}

static struct blob read_file(const char *path)
{
	struct blob b = { 0 };
	FILE *f = fopen(path, "rb");
	long n;

	if (!f)
		return b;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	b.data = malloc((size_t)n + 1);
	b.len = fread(b.data, 1, (size_t)n, f);
	fclose(f);
	return b;
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	fwrite(data, 1, len, f);
	fclose(f);
}

/* Reads every record; copies of them go to out (if not NULL). Returns the count. */
static unsigned read_all(const char *path, struct blob *out, struct ft_reader_status *st,
			 int *last)
{
	struct ft_reader *r;
	struct ft_error err;
	const struct ft_hdr *h;
	unsigned n = 0;

	r = ft_reader_open(path, &err);
	if (!r) {
		*last = -2;
		return 0;
	}
	while ((*last = ft_reader_next(r, &h, &err)) == FT_READ_MORE) {
		if (out) {
			out->data = realloc(out->data, out->len + h->size);
			memcpy(out->data + out->len, h, h->size);
			out->len += h->size;
		}
		n++;
	}
	ft_reader_status(r, st);
	ft_reader_close(r);
	return n;
}

static void test_round_trip(const char *path)
{
	struct ft_writer_stats ws;
	struct ft_reader_status st;
	struct ft_writer *w;
	struct ft_error err;
	struct blob got = { 0 };
	unsigned n, types = 0;
	bool seen[FT_TYPE_MAX] = { false };
	int last;

	w = ft_writer_open(path, 0, &err);
	ok(w != NULL, "writer opens %s", path);
	ok(sample_trace_write(w, &err) == 0, "sample records appended");
	ft_writer_stats(w, &ws);
	is_u64(ws.events, 9, "writer counts 9 events (lost is metadata)");
	is_u64(ws.lost, 3, "writer counts 3 lost");
	ok(ft_writer_close(w, &err) == 0, "writer closes");

	n = read_all(path, &got, &st, &last);
	is_u64(n, SAMPLE_TRACE_RECORDS, "every record read back");
	is_i64(last, FT_READ_EOF, "reader ends cleanly");
	ok(st.clean_end && !st.truncated, "status: clean end, not truncated");
	is_u64(st.chunks, 3, "three chunks");
	for (size_t off = 0; off < got.len;) {
		const struct ft_hdr *h = (const void *)(got.data + off);

		if (!seen[h->type])
			types++;
		seen[h->type] = true;
		off += h->size;
	}
	is_u64(types, 15, "all 15 record types present");
	{
		/* Fields survive exactly: spot-check variable parts. */
		size_t off = 0;
		const struct ft_hdr *h = (const void *)got.data;

		is_u64(h->type, FT_HOST, "first record is the host");
		ok(strcmp(((const struct ft_host *)h)->release, "6.18.0-test") == 0 &&
		   strcmp(ft_host_devs((const void *)h)[1].fstype, "tmpfs") == 0,
		   "host devices read back");
		off += h->size;
		h = (const void *)(got.data + off);
		is_u64(h->type, FT_FILE, "second record is the file");
		ok(((const struct ft_file *)h)->path_len == 14 &&
		   memcmp(ft_file_path((const void *)h), "/tmp/data file", 14) == 0,
		   "file path read back");
	}
	free(got.data);
}

/* Reads back accesses numbered 0, 1, ... and counts those out of place; the records in *n. */
static unsigned read_numbered(const char *path, unsigned *n, struct ft_reader_status *st)
{
	struct ft_error err;
	struct ft_reader *r = ft_reader_open(path, &err);
	const struct ft_hdr *h;
	unsigned bad = 0;

	*n = 0;
	while (r && ft_reader_next(r, &h, &err) == FT_READ_MORE) {
		const struct ft_access *a = (const void *)h;

		if (h->type == FT_END)
			continue;
		if (a->hdr.ts != *n || a->pos != (__u64)*n * 4096 || a->ino != *n % 7)
			bad++;
		(*n)++;
	}
	if (r) {
		ft_reader_status(r, st);
		ft_reader_close(r);
	}
	return bad;
}

static void test_many_chunks(const char *path, bool background)
{
	const char *how = background ? "background" : "in line";
	struct ft_reader_status st;
	struct ft_writer *w;
	struct ft_error err;
	const unsigned count = 200000;	/* 12.8 MB raw: 13 chunks of 1 MiB */
	unsigned n, bad;

	w = ft_writer_open(path, 0, &err);
	ok(!background || ft_writer_background(w, &err) == 0, "%s: compression thread", how);
	for (unsigned i = 0; i < count; i++) {
		struct ft_access a = { .hdr = { .type = FT_ACCESS, .size = sizeof(a), .ts = i },
				       .ino = i % 7, .pos = (__u64)i * 4096, .len = 4096,
				       .op = FT_OP_READ };
		if (ft_writer_append(w, &a, &err))
			break;
	}
	ok(ft_writer_close(w, &err) == 0, "%s: 200000 accesses written", how);
	bad = read_numbered(path, &n, &st);
	ok(n == count, "%s: all %u accesses read back in order", how, n);
	ok(bad == 0, "%s: no access differs (%u do)", how, bad);
	ok(st.chunks == 13, "%s: 1 MiB chunks: 13 of them (%llu)", how,
	   (unsigned long long)st.chunks);
	ok(st.clean_end, "%s: clean end after many chunks", how);
}

/*
 * A write failing in the compression thread (the file size limit standing in for a full
 * disk) is returned by a later call, and the file ends on the last whole chunk.
 */
static void test_background_failure(const char *path)
{
	struct rlimit old, lim = { .rlim_cur = 3u << 20, .rlim_max = RLIM_INFINITY };
	struct ft_reader_status st;
	struct stat sb;
	struct ft_writer *w;
	struct ft_error err;
	unsigned n, bad, i;
	int rc = 0;

	signal(SIGXFSZ, SIG_IGN);
	getrlimit(RLIMIT_FSIZE, &old);
	lim.rlim_max = old.rlim_max;
	if (setrlimit(RLIMIT_FSIZE, &lim)) {
		tap_skip("cannot limit the file size");
		return;
	}
	w = ft_writer_open(path, 0, &err);
	ft_writer_background(w, &err);
	for (i = 0; i < 1000000 && !rc; i++) {
		struct ft_access a = { .hdr = { .type = FT_ACCESS, .size = sizeof(a), .ts = i },
				       .ino = i % 7, .pos = (__u64)i * 4096, .len = 4096,
				       .op = FT_OP_READ, .arg = i * 2654435761u };

		rc = ft_writer_append(w, &a, &err);
	}
	if (!rc)
		rc = ft_writer_close(w, &err);
	else
		ft_writer_abort(w);
	setrlimit(RLIMIT_FSIZE, &old);
	ok(rc && strstr(err.msg, "write failed: File too large"), "the thread's error is returned: %s",
	   rc ? err.msg : "(none)");
	bad = read_numbered(path, &n, &st);
	ok(n > 0 && !bad && stat(path, &sb) == 0 && st.good_bytes == (__u64)sb.st_size,
	   "the file ends on its last whole chunk (%u records in %llu chunks, %u bad; %s)", n,
	   (unsigned long long)st.chunks, bad, st.why);
}

/* Offsets where each chunk ends, from the file itself. */
static unsigned chunk_ends(const struct blob *b, size_t *ends, unsigned max)
{
	size_t off = sizeof(struct ft_file_header);
	unsigned n = 0;

	while (off + sizeof(struct ft_chunk_header) <= b->len && n < max) {
		struct ft_chunk_header ch;

		memcpy(&ch, b->data + off, sizeof(ch));	/* chunks are not aligned in the file */
		off += sizeof(ch) + ch.stored_size;
		ends[n++] = off;
	}
	return n;
}

static void test_cut_everywhere(const char *path)
{
	const unsigned per_chunk[3] = { 6, 5, 6 };
	struct blob whole = read_file(path);
	size_t ends[8];
	unsigned nchunks = chunk_ends(&whole, ends, 8);
	unsigned wrong = 0, opened_short = 0;
	char cut[256];

	path_in_tmp(cut, sizeof(cut), "cut.ftr");
	is_u64(nchunks, 3, "sample has 3 chunks");
	is_u64(ends[nchunks - 1], whole.len, "chunks fill the file");
	for (size_t len = 0; len < whole.len; len++) {
		struct ft_reader_status st;
		unsigned want = 0, got;
		int last;

		write_file(cut, whole.data, len);
		got = read_all(cut, NULL, &st, &last);
		if (len < sizeof(struct ft_file_header)) {
			/* Too short for a header: open must refuse, never crash. */
			opened_short += last != -2;
			continue;
		}
		for (unsigned c = 0; c < nchunks; c++)
			if (ends[c] <= len)
				want += per_chunk[c];
		if (got != want || last != FT_READ_EOF || !st.truncated || st.clean_end ||
		    st.good_bytes > len) {
			if (wrong++ < 3)
				diag("cut at %zu: got %u records (want %u), last %d, truncated %d",
				     len, got, want, last, st.truncated);
		}
	}
	is_u64(opened_short, 0, "a file shorter than the header is refused");
	is_u64(wrong, 0, "a cut at every byte offset returns exactly the whole chunks before it");
	free(whole.data);
}

static void test_damage(const char *path)
{
	struct blob whole = read_file(path);
	struct ft_reader_status st;
	size_t ends[8];
	char bad[256];
	unsigned got;
	int last;

	path_in_tmp(bad, sizeof(bad), "bad.ftr");
	chunk_ends(&whole, ends, 8);
	/* Flip a byte in the middle of chunk 2's compressed data. */
	whole.data[ends[0] + sizeof(struct ft_chunk_header) + 10] ^= 0x55;
	write_file(bad, whole.data, whole.len);
	got = read_all(bad, NULL, &st, &last);
	is_u64(got, 6, "a damaged second chunk leaves the first chunk's 6 records");
	ok(st.truncated && st.good_bytes == ends[0], "damage reported at the chunk's offset");
	ok(strstr(st.why, "chunk 1 fails its checksum") != NULL, "reason names the chunk: %s",
	   st.why);
	{
		/*
		 * Damage behind a checksum that matches it: inflate must catch it. Not any byte
		 * (deflate has no check of its own that the reader computes): the first block's
		 * type made the reserved one.
		 */
		struct ft_chunk_header ch;
		unsigned char *stored = whole.data + ends[0] + sizeof(ch), saved;

		whole.data[ends[0] + sizeof(ch) + 10] ^= 0x55;
		saved = stored[2];
		stored[2] |= 0x06;
		memcpy(&ch, whole.data + ends[0], sizeof(ch));
		ch.crc32 = (__u32)crc32(0L, stored, ch.stored_size);
		memcpy(whole.data + ends[0], &ch, sizeof(ch));
		write_file(bad, whole.data, whole.len);
		got = read_all(bad, NULL, &st, &last);
		ok(got == 6 && st.truncated && strstr(st.why, "chunk 1 does not decompress"),
		   "a bad stream with a matching checksum: %s", st.why);
		stored[2] = saved;
		ch.crc32 = (__u32)crc32(0L, stored, ch.stored_size);
		memcpy(whole.data + ends[0], &ch, sizeof(ch));
	}

	/* Break the second chunk's magic. */
	whole.data[ends[0]] ^= 0xff;
	write_file(bad, whole.data, whole.len);
	got = read_all(bad, NULL, &st, &last);
	ok(got == 6 && st.truncated && strstr(st.why, "bad magic"), "bad chunk magic: %s",
	   st.why);
	whole.data[ends[0]] ^= 0xff;

	/* A trace without its end record (recorder killed after a flush). */
	write_file(bad, whole.data, ends[1]);
	got = read_all(bad, NULL, &st, &last);
	ok(got == 11 && st.truncated && strstr(st.why, "no end record"),
	   "missing end record: %s", st.why);
	free(whole.data);
}

static void test_bad_headers(const char *path)
{
	struct blob whole = read_file(path);
	struct ft_file_header *fh = (void *)whole.data;
	struct ft_error err;
	char bad[256];

	path_in_tmp(bad, sizeof(bad), "hdr.ftr");
	fh->version_major = 2;
	fh->version_minor = 3;
	write_file(bad, whole.data, whole.len);
	ok(ft_reader_open(bad, &err) == NULL && strstr(err.msg, "version 2.3 is newer") &&
	   strstr(err.msg, bad), "newer major version refused: %s", err.msg);
	fh->version_major = 1;
	fh->version_minor = FT_VERSION_MINOR + 1;
	write_file(bad, whole.data, whole.len);
	{
		struct ft_reader *r = ft_reader_open(bad, &err);

		ok(r != NULL, "newer minor version accepted");
		ft_reader_close(r);
	}
	memcpy(fh->magic, "NOTATRCE", 8);
	write_file(bad, whole.data, whole.len);
	ok(ft_reader_open(bad, &err) == NULL && strstr(err.msg, "not a folio-trace file"),
	   "bad magic refused: %s", err.msg);
	ok(ft_reader_open("/nonexistent/x.ftr", &err) == NULL && strstr(err.msg, "cannot open"),
	   "missing file: %s", err.msg);
	free(whole.data);
}

static void test_bad_records(void)
{
	struct ft_writer *w;
	struct ft_error err;
	char path[256];
	struct ft_access a = { .hdr = { .type = FT_ACCESS, .size = 24 } };
	struct ft_hdr odd = { .type = FT_END, .size = 13 };

	path_in_tmp(path, sizeof(path), "rec.ftr");
	w = ft_writer_open(path, 0, &err);
	ok(ft_writer_append(w, &a, &err) != 0 && strstr(err.msg, "too short"),
	   "writer refuses a short access record: %s", err.msg);
	ok(ft_writer_append(w, &odd, &err) != 0 && strstr(err.msg, "bad record size"),
	   "writer refuses a size not a multiple of 8: %s", err.msg);
	ft_writer_abort(w);
}

/*
 * info's table of files keeps a path of at most FILEWB_PATH_KEEP bytes: a crafted trace of
 * thousands of 64 KiB paths must not make it take gigabytes.
 */
static void test_filewb_long_path(void)
{
	size_t plen = 60000, size = (sizeof(struct ft_file) + plen + 7) & ~(size_t)7;
	struct ft_file *r = calloc(1, size);
	const struct ft_file_wb *f;
	struct ft_filewb t;

	if (!r || ft_filewb_init(&t)) {
		ok(0, "long path: setup");
		free(r);
		return;
	}
	r->hdr.type = FT_FILE;
	r->hdr.size = (__u32)size;
	r->dev = 8;
	r->ino = 42;
	r->path_len = (__u16)plen;
	memset(r + 1, 'x', plen);
	ok(ft_filewb_note(&t, &r->hdr) == 0, "a file with a 60000-byte path noted");
	f = ft_filewb_find(&t, 8, 42);
	ok(f && f->path && strlen(f->path) == FILEWB_PATH_KEEP + 3 &&
	   strcmp(f->path + FILEWB_PATH_KEEP, "...") == 0,
	   "its path kept to %d bytes and \"...\" (%zu)", FILEWB_PATH_KEEP,
	   f && f->path ? strlen(f->path) : 0);
	ft_filewb_free(&t);
	free(r);
}

/* A device other than /dev/null is no output by name (util/output.h); by descriptor it is. */
static void test_disk_full(void)
{
	struct ft_error err;
	struct ft_writer *w = ft_writer_open("/dev/full", 0, &err);
	int fd;

	ok(w == NULL && strstr(err.msg, "is a character device: refused"),
	   "a device by name is refused: %s", w ? "(opened)" : err.msg);
	fd = open("/dev/full", O_WRONLY | O_CLOEXEC);
	w = fd >= 0 ? ft_writer_fdopen(fd, "/dev/full", &err) : NULL;
	ok(fd >= 0 && w == NULL && strstr(err.msg, "No space left"), "full device: %s",
	   w ? "(opened)" : err.msg);
}

static void test_mode(const char *path)
{
	struct stat sb;

	ok(stat(path, &sb) == 0 && (sb.st_mode & 0777) == 0600, "trace created 0600");
}

int main(void)
{
	char path[256];

	if (!mkdtemp(tmpdir))
		tap_skip_all("cannot make a temporary directory");
	path_in_tmp(path, sizeof(path), "sample.ftr");
	test_round_trip(path);
	test_mode(path);
	test_cut_everywhere(path);
	test_damage(path);
	test_bad_headers(path);
	test_bad_records();
	test_disk_full();
	test_filewb_long_path();
	path_in_tmp(path, sizeof(path), "many.ftr");
	test_many_chunks(path, false);
	test_many_chunks(path, true);
	test_background_failure(path);
	{
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
		if (system(cmd) != 0)
			diag("could not remove %s", tmpdir);
	}
	return done_testing();
}
