/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared pieces of the subcommands' argp parsers, so usage errors read alike. */
#ifndef FT_UTIL_ARGS_H
#define FT_UTIL_ARGS_H

#include <stdbool.h>
#include <stdint.h>

struct argp_state;

/* The options a parser has met so far: see ft_option_once(). */
struct ft_seen {
	int keys[96];
	unsigned n;
};

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

/*
 * An option's value, an unsigned decimal in [min, max], into *out: 0. Otherwise a usage error
 * that names the range, "--OPT=ARG: WHY (MIN to MAX)", as ft_usage_error() gives it: EINVAL.
 */
int ft_parse_u64_arg(const struct argp_state *state, const char *opt, const char *arg,
		     uint64_t min, uint64_t max, uint64_t *out);

/* The largest process id -p takes (record, top): the kernel's PID_MAX_LIMIT is below it. */
#define FT_PID_MAX	0x3fffffffull

/*
 * For an argp parser, first thing for every key: an option given a second time is a usage
 * error (one line "folio-trace: --OPT given twice: ..."; returns EINVAL for the parser to
 * return), as folio-trace(1) says for every subcommand: which of two values was meant is a
 * guess. Other keys (operands, ARGP_KEY_*) and a zeroed seen on the first call: 0.
 */
int ft_option_once(struct ft_seen *seen, const struct argp_state *state, int key);

#endif
