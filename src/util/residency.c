// SPDX-License-Identifier: GPL-2.0-or-later
/* Cached pages of an open file, looked at without touching them (residency.h). */
#include <errno.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util/residency.h"

#ifndef __NR_cachestat
#define __NR_cachestat 451	/* the same number on every architecture */
#endif

#define MINCORE_CHUNK	(1ull << 30)	/* bytes mapped and walked by one mincore() */

/* The kernel's struct cachestat_range and struct cachestat (uapi/linux/mman.h). */
struct kernel_cachestat_range {
	uint64_t off, len;
};

struct kernel_cachestat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

bool ft_cachestat(int fd, struct ft_cachestat *cs)
{
	return ft_cachestat_range(fd, 0, 0, cs);	/* len 0: to the end of the file */
}

bool ft_cachestat_range(int fd, uint64_t off, uint64_t len, struct ft_cachestat *cs)
{
	struct kernel_cachestat_range range = { off, len };
	struct kernel_cachestat k;

	if (syscall(__NR_cachestat, fd, &range, &k, 0) != 0)
		return false;
	*cs = (struct ft_cachestat){ k.nr_cache, k.nr_dirty, k.nr_writeback, k.nr_evicted,
				     k.nr_recently_evicted };
	return true;
}

/* The runs of [off, off + len) bytes, len > 0, from one mapping's vector. */
static int walk_chunk(int fd, uint64_t off, uint64_t len, uint64_t psize, unsigned char *vec,
		      int (*run)(void *arg, uint64_t first, uint64_t n), void *arg)
{
	uint64_t pages = (len + psize - 1) / psize, base = off / psize;
	void *addr = mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, (off_t)off);
	int rc = 0, e;

	if (addr == MAP_FAILED)
		return -1;
	rc = mincore(addr, (size_t)len, vec);
	e = errno;
	munmap(addr, (size_t)len);
	if (rc < 0) {
		errno = e;
		return -1;
	}
	for (uint64_t i = 0; i < pages && !rc;) {
		uint64_t j = i;

		if (!(vec[i] & 1)) {
			i++;
			continue;
		}
		while (j < pages && (vec[j] & 1))
			j++;
		rc = run(arg, base + i, j - i);
		i = j;
	}
	return rc;
}

int ft_mincore_runs(int fd, uint64_t size, int (*run)(void *arg, uint64_t first, uint64_t n),
		    void *arg)
{
	long page = sysconf(_SC_PAGESIZE);
	uint64_t psize = page > 0 ? (uint64_t)page : 4096;
	unsigned char *vec = malloc((size_t)(MINCORE_CHUNK / psize));
	int rc = 0;

	if (!vec) {
		errno = ENOMEM;
		return -1;
	}
	for (uint64_t off = 0; off < size && !rc; off += MINCORE_CHUNK)
		rc = walk_chunk(fd, off, size - off < MINCORE_CHUNK ? size - off : MINCORE_CHUNK,
				psize, vec, run, arg);
	free(vec);
	return rc;
}

static int count_run(void *arg, uint64_t first, uint64_t n)
{
	(void)first;
	*(uint64_t *)arg += n;
	return 0;
}

int ft_resident_pages(int fd, uint64_t size, uint64_t *pages)
{
	struct ft_cachestat cs;

	*pages = 0;
	if (ft_cachestat(fd, &cs)) {
		*pages = cs.nr_cache;
		return 0;
	}
	return ft_mincore_runs(fd, size, count_run, pages);
}
