/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/variants.h"
#include "replay/mrc.h"
#include "util/parse.h"

bool parse_mrc(const char *s, enum mrc_mode *mode, double *rate, const char **why)
{
	static const struct {
		const char *name;
		enum mrc_mode mode;
	} names[] = {
		{ "exact", MRC_EXACT }, { "sampled", MRC_SAMPLED }, { "compare", MRC_COMPARE },
	};
	const char *colon = s ? strchr(s, ':') : NULL;
	size_t len = colon ? (size_t)(colon - s) : (s ? strlen(s) : 0);

	*why = "expected exact, sampled[:RATE] or compare[:RATE]";
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (strlen(names[i].name) != len || strncmp(names[i].name, s, len) != 0)
			continue;
		*mode = names[i].mode;
		*rate = MRC_DEFAULT_RATE;
		if (!colon)
			return true;
		if (*mode == MRC_EXACT)
			return false;
		if (!parse_double_range(colon + 1, 0, 1, rate, why) || !(*rate > 0) || *rate >= 1) {
			*why = "the sampling rate is a fraction above 0 and below 1 (0.01 "
			       "follows 1% of the data)";
			return false;
		}
		return true;
	}
	return false;
}

static void engine_access(void *obj, const struct model_access *a)
{
	stack_mrc_access(obj, a);
}

static void engine_advance(void *obj, uint64_t ts)
{
	stack_mrc_advance(obj, ts);
}

static int add_engine(struct mrc_run *m, const struct model_config *cfg, bool sampled,
		      struct ft_error *err)
{
	const char *why = "refused";
	/*
	 * The rate is of the data: a folio of order N holds 2^N pages, so following rate x 2^N
	 * of the folios keeps the sample's size (and its cost) the same at every order.
	 */
	double rate = sampled ? ldexp(m->rate, (int)cfg->order) : 1.0;
	struct stack_mrc *s = stack_mrc_new(cfg, rate < 1 ? rate : 1.0, &why);

	if (!s)
		return ft_error_set(err, NULL, "order %u: %s", cfg->order, why);
	m->s[m->n] = s;
	m->sampled[m->n] = sampled;
	m->rate_of[m->n] = rate < 1 ? rate : 1.0;
	m->order[m->n] = cfg->order;
	m->rp->extra[m->n] = (struct pipe_client){
		.access = engine_access, .advance = engine_advance, .obj = s
	};
	m->n++;
	m->rp->nextra = m->n;
	return 0;
}

/* The replay's configurations settled (host defaults, devices): an engine per order. */
static int mrc_start(void *arg, const struct model_config *cfg, unsigned n, struct ft_error *err)
{
	struct mrc_run *m = arg;

	for (unsigned i = 0; i < n && m->n + 2 <= REPLAY_MAX_EXTRA; i++) {
		if (m->mode != MRC_SAMPLED && add_engine(m, &cfg[i], false, err) < 0)
			return -1;
		if (m->mode != MRC_EXACT && add_engine(m, &cfg[i], true, err) < 0)
			return -1;
	}
	return 0;
}

void mrc_attach(struct mrc_run *m, struct replay *rp, enum mrc_mode mode, double rate)
{
	memset(m, 0, sizeof(*m));
	m->mode = mode;
	m->rate = rate;
	m->rp = rp;
	rp->no_models = true;
	rp->extra_start = mrc_start;
	rp->extra_arg = m;
}

void mrc_release(struct mrc_run *m)
{
	for (unsigned i = 0; i < m->n; i++)
		stack_mrc_free(m->s[i]);
	m->n = 0;
}

static int alloc_curves(struct curve_set *out, unsigned n, uint64_t working_set)
{
	memset(out, 0, sizeof(*out));
	out->working_set_bytes = working_set;
	out->c = calloc(n ? n : 1, sizeof(*out->c));
	if (!out->c)
		return -1;
	out->n = n;
	return 0;
}

/* Evenly spaced points up to top bytes, whole pages. */
static void default_points(struct memory_list *l, uint64_t top, unsigned page_size)
{
	memset(l, 0, sizeof(*l));
	for (unsigned i = 1; i <= MRC_DEFAULT_POINTS; i++) {
		uint64_t b = top / MRC_DEFAULT_POINTS * i;

		b -= b % page_size;
		if (b && (!l->n || b != l->v[l->n - 1].bytes))
			l->v[l->n++].bytes = b;
	}
}

static void curve_inexact_of(struct curve *c, const struct stack_mrc *s)
{
	struct stack_inexact why[STACK_MRC_NR_REASONS];
	unsigned n;

	c->accesses = stack_mrc_accesses(s);
	c->inexact_events = stack_mrc_inexact(s, why, &n);
	for (unsigned k = 0; k < n && k < CURVE_MAX_REASONS; k++)
		c->inexact[c->n_inexact++] = (struct curve_inexact){ why[k].why, why[k].accesses };
}

int mrc_curves(struct mrc_run *m, const struct memory_list *l, uint64_t working_set,
	       struct curve_set *out)
{
	const struct model_config *cfg = &m->rp->cfg[0];
	struct memory_list *def = NULL;
	uint64_t top = working_set;

	if (alloc_curves(out, m->n, working_set) < 0)
		return -1;
	for (unsigned i = 0; i < m->n; i++) {
		if (!stack_mrc_finish(m->s[i]))
			return -1;
		if (stack_mrc_max_distance(m->s[i]) > top)
			top = stack_mrc_max_distance(m->s[i]);
	}
	if (!l || !l->n) {
		def = malloc(sizeof(*def));
		if (!def)
			return -1;
		default_points(def, top + top / MRC_DEFAULT_POINTS, cfg->page_size);
		l = def;
	}
	for (unsigned i = 0; i < m->n; i++) {
		struct curve *c = &out->c[i];

		c->order = m->order[i];
		c->source = m->sampled[i] ? CURVE_SAMPLED : CURVE_EXACT;
		c->lru = model_lru_kinds[LRU_PLAIN]->name;
		c->sample_rate = m->rate_of[i];
		curve_inexact_of(c, m->s[i]);
		c->p = calloc(l->n ? l->n : 1, sizeof(*c->p));
		if (!c->p) {
			free(def);
			return -1;
		}
		c->n = l->n;
		for (unsigned k = 0; k < l->n; k++) {
			c->p[k].memory_bytes = l->v[k].bytes;
			c->p[k].cfg = m->rp->cfg[0];
			c->p[k].cfg.order = c->order;
			c->p[k].cfg.memory_bytes = l->v[k].bytes;
			stack_mrc_metrics(m->s[i], l->v[k].bytes, &c->p[k].m);
		}
		/* compare: the sampled engine follows the exact one of its order */
		if (c->source == CURVE_SAMPLED && i && out->c[i - 1].source == CURVE_EXACT &&
		    out->c[i - 1].order == c->order)
			curve_compare(c, &out->c[i - 1]);
	}
	free(def);
	return 0;
}

int sweep_curves(const struct replay *rp, unsigned norders, unsigned nmem, uint64_t working_set,
		 struct curve_set *out)
{
	if (alloc_curves(out, norders, working_set) < 0)
		return -1;
	for (unsigned o = 0; o < norders; o++) {
		struct curve *c = &out->c[o];
		const struct report_col *first = &rp->cols[o * nmem];

		c->order = first->cfg.order;
		c->source = CURVE_INSTANCES;
		c->lru = model_lru_kinds[first->cfg.lru]->name;
		c->sample_rate = 1;
		c->p = calloc(nmem, sizeof(*c->p));
		if (!c->p)
			return -1;
		c->n = nmem;
		for (unsigned k = 0; k < nmem; k++) {
			const struct report_col *col = &rp->cols[o * nmem + k];

			c->p[k].memory_bytes = col->cfg.memory_bytes;
			c->p[k].m = col->m;
			c->p[k].cfg = col->cfg;
		}
	}
	return 0;
}
