/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small helpers every subcommand needs: messages and validated number parsing. */
#ifndef FT_UTIL_H
#define FT_UTIL_H

#include <stdbool.h>
#include <stdint.h>

/* "folio-trace: <message>" on stderr, one line. */
void ft_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Parse a size: digits with an optional binary suffix K, M, G, T (KiB, MiB...; "KiB"/"k" too)
 * or B. Rejects empty, negative, junk and overflow. Returns false with *why set.
 */
bool parse_size(const char *s, uint64_t *out, const char **why);
/* Unsigned decimal integer in [min, max]; false with *why set. */
bool parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *out, const char **why);
/* Non-negative finite decimal number in [min, max]. */
bool parse_double_range(const char *s, double min, double max, double *out, const char **why);
/* Duration: number with optional unit ns, us, ms, s (default), m, h. */
bool parse_duration_ns(const char *s, uint64_t *out, const char **why);

struct argp_state;
/*
 * For an argp parser: takes the subcommand's one operand into *slot (ARGP_KEY_ARG), and at
 * ARGP_KEY_END insists on it; other keys give ARGP_ERR_UNKNOWN. what names it in messages.
 */
int argp_one_operand(int key, char *arg, struct argp_state *state, const char **slot,
		     const char *what);

/* Human-readable bytes ("1.5 GiB") into buf. */
const char *format_bytes(uint64_t bytes, char *buf, unsigned len);

#endif
