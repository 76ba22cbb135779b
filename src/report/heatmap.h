/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --heatmap=FILE.svg: where and when one file of the trace was accessed, and where each
 * order's cache missed. A grid of time (x) by file offset (y) cells counts the data accesses
 * that start in each cell (reads, writes, mmap reads and writes: the same for every order) and,
 * per order, the reads that found a page missing. The SVG draws the accesses, then one panel
 * of misses per order, on one logarithmic colour scale.
 */
#ifndef FT_REPORT_HEATMAP_H
#define FT_REPORT_HEATMAP_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "report/series.h"

#define HEAT_X	120	/* time cells */
#define HEAT_Y	64	/* offset cells at most (at least a page each) */

struct heatmap {
	/* the file */
	uint32_t dev;
	uint64_t ino;
	char path[256];			/* empty when the trace has no paths */
	uint64_t expected;		/* its data accesses, as the first pass counted them */
	/* the replay's id of the file once it is met; FILE_ID_NONE before */
	_Atomic uint32_t file_id;
	/* the grid */
	uint64_t t0, t_cell;		/* ns: cell i covers [t0 + i t_cell, t0 + (i+1) t_cell) */
	uint64_t y_cell;		/* bytes per offset cell */
	unsigned nx, ny;
	uint64_t *accesses;		/* [nx * ny], counted by the first configuration */
	unsigned ncols;
	struct heat_col {
		char label[32];
		unsigned order;
		uint64_t *misses;	/* [nx * ny] */
	} col[SERIES_MAX_COLS];
};

/*
 * A grid over [t0, t1] and file offsets [0, extent) for ncols configurations. 0, or -1 on
 * ENOMEM (heatmap_release() may follow).
 */
int heatmap_init(struct heatmap *h, uint64_t t0, uint64_t t1, uint64_t extent,
		 unsigned page_size, unsigned ncols);
void heatmap_release(struct heatmap *h);
/* The cell of an access at ts, pos (clamped to the grid). */
size_t heatmap_cell(const struct heatmap *h, uint64_t ts, uint64_t pos);

/* 0, or -1 when writing failed. */
int heatmap_write_svg(FILE *f, const struct heatmap *h, const char *title);

#endif /* FT_REPORT_HEATMAP_H */
