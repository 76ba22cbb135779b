/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The error convention of every layer: a function that fails fills a struct ft_error with a
 * message naming the file and the problem, ready for one line on stderr, and returns -1 (or
 * NULL); the caller decides whether and how to show it.
 */
#ifndef FT_UTIL_ERROR_H
#define FT_UTIL_ERROR_H

struct ft_error {
	char msg[512];
};

/*
 * Sets err to "NAME: message" (just the message when name is NULL) and returns -1. A name
 * that fills the whole buffer is left out, so that the message itself still shows.
 */
int ft_error_set(struct ft_error *err, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
