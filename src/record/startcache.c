// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A file's pages in the page cache before the trace (FT_START_CACHE), probed without touching
 * their LRU state. cachestat(2) (6.5 on) counts cached, dirty and writeback pages from the
 * xarray alone (mm/filemap.c filemap_cachestat(): no folio is referenced, let alone marked
 * accessed), and answers a file wholly cached or not cached at all in one call. Otherwise
 * mincore(2) on a PROT_READ MAP_SHARED mapping that is never touched (mm/mincore.c
 * mincore_page(): a lookup of the folio, no folio_mark_accessed()) gives the pages, turned
 * into runs here; its vector is a byte per page, so the file is walked a chunk at a time.
 */
#define _GNU_SOURCE	/* O_NOATIME */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "record/record.h"

#ifndef __NR_cachestat
#define __NR_cachestat 451	/* the same number on every architecture */
#endif

#define PROBE_CHUNK	(1ull << 30)	/* bytes mapped and walked by one mincore() */
#define PROBE_RANGES_MAX (1u << 20)	/* runs kept per file: 16 MiB */

struct cachestat_range {
	__u64 off, len;
};

struct cachestat {
	__u64 nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

static __u64 mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (__u64)t.tv_sec * 1000000000ull + (__u64)t.tv_nsec;
}

/* The whole file's counts; false where the kernel has no cachestat(2) or refuses the file. */
static bool probe_cachestat(int fd, struct cachestat *cs)
{
	struct cachestat_range all = { 0, 0 };	/* len 0: to the end of the file */

	return syscall(__NR_cachestat, fd, &all, cs, 0) == 0;
}

/* The cached runs of [off, off + len) bytes, len > 0, from one mapping's mincore() vector. */
static int probe_chunk(int fd, __u64 off, __u64 len, long psize, unsigned char *vec,
		       struct ft_pageset *s, bool *cut)
{
	__u64 pages = (len + (__u64)psize - 1) / (__u64)psize, base = off / (__u64)psize;
	void *addr = mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, (off_t)off);
	int rc = 0;

	if (addr == MAP_FAILED)
		return -1;
	if (mincore(addr, (size_t)len, vec) < 0) {
		munmap(addr, (size_t)len);
		return -1;
	}
	munmap(addr, (size_t)len);
	for (__u64 i = 0; i < pages && !rc;) {
		__u64 j = i;

		if (!(vec[i] & 1)) {
			i++;
			continue;
		}
		while (j < pages && (vec[j] & 1))
			j++;
		if (s->n >= PROBE_RANGES_MAX) {
			*cut = true;
			break;
		}
		rc = ft_pageset_add(s, base + i, j - i);
		i = j;
	}
	return rc;
}

static int probe_mincore(int fd, __u64 size, long psize, struct ft_pageset *s, bool *cut)
{
	unsigned char *vec = malloc((size_t)(PROBE_CHUNK / (__u64)psize));
	int rc = 0;

	if (!vec)
		return -1;
	for (__u64 off = 0; off < size && !rc && !*cut; off += PROBE_CHUNK)
		rc = probe_chunk(fd, off, size - off < PROBE_CHUNK ? size - off : PROBE_CHUNK,
				 psize, vec, s, cut);
	free(vec);
	return rc;
}

/* Opens path for the probe, and checks it is still the file (dev, ino) names. */
static int open_probed(const char *path, __u32 dev, __u64 ino, struct stat *st)
{
	int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
	int fd = open(path, flags | O_NOATIME);

	if (fd < 0 && errno == EPERM)	/* O_NOATIME is the owner's (or CAP_FOWNER's) */
		fd = open(path, flags);
	if (fd < 0)
		return -1;
	if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode) || ft_kdev(st->st_dev) != dev ||
	    (__u64)st->st_ino != ino) {
		close(fd);
		return -1;
	}
	return fd;
}

int ft_start_cache_probe(const char *path, __u32 dev, __u64 ino, struct ft_start_cache *sc,
			 struct ft_pageset *s)
{
	long psize = sysconf(_SC_PAGESIZE);
	__u64 t0 = mono_ns(), pages;
	struct cachestat cs;
	bool cut = false;
	struct stat st;
	int fd = open_probed(path, dev, ino, &st), rc = 0;

	if (fd < 0)
		return -1;
	memset(sc, 0, sizeof(*sc));
	sc->dev = dev;
	sc->ino = ino;
	pages = ((__u64)st.st_size + (__u64)psize - 1) / (__u64)psize;
	if (probe_cachestat(fd, &cs)) {
		sc->flags |= FT_SC_CACHESTAT;
		sc->nr_dirty = cs.nr_dirty;
		sc->nr_writeback = cs.nr_writeback;
		if (cs.nr_cache && cs.nr_cache >= pages)
			rc = ft_pageset_add(s, 0, pages);	/* wholly cached: one range */
		else if (cs.nr_cache)
			rc = probe_mincore(fd, (__u64)st.st_size, psize, s, &cut);
		if (cs.nr_cache && cs.nr_cache < pages)
			sc->flags |= FT_SC_MINCORE;
	} else {
		sc->flags |= FT_SC_MINCORE | FT_SC_NO_DIRTY;
		rc = probe_mincore(fd, (__u64)st.st_size, psize, s, &cut);
	}
	close(fd);
	if (cut)
		sc->flags |= FT_SC_CUT;
	sc->nr_cache = ft_pageset_pages(s);
	/*
	 * Its time is the probe's end: what the trace inserted or deleted while the probe ran
	 * (readahead in flight, a slow mincore walk) may or may not be in what it saw, and is
	 * corrected by those events as what came before it
	 */
	sc->hdr.ts = mono_ns();
	sc->probe_ns = sc->hdr.ts - t0;
	return rc;
}
