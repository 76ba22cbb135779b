// SPDX-License-Identifier: GPL-2.0-or-later
/* The recorded start state of the memory, from /proc/pagetypeinfo samples: startstate.h. */
#include <stdlib.h>
#include <string.h>

#include "replay/startstate.h"

#define SLOT_BLOCKS	11
#define SLOT_OTHER	15

void start_state_init(struct recorded_start *s)
{
	memset(s, 0, sizeof(*s));
}

void start_state_release(struct recorded_start *s)
{
	free(s->slot);
	free(s->zone);
	s->slot = s->zone = NULL;
	s->count = 0;
}

/* mm/vmstat.c migratetype_names[]: the three the page cache falls back among, and the rest. */
static unsigned type_of(const char *name, size_t len)
{
	static const char *const names[] = { "Unmovable", "Movable", "Reclaimable" };

	for (unsigned t = 0; t < 3; t++)
		if (strlen(names[t]) == len && strncmp(name, names[t], len) == 0)
			return t;
	return 3;
}

static unsigned zone_index(struct recorded_start *s, const char *name, size_t len)
{
	unsigned i;

	if (len >= sizeof(s->zone_names[0]))
		len = sizeof(s->zone_names[0]) - 1;
	for (i = 0; i < s->nzones; i++)
		if (strlen(s->zone_names[i]) == len && strncmp(s->zone_names[i], name, len) == 0)
			return i;
	if (s->nzones == START_ZONES_MAX)
		return START_ZONES_MAX - 1;
	memcpy(s->zone_names[s->nzones], name, len);
	s->zone_names[s->nzones][len] = '\0';
	return s->nzones++;
}

/* "NODE/ZONE/TYPE/ORDER" or "NODE/ZONE/TYPE/blocks": its slot; SLOT_OTHER otherwise. */
static uint8_t slot_of(struct recorded_start *s, const char *name, uint8_t *zone)
{
	const char *a = strchr(name, '/'), *b = a ? strchr(a + 1, '/') : NULL;
	const char *c = b ? strchr(b + 1, '/') : NULL;
	unsigned t, what;
	char *end;

	*zone = 0;
	if (!c) {
		if (strcmp(name, "pageblock_order") == 0)
			return SLOT_OTHER - 1;
		return SLOT_OTHER;
	}
	t = type_of(b + 1, (size_t)(c - b - 1));
	if (strcmp(c + 1, "blocks") == 0) {
		what = SLOT_BLOCKS;
	} else {
		unsigned long o = strtoul(c + 1, &end, 10);

		if (*end || end == c + 1 || o > MODEL_MAX_ORDER)
			return SLOT_OTHER;
		what = (unsigned)o;
	}
	*zone = (uint8_t)zone_index(s, name, (size_t)(b - name));
	return (uint8_t)(t << 4 | what);
}

void start_state_names(struct recorded_start *s, const struct ft_counter_names *n)
{
	const char *p = ft_counter_names_first(n);
	uint8_t *slot = malloc(n->count ? n->count : 1), *zone = malloc(n->count ? n->count : 1);

	if (!slot || !zone) {
		free(slot);
		free(zone);
		return;		/* without memory the replay starts empty */
	}
	free(s->slot);
	free(s->zone);
	s->slot = slot;
	s->zone = zone;
	s->count = n->count;
	s->nzones = 0;
	for (unsigned i = 0; i < n->count; i++) {
		s->slot[i] = slot_of(s, p, &s->zone[i]);
		p += strlen(p) + 1;
	}
}

bool start_state_read(const struct recorded_start *s, const struct ft_counters *c,
		      struct model_zone_state *st)
{
	const __u64 *v = ft_counters_values(c);
	bool zone_used[START_ZONES_MAX] = { false };

	if (!s->slot || c->count != s->count)
		return false;
	memset(st, 0, sizeof(*st));
	for (unsigned i = 0; i < c->count; i++) {
		unsigned t = s->slot[i] >> 4, what = s->slot[i] & 15;

		if (what == SLOT_OTHER || what == SLOT_OTHER - 1)
			continue;
		if (what == SLOT_BLOCKS) {
			st->pageblocks[t] += v[i];
			if (v[i])
				zone_used[s->zone[i]] = true;
		} else {
			st->free[t][what] += v[i];
		}
	}
	for (unsigned z = 0; z < START_ZONES_MAX; z++)
		st->zones += zone_used[z];
	return start_state_pages(st) > 0;
}

void start_state_sample(struct recorded_start *s, const struct ft_counters *c)
{
	if (s->have)
		return;
	s->have = start_state_read(s, c, &s->state);
	s->ts = c->hdr.ts;
}

uint64_t start_state_pages(const struct model_zone_state *st)
{
	uint64_t n = 0;

	for (unsigned t = 0; t < MODEL_MIGRATETYPES; t++)
		n += st->pageblocks[t];
	return n << 9;
}
