/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "replay/options.h"
#include "util/args.h"
#include "util/msg.h"
#include "util/parse.h"

bool parse_order_list(const char *s, unsigned orders[REPLAY_MAX_CONFIGS], unsigned *n,
		      const char **why)
{
	char item[32];
	unsigned count = 0;
	uint64_t v;

	if (!s || !*s) {
		*why = "expected a list of orders like 0,4,9";
		return false;
	}
	while (*s) {
		size_t len = strcspn(s, ",");

		if (len == 0 || len >= sizeof(item)) {
			*why = "expected a list of orders like 0,4,9";
			return false;
		}
		memcpy(item, s, len);
		item[len] = '\0';
		if (!parse_u64_range(item, 0, MODEL_MAX_ORDER, &v, why)) {
			*why = "orders are whole numbers from 0 to " MODEL_TEXT(MODEL_MAX_ORDER);
			return false;
		}
		for (unsigned i = 0; i < count; i++)
			if (orders[i] == v) {
				*why = "order listed twice";
				return false;
			}
		orders[count++] = (unsigned)v;
		s += len;
		if (*s == ',' && !*++s) {
			*why = "expected a list of orders like 0,4,9";
			return false;
		}
	}
	*n = count;
	return true;
}

static unsigned count_options(const struct argp_option *o)
{
	unsigned n = 0;

	while (o && (o[n].name || o[n].key || o[n].doc))
		n++;
	return n;
}

/* The help text of row p, kept in mo->help. */
static const char *help_of(struct model_options *mo, const struct model_param *p)
{
	char buf[1024];

	model_param_help(p, buf, sizeof(buf));
	mo->help[mo->nhelp] = strdup(buf);
	return mo->help[mo->nhelp++];
}

int model_options_init(struct model_options *mo, const struct argp_option *own)
{
	unsigned nown = count_options(own), n = 0;
	/* a title per group, the rows, the command's own, the terminator */
	unsigned cap = PARAM_GROUP_OUTPUT + model_nr_params + nown + 1;

	memset(mo, 0, sizeof(*mo));
	mo->options = calloc(cap, sizeof(*mo->options));
	mo->help = calloc(model_nr_params, sizeof(*mo->help));
	if (!mo->options || !mo->help)
		goto oom;
	for (int g = PARAM_GROUP_FOLIOS; g <= PARAM_GROUP_OUTPUT; g++) {
		mo->options[n++] = (struct argp_option){ .doc = model_param_group_title(g),
							  .group = g };
		for (unsigned i = 0; i < model_nr_params; i++) {
			const struct model_param *p = &model_params[i];

			if (!p->option || (int)p->group != g)
				continue;
			mo->options[n++] = (struct argp_option){
				.name = p->option, .key = MODEL_OPTION_KEY + (int)i,
				.arg = p->syntax == PARAM_OFF || p->syntax == PARAM_ON ? NULL : p->arg,
				.doc = help_of(mo, p), .group = g,
			};
			if (!mo->options[n - 1].doc)
				goto oom;
		}
	}
	memcpy(&mo->options[n], own, nown * sizeof(*own));
	return 0;
oom:
	model_options_release(mo);
	return -1;
}

void model_options_override(struct model_options *mo, const char *name, const char *arg,
			    const char *doc)
{
	for (struct argp_option *o = mo->options; o->name || o->key || o->doc; o++) {
		if (o->name && strcmp(o->name, name) == 0) {
			o->arg = arg;
			o->doc = doc;
			return;
		}
	}
}

void model_options_release(struct model_options *mo)
{
	for (unsigned i = 0; i < mo->nhelp; i++)
		free(mo->help[i]);
	free(mo->help);
	free(mo->options);
	memset(mo, 0, sizeof(*mo));
}

int model_options_parse(int key, const char *arg, struct model_config *cfg, unsigned *given)
{
	const struct model_param *p;
	const char *why;

	if (key < MODEL_OPTION_KEY || key >= MODEL_OPTION_KEY + (int)model_nr_params)
		return ARGP_ERR_UNKNOWN;
	p = &model_params[key - MODEL_OPTION_KEY];
	why = model_param_set(p, arg, cfg);
	if (why)
		return ft_usage_error(NULL, p->option, arg, why);
	*given |= p->recorded;
	return 0;
}

int order_configs(const struct model_config *base, const unsigned *orders, unsigned n,
		  struct model_config *cfg)
{
	for (unsigned i = 0; i < n; i++) {
		if (base->min_order > orders[i]) {
			ft_warn("--min-order=%u: above --folio-order %u", base->min_order, orders[i]);
			return -1;
		}
		if (orders[i] > base->max_pagecache_order) {
			ft_warn("--folio-order=%u: above the page cache's largest order, %u "
				"(MAX_PAGECACHE_ORDER); --max-pagecache-order=%u models it as a what-if",
				orders[i], base->max_pagecache_order, orders[i]);
			return -1;
		}
		cfg[i] = *base;
		cfg[i].order = orders[i];
	}
	return 0;
}
