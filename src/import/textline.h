/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Small parsing helpers for the text importers. All skip nothing unless they say so. */
#ifndef FT_IMPORT_TEXTLINE_H
#define FT_IMPORT_TEXTLINE_H

#include <stdbool.h>
#include <linux/types.h>
#include <stdio.h>

/*
 * The longest line read: no format imported has one near it (a path is at most 4096 bytes),
 * and a file without newlines (/dev/zero) must not take the memory of the machine.
 */
#define TEXTLINE_MAX	65536

/*
 * Next line of in into *line, without its newline (and CR); *buf is reused. 1, 0 at the end,
 * -1 with errno: EFBIG for a line longer than TEXTLINE_MAX bytes, ENOMEM.
 */
int textline_read(FILE *in, char **buf, size_t *cap, char **line);

const char *skip_spaces(const char *s);
/* Unsigned number in base (10 or 16; "0x" accepted for 16); *end past it. */
bool parse_u64_at(const char *s, int base, __u64 *v, const char **end);
bool parse_s64_at(const char *s, __s64 *v, const char **end);
/* "sec.frac" into nanoseconds (any number of fraction digits). */
bool parse_seconds_ns(const char *s, __u64 *ns, const char **end);
/* "MAJOR:MINOR" into the kernel encoding major << 20 | minor. */
bool parse_devno(const char *s, __u32 *dev, const char **end);
/* Value after "key=" where key starts a word of s, or NULL. */
const char *find_field(const char *s, const char *key);
bool field_u64(const char *s, const char *key, int base, __u64 *v);
bool field_s64(const char *s, const char *key, __s64 *v);

#endif
