/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdarg.h>
#include <stdio.h>

#include "util/error.h"

int ft_error_set(struct ft_error *err, const char *name, const char *fmt, ...)
{
	va_list ap;
	int n = 0;

	if (!err)
		return -1;
	if (name) {
		n = snprintf(err->msg, sizeof(err->msg), "%s: ", name);
		if (n < 0 || (size_t)n >= sizeof(err->msg))
			n = 0;
	}
	va_start(ap, fmt);
	vsnprintf(err->msg + n, sizeof(err->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}
