/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Messages to the user: every line on stderr starts with the program's name. */
#ifndef FT_UTIL_MSG_H
#define FT_UTIL_MSG_H

/* "folio-trace: <message>" on stderr, one line: control bytes escaped (util/escape.h). */
void ft_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
