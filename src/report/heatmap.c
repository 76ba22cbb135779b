/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "report/heatmap.h"
#include "report/plot.h"

#define HM_W		960.0
#define HM_LEFT		90.0
#define HM_RIGHT	30.0
#define HM_TOP		110.0
#define HM_PANEL_H	256.0
#define HM_GAP		80.0
#define HM_SHADES	9

/* A sequential scale, light to dark (ColorBrewer YlOrRd). */
static const char *const shades[HM_SHADES] = {
	"#ffffcc", "#ffeda0", "#fed976", "#feb24c", "#fd8d3c",
	"#fc4e2a", "#e31a1c", "#bd0026", "#800026",
};

int heatmap_init(struct heatmap *h, uint64_t t0, uint64_t t1, uint64_t extent,
		 unsigned page_size, unsigned ncols)
{
	uint64_t pages, span = t1 > t0 ? t1 - t0 : 0;

	h->t0 = t0;
	/* a round cell length, at least span / HEAT_X: 48 to HEAT_X cells, the last inside */
	h->t_cell = (uint64_t)plot_nice_step((double)span / HEAT_X);
	if (h->t_cell < 1000)
		h->t_cell = 1000;
	h->nx = (unsigned)(span / h->t_cell) + 1;
	if (!page_size)
		page_size = 4096;
	pages = extent ? (extent - 1) / page_size + 1 : 1;
	h->ny = pages < HEAT_Y ? (unsigned)pages : HEAT_Y;
	h->y_cell = ((pages - 1) / h->ny + 1) * (uint64_t)page_size;
	h->ncols = ncols < SERIES_MAX_COLS ? ncols : SERIES_MAX_COLS;
	atomic_init(&h->file_id, UINT32_MAX);
	h->accesses = calloc((size_t)h->nx * h->ny, sizeof(*h->accesses));
	if (!h->accesses)
		return -1;
	for (unsigned i = 0; i < h->ncols; i++) {
		h->col[i].misses = calloc((size_t)h->nx * h->ny, sizeof(*h->col[i].misses));
		if (!h->col[i].misses)
			return -1;
	}
	return 0;
}

void heatmap_release(struct heatmap *h)
{
	free(h->accesses);
	h->accesses = NULL;
	for (unsigned i = 0; i < SERIES_MAX_COLS; i++) {
		free(h->col[i].misses);
		h->col[i].misses = NULL;
	}
}

size_t heatmap_cell(const struct heatmap *h, uint64_t ts, uint64_t pos)
{
	uint64_t x = ts > h->t0 ? (ts - h->t0) / h->t_cell : 0, y = pos / h->y_cell;

	if (x >= h->nx)
		x = h->nx - 1;
	if (y >= h->ny)
		y = h->ny - 1;
	return (size_t)y * h->nx + (size_t)x;
}

/* Lower bounds of the shades: 1 up to max, evenly on a log scale, each above the last. */
static unsigned shade_bounds(uint64_t max, uint64_t *lo)
{
	unsigned n = max < HM_SHADES ? (unsigned)max : HM_SHADES;

	for (unsigned k = 0; k < n; k++) {
		uint64_t b = (uint64_t)ceil(pow((double)max, (double)k / n) - 1e-9);

		lo[k] = k && b <= lo[k - 1] ? lo[k - 1] + 1 : b < 1 ? 1 : b;
	}
	return n;
}

static unsigned shade_of(uint64_t v, const uint64_t *lo, unsigned n)
{
	unsigned k = 0;

	while (k + 1 < n && v >= lo[k + 1])
		k++;
	/* spread over the whole scale when there are fewer bounds than shades */
	return n > 1 ? k * (HM_SHADES - 1) / (n - 1) : HM_SHADES - 1;
}

static void bytes_label(char *buf, size_t len, double v)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB" };
	unsigned k = 0;

	while (v >= 1024 && k < 5) {
		v /= 1024;
		k++;
	}
	snprintf(buf, len, "%g %s", round(v * 100) / 100, units[k]);
}

static void draw_legend(FILE *f, const uint64_t *lo, unsigned n, uint64_t max)
{
	double x = HM_LEFT;

	fprintf(f, "<g class=\"legend\">\n<text x=\"%.1f\" y=\"62\" font-size=\"12\">"
		"per cell (log scale):</text>\n", x);
	x += 130;
	fprintf(f, "<rect x=\"%.1f\" y=\"50\" width=\"16\" height=\"16\" fill=\"white\" "
		"stroke=\"#444\"/>\n<text x=\"%.1f\" y=\"62\" font-size=\"11\">0</text>\n", x,
		x + 20);
	x += 44;
	for (unsigned k = 0; k < n; k++) {
		char range[48];
		uint64_t hi = k + 1 < n ? lo[k + 1] - 1 : max;

		if (hi > lo[k])
			snprintf(range, sizeof(range), "%llu-%llu", (unsigned long long)lo[k],
				 (unsigned long long)hi);
		else
			snprintf(range, sizeof(range), "%llu", (unsigned long long)lo[k]);
		fprintf(f, "<rect class=\"shade\" x=\"%.1f\" y=\"50\" width=\"16\" height=\"16\" "
			"fill=\"%s\" stroke=\"#444\" data-from=\"%llu\" data-to=\"%llu\"/>\n"
			"<text x=\"%.1f\" y=\"62\" font-size=\"11\">%s</text>\n", x,
			shades[shade_of(lo[k], lo, n)], (unsigned long long)lo[k],
			(unsigned long long)hi, x + 20, range);
		x += 26 + 7.0 * strlen(range);
	}
	fputs("</g>\n", f);
}

static void draw_panel(FILE *f, const struct heatmap *h, const char *key, const char *title,
		       unsigned order, const uint64_t *cells, const uint64_t *lo, unsigned n,
		       double top)
{
	double right = HM_W - HM_RIGHT, cw = (right - HM_LEFT) / h->nx, ch = HM_PANEL_H / h->ny;
	double span_s = (double)h->t_cell * h->nx / 1e9, bytes = (double)h->y_cell * h->ny;
	double xstep = plot_nice_step(span_s / 8), unit = 1, ystep;
	uint64_t sum = 0;

	/* ticks at round numbers of the binary unit the extent is shown in */
	while (bytes / unit >= 1024 && unit < 1024.0 * 1024 * 1024 * 1024)
		unit *= 1024;
	ystep = plot_nice_step(bytes / unit / 4) * unit;

	for (size_t i = 0; i < (size_t)h->nx * h->ny; i++)
		sum += cells[i];
	fprintf(f, "<g class=\"panel\" data-panel=\"%s\"", key);
	if (order != UINT32_MAX)
		fprintf(f, " data-order=\"%u\"", order);
	fprintf(f, " data-total=\"%llu\">\n<text x=\"%.1f\" y=\"%.1f\" font-size=\"14\" "
		"font-weight=\"bold\">", (unsigned long long)sum, HM_LEFT, top - 12);
	plot_xml_text(f, title);
	fprintf(f, " (%llu in all)</text>\n", (unsigned long long)sum);
	fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"white\" "
		"stroke=\"#444\"/>\n", HM_LEFT, top, right - HM_LEFT, HM_PANEL_H);
	for (unsigned y = 0; y < h->ny; y++)
		for (unsigned x = 0; x < h->nx; x++) {
			uint64_t v = cells[(size_t)y * h->nx + x];

			if (!v)
				continue;
			/* offset 0 at the top, as in a file listing */
			fprintf(f, "<rect class=\"cell\" x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" "
				"height=\"%.2f\" fill=\"%s\" data-x=\"%u\" data-y=\"%u\" "
				"data-count=\"%llu\"/>\n", HM_LEFT + x * cw, top + y * ch, cw, ch,
				shades[shade_of(v, lo, n)], x, y, (unsigned long long)v);
		}
	for (double t = 0; t <= span_s + xstep * 1e-6; t += xstep) {
		double px = HM_LEFT + t / span_s * (right - HM_LEFT);

		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"middle\">%g"
			"</text>\n", px, top + HM_PANEL_H, px, top + HM_PANEL_H + 5, px,
			top + HM_PANEL_H + 18, t);
	}
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">time (s)"
		"</text>\n", right, top + HM_PANEL_H + 34);
	for (double b = 0; b <= bytes + ystep * 1e-6; b += ystep) {
		char label[32];
		double py = top + b / bytes * HM_PANEL_H;

		bytes_label(label, sizeof(label), b);
		fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#444\"/>\n"
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\">%s</text>\n",
			HM_LEFT - 5, py, HM_LEFT, py, HM_LEFT - 7, py + 4, label);
	}
	fprintf(f, "<text transform=\"translate(%.1f,%.1f) rotate(-90)\" font-size=\"11\" "
		"text-anchor=\"middle\">file offset</text>\n</g>\n", HM_LEFT - 70,
		top + HM_PANEL_H / 2);
}

int heatmap_write_svg(FILE *f, const struct heatmap *h, const char *title)
{
	unsigned npanels = 1 + h->ncols, n;
	double height = HM_TOP + npanels * (HM_PANEL_H + HM_GAP);
	size_t ncells = (size_t)h->nx * h->ny;
	uint64_t max = 0, lo[HM_SHADES];
	char what[512], cell[32], tcell[32];

	for (size_t i = 0; i < ncells; i++)
		if (h->accesses[i] > max)
			max = h->accesses[i];
	for (unsigned c = 0; c < h->ncols; c++)
		for (size_t i = 0; i < ncells; i++)
			if (h->col[c].misses[i] > max)
				max = h->col[c].misses[i];
	n = shade_bounds(max ? max : 1, lo);
	fprintf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
		"viewBox=\"0 0 %.0f %.0f\" font-family=\"sans-serif\" data-dev=\"%u:%u\" "
		"data-ino=\"%llu\" data-cols=\"%u\" data-rows=\"%u\">\n", HM_W, height, HM_W, height,
		h->dev >> 20, h->dev & 0xfffff, (unsigned long long)h->ino, h->nx, h->ny);
	fputs("<title>", f);
	plot_xml_text(f, title);
	fputs("</title>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n", f);
	fprintf(f, "<text x=\"%.1f\" y=\"22\" font-size=\"15\">", HM_LEFT);
	plot_xml_text(f, title);
	fputs("</text>\n", f);
	bytes_label(cell, sizeof(cell), (double)h->y_cell);
	if (h->t_cell < 1000000)
		snprintf(tcell, sizeof(tcell), "%g us", (double)h->t_cell / 1e3);
	else if (h->t_cell < 1000000000)
		snprintf(tcell, sizeof(tcell), "%g ms", (double)h->t_cell / 1e6);
	else
		snprintf(tcell, sizeof(tcell), "%g s", (double)h->t_cell / 1e9);
	snprintf(what, sizeof(what), "file %s (dev %u:%u, inode %llu): cells of %s by %s",
		 h->path[0] ? h->path : "without a recorded path", h->dev >> 20, h->dev & 0xfffff,
		 (unsigned long long)h->ino, tcell, cell);
	fprintf(f, "<text class=\"subtitle\" x=\"%.1f\" y=\"40\" font-size=\"12\" fill=\"#444\">",
		HM_LEFT);
	plot_xml_text(f, what);
	fputs("</text>\n", f);
	draw_legend(f, lo, n, max ? max : 1);
	draw_panel(f, h, "accesses", "Data accesses, every order", UINT32_MAX, h->accesses, lo, n,
		   HM_TOP);
	for (unsigned c = 0; c < h->ncols; c++) {
		char t[96];

		snprintf(t, sizeof(t), "Reads that missed a page, %s", h->col[c].label);
		draw_panel(f, h, "misses", t, h->col[c].order, h->col[c].misses, lo, n,
			   HM_TOP + (c + 1) * (HM_PANEL_H + HM_GAP));
	}
	fputs("</svg>\n", f);
	return ferror(f) ? -1 : 0;
}
