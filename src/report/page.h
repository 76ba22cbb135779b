/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace report's page: one self-contained HTML file (no script, no style sheet, font or
 * image from elsewhere, a Content-Security-Policy that forbids loading any) holding what the
 * other renderers wrote: the verdict, the table, the SVG plots inline, the calibration.
 */
#ifndef FT_REPORT_PAGE_H
#define FT_REPORT_PAGE_H

#include <stdio.h>

#include "model/model.h"

/* Each text is what a renderer wrote (its own escaping done); NULL: the section says why not. */
struct report_page {
	const char *trace_path;		/* untrusted: escaped */
	const char *version;		/* folio-trace's */
	const char *verdict;		/* report_write_verdict() */
	const char *details;		/* report_write_details() */
	const char *curves_svg;		/* curve_write_svg() */
	const char *curves_text;	/* curve_write_table() and the ratios */
	const char *curves_why_not;	/* when there are no curves */
	const char *time_svg;		/* series_write_svg() */
	const char *files_text;		/* report_units_table() */
	const char *trust;		/* calib_trust_text() */
	const char *calibration_text;	/* calib_write_table() */
	const struct model_config *cfg;	/* the settings of the first model */
	const char *sweep;		/* the memory sizes of the curves, as --memory takes them */
};

/* 0, or -1 when writing failed. */
int report_write_page(FILE *f, const struct report_page *p);

#endif /* FT_REPORT_PAGE_H */
