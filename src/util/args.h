/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared pieces of the subcommands' argp parsers, so usage errors read alike. */
#ifndef FT_UTIL_ARGS_H
#define FT_UTIL_ARGS_H

struct argp_state;

/*
 * For an argp parser: takes the subcommand's one operand into *slot (ARGP_KEY_ARG), and at
 * ARGP_KEY_END insists on it; other keys give ARGP_ERR_UNKNOWN. what names it in messages.
 */
int argp_one_operand(int key, char *arg, struct argp_state *state, const char **slot,
		     const char *what);

/*
 * A bad option value, as "--OPT=ARG: WHY". Without state: one line "folio-trace: --OPT=ARG:
 * WHY" on stderr. With state: through argp_error(), which names the subcommand, adds the
 * --help hint and exits (status argp_err_exit_status). Returns EINVAL, for the parser to
 * return so that argp_parse() fails.
 */
int ft_usage_error(const struct argp_state *state, const char *opt, const char *arg,
		   const char *why);

#endif
