// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ftload: the kernel lab's workloads (tests/lab/cases/), simple file I/O with exact byte counts
 * that a case can compare with what folio-trace recorded. Linked statically where the C library
 * allows it, so the lab's VMs need no libraries for it.
 *
 *   ftload write FILE SIZE BS          SIZE bytes in writes of BS (the last one shorter), fsync
 *   ftload read FILE BS                reads of BS to end of file
 *   ftload poke FILE STRIDE COUNT [FIRST]  one-byte pwrite at 0, STRIDE, 2*STRIDE... COUNT times,
 *                                      fsync; with FIRST, FIRST bytes written at 0 in one write and
 *                                      fsynced before, through the same open file (NFS drops
 *                                      the cache of a file reopened after its writes)
 *   ftload reread FILE BS PASSES       reads FILE to its end PASSES times
 *   ftload probed-read FILE BS         opens FILE, names it by a POSIX_FADV_NORMAL, waits (30 s
 *                                      at most) until another process opened FILE and closed it
 *                                      (a recorder's start-state probe, done), then reads of BS
 *                                      to end of file
 *   ftload drop FILE                   POSIX_FADV_DONTNEED of the whole file (prints 0)
 *   ftload readahead FILE SIZE         readahead(2) of the first SIZE bytes (prints 0)
 *   ftload fallocate FILE SIZE         FILE created (truncated) and SIZE bytes allocated at 0
 *                                      by fallocate(2), mode 0
 *   ftload mmap-read FILE              FILE mapped and one byte of each page read
 *   ftload msync-write FILE SIZE       FILE made SIZE long, mapped shared, one byte of each page
 *                                      written, then msync(MS_SYNC) of it all
 *   ftload advised-write FILE SIZE BS  FILE made 2 * SIZE long; its first SIZE mapped shared,
 *                                      advised MADV_HUGEPAGE and one byte of each page written
 *                                      (write faults); then, the mapping kept, the second SIZE
 *                                      written with write(2) in writes of BS, and fsync
 *   ftload uring-read FILE BS          reads of BS to end of file through io_uring, one at a time
 *   ftload uring-sync FILE SIZE        FILE made SIZE long by writes, then through io_uring: an
 *                                      FSYNC of its first half (IORING_FSYNC_DATASYNC), a
 *                                      FADVISE POSIX_FADV_DONTNEED of it all, an FSYNC of it all
 *   ftload zipf FILE BS COUNT THETA SEED  COUNT reads of BS at blocks drawn from a Zipf law of
 *                                      exponent THETA (block 0 the most likely), seeded
 *   ftload stride-read FILE BS STRIDE FIRST  reads of BS at FIRST, FIRST + STRIDE, ... to end
 *                                      of file under POSIX_FADV_RANDOM (no readahead: base pages
 *                                      at those offsets alone), the advice reset to
 *                                      POSIX_FADV_NORMAL after them
 *   ftload two-readers FILE BS SEED [whole]  FILE opened twice: through one, reads of BS
 *                                      through its first half; through the other, under
 *                                      POSIX_FADV_RANDOM, one read of BS at a random block
 *                                      (seeded) of its second half after each (of the whole
 *                                      file with "whole")
 *   ftload reopen-reads FILE BS COUNT [uring]  FILE opened COUNT times (by IORING_OP_OPENAT
 *                                      with "uring"), each closed before the next opens (the
 *                                      slab gives the next open the same struct file): open k
 *                                      reads in the k-th 2 MiB of FILE; an even one, advised
 *                                      POSIX_FADV_RANDOM, one read of BS, an odd one reads of
 *                                      BS through the first MiB, no advice
 *
 * Each prints the bytes it wrote or read, a number on one line. Sizes take a K, M or G suffix
 * (powers of 1024). Exit status 0, 1 on an I/O error, 2 on a usage error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/io_uring.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <sys/inotify.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* a buffer's size: enough for any test, small enough to catch a size in the wrong unit */
#define MAX_BS (1ULL << 30)
#define MiB (1ULL << 20)

static const char *usage_text =
	"usage: ftload write FILE SIZE BS\n"
	"       ftload read FILE BS\n"
	"       ftload poke FILE STRIDE COUNT [FIRST]\n"
	"       ftload reread FILE BS PASSES\n"
	"       ftload probed-read FILE BS\n"
	"       ftload drop FILE\n"
	"       ftload readahead FILE SIZE\n"
	"       ftload fallocate FILE SIZE\n"
	"       ftload mmap-read FILE\n"
	"       ftload msync-write FILE SIZE\n"
	"       ftload advised-write FILE SIZE BS\n"
	"       ftload uring-read FILE BS\n"
	"       ftload uring-sync FILE SIZE\n"
	"       ftload zipf FILE BS COUNT THETA SEED\n"
	"       ftload stride-read FILE BS STRIDE FIRST\n"
	"       ftload two-readers FILE BS SEED [whole]\n"
	"       ftload reopen-reads FILE BS COUNT [uring]\n"
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

/* FILE opened with flags and a buffer of bs bytes in *buf: the fd, or -1 once said why. */
static int open_with_buffer(const char *file, int flags, uint64_t bs, char **buf)
{
	int fd;

	*buf = buffer(bs);
	if (!*buf)
		return -1;
	fd = open(file, flags, 0644);
	if (fd < 0) {
		fail(flags & O_CREAT ? "cannot create" : "cannot open", file);
		free(*buf);
	}
	return fd;
}

static int cmd_write(const char *file, uint64_t size, uint64_t bs)
{
	uint64_t done = 0;
	char *buf;
	int fd = open_with_buffer(file, O_WRONLY | O_CREAT | O_TRUNC, bs, &buf);

	if (fd < 0)
		return 1;
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
	uint64_t total = 0;
	char *buf;
	int fd = open_with_buffer(file, O_RDONLY, bs, &buf);

	if (fd < 0)
		return 1;
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

/*
 * Waits for an open of the watched file other than ours (the watch saw ours first) and the
 * close that ends it (ours comes after): up to 30 s, then goes on and says so. The reads start
 * once a recorder's start-state probe is done with the file, not while it counts the file's
 * pages and shadows, which the reads would change under it (a probe slowed by a loaded host
 * once found 30 of 3294 shadows gone by the time it located them). 0, or 1 when no watch
 * could be read.
 */
static int wait_other_open(int in, const char *file)
{
	char ev[sizeof(struct inotify_event) + 256];
	unsigned opens = 0, closes = 0;

	while (opens < 2 || !closes) {
		struct pollfd p = { .fd = in, .events = POLLIN };
		ssize_t n;

		if (poll(&p, 1, 30000) <= 0) {
			fprintf(stderr, "ftload: no other open and close of %s in 30 s: reading on\n",
				file);
			return 0;
		}
		n = read(in, ev, sizeof(ev));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return fail("cannot read the inotify watch of", file);
		for (char *e = ev; e < ev + n;
		     e += sizeof(struct inotify_event) + ((struct inotify_event *)e)->len) {
			uint32_t mask = ((struct inotify_event *)e)->mask;

			opens += !!(mask & IN_OPEN);
			closes += opens >= 2 && (mask & IN_CLOSE_NOWRITE);
		}
	}
	return 0;
}

/* reads of BS to end of file once another process opened and closed it after our open */
static int cmd_probed_read(const char *file, uint64_t bs)
{
	int in = inotify_init1(IN_CLOEXEC), fd;

	if (in < 0 || inotify_add_watch(in, file, IN_OPEN | IN_CLOSE_NOWRITE) < 0)
		return fail("cannot watch", file);
	fd = open(file, O_RDONLY);
	if (fd < 0 || posix_fadvise(fd, 0, 0, POSIX_FADV_NORMAL) || wait_other_open(in, file)) {
		close(in);
		return fd < 0 ? fail("cannot open", file) : 1;
	}
	close(in);
	close(fd);
	return cmd_read(file, bs, 1);
}

/* first bytes written at 0 in one write, and fsynced: 0, or 1 once said why */
static int poke_first(int fd, const char *file, uint64_t first)
{
	char *buf = malloc(first);
	int bad;

	if (!buf)
		return fail("no memory for the first write of", file);
	memset(buf, 'a', first);
	bad = write_all(fd, buf, first) || fsync(fd);
	free(buf);
	return bad ? fail("cannot write", file) : 0;
}

static int cmd_poke(const char *file, uint64_t stride, uint64_t count, uint64_t first)
{
	uint64_t done = 0;
	int fd;

	fd = open(file, O_WRONLY | O_CREAT, 0644);
	if (fd < 0)
		return fail("cannot open", file);
	if (first && poke_first(fd, file, first)) {
		close(fd);
		return 1;
	}
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

/* The file's cached pages dropped: POSIX_FADV_DONTNEED (dirty ones are written first). */
static int cmd_drop(const char *file)
{
	int fd = open(file, O_RDONLY), err;

	if (fd < 0) {
		fprintf(stderr, "ftload: %s: %s\n", file, strerror(errno));
		return 1;
	}
	err = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	close(fd);
	if (err) {
		fprintf(stderr, "ftload: %s: posix_fadvise: %s\n", file, strerror(err));
		return 1;
	}
	printf("0\n");
	return 0;
}

/* readahead(2) of the first SIZE bytes of FILE; prints 0 (it reads nothing itself). */
static int cmd_readahead(const char *file, uint64_t size)
{
	int fd = open(file, O_RDONLY), rc = 0;

	if (fd < 0)
		return fail("cannot open", file);
	if (readahead(fd, 0, (size_t)size))
		rc = fail("cannot read ahead", file);
	close(fd);
	if (!rc)
		printf("0\n");
	return rc;
}

/* fallocate(2) of SIZE bytes at 0 of a new FILE: tmpfs allocates folios for them. */
static int cmd_fallocate(const char *file, uint64_t size)
{
	int fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0644), rc = 0;

	if (fd < 0)
		return fail("cannot create", file);
	if (fallocate(fd, 0, 0, (off_t)size))
		rc = fail("cannot fallocate", file);
	close(fd);
	if (!rc)
		printf("%" PRIu64 "\n", size);
	return rc;
}

/* Map FILE and read one byte of each page: page faults, no read(2). Prints the bytes mapped. */
static int cmd_mmap_read(const char *file)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile const char *p;
	struct stat st;
	int fd;

	fd = open(file, O_RDONLY);
	if (fd < 0)
		return fail("cannot open", file);
	if (fstat(fd, &st)) {
		close(fd);
		return fail("cannot stat", file);
	}
	if (st.st_size == 0) {
		close(fd);
		fprintf(stderr, "ftload: %s: empty, nothing to map\n", file);
		return 1;
	}
	p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return fail("cannot map", file);
	for (off_t off = 0; off < st.st_size; off += page)
		(void)p[off];	/* volatile: each load is made, each page faulted in */
	munmap((void *)p, (size_t)st.st_size);
	printf("%" PRIu64 "\n", (uint64_t)st.st_size);
	return 0;
}

/*
 * FILE made SIZE long (ftruncate), mapped shared, a byte of each page written, then msync of
 * it all with MS_SYNC: vfs_fsync_range() of the mapped range. Prints SIZE.
 */
static int cmd_msync_write(const char *file, uint64_t size)
{
	long page = sysconf(_SC_PAGESIZE);
	volatile char *p;
	int fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0644), rc = 0;

	if (fd < 0)
		return fail("cannot open", file);
	if (!size || ftruncate(fd, (off_t)size)) {
		close(fd);
		errno = size ? errno : EINVAL;
		return fail("cannot size", file);
	}
	p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return fail("cannot map", file);
	for (uint64_t off = 0; off < size; off += (uint64_t)page)
		p[off] = 1;
	if (msync((void *)p, (size_t)size, MS_SYNC))
		rc = fail("cannot msync", file);
	munmap((void *)p, (size_t)size);
	if (!rc)
		printf("%" PRIu64 "\n", size);
	return rc;
}

/*
 * A mapping's MADV_HUGEPAGE (VM_HUGEPAGE) is the VMA's: its faults may take huge folios where
 * the filesystem allows them on advice (tmpfs huge=advise), a write(2) to the same file does
 * not see it. Prints the bytes faulted and written.
 */
static int cmd_advised_write(const char *file, uint64_t size, uint64_t bs)
{
	long page = sysconf(_SC_PAGESIZE);
	char *buf = NULL, *p;
	int fd, rc = 0;

	fd = open_with_buffer(file, O_RDWR | O_CREAT | O_TRUNC, bs, &buf);
	if (fd < 0)
		return 1;
	if (ftruncate(fd, (off_t)(2 * size))) {
		rc = fail("cannot size", file);
		goto out;
	}
	p = mmap(NULL, (size_t)size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (p == MAP_FAILED) {
		rc = fail("cannot map", file);
		goto out;
	}
	if (madvise(p, (size_t)size, MADV_HUGEPAGE)) {
		rc = fail("cannot advise MADV_HUGEPAGE on", file);
	} else {
		for (uint64_t off = 0; off < size; off += (uint64_t)page)
			((volatile char *)p)[off] = 1;
		memset(buf, 1, (size_t)bs);
		if (lseek(fd, (off_t)size, SEEK_SET) < 0)
			rc = fail("cannot seek in", file);
		for (uint64_t off = size; !rc && off < 2 * size; off += bs)
			if (write_all(fd, buf, (size_t)(2 * size - off < bs ? 2 * size - off : bs)))
				rc = fail("cannot write", file);
		if (!rc && fsync(fd))
			rc = fail("cannot fsync", file);
	}
	munmap(p, (size_t)size);
out:
	close(fd);
	free(buf);
	if (!rc)
		printf("%" PRIu64 "\n", 2 * size);
	return rc;
}

/* An io_uring of one submission at a time, by the raw system calls (no liburing here). */
struct ring {
	int fd;
	unsigned *sq_tail, *sq_mask, *sq_array, *cq_head, *cq_tail, *cq_mask;
	struct io_uring_sqe *sqes;
	struct io_uring_cqe *cqes;
};

static int ring_open(struct ring *r)
{
	struct io_uring_params pr;
	char *sq, *cq;

	memset(&pr, 0, sizeof(pr));
	r->fd = (int)syscall(__NR_io_uring_setup, 4, &pr);
	if (r->fd < 0)
		return -1;
	sq = mmap(NULL, pr.sq_off.array + pr.sq_entries * sizeof(unsigned),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQ_RING);
	cq = mmap(NULL, pr.cq_off.cqes + pr.cq_entries * sizeof(struct io_uring_cqe),
		  PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, pr.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_POPULATE, r->fd, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || r->sqes == MAP_FAILED)
		return -1;
	r->sq_tail = (unsigned *)(sq + pr.sq_off.tail);
	r->sq_mask = (unsigned *)(sq + pr.sq_off.ring_mask);
	r->sq_array = (unsigned *)(sq + pr.sq_off.array);
	r->cq_head = (unsigned *)(cq + pr.cq_off.head);
	r->cq_tail = (unsigned *)(cq + pr.cq_off.tail);
	r->cq_mask = (unsigned *)(cq + pr.cq_off.ring_mask);
	r->cqes = (struct io_uring_cqe *)(cq + pr.cq_off.cqes);
	return 0;
}

/* The next submission entry, zeroed. */
static struct io_uring_sqe *ring_sqe(struct ring *r)
{
	struct io_uring_sqe *sqe = &r->sqes[*r->sq_tail & *r->sq_mask];

	memset(sqe, 0, sizeof(*sqe));
	return sqe;
}

/* Submits the entry ring_sqe() gave and waits for its completion: its result. */
static int ring_submit(struct ring *r)
{
	unsigned tail = *r->sq_tail, idx = tail & *r->sq_mask, head;
	int res;

	r->sq_array[idx] = idx;
	__atomic_store_n(r->sq_tail, tail + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, r->fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		return -errno;
	head = *r->cq_head;
	if (head == __atomic_load_n(r->cq_tail, __ATOMIC_ACQUIRE))
		return -EIO;
	res = r->cqes[head & *r->cq_mask].res;
	__atomic_store_n(r->cq_head, head + 1, __ATOMIC_RELEASE);
	return res;
}

/* One IORING_OP_READ of len bytes at off into buf, waited for: its result. */
static int ring_read(struct ring *r, int fd, char *buf, unsigned len, uint64_t off)
{
	struct io_uring_sqe *sqe = ring_sqe(r);

	sqe->opcode = IORING_OP_READ;
	sqe->fd = fd;
	sqe->addr = (uint64_t)(uintptr_t)buf;
	sqe->len = len;
	sqe->off = off;
	return ring_submit(r);
}

/* One IORING_OP_OPENAT of file, read-only, waited for: the new descriptor, or -errno. */
static int ring_open_file(struct ring *r, const char *file)
{
	struct io_uring_sqe *sqe = ring_sqe(r);

	sqe->opcode = IORING_OP_OPENAT;
	sqe->fd = AT_FDCWD;
	sqe->addr = (uint64_t)(uintptr_t)file;
	sqe->open_flags = O_RDONLY;
	return ring_submit(r);
}

/* One IORING_OP_FSYNC of [off, off + len) (len 0: to the end of the file), waited for. */
static int ring_fsync(struct ring *r, int fd, uint64_t off, unsigned len, unsigned flags)
{
	struct io_uring_sqe *sqe = ring_sqe(r);

	sqe->opcode = IORING_OP_FSYNC;
	sqe->fd = fd;
	sqe->off = off;
	sqe->len = len;
	sqe->fsync_flags = flags;
	return ring_submit(r);
}

/* One IORING_OP_FADVISE of the whole file, waited for. */
static int ring_fadvise(struct ring *r, int fd, int advice)
{
	struct io_uring_sqe *sqe = ring_sqe(r);

	sqe->opcode = IORING_OP_FADVISE;
	sqe->fd = fd;
	sqe->fadvise_advice = (unsigned)advice;
	return ring_submit(r);
}

/*
 * FILE made SIZE long by writes of 1 MiB, then through io_uring: an FSYNC of its first half
 * with IORING_FSYNC_DATASYNC, a FADVISE POSIX_FADV_DONTNEED of it all, an FSYNC of it all.
 * Prints SIZE.
 */
static int cmd_uring_sync(const char *file, uint64_t size)
{
	struct ring r = { .fd = -1 };
	char *buf;
	int fd = open_with_buffer(file, O_RDWR | O_CREAT | O_TRUNC, MiB, &buf), rc = 0, res;

	if (fd < 0)
		return 1;
	for (uint64_t off = 0; !rc && off < size; off += MiB)
		if (write_all(fd, buf, (size_t)(size - off < MiB ? size - off : MiB)))
			rc = fail("cannot write", file);
	if (!rc && ring_open(&r))
		rc = fail("cannot set up io_uring for", file);
	if (!rc && (res = ring_fsync(&r, fd, 0, (unsigned)(size / 2), IORING_FSYNC_DATASYNC)))
		errno = -res, rc = fail("cannot fdatasync (io_uring)", file);
	if (!rc && (res = ring_fadvise(&r, fd, POSIX_FADV_DONTNEED)))
		errno = -res, rc = fail("cannot advise (io_uring)", file);
	if (!rc && (res = ring_fsync(&r, fd, 0, 0, 0)))
		errno = -res, rc = fail("cannot fsync (io_uring)", file);
	if (r.fd >= 0)
		close(r.fd);
	close(fd);
	free(buf);
	if (!rc)
		printf("%" PRIu64 "\n", size);
	return rc;
}

/* Read FILE to its end in reads of BS through io_uring; prints the bytes read. */
static int cmd_uring_read(const char *file, uint64_t bs)
{
	uint64_t off = 0;
	struct ring r;
	char *buf;
	int fd = open_with_buffer(file, O_RDONLY, bs, &buf), n;

	if (fd < 0)
		return 1;
	if (ring_open(&r)) {
		fail("cannot set up io_uring for", file);
		free(buf);
		close(fd);
		return 1;
	}
	while ((n = ring_read(&r, fd, buf, (unsigned)bs, off)) > 0)
		off += (uint64_t)n;
	free(buf);
	close(fd);
	close(r.fd);
	if (n < 0) {
		errno = -n;
		return fail("cannot read", file);
	}
	printf("%" PRIu64 "\n", off);
	return 0;
}

/* xorshift64*: the same draws for the same seed on every machine */
static uint64_t next_random(uint64_t *state)
{
	*state ^= *state >> 12;
	*state ^= *state << 25;
	*state ^= *state >> 27;
	return *state * 2685821657736338717ULL;
}

/*
 * COUNT reads of BS bytes at blocks of FILE drawn from a Zipf law: block k (from 0) with
 * weight 1 / (k + 1)^THETA, by binary search in the cumulative weights. Prints the bytes read.
 */
static int cmd_zipf(const char *file, uint64_t bs, uint64_t count, double theta, uint64_t seed)
{
	uint64_t state = seed * 0x9e3779b97f4a7c15ULL + 1, total = 0, nblocks;
	double *cdf = NULL, sum = 0;
	struct stat st;
	char *buf;
	int fd = open_with_buffer(file, O_RDONLY, bs, &buf);

	if (fd < 0)
		return 1;
	nblocks = fstat(fd, &st) == 0 ? (uint64_t)st.st_size / bs : 0;
	if (nblocks)
		cdf = malloc(nblocks * sizeof(*cdf));
	if (!cdf) {
		fprintf(stderr, "ftload: %s: %s\n", file,
			nblocks ? "out of memory" : "smaller than one block");
		free(buf);
		close(fd);
		return 1;
	}
	for (uint64_t k = 0; k < nblocks; k++)
		cdf[k] = sum += pow((double)(k + 1), -theta);
	for (uint64_t i = 0; i < count; i++) {
		double u = (double)(next_random(&state) >> 11) / 9007199254740992.0 * sum;
		uint64_t lo = 0, hi = nblocks - 1;
		ssize_t n;

		while (lo < hi) {
			uint64_t mid = lo + (hi - lo) / 2;

			if (cdf[mid] < u)
				lo = mid + 1;
			else
				hi = mid;
		}
		n = pread(fd, buf, (size_t)bs, (off_t)(lo * bs));
		if (n < 0) {
			fail("cannot read", file);
			break;
		}
		total += (uint64_t)n;
	}
	free(cdf);
	free(buf);
	close(fd);
	printf("%" PRIu64 "\n", total);
	return 0;
}

/*
 * Reads of BS at FIRST, FIRST + STRIDE, ... under POSIX_FADV_RANDOM, which keeps readahead
 * off for this open file (FMODE_RANDOM), so each caches its own pages alone. NORMAL after
 * them: a model that keeps advice per file, not per open file, then reads the next opener's
 * reads as the kernel does. Prints the bytes read.
 */
static int cmd_stride_read(const char *file, uint64_t bs, uint64_t stride, uint64_t first)
{
	uint64_t total = 0;
	char *buf;
	int fd = open_with_buffer(file, O_RDONLY, bs, &buf), err;

	if (fd < 0)
		return 1;
	err = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM);
	for (uint64_t off = first; !err;) {
		ssize_t n = pread(fd, buf, (size_t)bs, (off_t)off);

		if (n < 0) {
			if (errno != EINTR)
				err = errno;
			continue;	/* the same offset again after EINTR */
		}
		total += (uint64_t)n;
		if ((uint64_t)n < bs || off > (uint64_t)INT64_MAX - stride)
			break;	/* end of file */
		off += stride;
	}
	if (!err)
		err = posix_fadvise(fd, 0, 0, POSIX_FADV_NORMAL);
	free(buf);
	close(fd);
	if (err) {
		errno = err;
		return fail("cannot read", file);
	}
	printf("%" PRIu64 "\n", total);
	return 0;
}

/*
 * One process, two open files of FILE: a sequential reader and a random one taking turns,
 * each through its own struct file, so each has its own readahead state (file->f_ra) and
 * advice (FMODE_RANDOM): the sequential one's window grows, the random reads, advised
 * POSIX_FADV_RANDOM, read their pages alone. Each keeps to its half of the file, so neither
 * finds the other's pages cached; whole: the random reader reads all of it, so the sequential
 * one's windows meet its pages. Prints the bytes read by both.
 */
static int cmd_two_readers(const char *file, uint64_t bs, uint64_t seed, bool whole)
{
	uint64_t state = seed * 0x9e3779b97f4a7c15ULL + 1, total = 0, nblocks;
	struct stat st;
	char *buf;
	int seq = open_with_buffer(file, O_RDONLY, bs, &buf), rnd = -1, rc = 0;

	if (seq < 0)
		return 1;
	rnd = open(file, O_RDONLY);
	nblocks = fstat(seq, &st) == 0 ? (uint64_t)st.st_size / bs / 2 : 0;	/* a half's */
	if (rnd < 0) {
		rc = fail("cannot open", file);
	} else if (!nblocks) {
		fprintf(stderr, "ftload: %s: smaller than two blocks\n", file);
		rc = 1;
	} else if ((errno = posix_fadvise(rnd, 0, 0, POSIX_FADV_RANDOM))) {
		rc = fail("cannot advise", file);
	}
	if (rc)
		goto out;
	for (uint64_t i = 0; i < nblocks;) {
		ssize_t n = read(seq, buf, (size_t)bs), r;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = n < 0 ? fail("cannot read", file) : 0;
			break;
		}
		total += (uint64_t)n;
		i++;
		do
			r = pread(rnd, buf, (size_t)bs, (off_t)((whole ? next_random(&state) %
				  (2 * nblocks) : nblocks + next_random(&state) % nblocks) * bs));
		while (r < 0 && errno == EINTR);
		if (r < 0) {
			rc = fail("cannot read", file);
			break;
		}
		total += (uint64_t)r;
	}
out:
	if (rnd >= 0)
		close(rnd);
	close(seq);
	free(buf);
	if (!rc)
		printf("%" PRIu64 "\n", total);
	return rc;
}

/* pread of BS at off, again after EINTR: the bytes read, or -1 (errno set) */
static ssize_t pread_whole(int fd, char *buf, uint64_t bs, uint64_t off)
{
	ssize_t n;

	do
		n = pread(fd, buf, (size_t)bs, (off_t)off);
	while (n < 0 && errno == EINTR);
	return n;
}

/* the part of the file each open of reopen-reads reads in */
#define REOPEN_REGION	(2ULL << 20)

/*
 * Opens and closes FILE in turn, the advice of one open never reset: each open file starts
 * with a fresh readahead state and no advice in the kernel (do_dentry_open()), so the odd
 * opens' reads read ahead although the open before them, at the same address, was advised
 * POSIX_FADV_RANDOM. Prints the bytes read.
 */
static int cmd_reopen_reads(const char *file, uint64_t bs, uint64_t count, bool uring)
{
	uint64_t total = 0;
	char *buf = buffer(bs);
	struct ring r = { .fd = -1 };
	int rc = 0;

	if (!buf)
		return 1;
	if (uring && ring_open(&r))
		rc = fail("cannot set up io_uring for", file);
	for (uint64_t k = 0; k < count && !rc; k++) {
		uint64_t base = k * REOPEN_REGION, end = k % 2 ? base + REOPEN_REGION / 2 : base + bs;
		int fd = uring ? ring_open_file(&r, file) : open(file, O_RDONLY);

		if (fd < 0) {
			errno = uring ? -fd : errno;
			rc = fail("cannot open", file);
			break;
		}
		if (k % 2 == 0 && (errno = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM)))
			rc = fail("cannot advise", file);
		for (uint64_t off = base; !rc && off < end; off += bs) {
			ssize_t n = pread_whole(fd, buf, bs, off);

			if (n < 0)
				rc = fail("cannot read", file);
			else if ((uint64_t)n < bs)
				break;	/* end of file */
			else
				total += (uint64_t)n;
		}
		close(fd);
	}
	if (r.fd >= 0)
		close(r.fd);
	free(buf);
	if (!rc)
		printf("%" PRIu64 "\n", total);
	return rc;
}

/* The commands of FILE SIZE: the bounds of SIZE, and the command. */
static const struct {
	const char *name;
	uint64_t min, max;
	int (*run)(const char *file, uint64_t size);
} file_size_cmds[] = {
	{ "fallocate", 1, INT64_MAX, cmd_fallocate },
	{ "readahead", 0, INT64_MAX, cmd_readahead },
	{ "msync-write", 1, 1ULL << 31, cmd_msync_write },
	{ "uring-sync", 0, 1ULL << 31, cmd_uring_sync },
};

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
		uint64_t stride, count, first = 0;

		if (argc != 5 && argc != 6)
			return usage(cmd, "FILE STRIDE COUNT [FIRST]");
		stride = size_arg(argv[3], "STRIDE", 1, INT64_MAX, &bad);
		count = size_arg(argv[4], "COUNT", 0, INT64_MAX, &bad);
		if (argc == 6)
			first = size_arg(argv[5], "FIRST", 1, MAX_BS, &bad);
		/* the last offset, (COUNT - 1) * STRIDE, must fit an off_t */
		if (!bad && count > 1 && count - 1 > (uint64_t)INT64_MAX / stride) {
			fprintf(stderr, "ftload: poke: STRIDE %s times COUNT %s passes the largest"
				" file offset\n", argv[3], argv[4]);
			return 2;
		}
		return bad ? 2 : cmd_poke(argv[2], stride, count, first);
	}
	if (!strcmp(cmd, "reread")) {
		uint64_t bs, passes;

		if (argc != 5)
			return usage(cmd, "FILE BS PASSES");
		bs = size_arg(argv[3], "BS", 1, MAX_BS, &bad);
		passes = size_arg(argv[4], "PASSES", 1, UINT32_MAX, &bad);
		return bad ? 2 : cmd_read(argv[2], bs, passes);
	}
	if (!strcmp(cmd, "probed-read")) {
		uint64_t bs;

		if (argc != 4)
			return usage(cmd, "FILE BS");
		bs = size_arg(argv[3], "BS", 1, MAX_BS, &bad);
		return bad ? 2 : cmd_probed_read(argv[2], bs);
	}
	if (!strcmp(cmd, "drop")) {
		if (argc != 3)
			return usage(cmd, "FILE");
		return cmd_drop(argv[2]);
	}
	if (!strcmp(cmd, "mmap-read")) {
		if (argc != 3)
			return usage(cmd, "FILE");
		return cmd_mmap_read(argv[2]);
	}
	if (!strcmp(cmd, "advised-write")) {
		uint64_t size, bs;

		if (argc != 5)
			return usage(cmd, "FILE SIZE BS");
		size = size_arg(argv[3], "SIZE", 1, INT64_MAX / 2, &bad);
		bs = size_arg(argv[4], "BS", 1, MAX_BS, &bad);
		return bad ? 2 : cmd_advised_write(argv[2], size, bs);
	}
	if (!strcmp(cmd, "uring-read")) {
		uint64_t bs;

		if (argc != 4)
			return usage(cmd, "FILE BS");
		bs = size_arg(argv[3], "BS", 1, UINT32_MAX, &bad);
		return bad ? 2 : cmd_uring_read(argv[2], bs);
	}
	if (!strcmp(cmd, "zipf")) {
		uint64_t bs, count, seed;
		char *end;
		double theta;

		if (argc != 7)
			return usage(cmd, "FILE BS COUNT THETA SEED");
		bs = size_arg(argv[3], "BS", 1, MAX_BS, &bad);
		count = size_arg(argv[4], "COUNT", 0, INT64_MAX, &bad);
		seed = size_arg(argv[6], "SEED", 0, INT64_MAX, &bad);
		theta = strtod(argv[5], &end);
		if (*end || end == argv[5] || !(theta >= 0 && theta <= 10)) {
			fprintf(stderr, "ftload: zipf: THETA '%s' is not a number from 0 to 10\n",
				argv[5]);
			return 2;
		}
		return bad ? 2 : cmd_zipf(argv[2], bs, count, theta, seed);
	}
	if (!strcmp(cmd, "stride-read")) {
		uint64_t bs, stride, first;

		if (argc != 6)
			return usage(cmd, "FILE BS STRIDE FIRST");
		bs = size_arg(argv[3], "BS", 1, MAX_BS, &bad);
		stride = size_arg(argv[4], "STRIDE", 1, INT64_MAX, &bad);
		first = size_arg(argv[5], "FIRST", 0, INT64_MAX, &bad);
		return bad ? 2 : cmd_stride_read(argv[2], bs, stride, first);
	}
	if (!strcmp(cmd, "two-readers")) {
		uint64_t bs, seed;

		if ((argc != 5 && argc != 6) || (argc == 6 && strcmp(argv[5], "whole")))
			return usage(cmd, "FILE BS SEED [whole]");
		bs = size_arg(argv[3], "BS", 1, MAX_BS, &bad);
		seed = size_arg(argv[4], "SEED", 0, INT64_MAX, &bad);
		return bad ? 2 : cmd_two_readers(argv[2], bs, seed, argc == 6);
	}
	if (!strcmp(cmd, "reopen-reads")) {
		uint64_t bs, count;

		if ((argc != 5 && argc != 6) || (argc == 6 && strcmp(argv[5], "uring")))
			return usage(cmd, "FILE BS COUNT [uring]");
		bs = size_arg(argv[3], "BS", 1, REOPEN_REGION / 2, &bad);
		count = size_arg(argv[4], "COUNT", 0, INT64_MAX / REOPEN_REGION, &bad);
		return bad ? 2 : cmd_reopen_reads(argv[2], bs, count, argc == 6);
	}
	for (size_t i = 0; i < sizeof(file_size_cmds) / sizeof(file_size_cmds[0]); i++) {
		uint64_t size;

		if (strcmp(cmd, file_size_cmds[i].name))
			continue;
		if (argc != 4)
			return usage(cmd, "FILE SIZE");
		size = size_arg(argv[3], "SIZE", file_size_cmds[i].min, file_size_cmds[i].max, &bad);
		return bad ? 2 : file_size_cmds[i].run(argv[2], size);
	}
	fprintf(stderr, "ftload: unknown command '%s'\n", cmd);
	return usage(NULL, NULL);
}
