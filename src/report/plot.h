/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the SVG plots share (svg.c, curve_svg.c): tick steps and escaped text. */
#ifndef FT_REPORT_PLOT_H
#define FT_REPORT_PLOT_H

#include <stdio.h>

/* 1, 2 or 5 times a power of ten, at least v: a tick step. */
double plot_nice_step(double v);
/* s as XML character data: markup escaped, control characters as '?'. */
void plot_xml_text(FILE *f, const char *s);

#endif /* FT_REPORT_PLOT_H */
