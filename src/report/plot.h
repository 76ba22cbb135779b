/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What the SVG plots share (svg.c, curve_svg.c): tick steps and escaped text. */
#ifndef FT_REPORT_PLOT_H
#define FT_REPORT_PLOT_H

#include <stdio.h>

/* 1, 2 or 5 times a power of ten, at least v: a tick step. */
double plot_nice_step(double v);
/*
 * text as XML character data: escaped for the terminal first (ft_escape: no control byte or
 * broken UTF-8, which XML 1.0 does not allow), then markup escaped.
 */
void plot_xml_text(FILE *f, const char *text);

#endif /* FT_REPORT_PLOT_H */
