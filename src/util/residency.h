/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the page cache holds of an open file, looked at without touching it: no folio is
 * referenced or marked accessed, so looking does not change what is looked at.
 * cachestat(2) (6.5 on) counts cached, dirty and writeback pages from the xarray alone
 * (mm/filemap.c filemap_cachestat()). mincore(2) on a PROT_READ MAP_SHARED mapping that is
 * never touched (mm/mincore.c mincore_page(): a lookup of the folio, no
 * folio_mark_accessed()) gives the pages themselves; its vector is a byte per page, so the
 * file is walked a chunk at a time. record's start state (record/startcache.c) and top
 * --cached (top/cached.c) both look this way.
 */
#ifndef FT_UTIL_RESIDENCY_H
#define FT_UTIL_RESIDENCY_H

#include <stdbool.h>
#include <stdint.h>

struct ft_cachestat {
	uint64_t nr_cache, nr_dirty, nr_writeback, nr_evicted, nr_recently_evicted;
};

/* The whole file's counts; false where the kernel has no cachestat(2) or refuses the file. */
bool ft_cachestat(int fd, struct ft_cachestat *cs);
/* The counts of len bytes from off (len 0: to the end), likewise. */
bool ft_cachestat_range(int fd, uint64_t off, uint64_t len, struct ft_cachestat *cs);

/*
 * Each run of cached pages of the file's first size bytes, in order: run(arg, first page,
 * pages). run returns 0 to go on, anything else stops the walk and is returned. 0 at the
 * end, -1 with errno when a mapping or mincore() failed, or out of memory.
 */
int ft_mincore_runs(int fd, uint64_t size, int (*run)(void *arg, uint64_t first, uint64_t n),
		    void *arg);

/* Cached pages of the file's first size bytes: cachestat(2), else mincore(2). -1 and errno. */
int ft_resident_pages(int fd, uint64_t size, uint64_t *pages);

#endif
