/* SPDX-License-Identifier: GPL-2.0-or-later */
/* mktrace FILE: writes the sample trace (tests/sample-trace.c) for the CLI tests. */
#include <stdio.h>

#include "sample-trace.h"

int main(int argc, char **argv)
{
	struct ft_writer *w;
	struct ft_error err;

	if (argc != 2) {
		fprintf(stderr, "usage: mktrace FILE\n");
		return 2;
	}
	w = ft_writer_open(argv[1], 0644, &err);
	if (!w || sample_trace_write(w, &err) || ft_writer_close(w, &err)) {
		fprintf(stderr, "mktrace: %s\n", err.msg);
		return 1;
	}
	return 0;
}
