/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Packed chunks (trace/pack.h): accesses that change every field the items can say, in both
 * directions and to the ends of their ranges, expand to the very records packed, a window at
 * a time; malformed items are refused with the reason; through the writer and the reader, a
 * chunk of accesses is stored packed and uncompressed, a chunk of other records deflated, and
 * a packed chunk whose count is wrong ends the readable data at its start.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tap.h"
#include "trace/pack.h"
#include "trace/trace.h"

#define NACC	64

static char tmpdir[] = "/tmp/ft-test-pack.XXXXXX";

static struct ft_access access_at(unsigned i)
{
	struct ft_access a = {
		.hdr = { .type = FT_ACCESS, .size = sizeof(a), .tid = 100 + i / 8,
			 .ts = 1000000000ull + i * 1000 },
		.ino = 7 + i / 16, .pos = (uint64_t)i * 4096, .len = 4096, .isize = 1ull << 30,
		.dev = 0x800001, .op = FT_OP_READ, .flags = FT_AF_POSITIONAL,
	};

	switch (i % 8) {
	case 1:			/* backwards in time and in the file */
		a.hdr.ts -= 5000;
		a.pos = 0;
		break;
	case 2:			/* every field to the end of its range */
		a.hdr.ts = UINT64_MAX;
		a.pos = UINT64_MAX;
		a.len = UINT64_MAX;
		a.isize = UINT64_MAX;
		a.ino = UINT64_MAX;
		a.hdr.tid = UINT32_MAX;
		a.dev = UINT32_MAX;
		a.arg = UINT32_MAX;
		a.op = UINT16_MAX;
		a.flags = UINT16_MAX;
		a.ofile = UINT32_MAX;
		break;
	case 3:			/* and back to zero */
		memset(&a, 0, sizeof(a));
		a.hdr.type = FT_ACCESS;
		a.hdr.size = sizeof(a);
		break;
	case 5:
		a.op = FT_OP_WRITE;
		a.arg = 3;
		a.isize -= 12345;
		break;
	case 7:			/* another open file: its number in the op's varint */
		a.ofile = 77;
		break;
	}
	return a;
}

/* NACC accesses with a folio event after every fourth; returns the bytes. */
static size_t make_records(unsigned char *buf, unsigned *nrec)
{
	size_t n = 0;

	*nrec = 0;
	for (unsigned i = 0; i < NACC; i++) {
		struct ft_access a = access_at(i);

		memcpy(buf + n, &a, sizeof(a));
		n += sizeof(a);
		++*nrec;
		if (i % 4 == 3) {
			struct ft_folio_event fe = {
				.hdr = { .type = FT_PAGECACHE_ADD, .size = sizeof(fe), .ts = i },
				.ino = i, .index = i * 3, .pfn = i * 5, .order = (__u8)(i % 10),
			};

			memcpy(buf + n, &fe, sizeof(fe));
			n += sizeof(fe);
			++*nrec;
		}
	}
	return n;
}

static void test_round_trip(void)
{
	static unsigned char raw[64 << 10], packed[64 << 10], out[64 << 10];
	struct ft_unpacker u;
	const char *why = NULL;
	size_t len, plen, as_is, got = 0;
	unsigned nrec, windows = 0;
	bool fine = true;

	len = make_records(raw, &nrec);
	plen = ft_pack_records(raw, len, packed, sizeof(packed), &as_is);
	ok(plen > 0 && plen < len / 2, "packed: %zu bytes for %zu of records", plen, len);
	is_u64(as_is, 16 * (1 + sizeof(struct ft_folio_event)),
	       "as they are: the folio events alone (an open file's number packs, 1.7)");
	is_u64(ft_pack_records(raw, len, packed, plen - 1, &as_is), 0,
	       "one byte short of room: not packed");
	plen = ft_pack_records(raw, len, packed, sizeof(packed), &as_is);
	/*
	 * windows of three accesses' bytes wanted, four at most: records split across calls,
	 * each window at least what was wanted but the last, none past its room
	 */
	ft_unpack_start(&u, packed, plen);
	while (!ft_unpack_done(&u)) {
		long n = ft_unpack_some(&u, out + got, 3 * sizeof(struct ft_access),
					4 * sizeof(struct ft_access), &why);

		if (n <= 0 || (size_t)n > 4 * sizeof(struct ft_access) ||
		    ((size_t)n < 3 * sizeof(struct ft_access) && !ft_unpack_done(&u))) {
			fine = false;
			break;
		}
		got += (size_t)n;
		windows++;
	}
	ok(fine, "expanded in windows of the sizes asked (%s)", why ? why : "no error");
	is_u64(got, len, "as many bytes of records as were packed");
	ok(got == len && !memcmp(out, raw, len), "the very records, in order");
	ok(windows >= len / (4 * sizeof(struct ft_access)), "in %u windows", windows);
}

/* Varints of every length, 1 to 10 bytes, at each boundary: the very records back. */
static void test_varint_lengths(void)
{
	static unsigned char raw[64 << 10], packed[64 << 10], out[64 << 10];
	struct ft_unpacker u;
	const char *why = NULL;
	size_t len = 0, plen, as_is;
	long n;

	for (unsigned k = 0; k <= 9; k++) {
		for (int below = 1; below >= 0; below--) {
			uint64_t v = k == 9 ? UINT64_MAX - (uint64_t)below : (1ull << (7 * k)) - below;
			struct ft_access a = {
				.hdr = { .type = FT_ACCESS, .size = sizeof(a), .tid = (__u32)v,
					 .ts = v },
				.ino = v, .pos = v, .len = v >> 1, .isize = v, .dev = (__u32)(v >> 3),
				.arg = (__u32)(v >> 5),
			};

			memcpy(raw + len, &a, sizeof(a));
			len += sizeof(a);
		}
	}
	plen = ft_pack_records(raw, len, packed, sizeof(packed), &as_is);
	ft_unpack_start(&u, packed, plen);
	n = ft_unpack_some(&u, out, sizeof(out), sizeof(out), &why);
	ok(n == (long)len && !memcmp(out, raw, len) && ft_unpack_done(&u),
	   "varints of 1 to 10 bytes: the very records (%s)", why ? why : "no error");
}

/* Unpacks items[0..len) whole; returns the result, why set when < 0. */
static long unpack_all(const unsigned char *items, size_t len, const char **why)
{
	static unsigned char out[64 << 10];
	struct ft_unpacker u;

	ft_unpack_start(&u, items, len);
	return ft_unpack_some(&u, out, sizeof(out), sizeof(out), why);
}

static void test_malformed(void)
{
	/* mask 0, ts +1, pos 0 - 0 */
	const unsigned char good[] = { 0x00, 0x02, 0x00 };
	const unsigned char unknown[] = { 0x80, 0x02, 0x00 };
	const unsigned char cut[] = { 0x00, 0x02, 0x80 };
	const unsigned char missing[] = { 0x01, 0x02, 0x00 };	/* tid said, not there */
	unsigned char longer[1 + 12 + 1] = { 0x00 };
	unsigned char record[1 + sizeof(struct ft_hdr)] = { FT_PACK_RECORD };
	struct ft_hdr h = { .type = FT_END, .size = 12 };
	const char *why = NULL;

	is_i64(unpack_all(good, sizeof(good), &why), sizeof(struct ft_access),
	       "a three-byte item: one access");
	is_i64(unpack_all(unknown, sizeof(unknown), &why), -1, "an item kind above 0x7f refused");
	ok(why && strstr(why, "unknown kind"), "why: %s", why);
	why = NULL;
	is_i64(unpack_all(cut, sizeof(cut), &why), -1, "a varint the chunk cuts refused");
	ok(why && strstr(why, "cut short"), "why: %s", why);
	why = NULL;
	is_i64(unpack_all(missing, sizeof(missing), &why), -1, "a field the mask says, missing");
	ok(why && strstr(why, "cut short"), "why: %s", why);
	memset(longer + 1, 0x80, 11);	/* eleven bytes of one varint, then its end */
	why = NULL;
	is_i64(unpack_all(longer, sizeof(longer), &why), -1, "a varint past 64 bits refused");
	ok(why && (strstr(why, "malformed") || strstr(why, "cut short")), "why: %s", why);
	memcpy(record + 1, &h, sizeof(h));
	why = NULL;
	is_i64(unpack_all(record, sizeof(record), &why), -1, "a record item of size 12 refused");
	ok(why && strstr(why, "impossible size"), "why: %s", why);
}

/* The chunk headers of a trace file: count and flags of the first, its stored and raw sizes. */
static struct ft_chunk_header first_chunk(const char *path)
{
	struct ft_chunk_header ch = { 0 };
	FILE *f = fopen(path, "rb");

	if (f) {
		if (fseek(f, sizeof(struct ft_file_header), SEEK_SET) ||
		    fread(&ch, sizeof(ch), 1, f) != 1)
			memset(&ch, 0, sizeof(ch));
		fclose(f);
	}
	return ch;
}

enum content { ACCESSES, FOLIO_EVENTS, BOTH };

static void write_trace(const char *path, enum content what)
{
	static const char *const name[] = { "accesses", "folio events", "both in turn" };
	struct ft_writer *w;
	struct ft_error err;
	int rc = 0;

	w = ft_writer_open(path, 0, &err);
	for (unsigned i = 0; w && i < 1000; i++) {
		struct ft_access a = access_at(i);
		struct ft_folio_event fe = {
			.hdr = { .type = FT_PAGECACHE_ADD, .size = sizeof(fe), .ts = i },
			.ino = 9, .index = i, .pfn = 4096 + i,
		};

		if (what != FOLIO_EVENTS)
			rc |= ft_writer_append(w, &a.hdr, &err);
		if (what != ACCESSES)
			rc |= ft_writer_append(w, &fe.hdr, &err);
	}
	ok(w && !rc && ft_writer_close(w, &err) == 0, "a trace of %s written", name[what]);
}

/* Reads path whole; returns the records, last the final return, st the status. */
static unsigned read_back(const char *path, struct ft_reader_status *st, int *last,
			  bool *same)
{
	struct ft_reader *r;
	struct ft_error err;
	const struct ft_hdr *h;
	unsigned n = 0;

	*same = true;
	r = ft_reader_open(path, &err);
	if (!r)
		return 0;
	while ((*last = ft_reader_next(r, &h, &err)) == FT_READ_MORE) {
		struct ft_access a = access_at(n);

		if (h->type == FT_ACCESS && memcmp(h, &a, sizeof(a)))
			*same = false;
		n++;
	}
	ft_reader_status(r, st);
	ft_reader_close(r);
	return n;
}

static void test_files(void)
{
	struct ft_reader_status st;
	struct ft_chunk_header ch;
	char path[256];
	bool same;
	int last;
	FILE *f;

	snprintf(path, sizeof(path), "%s/acc.ftr", tmpdir);
	write_trace(path, ACCESSES);
	ch = first_chunk(path);
	is_u64(ch.flags, FT_CHUNK_PACKED, "a chunk of accesses is packed");
	ok(ch.stored_size > ch.raw_size, "and stored uncompressed (%u stored, %u packed)",
	   ch.stored_size, ch.raw_size);
	is_u64(read_back(path, &st, &last, &same), 1001, "1000 accesses and the end read back");
	ok(same && last == FT_READ_EOF && st.clean_end, "the very accesses, to a clean end");

	/* a wrong count: the records are returned, then the data ends at the chunk's start */
	ch.nrecords++;
	f = fopen(path, "r+b");
	ok(f && !fseek(f, sizeof(struct ft_file_header), SEEK_SET) &&
	   fwrite(&ch, sizeof(ch), 1, f) == 1 && !fclose(f), "count raised by one");
	read_back(path, &st, &last, &same);
	ok(st.truncated && st.good_bytes == sizeof(struct ft_file_header) &&
	   strstr(st.why, "holds 1001 records, its header says 1002"),
	   "a packed chunk's count checked at its end: %s", st.why);

	snprintf(path, sizeof(path), "%s/fe.ftr", tmpdir);
	write_trace(path, FOLIO_EVENTS);
	ch = first_chunk(path);
	is_u64(ch.flags, 0, "a chunk of folio events is not packed (an item would be larger)");
	ok(ch.stored_size < ch.raw_size / 4, "and deflated (%u stored, %u raw)",
	   ch.stored_size, ch.raw_size);
	is_u64(read_back(path, &st, &last, &same), 1001, "1000 folio events and the end read back");

	snprintf(path, sizeof(path), "%s/both.ftr", tmpdir);
	write_trace(path, BOTH);
	ch = first_chunk(path);
	is_u64(ch.flags, FT_CHUNK_PACKED, "a chunk of both is packed");
	ok(ch.stored_size < ch.raw_size / 2, "and deflated, as most of its bytes are events "
	   "(%u stored, %u packed)", ch.stored_size, ch.raw_size);
	is_u64(read_back(path, &st, &last, &same), 2001, "both and the end read back");
	ok(last == FT_READ_EOF && st.clean_end, "to a clean end");
}

int main(void)
{
	char cmd[300];

	if (!mkdtemp(tmpdir))
		tap_skip_all("cannot make a temporary directory");
	test_round_trip();
	test_varint_lengths();
	test_malformed();
	test_files();
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpdir);
	if (system(cmd) != 0)
		diag("could not remove %s", tmpdir);
	return done_testing();
}
