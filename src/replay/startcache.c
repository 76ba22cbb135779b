// SPDX-License-Identifier: GPL-2.0-or-later
/* The page cache before the trace, as the replay driver keeps it: startcache.h. */
#include <stdlib.h>
#include <string.h>

#include "replay/startcache.h"

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
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 64;
		struct start_range *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -1;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = *r;
	return 0;
}

void start_cache_sent(struct replay_start_cache *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
}

void start_cache_count(struct replay_start_cache *s, uint32_t dev, uint64_t ino, uint64_t pages)
{
	if (s->files && s->last_dev == dev && s->last_ino == ino)
		return;
	s->last_dev = dev;
	s->last_ino = ino;
	s->files++;
	s->pages += pages;
}
