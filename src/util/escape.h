/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Untrusted strings (a trace's hostname, release, filesystem types, paths; lines of an imported
 * file) on a terminal: a control byte in them could move the cursor, retitle the window or
 * worse. These print valid UTF-8 other than control characters as it is and every other byte
 * as \xHH, a backslash as \\, so what is shown is what the string holds, one line.
 */
#ifndef FT_UTIL_ESCAPE_H
#define FT_UTIL_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/*
 * s, up to its NUL or max bytes, escaped into buf (always terminated; cut at a whole escape
 * when buf is too small). Returns buf, for use as a printf argument.
 */
char *ft_escape(char *buf, size_t len, const char *s, size_t max);

/* s, up to its NUL or max bytes, escaped onto f. */
void ft_fputs_escaped(FILE *f, const char *s, size_t max);

#endif
