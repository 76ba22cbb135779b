// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page cache before the trace, as the replay driver keeps it: startcache.h.
 *
 * cachestat(2) counts a file's dirty pages but does not say which they are. The rule: the
 * last of its cached pages, in file order. A file written from start to end (the usual way a
 * file is made) is dirtied in that order, and the flusher cleans each inode from its
 * writeback_index onwards (mm/page-writeback.c, write_cache_pages() and writeback_iter(),
 * 6.18), so what is still dirty is the part written last. Exact where the whole file is dirty
 * or none of it, the common cases.
 */
#include <stdlib.h>
#include <string.h>

#include "replay/startcache.h"
#include "util/grow.h"

void start_cache_init(struct replay_start_cache *s)
{
	memset(s, 0, sizeof(*s));
}

void start_cache_release(struct replay_start_cache *s)
{
	free(s->v);
	start_cache_init(s);
}

int start_cache_keep(struct replay_start_cache *s, const struct start_range *r)
{
	struct start_range *v = ft_grow(s->v, &s->cap, s->n, sizeof(*v), 64);

	if (!v)
		return -1;
	s->v = v;
	s->v[s->n++] = *r;
	return 0;
}

void start_cache_sent(struct replay_start_cache *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

bool start_cache_count(struct replay_start_cache *s, uint32_t dev, uint64_t ino, uint64_t pages)
{
	if (s->files && s->last_dev == dev && s->last_ino == ino)
		return false;
	s->last_dev = dev;
	s->last_ino = ino;
	s->file_pages = 0;
	s->files++;
	s->pages += pages;
	return true;
}

uint64_t start_cache_dirty(struct replay_start_cache *s, uint64_t n, uint64_t nr_cache,
			   uint64_t nr_dirty)
{
	uint64_t first = s->file_pages, end = first + n;
	uint64_t clean = nr_dirty < nr_cache ? nr_cache - nr_dirty : 0;

	s->file_pages = end;
	if (end <= clean)
		return 0;
	return end - (first > clean ? first : clean);
}

void start_cache_deleted(struct file_info *fi, uint64_t idx, uint64_t n)
{
	if (!fi->start_cached)
		return;
	if (!fi->del_end || idx < fi->del_lo)
		fi->del_lo = idx;
	if (idx + n > fi->del_end)
		fi->del_end = idx + n;
}

bool start_cache_mark_of_before(const struct file_info *fi, uint64_t first, uint64_t last)
{
	return fi->start_cached && (!fi->del_end || last < fi->del_lo || first >= fi->del_end);
}
