/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --curve-plot=FILE.svg: four stacked panels against memory (read hit ratio, device read
 * bytes, refaults, write-back bytes), one polyline per curve (per folio order), a legend on
 * top. Only panels with data are drawn: one no curve knows (stack curves have no refaults) or
 * that is zero at every size is named in a note under the legend instead. The hit ratio marks
 * each curve's knee; a line drawn over another's says so. Self-contained SVG.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "report/curve.h"
#include "report/metrics.h"
#include "report/plot.h"

#define W		960.0
#define LEFT		90.0
#define RIGHT		30.0
#define TOP		80.0
#define PANEL_H		180.0
#define GAP		70.0
#define NR_PANELS	4

static const char *const kinds[] = { "instances", "exact", "sampled" };

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000",
};

static const struct {
	const char *key, *title;
	bool bytes;
} panels[NR_PANELS] = {
	{ "hit_ratio", "Read hit ratio (requests)", false },
	{ "device_read_bytes", "Device read bytes", true },
	{ "refaults", "Refaults (pages)", false },
	{ "writeback_bytes", "Write-back bytes", true },
};

static const struct report_metric *metric_by_key(const char *key)
{
	for (unsigned i = 0; i < report_nr_metrics; i++)
		if (strcmp(report_metrics[i].key, key) == 0)
			return &report_metrics[i];
	return NULL;
}

static double value_at(const struct curve *c, unsigned i, const struct report_metric *md)
{
	struct report_value v;

	if (!curve_metric_known(c, md->key))
		return NAN;
	v = md->get(&c->p[i].m, &c->p[i].cfg);
	return v.valid ? report_value_double(v) : NAN;
}

/* Scale and unit name for byte values up to max. */
static double byte_scale(double max, const char **unit)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	double s = 1;
	unsigned k = 0;

	while (max / s >= 1024 && k < 5) {
		s *= 1024;
		k++;
	}
	*unit = units[k];
	return s;
}

static void draw_axes(FILE *f, double y0, double xmax, double xscale, const char *xunit,
		      double ymax, double yscale, const char *yunit, const char *title)
{
	double plot_w = W - LEFT - RIGHT, xs = plot_nice_step(xmax / xscale / 8);
	double ys = plot_nice_step(ymax / yscale / 4);

	fprintf(f, "<text x=\"%g\" y=\"%g\" font-size=\"14\">%s%s%s%s</text>\n", LEFT, y0 - 10,
		title, *yunit ? " (" : "", yunit, *yunit ? ")" : "");
	fprintf(f, "<rect x=\"%g\" y=\"%g\" width=\"%g\" height=\"%g\" fill=\"none\" "
		"stroke=\"#888\"/>\n", LEFT, y0, plot_w, PANEL_H);
	for (double t = 0; t <= xmax / xscale * (1 + 1e-9); t += xs) {
		double x = LEFT + plot_w * t * xscale / xmax;

		fprintf(f, "<text x=\"%g\" y=\"%g\" font-size=\"10\" "
			"text-anchor=\"middle\">%g</text>\n", x, y0 + PANEL_H + 14, t);
	}
	fprintf(f, "<text x=\"%g\" y=\"%g\" font-size=\"10\" "
		"text-anchor=\"end\">memory, %s</text>\n", W - RIGHT, y0 + PANEL_H + 28, xunit);
	for (double t = 0; t <= ymax / yscale * (1 + 1e-9); t += ys) {
		double y = y0 + PANEL_H - PANEL_H * t * yscale / ymax;

		fprintf(f, "<text x=\"%g\" y=\"%g\" font-size=\"10\" "
			"text-anchor=\"end\">%g</text>\n", LEFT - 6, y + 3, t);
		fprintf(f, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" "
			"stroke=\"#eee\"/>\n", LEFT, y, W - RIGHT, y);
	}
}

/* Why panel pi has nothing to draw, or NULL when it has data. */
static const char *panel_empty(const struct curve_set *s, unsigned pi)
{
	const struct report_metric *md = metric_by_key(panels[pi].key);
	bool known = false;

	for (unsigned c = 0; c < s->n; c++)
		for (unsigned i = 0; i < s->c[c].n; i++) {
			double v = value_at(&s->c[c], i, md);

			known |= !isnan(v);
			/* a hit ratio of 0 is an answer; a count of 0, activity the trace lacks */
			if (!isnan(v) && (pi == 0 || v != 0))
				return NULL;
		}
	return known ? "none at any size" : "not counted by a stack pass";
}

/* Whether curve a's values of md are curve b's at every point: a line hidden under another. */
static bool same_line(const struct curve *a, const struct curve *b,
		      const struct report_metric *md)
{
	if (a->n != b->n)
		return false;
	for (unsigned i = 0; i < a->n; i++) {
		double va = value_at(a, i, md), vb = value_at(b, i, md);

		if (a->p[i].memory_bytes != b->p[i].memory_bytes || isnan(va) != isnan(vb) ||
		    (!isnan(va) && fabs(va - vb) > 1e-9 * fabs(vb)))
			return false;
	}
	return true;
}

static void note_coinciding(FILE *f, const struct curve_set *s, const struct report_metric *md,
			    double y0)
{
	bool first = true;

	for (unsigned a = 1; a < s->n; a++)
		for (unsigned b = 0; b < a; b++) {
			if (!same_line(&s->c[a], &s->c[b], md))
				continue;
			if (first)
				fprintf(f, "<text class=\"coincide\" x=\"%g\" y=\"%g\" "
					"font-size=\"11\" fill=\"#444\" text-anchor=\"end\">",
					W - RIGHT, y0 - 10);
			fprintf(f, "%sorder %u on order %u's line", first ? "" : "; ",
				s->c[a].order, s->c[b].order);
			first = false;
			break;
		}
	if (!first)
		fputs("</text>\n", f);
}

/* Each curve's knee on the hit-ratio panel: a ring on the line, where more memory buys little. */
static void mark_knees(FILE *f, const struct curve_set *s, const struct report_metric *md,
		       double y0, double xmax, double ymax)
{
	double plot_w = W - LEFT - RIGHT;

	for (unsigned c = 0; c < s->n; c++) {
		const struct curve *cv = &s->c[c];
		uint64_t at;

		if (!curve_knee(cv, &at))
			continue;
		for (unsigned i = 0; i < cv->n; i++) {
			double v = value_at(cv, i, md), x, y;

			if (cv->p[i].memory_bytes != at || isnan(v))
				continue;
			x = LEFT + plot_w * (double)at / xmax;
			y = y0 + PANEL_H - PANEL_H * v / ymax;
			fprintf(f, "<circle class=\"knee\" data-order=\"%u\" cx=\"%.1f\" "
				"cy=\"%.1f\" r=\"5\" fill=\"none\" stroke=\"%s\" "
				"stroke-width=\"2\"/>\n", cv->order, x, y, palette[c % 11]);
			/* the labels of knees at one point stacked, not drawn over each other */
			fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"10\" fill=\"%s\">knee, "
				"order %u</text>\n", x + 7, y + 14 + 11.0 * c, palette[c % 11],
				cv->order);
			break;
		}
	}
}

static void draw_panel(FILE *f, const struct curve_set *s, unsigned pi, double y0, double xmax)
{
	const struct report_metric *md = metric_by_key(panels[pi].key);
	double ymax = 0, yscale = 1, xscale, plot_w = W - LEFT - RIGHT;
	const char *yunit = "", *xunit;

	for (unsigned c = 0; c < s->n; c++)
		for (unsigned i = 0; i < s->c[c].n; i++) {
			double v = value_at(&s->c[c], i, md);

			if (!isnan(v))
				ymax = v > ymax ? v : ymax;
		}
	if (panels[pi].key == panels[0].key)
		ymax = 1;
	if (!(ymax > 0))
		ymax = 1;
	if (panels[pi].bytes)
		yscale = byte_scale(ymax, &yunit);
	ymax = ceil(ymax / yscale / plot_nice_step(ymax / yscale / 4)) * plot_nice_step(ymax / yscale / 4) *
	       yscale;
	xscale = byte_scale(xmax, &xunit);
	fprintf(f, "<g class=\"panel\" data-panel=\"%s\">\n", panels[pi].key);
	draw_axes(f, y0, xmax, xscale, xunit, ymax, yscale, yunit, panels[pi].title);
	for (unsigned c = 0; c < s->n; c++) {
		const struct curve *cv = &s->c[c];
		bool open = false;

		for (unsigned i = 0; i < cv->n; i++) {
			double v = value_at(cv, i, md);
			double x = LEFT + plot_w * (double)cv->p[i].memory_bytes / xmax;
			double y = y0 + PANEL_H - PANEL_H * v / ymax;

			if (isnan(v))
				continue;
			if (!open)
				fprintf(f, "<polyline class=\"series\" data-order=\"%u\" "
					"data-source=\"%s\" fill=\"none\" stroke=\"%s\" "
					"stroke-width=\"1.5\"%s points=\"", cv->order,
					kinds[cv->source], palette[c % 11],
					cv->source == CURVE_SAMPLED ?
					" stroke-dasharray=\"5,3\"" : "");
			fprintf(f, "%s%.1f,%.1f", open ? " " : "", x, y);
			open = true;
		}
		if (open)
			fputs("\"/>\n", f);
	}
	if (pi == 0)
		mark_knees(f, s, md, y0, xmax, ymax);
	note_coinciding(f, s, md, y0);
	fputs("</g>\n", f);
}

/* Under the legend: the panels left out and why, so no reader looks for them. */
static void note_left_out(FILE *f, const struct curve_set *s, double y)
{
	bool first = true;

	for (unsigned p = 0; p < NR_PANELS; p++) {
		const char *why = panel_empty(s, p);

		if (!why)
			continue;
		if (first)
			fprintf(f, "<text class=\"left-out\" x=\"%g\" y=\"%g\" font-size=\"11\" "
				"fill=\"#444\">not drawn: ", LEFT, y);
		fprintf(f, "%s%s (%s)", first ? "" : "; ", panels[p].title, why);
		first = false;
	}
	if (!first)
		fputs("</text>\n", f);
}

int curve_write_svg(FILE *f, const struct curve_set *s, const char *title)
{
	double h, xmax = 0;
	unsigned shown = 0, legend_rows = (s->n + 3) / 4, at = 0;
	double top = TOP + 16.0 * (legend_rows > 1 ? legend_rows - 1 : 0);

	for (unsigned p = 0; p < NR_PANELS; p++)
		shown += !panel_empty(s, p);
	h = top + 20 + (shown ? shown : 1) * (PANEL_H + GAP);

	for (unsigned c = 0; c < s->n; c++)
		for (unsigned i = 0; i < s->c[c].n; i++)
			if ((double)s->c[c].p[i].memory_bytes > xmax)
				xmax = (double)s->c[c].p[i].memory_bytes;
	if (!(xmax > 0))
		xmax = 1;
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" "
		"viewBox=\"0 0 %g %g\" font-family=\"sans-serif\">\n"
		"<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n", W, h, W, h);
	fputs("<text x=\"90\" y=\"24\" font-size=\"16\">", f);
	plot_xml_text(f, title);
	fputs("</text>\n", f);
	fputs("<g class=\"legend\">\n", f);
	for (unsigned c = 0; c < s->n; c++) {
		double x = LEFT + (c % 4) * 205.0, y = 44 + (c / 4) * 16.0;

		fprintf(f, "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"%s\" "
			"stroke-width=\"2\"/>\n<text x=\"%g\" y=\"%g\" font-size=\"11\">order %u, "
			"%s, %s</text>\n", x, y, x + 20, y, palette[c % 11], x + 24, y + 4,
			s->c[c].order, s->c[c].lru, kinds[s->c[c].source]);
	}
	fputs("</g>\n", f);
	note_left_out(f, s, top);
	for (unsigned p = 0; p < NR_PANELS; p++)
		if (!panel_empty(s, p))
			draw_panel(f, s, p, top + 30 + at++ * (PANEL_H + GAP), xmax);
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
