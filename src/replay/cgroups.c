// SPDX-License-Identifier: GPL-2.0-or-later
/* The trace's memory cgroups for the models: see cgroups.h. */
#include <stdlib.h>
#include <string.h>

#include "replay/cgroups.h"
#include "util/grow.h"
#include "util/parse.h"

/* A cgroup the first pass saw: named, limited or with accesses. */
struct seen_cgroup {
	uint64_t id;
	char path[CGROUP_NAME_LEN];
	bool v1;			/* in the v1 memory hierarchy */
	struct model_memcg limits;
	bool limits_seen;		/* its first FT_CGROUP_LIMITS was read */
	struct model_memcg last;	/* its latest limits */
	uint32_t limit_changes;		/* of max or high after the trace's first access */
	uint64_t accesses;
	uint64_t first_access;		/* the pass's access count at its first */
};

struct cgroups_survey {
	struct seen_cgroup *seen;
	size_t n, cap;
	struct u64map index;		/* id -> seen index + 1 */
	struct u64map tid_cgroup;	/* tid -> cgroup id */
	uint64_t accesses;
};

bool replay_cgroups_parse_limit(struct replay_cgroups *c, const char *arg, const char **why)
{
	const char *colon = strrchr(arg, ':');
	struct cgroup_limit_given *g;
	size_t len;

	if (c->ngiven >= CGROUP_LIMITS_GIVEN_MAX) {
		*why = "at most 16 of them";
		return false;
	}
	if (!colon || colon == arg) {
		*why = "not NAME:SIZE";
		return false;
	}
	len = (size_t)(colon - arg);
	if (len >= CGROUP_NAME_LEN) {
		*why = "the cgroup's name is longer than 127 bytes";
		return false;
	}
	g = &c->given[c->ngiven];
	if (!parse_size(colon + 1, &g->bytes, why))
		return false;
	if (!g->bytes) {
		*why = "a limit of 0 bytes";
		return false;
	}
	memcpy(g->name, arg, len);
	g->name[len] = '\0';
	g->matched = false;
	c->ngiven++;
	return true;
}

static struct seen_cgroup *seen_get(struct cgroups_survey *s, uint64_t id)
{
	struct seen_cgroup *grown;
	uint64_t *slot;
	bool added;

	slot = u64map_get_or_add(&s->index, id, 0, &added);
	if (!slot)
		return NULL;
	if (*slot)
		return &s->seen[*slot - 1];
	grown = ft_grow(s->seen, &s->cap, s->n, sizeof(*grown), 16);
	if (!grown)
		return NULL;
	s->seen = grown;
	memset(&s->seen[s->n], 0, sizeof(s->seen[0]));
	s->seen[s->n].id = id;
	s->seen[s->n].limits = (struct model_memcg){ UINT64_MAX, UINT64_MAX };
	*slot = ++s->n;
	return &s->seen[s->n - 1];
}

static uint64_t limit_of(__u64 v)
{
	return v == FT_LIMIT_NONE ? UINT64_MAX : v;
}

static int survey_record(struct cgroups_survey *s, const struct ft_hdr *h)
{
	struct seen_cgroup *sc;
	uint64_t *id;
	bool added;

	switch (h->type) {
	case FT_CGROUP: {
		const struct ft_cgroup *cg = (const void *)h;
		size_t len = cg->path_len < CGROUP_NAME_LEN - 1 ? cg->path_len : CGROUP_NAME_LEN - 1;

		if (!(sc = seen_get(s, cg->id)))
			return -1;
		memcpy(sc->path, ft_cgroup_path(cg), len);
		sc->path[len] = '\0';
		sc->v1 = cg->flags & FT_CG_V1;
		return 0;
	}
	case FT_CGROUP_LIMITS: {
		const struct ft_cgroup_limits *l = (const void *)h;
		struct model_memcg now;

		if (!(sc = seen_get(s, l->id)))
			return -1;
		/*
		 * the limits the cgroup started with: its first record, "max" ones included, or
		 * its last before the trace's first access, when the models start
		 */
		now = (struct model_memcg){ limit_of(l->max), limit_of(l->high) };
		if (sc->limits_seen && s->accesses) {
			sc->limit_changes += now.max_bytes != sc->last.max_bytes ||
					     now.high_bytes != sc->last.high_bytes;
			sc->last = now;
			return 0;
		}
		sc->limits_seen = true;
		sc->limits = sc->last = now;
		return 0;
	}
	case FT_TASK:
		id = u64map_get_or_add(&s->tid_cgroup, h->tid, 0, &added);
		if (!id)
			return -1;
		*id = ft_task_cgroup((const void *)h);
		return 0;
	case FT_ACCESS:
		id = u64map_find(&s->tid_cgroup, h->tid);
		s->accesses++;
		if (!id || !*id)
			return 0;
		if (!(sc = seen_get(s, *id)))
			return -1;
		if (!sc->accesses++)
			sc->first_access = s->accesses;
		return 0;
	default:
		return 0;
	}
}

/* The path matches NAME: whole, without its leading '/', or its last component. */
static bool name_matches(const char *path, const char *name)
{
	const char *last = strrchr(path, '/');

	return !strcmp(path, name) || (path[0] == '/' && !strcmp(path + 1, name)) ||
	       (last && last[1] && !strcmp(last + 1, name));
}

static int by_first_access(const void *a, const void *b)
{
	const struct seen_cgroup *x = a, *y = b;

	return (x->first_access > y->first_access) - (x->first_access < y->first_access);
}

/* The cgroups with accesses in order of their first, the first 31 as the models' 1..31. */
static int take_cgroups(struct replay_cgroups *c, struct cgroups_survey *s)
{
	bool any_given = false;
	size_t with = 0;

	for (size_t i = 0; i < s->n; i++)
		if (s->seen[i].accesses)
			s->seen[with++] = s->seen[i];
	if (with > 1)	/* s->seen is NULL when the trace names no cgroup: qsort() may not take it */
		qsort(s->seen, with, sizeof(s->seen[0]), by_first_access);
	for (size_t i = 0; i < with; i++) {
		struct replay_cgroup *r;
		bool added;
		uint64_t *slot;

		if (c->n == MODEL_MAX_MEMCGS - 1) {
			c->shared++;
			continue;
		}
		r = &c->cg[c->n];
		r->id = s->seen[i].id;
		memcpy(r->path, s->seen[i].path, sizeof(r->path));
		r->v1 = s->seen[i].v1;
		r->accesses = s->seen[i].accesses;
		c->limits[c->n] = s->seen[i].limits;
		for (unsigned g = 0; g < c->ngiven; g++) {
			if (!r->path[0] || !name_matches(r->path, c->given[g].name))
				continue;
			c->given[g].matched = true;
			c->limits[c->n].max_bytes = c->given[g].bytes;
			r->limit_given = any_given = true;
		}
		r->now = c->limits[c->n];
		c->limit_changes += s->seen[i].limit_changes;
		slot = u64map_get_or_add(&c->id_index, r->id, 0, &added);
		if (!slot)
			return -1;
		*slot = ++c->n;
	}
	c->active = c->n >= 2 || any_given;
	return 0;
}

struct cgroups_survey *cgroups_survey_begin(struct replay_cgroups *c)
{
	struct cgroups_survey *s = calloc(1, sizeof(*s));

	c->n = 0;
	c->shared = 0;
	c->limit_changes = 0;
	c->active = false;
	c->last_valid = false;
	if (s && !u64map_init(&c->tid_index, 64) && !u64map_init(&c->id_index, 64) &&
	    !u64map_init(&s->index, 64) && !u64map_init(&s->tid_cgroup, 64))
		return s;
	cgroups_survey_free(s);
	return NULL;
}

int cgroups_survey_note(struct cgroups_survey *s, const struct ft_hdr *h)
{
	if (h->type == FT_HOST && (((const struct ft_host *)h)->flags & FT_HOST_SYNTHETIC))
		return 1;	/* cgroups are never in synthetic traces */
	return survey_record(s, h);
}

int cgroups_survey_finish(struct cgroups_survey *s, struct replay_cgroups *c)
{
	return take_cgroups(c, s);
}

void cgroups_survey_free(struct cgroups_survey *s)
{
	if (!s)
		return;
	free(s->seen);
	u64map_free(&s->index);
	u64map_free(&s->tid_cgroup);
	free(s);
}

bool replay_cgroups_index(const struct replay_cgroups *c, uint64_t id, uint8_t *index)
{
	const uint64_t *found;

	if (!c->active) {
		*index = 0;
		return c->n == 1 && c->cg[0].id == id;
	}
	found = u64map_find(&c->id_index, id);
	if (found)
		*index = (uint8_t)*found;
	return found != NULL;
}

/* A cgroup the recorder named (its path found) below the root, in the v2 hierarchy. */
static bool has_own_wb(const struct replay_cgroup *r)
{
	return !r->v1 && r->path[0] && strcmp(r->path, "/");
}

uint32_t replay_cgroups_dirty_domains(const struct replay_cgroups *c)
{
	uint32_t mask = 0;

	/* the models' only cgroup, 0, is the trace's one */
	if (!c->active)
		return c->n == 1 && has_own_wb(&c->cg[0]) ? 1u : 0;
	for (uint32_t i = 0; i < c->n; i++)
		if (has_own_wb(&c->cg[i]))
			mask |= 1u << (i + 1);
	return mask;
}

int replay_cgroups_note(struct replay_cgroups *c, const struct ft_hdr *h)
{
	const uint64_t *index;
	uint64_t *slot;
	bool added;

	if (!c->active || h->type != FT_TASK)
		return 0;
	index = u64map_find(&c->id_index, ft_task_cgroup((const void *)h));
	slot = u64map_get_or_add(&c->tid_index, h->tid, 0, &added);
	if (!slot)
		return -1;
	*slot = index ? *index : 0;
	c->last_valid = false;
	return 0;
}

bool replay_cgroups_limits_changed(struct replay_cgroups *c, const struct ft_cgroup_limits *l,
				   uint8_t *index, struct model_memcg *now, bool *v1)
{
	struct replay_cgroup *r;
	struct model_memcg was;

	/*
	 * several cgroups: the models' first is the one of no known cgroup, which none's limits
	 * reach; one: the models' only cgroup is it
	 */
	if (!replay_cgroups_index(c, l->id, index) || (c->active && !*index))
		return false;
	r = &c->cg[c->active ? *index - 1 : 0];
	was = r->now;
	*v1 = r->v1;
	if (!r->limit_given)
		r->now.max_bytes = limit_of(l->max);
	r->now.high_bytes = limit_of(l->high);
	*now = r->now;
	return r->now.max_bytes != was.max_bytes || r->now.high_bytes != was.high_bytes;
}

uint8_t replay_cgroups_of_tid(struct replay_cgroups *c, uint32_t tid)
{
	const uint64_t *index;

	if (!c->active)
		return 0;
	if (c->last_valid && c->last_tid == tid)
		return c->last_index;
	index = u64map_find(&c->tid_index, tid);
	c->last_tid = tid;
	c->last_index = index ? (uint8_t)*index : 0;
	c->last_valid = true;
	return c->last_index;
}

void replay_cgroups_release(struct replay_cgroups *c)
{
	u64map_free(&c->tid_index);
	u64map_free(&c->id_index);
}
