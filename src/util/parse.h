/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Option values as text: validated numbers, sizes and durations in, sizes out. */
#ifndef FT_UTIL_PARSE_H
#define FT_UTIL_PARSE_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Parse a size: a plain decimal (digits, at most one point) with an optional binary suffix K, M,
 * G, T, P, E (any case, or KiB, MiB...) or B; a fraction needs a unit ("1.5G") and is rounded to
 * the nearest byte. Rejects empty, negative, junk, overflow and SI suffixes ("GB": powers of 1000
 * are not meant anywhere). Returns false with *why set.
 */
bool parse_size(const char *s, uint64_t *out, const char **why);
/* Unsigned decimal integer in [min, max]; false with *why set. */
bool parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *out, const char **why);
/* Decimal number in [min, max]: digits with at most one point, no sign, exponent or hex. */
bool parse_double_range(const char *s, double min, double max, double *out, const char **why);
/* Duration: a decimal number as above with optional unit ns, us, ms, s (default), m, h. */
bool parse_duration_ns(const char *s, uint64_t *out, const char **why);

/* Human-readable bytes ("1.5 GiB") into buf. */
const char *format_bytes(uint64_t bytes, char *buf, unsigned len);

#endif
