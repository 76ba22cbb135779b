/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef FT_TESTS_SAMPLE_TRACE_H
#define FT_TESTS_SAMPLE_TRACE_H

#include "trace/trace.h"

/* Appends the sample records (3 chunks once closed: 6, 5 and 6 records with the end). */
int sample_trace_write(struct ft_writer *w, struct ft_error *err);

#define SAMPLE_TRACE_RECORDS 17	/* records read back, the end record included */

#endif
