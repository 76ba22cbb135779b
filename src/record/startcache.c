// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A file's pages in the page cache before the trace (FT_START_CACHE), probed without touching
 * their LRU state (util/residency.h): cachestat(2) answers a file wholly cached or not cached
 * at all in one call, else mincore(2) gives the runs of cached pages.
 */
#define _GNU_SOURCE	/* O_NOATIME */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record/record.h"
#include "util/residency.h"

#define PROBE_RANGES_MAX (1u << 20)	/* runs kept per file: 16 MiB */

static __u64 mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (__u64)t.tv_sec * 1000000000ull + (__u64)t.tv_nsec;
}

struct probe_runs {
	struct ft_pageset *s;
	bool cut;
};

static int add_run(void *arg, uint64_t first, uint64_t n)
{
	struct probe_runs *p = arg;

	if (p->s->n >= PROBE_RANGES_MAX) {
		p->cut = true;
		return 1;
	}
	return ft_pageset_add(p->s, first, n);
}

/* The runs of cached pages into s; past PROBE_RANGES_MAX runs *cut and the rest left out. */
static int probe_mincore(int fd, __u64 size, struct ft_pageset *s, bool *cut)
{
	struct probe_runs p = { .s = s };
	int rc = ft_mincore_runs(fd, size, add_run, &p);

	*cut = p.cut;
	return rc < 0 ? -1 : 0;
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
	struct ft_cachestat cs;
	bool cut = false;
	struct stat st;
	int fd = open_probed(path, dev, ino, &st), rc = 0;

	if (fd < 0)
		return -1;
	memset(sc, 0, sizeof(*sc));
	sc->dev = dev;
	sc->ino = ino;
	pages = ((__u64)st.st_size + (__u64)psize - 1) / (__u64)psize;
	if (ft_cachestat(fd, &cs)) {
		sc->flags |= FT_SC_CACHESTAT;
		sc->nr_dirty = cs.nr_dirty;
		sc->nr_writeback = cs.nr_writeback;
		if (cs.nr_cache && cs.nr_cache >= pages)
			rc = ft_pageset_add(s, 0, pages);	/* wholly cached: one range */
		else if (cs.nr_cache)
			rc = probe_mincore(fd, (__u64)st.st_size, s, &cut);
		if (cs.nr_cache && cs.nr_cache < pages)
			sc->flags |= FT_SC_MINCORE;
	} else {
		sc->flags |= FT_SC_MINCORE | FT_SC_NO_DIRTY;
		rc = probe_mincore(fd, (__u64)st.st_size, s, &cut);
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
