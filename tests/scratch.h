/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Scratch files the C tests make: a small text file in a directory of their own. */
#ifndef FT_TESTS_SCRATCH_H
#define FT_TESTS_SCRATCH_H

#include <stdio.h>

/* DIR/NAME holding TEXT (left as it was when it cannot be written: the checks then say so). */
static inline void put_file(const char *dir, const char *name, const char *text)
{
	char path[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

#endif
