// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The start state's folios the kernel's deletes show: startfolios.h.
 *
 * A page cached before the trace stays in the folio that held it until the kernel deletes
 * that folio (mm/filemap.c __filemap_remove_folio(), by reclaim, truncation, invalidation or
 * DAMON); a folio is deleted whole, so the first delete over a start page, before any
 * insertion over it, names its start folio when every page of that folio was a start page
 * none of whose pages went before. A split (truncate_inode_partial_folio(), 6.18) leaves
 * smaller folios of the same pages, which later deletes then show: the orders after it.
 */
#include <stdlib.h>
#include <string.h>

#include "model/bitmap.h"
#include "replay/startfolios.h"
#include "util/grow.h"

void start_folios_init(struct replay_start_folios *s)
{
	memset(s, 0, sizeof(*s));
}

void start_folios_release(struct replay_start_folios *s)
{
	for (size_t i = 0; i < s->ngroups; i++) {
		free(s->groups[i].cached);
		free(s->groups[i].settled);
		free(s->groups[i].folios);
	}
	free(s->groups);
	u64map_free(&s->latest);
	start_folios_init(s);
}

static uint64_t *bitmap_alloc(uint64_t bits)
{
	return calloc((bits + 63) / 64 ? (bits + 63) / 64 : 1, sizeof(uint64_t));
}

/* The group's bitmaps made to cover [base, end) as well, the bits kept. 0, or -1. */
static int group_cover(struct start_group *g, uint64_t base, uint64_t end)
{
	uint64_t nb = g->cached && g->base < base ? g->base : base;
	uint64_t ne = g->cached && g->end > end ? g->end : end;
	uint64_t *cached, *settled;

	if (g->cached && nb == g->base && ne == g->end)
		return 0;
	cached = bitmap_alloc(ne - nb);
	settled = bitmap_alloc(ne - nb);
	if (!cached || !settled) {
		free(cached);
		free(settled);
		return -1;
	}
	/* rare (a file's later record reaching past its first): bit by bit */
	for (uint64_t p = g->cached ? g->base : 0; g->cached && p < g->end; p++) {
		if (bitmap_test(g->cached, p - g->base))
			bitmap_set_range(cached, p - nb, p - nb + 1);
		if (bitmap_test(g->settled, p - g->base))
			bitmap_set_range(settled, p - nb, p - nb + 1);
	}
	free(g->cached);
	free(g->settled);
	g->cached = cached;
	g->settled = settled;
	g->base = nb;
	g->end = ne;
	return 0;
}

/* The group of a start record: the file's current one, or a new one after another file's. */
static struct start_group *record_group(struct replay_start_folios *s, uint32_t dev, uint64_t ino)
{
	struct start_group *v;
	uint64_t *latest;
	bool added;

	if (s->ngroups && s->last_dev == dev && s->last_ino == ino)
		return &s->groups[s->ngroups - 1];
	v = ft_grow(s->groups, &s->cap, s->ngroups, sizeof(*v), 64);
	if (!v)
		return NULL;
	s->groups = v;
	latest = u64map_get_or_add(&s->latest, file_key(dev, ino), 0, &added);
	if (!latest)
		return NULL;
	*latest = s->ngroups + 1;
	memset(&v[s->ngroups], 0, sizeof(v[0]));
	s->last_dev = dev;
	s->last_ino = ino;
	return &v[s->ngroups++];
}

static int note_start_cache(struct replay_start_folios *s, const struct ft_start_cache *sc)
{
	const struct ft_page_range *r = ft_start_cache_ranges(sc);
	struct start_group *g = record_group(s, sc->dev, sc->ino);

	if (!g)
		return -1;
	for (unsigned i = 0; i < sc->nranges; i++) {
		if (!r[i].len || r[i].start + r[i].len < r[i].start)
			continue;
		if (group_cover(g, r[i].start, r[i].start + r[i].len) < 0)
			return -1;
		bitmap_set_range(g->cached, r[i].start - g->base, r[i].start + r[i].len - g->base);
	}
	return 0;
}

/* The group a folio event of (dev, ino) belongs to, or NULL. */
static struct start_group *event_group(const struct replay_start_folios *s, uint32_t dev, uint64_t ino)
{
	const uint64_t *latest = s->ngroups ? u64map_find(&s->latest, file_key(dev, ino)) : NULL;
	struct start_group *g = latest ? &s->groups[*latest - 1] : NULL;

	return g && g->cached ? g : NULL;
}

/* A delete over start pages none of which went before: their start folio. 0, or -1. */
static int found_folio(struct replay_start_folios *s, struct start_group *g, uint64_t lo, uint64_t hi,
		       unsigned order)
{
	struct start_folio *v;

	if (bitmap_count_range(g->cached, lo, hi) != hi - lo ||
	    bitmap_count_range(g->settled, lo, hi))
		return 0;
	v = ft_grow(g->folios, &g->cap, g->nfolios, sizeof(*v), 16);
	if (!v)
		return -1;
	g->folios = v;
	v[g->nfolios++] = (struct start_folio){ .index = lo + g->base, .order = (uint8_t)order };
	s->folios++;
	s->pages += hi - lo;
	return 0;
}

static int note_folio_event(struct replay_start_folios *s, const struct ft_folio_event *e, bool deleted)
{
	struct start_group *g = event_group(s, e->dev, e->ino);
	uint64_t n = e->order == FT_ORDER_UNKNOWN || e->order > 20 ? 1 : 1ull << e->order;
	uint64_t lo, hi;

	if (!g || e->index >= g->end || e->index + n <= g->base || e->index + n < e->index)
		return 0;
	lo = (e->index > g->base ? e->index : g->base) - g->base;
	hi = (e->index + n < g->end ? e->index + n : g->end) - g->base;
	if (deleted && e->order != FT_ORDER_UNKNOWN && e->index >= g->base &&
	    e->index + n <= g->end && found_folio(s, g, lo, hi, e->order) < 0)
		return -1;
	bitmap_set_range(g->settled, lo, hi);
	return 0;
}

static int by_index(const void *a, const void *b)
{
	const struct start_folio *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* Each group's folios by index, with the start pages below each one's end. */
static void settle_groups(struct replay_start_folios *s)
{
	for (size_t i = 0; i < s->ngroups; i++) {
		struct start_group *g = &s->groups[i];
		uint64_t below = 0, from = 0;

		if (g->nfolios)
			qsort(g->folios, g->nfolios, sizeof(*g->folios), by_index);
		for (size_t k = 0; k < g->nfolios; k++) {
			uint64_t end = g->folios[k].index - g->base + (1ull << g->folios[k].order);

			below += bitmap_count_range(g->cached, from, end);
			from = end;
			g->folios[k].cached_to_end = below;
		}
	}
}

int start_folios_begin(struct replay_start_folios *s)
{
	return u64map_init(&s->latest, 64);
}

int start_folios_note(struct replay_start_folios *s, const struct ft_hdr *h)
{
	/* no start records in a synthetic trace; no deletes where none were recorded */
	if (h->type == FT_HOST &&
	    ((((const struct ft_host *)h)->flags & FT_HOST_SYNTHETIC) ||
	     (((const struct ft_host *)h)->unrecorded & FT_UNREC_PAGECACHE)))
		return 1;
	if (h->type == FT_START_CACHE)
		return note_start_cache(s, (const struct ft_start_cache *)h);
	if (h->type == FT_PAGECACHE_ADD || h->type == FT_PAGECACHE_DELETE)
		return note_folio_event(s, (const struct ft_folio_event *)h,
					h->type == FT_PAGECACHE_DELETE);
	return 0;
}

void start_folios_finish(struct replay_start_folios *s)
{
	settle_groups(s);
	s->surveyed = true;
}

const struct start_folio *start_folios_of(const struct replay_start_folios *s, uint64_t group,
					  size_t *n, uint64_t *end)
{
	if (group >= s->ngroups) {
		*n = 0;
		*end = 0;
		return NULL;
	}
	*n = s->groups[group].nfolios;
	*end = s->groups[group].end;
	return s->groups[group].folios;
}
