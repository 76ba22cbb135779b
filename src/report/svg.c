/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --plot=FILE.svg: stacked panels of the time series, one polyline per configuration, shared
 * time axis, legend on top. The panels follow the data: LRU length always, read hit ratio and
 * device read bandwidth when the trace reads, write bandwidth and dirty bytes when it writes,
 * the fragmentation index always. Self-contained: no scripts, fonts or style sheets from
 * elsewhere.
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "report/plot.h"
#include "report/series.h"
#include "util/escape.h"

#define SVG_W		960.0
#define SVG_LEFT	90.0
#define SVG_RIGHT	30.0
#define SVG_TOP		76.0
#define PANEL_H		190.0
#define PANEL_GAP	70.0
#define MAX_POINTS	2000	/* per polyline: more would not show and only bloat the file */
#define NR_PANELS	6

static const char *const palette[] = {
	"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
	"#e377c2", "#7f7f7f", "#bcbd22", "#17becf", "#000000",
};

enum panel_unit { UNIT_COUNT, UNIT_BYTES, UNIT_BYTES_PER_S, UNIT_INDEX, UNIT_RATIO };
enum panel_when { ALWAYS, READS, WRITES };

struct panel {
	const char *key;
	const char *title;
	enum panel_unit unit;
	enum panel_when when;
	/* NAN: no point (a hit ratio where nothing was read) */
	double (*value)(const struct series *s, const struct series_col *c, size_t i);
};

static double v_lru(const struct series *s, const struct series_col *c, size_t i)
{
	return (double)c->v[i].lru_entries;
}

static double v_dirty(const struct series *s, const struct series_col *c, size_t i)
{
	return (double)c->v[i].dirty_bytes;
}

static double v_frag(const struct series *s, const struct series_col *c, size_t i)
{
	return c->v[i].fragmentation_index;
}

static const struct panel panels[NR_PANELS] = {
	{ "lru_entries", "LRU length", UNIT_COUNT, ALWAYS, v_lru },
	{ "read_hit_ratio", "Read hit ratio (bytes found cached)", UNIT_RATIO, READS,
	  series_hit_ratio },
	{ "read_io_bandwidth", "Device read bandwidth", UNIT_BYTES_PER_S, READS,
	  series_read_io_bandwidth },
	{ "write_bandwidth", "Write bandwidth (writeback)", UNIT_BYTES_PER_S, WRITES,
	  series_write_bandwidth },
	{ "dirty_bytes", "Dirty bytes", UNIT_BYTES, WRITES, v_dirty },
	{ "fragmentation_index", "Fragmentation index at the configured order (-1: block free)",
	  UNIT_INDEX, ALWAYS, v_frag },
};

struct axis {
	double lo, hi, step;	/* log axes: powers of ten, step unused */
	double scale;		/* values are divided by this for tick labels */
	const char *unit;
	bool log;
};

void plot_xml_text(FILE *f, const char *text)
{
	char buf[2048];
	const char *s = ft_escape(buf, sizeof(buf), text, sizeof(buf));

	/* escaped first: no control byte or broken UTF-8, which XML 1.0 does not allow */
	for (; s && *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default:
			fputc(*s, f);
		}
	}
}

double plot_nice_step(double v)
{
	double e, f;

	if (!(v > 0))
		return 1;
	e = pow(10, floor(log10(v)));
	f = v / e;
	return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * e;
}

static void axis_fit(struct axis *a, double max, int ticks)
{
	a->lo = 0;
	a->step = plot_nice_step((max > 0 ? max : 1) / ticks);
	a->hi = ceil((max > 0 ? max : 1) / a->step) * a->step;
}

static void axis_unit(struct axis *a, enum panel_unit unit, double max)
{
	static const char *const bytes[] = { "B", "KiB", "MiB", "GiB", "TiB" };
	static const char *const rates[] = { "B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s" };
	unsigned k = 0;

	a->scale = 1;
	if (unit == UNIT_COUNT) {
		a->unit = "folios";
		return;
	}
	if (unit == UNIT_INDEX) {
		a->unit = "index";
		return;
	}
	if (unit == UNIT_RATIO) {
		a->unit = "ratio";
		return;
	}
	while (max / a->scale >= 1024 && k < 4) {
		a->scale *= 1024;
		k++;
	}
	a->unit = unit == UNIT_BYTES ? bytes[k] : rates[k];
}

static double panel_max(const struct series *s, const struct panel *p)
{
	double max = 0;

	for (unsigned i = 0; i < s->ncols; i++)
		for (size_t k = 0; k < s->col[i].n; k++) {
			double v = p->value(s, &s->col[i], k);

			if (v > max)
				max = v;
		}
	return max;
}

static double time_max(const struct series *s)
{
	double max = 0;

	for (unsigned i = 0; i < s->ncols; i++)
		if (s->col[i].n && s->col[i].v[s->col[i].n - 1].ts > s->t0) {
			double t = (double)(s->col[i].v[s->col[i].n - 1].ts - s->t0) / 1e9;

			if (t > max)
				max = t;
		}
	return max;
}

/* Smallest positive per-series maximum: an order whose line would be flat on a linear axis. */
static double smallest_series_max(const struct series *s, const struct panel *p)
{
	double least = 0;

	for (unsigned i = 0; i < s->ncols; i++) {
		double max = 0;

		for (size_t k = 0; k < s->col[i].n; k++)
			if (p->value(s, &s->col[i], k) > max)
				max = p->value(s, &s->col[i], k);
		if (max > 0 && (least == 0 || max < least))
			least = max;
	}
	return least;
}

/*
 * LRU lengths differ by 2^order between orders: when one line would be 20 times below another
 * use powers of ten, so every order stays readable.
 */
static bool want_log_axis(const struct series *s, const struct panel *p)
{
	double least = smallest_series_max(s, p);

	return p->unit == UNIT_COUNT && least > 0 && panel_max(s, p) >= 20 * least;
}

static void panel_axis(const struct series *s, const struct panel *p, struct axis *y)
{
	y->log = false;
	if (want_log_axis(s, p)) {
		y->log = true;
		y->lo = 1;
		y->hi = pow(10, ceil(log10(panel_max(s, p))));
		y->step = 10;
		y->scale = 1;
		y->unit = "folios, log scale";
		return;
	}
	if (p->unit == UNIT_RATIO) {
		y->lo = 0;
		y->hi = 1;
		y->step = 0.25;
		y->scale = 1;
		y->unit = "ratio";
		return;
	}
	if (p->unit == UNIT_INDEX) {
		y->lo = -1;
		y->hi = 1;
		y->step = 0.5;
		y->scale = 1;
		y->unit = "index";
		return;
	}
	axis_unit(y, p->unit, panel_max(s, p));
	axis_fit(y, panel_max(s, p) / y->scale, 4);
	y->lo *= y->scale;
	y->hi *= y->scale;
	y->step *= y->scale;
}

static double map(double v, double lo, double hi, double from, double to)
{
	if (hi <= lo)
		return from;
	if (v < lo)
		v = lo;
	if (v > hi)
		v = hi;
	return from + (v - lo) / (hi - lo) * (to - from);
}

/* Where value v lies between from (at lo) and to (at hi) on axis a. */
static double axis_map(const struct axis *a, double v, double from, double to)
{
	if (a->log)
		return map(log10(v > 1 ? v : 1), 0, log10(a->hi), from, to);
	return map(v, a->lo, a->hi, from, to);
}

/* The top tick is hi itself: allow for rounding in the steps. */
static bool tick_in_range(const struct axis *a, double v)
{
	return v <= a->hi * (1 + 1e-9) + (a->log ? 0 : a->step * 1e-6);
}

static double next_tick(const struct axis *a, double v)
{
	return a->log ? v * 10 : v + a->step;
}

static void draw_frame(FILE *f, const struct panel *p, const struct axis *x,
		       const struct axis *y, double top)
{
	double right = SVG_W - SVG_RIGHT, bottom = top + PANEL_H;

	fprintf(f, "<g class=\"panel\" data-panel=\"%s\" data-time-max=\"%.9g\">\n", p->key,
		x->hi);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" font-weight=\"bold\">", SVG_LEFT,
		top - 12);
	plot_xml_text(f, p->title);
	fprintf(f, " (%s)</text>\n", y->unit);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
		"stroke=\"#444\"/>\n", SVG_LEFT, top, right - SVG_LEFT, PANEL_H);
	for (double v = y->lo; tick_in_range(y, v); v = next_tick(y, v)) {
		double py = axis_map(y, v, bottom, top);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#ddd\"/>\n", SVG_LEFT, py, right, py);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%g"
			"</text>\n", SVG_LEFT - 6, py + 4, v / y->scale);
	}
	for (double t = x->lo; t <= x->hi + x->step / 1e6; t += x->step) {
		double px = map(t, x->lo, x->hi, SVG_LEFT, right);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
			"stroke=\"#444\"/>\n", px, bottom, px, bottom + 5);
		fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%g"
			"</text>\n", px, bottom + 18, t);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">time (s)"
		"</text>\n", right, bottom + 34);
	fprintf(f, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" font-size=\"11\" "
		"text-anchor=\"middle\">%s</text>\n", SVG_LEFT - 62, top + PANEL_H / 2, y->unit);
}

static void draw_series(FILE *f, const struct series *s, unsigned ci, const struct panel *p,
			const struct axis *x, const struct axis *y, double top)
{
	const struct series_col *c = &s->col[ci];
	size_t stride = c->n > MAX_POINTS ? (c->n + MAX_POINTS - 1) / MAX_POINTS : 1;
	double right = SVG_W - SVG_RIGHT, bottom = top + PANEL_H;

	fprintf(f, "<polyline class=\"series\" data-panel=\"%s\" data-order=\"%u\" fill=\"none\" "
		"stroke=\"%s\" stroke-width=\"1.5\" points=\"", p->key, c->order,
		palette[ci % (sizeof(palette) / sizeof(palette[0]))]);
	for (size_t k = 0, first = 1; k < c->n; k += stride) {
		double t = c->v[k].ts > s->t0 ? (double)(c->v[k].ts - s->t0) / 1e9 : 0;
		double v = p->value(s, c, k);

		if (isnan(v))
			continue;
		fprintf(f, "%s%.1f,%.1f", first ? "" : " ", map(t, x->lo, x->hi, SVG_LEFT, right),
			axis_map(y, v, bottom, top));
		first = 0;
	}
	fputs("\"><title>", f);
	plot_xml_text(f, c->label);
	fputs("</title></polyline>\n", f);
}

/* Whether column a's line is column b's in panel p: every sample the same (a hidden line). */
static bool same_line(const struct series *s, const struct panel *p, unsigned a, unsigned b)
{
	const struct series_col *ca = &s->col[a], *cb = &s->col[b];

	if (ca->n != cb->n)
		return false;
	for (size_t k = 0; k < ca->n; k++) {
		double va = p->value(s, ca, k), vb = p->value(s, cb, k);

		if (isnan(va) != isnan(vb) || (!isnan(va) && fabs(va - vb) > 1e-9 * fabs(vb)))
			return false;
	}
	return true;
}

/* Lines drawn over another's say so beside the panel's title: none is lost from view. */
static void note_coinciding(FILE *f, const struct series *s, const struct panel *p, double top)
{
	bool first = true;

	for (unsigned a = 1; a < s->ncols; a++)
		for (unsigned b = 0; b < a; b++) {
			if (!same_line(s, p, a, b))
				continue;
			if (first)
				fprintf(f, "<text class=\"coincide\" x=\"%.1f\" y=\"%.1f\" "
					"font-size=\"11\" fill=\"#444\" text-anchor=\"end\">",
					SVG_W - SVG_RIGHT, top - 12);
			fputs(first ? "" : "; ", f);
			plot_xml_text(f, s->col[a].label);
			fputs(" on ", f);
			plot_xml_text(f, s->col[b].label);
			fputs("'s line", f);
			first = false;
			break;
		}
	if (!first)
		fputs("</text>\n", f);
}

static void draw_legend(FILE *f, const struct series *s)
{
	fputs("<g class=\"legend\">\n", f);
	for (unsigned i = 0; i < s->ncols; i++) {
		double lx = SVG_LEFT + 120.0 * i;
		const char *colour = palette[i % (sizeof(palette) / sizeof(palette[0]))];

		fprintf(f, "<line x1=\"%.1f\" y1=\"56\" x2=\"%.1f\" y2=\"56\" stroke=\"%s\" "
			"stroke-width=\"3\"/>\n", lx, lx + 24, colour);
		fprintf(f, "<text x=\"%.1f\" y=\"60\" font-size=\"12\">", lx + 30);
		plot_xml_text(f, s->col[i].label);
		fputs("</text>\n", f);
	}
	fputs("</g>\n", f);
}

static bool panel_shown(const struct series *s, const struct panel *p)
{
	switch (p->when) {
	case READS:
		return series_reads(s);
	case WRITES:
		return series_writes(s);
	default:
		return true;
	}
}

int series_write_svg(FILE *f, const struct series *s, const char *title, const char *subtitle)
{
	const struct panel *shown[NR_PANELS];
	unsigned n = 0;
	double height;
	struct axis x;

	for (unsigned p = 0; p < NR_PANELS; p++)
		if (panel_shown(s, &panels[p]))
			shown[n++] = &panels[p];
	height = SVG_TOP + n * (PANEL_H + PANEL_GAP);
	/* the axis ends where the trace does, its ticks at round steps up to there */
	axis_fit(&x, time_max(s), 8);
	if (time_max(s) > 0)
		x.hi = time_max(s);
	x.scale = 1;
	x.unit = "s";
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\">\n", SVG_W, height, SVG_W,
		height);
	fputs("<title>", f);
	plot_xml_text(f, title);
	fputs("</title>\n", f);
	fprintf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
	fprintf(f, "<text x=\"%.1f\" y=\"22\" font-size=\"15\">", SVG_LEFT);
	plot_xml_text(f, title);
	fputs("</text>\n", f);
	if (subtitle) {
		fprintf(f, "<text class=\"subtitle\" x=\"%.1f\" y=\"38\" font-size=\"12\" "
			"fill=\"#444\">", SVG_LEFT);
		plot_xml_text(f, subtitle);
		fputs("</text>\n", f);
	}
	draw_legend(f, s);
	for (unsigned p = 0; p < n; p++) {
		double top = SVG_TOP + PANEL_GAP / 2 + p * (PANEL_H + PANEL_GAP);
		struct axis y;

		panel_axis(s, shown[p], &y);
		draw_frame(f, shown[p], &x, &y, top);
		for (unsigned i = 0; i < s->ncols; i++)
			draw_series(f, s, i, shown[p], &x, &y, top);
		note_coinciding(f, s, shown[p], top);
		fputs("</g>\n", f);
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
