/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Opening and finishing a trace made by synth or import. */
#ifndef FT_SYNTH_OUTPUT_H
#define FT_SYNTH_OUTPUT_H

#include "trace/trace.h"

/*
 * Closes the writer, then zeroes the file header's creation time (the writer stamps the wall
 * clock there) so that the same input always gives the same bytes. Not possible on stdout.
 */
int synthetic_output_close(struct ft_writer *w, const char *path, struct ft_error *err);

#endif
