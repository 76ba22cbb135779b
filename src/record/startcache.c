// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A file's pages in the page cache before the trace (FT_START_CACHE), probed without touching
 * their LRU state (util/residency.h): cachestat(2) answers a file wholly cached or not cached
 * at all in one call, else mincore(2) gives the runs of cached pages. Pages evicted before
 * the trace whose shadow entries remain (FT_START_SHADOWS) are found by cachestat(2) alone,
 * halving each range that holds some until a range is all one kind.
 */
#define _GNU_SOURCE	/* O_NOATIME */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "record/record.h"
#include "util/residency.h"

#define PROBE_RANGES_MAX (1u << 20)	/* runs kept per file: 16 MiB */
#define SHADOW_CALLS_MAX (1u << 14)	/* cachestat(2) calls locating one file's shadows */

static __u64 mono_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (__u64)t.tv_sec * 1000000000ull + (__u64)t.tv_nsec;
}

void ft_start_probes_keep_folios(void)
{
	if (prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) == 0)
		prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0);
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

struct shadow_walk {
	int fd;
	__u64 psize;
	unsigned calls;
	struct ft_start_shadow_sets *sets;
};

/*
 * The shadows of pages [first, first + n), which cachestat counted in *cs: a range all
 * evicted and all recently or all not goes into its set, else each half is counted and
 * looked into. Past SHADOW_CALLS_MAX calls the rest is left out (FT_SS_CUT).
 */
static int locate_shadows(struct shadow_walk *w, __u64 first, __u64 n,
			  const struct ft_cachestat *cs)
{
	struct ft_cachestat half[2];
	__u64 h = n / 2;

	if (!cs->nr_evicted)
		return 0;
	if (cs->nr_evicted >= n && (!cs->nr_recently_evicted || cs->nr_recently_evicted >= n))
		return ft_pageset_add(cs->nr_recently_evicted ? &w->sets->recent : &w->sets->old,
				      first, n);
	if (n < 2 || w->calls + 2 > SHADOW_CALLS_MAX) {
		w->sets->ss.flags |= FT_SS_CUT;
		return 0;
	}
	w->calls += 2;
	if (!ft_cachestat_range(w->fd, first * w->psize, h * w->psize, &half[0]) ||
	    !ft_cachestat_range(w->fd, (first + h) * w->psize, (n - h) * w->psize, &half[1]))
		return 0;
	if (locate_shadows(w, first, h, &half[0]) < 0)
		return -1;
	return locate_shadows(w, first + h, n - h, &half[1]);
}

static int probe_shadows(int fd, __u64 psize, __u64 pages, const struct ft_cachestat *cs,
			 struct ft_start_shadow_sets *sets)
{
	struct shadow_walk w = { .fd = fd, .psize = psize, .sets = sets };
	__u64 t0 = mono_ns();
	int rc;

	sets->ss.nr_evicted = cs->nr_evicted;
	sets->ss.nr_recent = cs->nr_recently_evicted;
	rc = locate_shadows(&w, 0, pages, cs);
	sets->ss.probe_ns = mono_ns() - t0;
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
			 struct ft_pageset *s, struct ft_start_shadow_sets *shadows)
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
		shadows->ss.dev = dev;
		shadows->ss.ino = ino;
		if (!rc && cs.nr_evicted)
			rc = probe_shadows(fd, (__u64)psize, pages, &cs, shadows);
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
