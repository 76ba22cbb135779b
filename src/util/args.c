/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <argp.h>
#include <errno.h>

#include "util/args.h"
#include "util/msg.h"

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

int ft_usage_error(const struct argp_state *state, const char *opt, const char *arg,
		   const char *why)
{
	if (state)
		argp_error(state, "--%s=%s: %s", opt, arg, why);
	else
		ft_warn("--%s=%s: %s", opt, arg, why);
	return EINVAL;
}
