/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>

#include "util/escape.h"
#include "util/msg.h"

void ft_warn(const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	/* messages quote file names and input lines: escaped, they stay one line on stderr */
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	fputs("folio-trace: ", stderr);
	ft_fputs_escaped(stderr, msg, sizeof(msg));
	fputc('\n', stderr);
}
