// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * advise FILE STEP...: the steps, in order, on FILE opened read-only and mapped whole
 * (MAP_SHARED, PROT_READ) at a 2 MiB-aligned address. A small program for
 * tests/record-advice.sh, so that the recorded calls are these and no others. Each step is
 * WHAT:OFFSET:LENGTH, sizes in bytes or with a K or M suffix, a length of 0 to the end of the
 * file:
 *   fw, fd, fr, fs, fn   posix_fadvise WILLNEED, DONTNEED, RANDOM, SEQUENTIAL, NORMAL
 *   mw, mh, mr, ms, mn   madvise of the mapping: WILLNEED, HUGEPAGE, RANDOM, SEQUENTIAL, NORMAL
 *   ra                   readahead(2)
 *   rd                   pread in 128 KiB reads
 *   ld                   a load from each page of the mapping
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define ALIGN_2M	((size_t)2 << 20)

static uint64_t size_arg(const char *s, char **end)
{
	uint64_t v = strtoull(s, end, 10);

	if (**end == 'K' || **end == 'k')
		v <<= 10, (*end)++;
	else if (**end == 'M' || **end == 'm')
		v <<= 20, (*end)++;
	return v;
}

static int advice_of(char kind, char c)
{
	switch (c) {
	case 'w': return kind == 'f' ? POSIX_FADV_WILLNEED : MADV_WILLNEED;
	case 'd': return kind == 'f' ? POSIX_FADV_DONTNEED : -1;
	case 'r': return kind == 'f' ? POSIX_FADV_RANDOM : MADV_RANDOM;
	case 's': return kind == 'f' ? POSIX_FADV_SEQUENTIAL : MADV_SEQUENTIAL;
	case 'n': return kind == 'f' ? POSIX_FADV_NORMAL : MADV_NORMAL;
	case 'h': return kind == 'm' ? MADV_HUGEPAGE : -1;
	default: return -1;
	}
}

int main(int argc, char **argv)
{
	static char buf[128 << 10];
	volatile char sink = 0;
	struct stat st;
	char *map = NULL, *area;
	long page = sysconf(_SC_PAGESIZE);
	int fd;

	if (argc < 2) {
		fprintf(stderr, "usage: advise FILE WHAT:OFFSET:LENGTH...\n");
		return 2;
	}
	fd = open(argv[1], O_RDONLY);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[1]);
		return 1;
	}
	if (st.st_size) {
		/* reserve 2 MiB more and map the file at an aligned address within it */
		area = mmap(NULL, (size_t)st.st_size + ALIGN_2M, PROT_NONE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (area == MAP_FAILED) {
			perror("mmap");
			return 1;
		}
		map = (char *)(((uintptr_t)area + ALIGN_2M - 1) & ~(uintptr_t)(ALIGN_2M - 1));
		if (mmap(map, (size_t)st.st_size, PROT_READ, MAP_SHARED | MAP_FIXED, fd, 0) ==
		    MAP_FAILED) {
			perror("mmap");
			return 1;
		}
	}
	for (int i = 2; i < argc; i++) {
		const char *s = argv[i];
		char *end = (char *)s + 2;
		uint64_t off, len;
		int adv;

		if (strlen(s) < 3 || s[2] != ':')
			goto usage;
		off = size_arg(s + 3, &end);
		if (*end != ':')
			goto usage;
		len = size_arg(end + 1, &end);
		if (*end || off > (uint64_t)st.st_size)
			goto usage;
		if (!len || len > (uint64_t)st.st_size - off)
			len = (uint64_t)st.st_size - off;
		if (!strncmp(s, "rd", 2) || !strncmp(s, "ld", 2)) {
			for (uint64_t o = off; o < off + len;) {
				if (s[0] == 'l') {
					sink += map[o];
					o += (uint64_t)page;
					continue;
				}
				ssize_t n = pread(fd, buf, len - (o - off) < sizeof(buf) ?
							   len - (o - off) : sizeof(buf), (off_t)o);
				if (n <= 0) {
					perror("pread");
					return 1;
				}
				o += (uint64_t)n;
			}
			continue;
		}
		if (!strncmp(s, "ra", 2)) {
			if (readahead(fd, (off64_t)off, (size_t)len)) {
				perror("readahead");
				return 1;
			}
			continue;
		}
		adv = advice_of(s[0], s[1]);
		if (adv < 0 || (s[0] != 'f' && s[0] != 'm'))
			goto usage;
		if (s[0] == 'f') {
			int e = posix_fadvise(fd, (off_t)off, (off_t)len, adv);

			if (e) {
				fprintf(stderr, "posix_fadvise: %s\n", strerror(e));
				return 1;
			}
		} else if (madvise(map + off, len, adv)) {
			perror("madvise");
			return 1;
		}
		continue;
usage:
		fprintf(stderr, "advise: bad step %s\n", s);
		return 2;
	}
	(void)sink;
	return 0;
}
