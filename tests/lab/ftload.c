// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftload: the kernel lab's workloads (tests/lab/cases/), simple file I/O with exact byte counts
 * that a case can compare with what folio-trace recorded. Linked statically where the C library
 * allows it, so the lab's VMs need no libraries for it.
 *
 *   ftload write FILE SIZE BS          SIZE bytes in writes of BS (the last one shorter), fsync
 *   ftload read FILE BS                reads of BS to end of file
 *   ftload poke FILE STRIDE COUNT      one-byte pwrite at 0, STRIDE, 2*STRIDE... COUNT times, fsync
 *   ftload reread FILE BS PASSES       reads FILE to its end PASSES times
 *
 * Each prints the bytes it wrote or read, a number on one line. Sizes take a K, M or G suffix
 * (powers of 1024). Exit status 0, 1 on an I/O error, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* a buffer's size: enough for any test, small enough to catch a size in the wrong unit */
#define MAX_BS (1ULL << 30)

static const char *usage_text =
	"usage: ftload write FILE SIZE BS\n"
	"       ftload read FILE BS\n"
	"       ftload poke FILE STRIDE COUNT\n"
	"       ftload reread FILE BS PASSES\n"
	"SIZE, BS and STRIDE take a K, M or G suffix (powers of 1024).\n";

/* A usage error: "CMD takes ARGS" when CMD is given, then the usage. */
static int usage(const char *cmd, const char *args)
{
	if (cmd)
		fprintf(stderr, "ftload: %s takes %s\n", cmd, args);
	fputs(usage_text, stderr);
	return 2;
}

/* Parse a size with an optional K, M or G suffix into *out; 0 on success, -1 if malformed. */
static int parse_size(const char *s, uint64_t *out)
{
	unsigned long long v;
	unsigned shift = 0;
	char *end;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -1;
	switch (*end) {
	case 'K': case 'k':
		shift = 10;
		end++;
		break;
	case 'M': case 'm':
		shift = 20;
		end++;
		break;
	case 'G': case 'g':
		shift = 30;
		end++;
		break;
	}
	if (*end || (shift && v > UINT64_MAX >> shift))
		return -1;
	*out = (uint64_t)v << shift;
	return 0;
}

/* The argument ARG named WHAT as a size in [MIN, MAX]; on error *bad is set after a message. */
static uint64_t size_arg(const char *arg, const char *what, uint64_t min, uint64_t max, int *bad)
{
	uint64_t v;

	if (parse_size(arg, &v) || v < min || v > max) {
		fprintf(stderr, "ftload: bad %s '%s': want %" PRIu64 "..%" PRIu64
			" with an optional K, M or G suffix\n", what, arg, min, max);
		*bad = 1;
		return 0;
	}
	return v;
}

static void *buffer(uint64_t bs)
{
	char *buf = malloc(bs);

	if (!buf) {
		fprintf(stderr, "ftload: cannot allocate %" PRIu64 " bytes\n", bs);
		return NULL;
	}
	/* not zeros: file systems may treat zero blocks specially */
	for (uint64_t i = 0; i < bs; i++)
		buf[i] = (char)('a' + i % 26);
	return buf;
}

static int fail(const char *what, const char *file)
{
	fprintf(stderr, "ftload: %s %s: %s\n", what, file, strerror(errno));
	return 1;
}

/* Write all LEN bytes of BUF at the file offset; 0 or -1 with errno set. */
static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

static int cmd_write(const char *file, uint64_t size, uint64_t bs)
{
	char *buf = buffer(bs);
	uint64_t done = 0;
	int fd;

	if (!buf)
		return 1;
	fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		fail("cannot create", file);
		free(buf);
		return 1;
	}
	while (done < size) {
		size_t len = size - done < bs ? (size_t)(size - done) : (size_t)bs;

		if (write_all(fd, buf, len))
			break;
		done += len;
	}
	if (done < size || fsync(fd)) {
		fail(done < size ? "cannot write" : "cannot fsync", file);
		free(buf);
		close(fd);
		return 1;
	}
	free(buf);
	if (close(fd))
		return fail("cannot close", file);
	printf("%" PRIu64 "\n", done);
	return 0;
}

/* Read FILE to its end PASSES times in reads of BS; prints the bytes read in all. */
static int cmd_read(const char *file, uint64_t bs, uint64_t passes)
{
	char *buf = buffer(bs);
	uint64_t total = 0;
	int fd;

	if (!buf)
		return 1;
	fd = open(file, O_RDONLY);
	if (fd < 0) {
		fail("cannot open", file);
		free(buf);
		return 1;
	}
	for (uint64_t pass = 0; pass < passes; pass++) {
		off_t off = 0;
		ssize_t n;

		/* pread from 0: the same sequential reads each pass, no seek between them */
		while ((n = pread(fd, buf, (size_t)bs, off)) != 0) {
			if (n < 0 && errno == EINTR)
				continue;
			if (n < 0) {
				fail("cannot read", file);
				free(buf);
				close(fd);
				return 1;
			}
			off += n;
			total += (uint64_t)n;
		}
	}
	free(buf);
	close(fd);
	printf("%" PRIu64 "\n", total);
	return 0;
}

static int cmd_poke(const char *file, uint64_t stride, uint64_t count)
{
	uint64_t done = 0;
	int fd;

	fd = open(file, O_WRONLY | O_CREAT, 0644);
	if (fd < 0)
		return fail("cannot open", file);
	for (uint64_t i = 0; i < count; i++) {
		char c = (char)('A' + i % 26);
		ssize_t n;

		do
			n = pwrite(fd, &c, 1, (off_t)(i * stride));
		while (n < 0 && errno == EINTR);
		if (n != 1) {
			fail("cannot write", file);
			close(fd);
			return 1;
		}
		done++;
	}
	if (fsync(fd)) {
		fail("cannot fsync", file);
		close(fd);
		return 1;
	}
	if (close(fd))
		return fail("cannot close", file);
	printf("%" PRIu64 "\n", done);
	return 0;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : NULL;
	int bad = 0;

	if (!cmd)
		return usage(NULL, NULL);
	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		fputs(usage_text, stdout);
		return 0;
	}
	if (!strcmp(cmd, "write")) {
		uint64_t size, bs;

		if (argc != 5)
			return usage(cmd, "FILE SIZE BS");
		size = size_arg(argv[3], "SIZE", 0, INT64_MAX, &bad);
		bs = size_arg(argv[4], "BS", 1, MAX_BS, &bad);
		return bad ? 2 : cmd_write(argv[2], size, bs);
	}
	if (!strcmp(cmd, "read")) {
		uint64_t bs;

		if (argc != 4)
			return usage(cmd, "FILE BS");
		bs = size_arg(argv[3], "BS", 1, MAX_BS, &bad);
		return bad ? 2 : cmd_read(argv[2], bs, 1);
	}
	if (!strcmp(cmd, "poke")) {
		uint64_t stride, count;

		if (argc != 5)
			return usage(cmd, "FILE STRIDE COUNT");
		stride = size_arg(argv[3], "STRIDE", 1, INT64_MAX, &bad);
		count = size_arg(argv[4], "COUNT", 0, INT64_MAX, &bad);
		/* the last offset, (COUNT - 1) * STRIDE, must fit an off_t */
		if (!bad && count > 1 && count - 1 > (uint64_t)INT64_MAX / stride) {
			fprintf(stderr, "ftload: poke: STRIDE %s times COUNT %s passes the largest"
				" file offset\n", argv[3], argv[4]);
			return 2;
		}
		return bad ? 2 : cmd_poke(argv[2], stride, count);
	}
	if (!strcmp(cmd, "reread")) {
		uint64_t bs, passes;

		if (argc != 5)
			return usage(cmd, "FILE BS PASSES");
		bs = size_arg(argv[3], "BS", 1, MAX_BS, &bad);
		passes = size_arg(argv[4], "PASSES", 1, UINT32_MAX, &bad);
		return bad ? 2 : cmd_read(argv[2], bs, passes);
	}
	fprintf(stderr, "ftload: unknown command '%s'\n", cmd);
	return usage(NULL, NULL);
}
