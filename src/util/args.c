/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <argp.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "util/args.h"
#include "util/msg.h"
#include "util/parse.h"

int argp_one_operand(int key, char *arg, struct argp_state *state, const char **slot,
		     const char *what)
{
	switch (key) {
	case ARGP_KEY_ARG:
		if (*slot)
			argp_error(state, "one %s only", what);
		*slot = arg;
		return 0;
	case ARGP_KEY_END:
		if (!*slot)
			argp_error(state, "no %s given", what);
		return 0;
	default:
		return ARGP_ERR_UNKNOWN;
	}
}

/* The long name of key in argp or its children (argp puts the command's under its own). */
static const char *find_name(const struct argp *argp, int key)
{
	const struct argp_child *c;
	const char *name;

	for (const struct argp_option *o = argp->options; o && (o->name || o->key || o->doc); o++)
		if (o->key == key && o->name)
			return o->name;
	for (c = argp->children; c && c->argp; c++)
		if ((name = find_name(c->argp, key)))
			return name;
	return NULL;
}

/* --NAME (or -K) of key among the parser's options, for messages. */
static void option_name(const struct argp_state *state, int key, char *buf, size_t len)
{
	const char *name = state->root_argp ? find_name(state->root_argp, key) : NULL;

	if (name)
		snprintf(buf, len, "--%s", name);
	else
		snprintf(buf, len, "-%c", key > 0 && key < 128 ? key : '?');
}

int ft_option_once(struct ft_seen *seen, const struct argp_state *state, int key)
{
	char name[64];

	/* argp's own keys (ARGP_KEY_END and up) and operands are not options */
	if (key == ARGP_KEY_ARG || key >= ARGP_KEY_END)
		return 0;
	for (unsigned i = 0; i < seen->n; i++) {
		if (seen->keys[i] == key) {
			option_name(state, key, name, sizeof(name));
			ft_warn("%s given twice: each option may be given once "
				"(see folio-trace(1))", name);
			return EINVAL;
		}
	}
	if (seen->n < sizeof(seen->keys) / sizeof(seen->keys[0]))
		seen->keys[seen->n++] = key;
	return 0;
}

/* Of a value, so much is echoed in a message: the reason after it always shows. */
#define ECHO_MAX	160

int ft_usage_error(const struct argp_state *state, const char *opt, const char *arg,
		   const char *why)
{
	size_t len = strlen(arg);
	char cut[64] = "";

	if (len > ECHO_MAX)
		snprintf(cut, sizeof(cut), "... (%zu characters, the first %d shown)", len,
			 ECHO_MAX);
	if (state)
		argp_error(state, "--%s=%.*s%s: %s", opt, ECHO_MAX, arg, cut, why);
	else
		ft_warn("--%s=%.*s%s: %s", opt, ECHO_MAX, arg, cut, why);
	return EINVAL;
}

int ft_parse_u64_arg(const struct argp_state *state, const char *opt, const char *arg,
		     uint64_t min, uint64_t max, uint64_t *out)
{
	const char *why;
	char range[128];

	if (parse_u64_range(arg, min, max, out, &why))
		return 0;
	snprintf(range, sizeof(range), "%s (%llu to %llu)", why, (unsigned long long)min,
		 (unsigned long long)max);
	return ft_usage_error(state, opt, arg, range);
}
