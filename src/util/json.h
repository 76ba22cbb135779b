/* SPDX-License-Identifier: GPL-2.0-or-later */
/* JSON output: strings escaped as RFC 8259 requires, one way for every writer. */
#ifndef FT_UTIL_JSON_H
#define FT_UTIL_JSON_H

#include <stddef.h>
#include <stdio.h>

/* Flags of ft_json_string_n(). */
#define FT_JSON_ASCII	0x1	/* DEL and bytes above it as \u00XX too: ASCII output */

/*
 * s up to its NUL or max bytes, whichever comes first, as a quoted JSON string on f: '"' and
 * '\\' backslashed, control bytes (C1 ones in UTF-8 too) as \u00XX, other bytes as they are
 * (so UTF-8 stays UTF-8) unless FT_JSON_ASCII. NULL is the empty string.
 */
void ft_json_string_n(FILE *f, const char *s, size_t max, unsigned flags);

/* A NUL-terminated s (NULL: "") as a quoted JSON string, bytes above 0x7f as they are. */
static inline void ft_json_string(FILE *f, const char *s)
{
	ft_json_string_n(f, s, (size_t)-1, 0);
}

#endif
