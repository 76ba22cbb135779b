// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The verdict that opens every replay table: what changes with the folio order, each order
 * beside order 0, on a handful of rows that fit one screen (at most 15 lines): LRU length, hit
 * ratio, device bytes both ways, write amplification, reclaim and refaults, fragmentation,
 * the memory knee of a sweep, and how far the model can be trusted on this trace.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report/curve.h"
#include "report/metrics.h"
#include "report/report.h"
#include "util/parse.h"

/* The rows, by metric key; labels say what the table's longer rows say. */
static const struct {
	const char *key;
	const char *label;
} verdict_rows[] = {
	{ "lru_entries_mean", "LRU entries (mean)" },
	{ "hit_ratio", "hit ratio (requests)" },
	{ "device_read_bytes", "device read bytes" },
	{ "writeback_bytes", "device write bytes" },
	{ "write_amplification", "write amplification" },
	{ "evicted_pages", "pages reclaimed" },
	{ "refaults", "refaults (pages)" },
	{ "unusable_index_9", "fragmentation (o9, end)" },
};
#define NR_VERDICT_ROWS (sizeof(verdict_rows) / sizeof(verdict_rows[0]))

/* One order's figures: a column of the run, or a sweep curve's point at its largest memory. */
struct verdict_col {
	unsigned order;
	const struct model_metrics *m;
	const struct model_config *cfg;
	const struct curve *curve;	/* a sweep's: the knee comes from it; else NULL */
};

#define VERDICT_MAX_COLS	3	/* 80 columns: order 0, two more and their ratios */
#define LABEL_WIDTH		24
#define VALUE_WIDTH		12
#define RATIO_WIDTH		8

/* The orders to show, the baseline first; *more: orders left out for the width. */
static unsigned pick_cols(const struct report *r, struct verdict_col *v, unsigned *more)
{
	unsigned n = 0, total = 0;

	if (r->curves) {
		for (unsigned i = 0; i < r->curves->n; i++) {
			const struct curve *c = &r->curves->c[i];

			if (!c->n)
				continue;
			total++;
			if (n < VERDICT_MAX_COLS)
				v[n++] = (struct verdict_col){ c->order, &c->p[c->n - 1].m,
							       &c->p[c->n - 1].cfg, c };
		}
	} else {
		for (unsigned i = 0; i < r->ncols; i++) {
			/* the baseline first, then the others in their order */
			unsigned k = i == 0 ? r->baseline : i <= r->baseline ? i - 1 : i;

			total++;
			if (n < VERDICT_MAX_COLS)
				v[n++] = (struct verdict_col){ r->cols[k].cfg.order, &r->cols[k].m,
							       &r->cols[k].cfg, NULL };
		}
	}
	/* curves come in the order given: order 0 is the baseline wherever it is */
	for (unsigned i = 1; i < n && v[0].order != 0; i++) {
		if (v[i].order == 0) {
			struct verdict_col t = v[0];

			v[0] = v[i];
			v[i] = t;
		}
	}
	*more = total - n;
	return n;
}

static void print_title(FILE *f, const struct report *r, const struct verdict_col *v, unsigned n,
			unsigned more)
{
	char mem[32];

	fputs("verdict: ", f);
	if (n == 1 && v[0].cfg->min_order)
		fprintf(f, "order %u alone (--min-order=%u: no base pages to compare with)",
			v[0].order, v[0].cfg->min_order);
	else if (n == 1 && !v[0].order)
		fputs("order 0 alone; --folio-order=0,9 compares base pages with large folios", f);
	else if (n == 1)
		fprintf(f, "order %u alone; --folio-order=0,%u compares it with base pages",
			v[0].order, v[0].order);
	else if (v[0].order != 0)
		fprintf(f, "each order against order %u, the smallest run", v[0].order);
	else
		fputs("each order against order 0 (base pages)", f);
	if (r->curves)
		fprintf(f, ", at %s", format_bytes(v[0].cfg->memory_bytes, mem, sizeof(mem)));
	if (more)
		fprintf(f, "; %u more in the table", more);
	fputc('\n', f);
	if (r->why_orders)
		fprintf(f, "  %s\n", r->why_orders);
}

static void print_header(FILE *f, const struct verdict_col *v, unsigned n)
{
	char buf[REPORT_CELL_LEN];

	fprintf(f, "  %-*s", LABEL_WIDTH - 2, "");
	for (unsigned i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "order %u", v[i].order);
		fprintf(f, "%*s", VALUE_WIDTH, buf);
	}
	for (unsigned i = 1; i < n; i++) {
		snprintf(buf, sizeof(buf), "%u/%u", v[i].order, v[0].order);
		fprintf(f, "%*s", RATIO_WIDTH, buf);
	}
	fputc('\n', f);
}

static void print_row(FILE *f, const char *label, const struct report_metric *md,
		      const struct verdict_col *v, unsigned n)
{
	char buf[REPORT_CELL_LEN];

	fprintf(f, "  %-*s", LABEL_WIDTH - 2, label);
	for (unsigned i = 0; i < n; i++) {
		report_format_value(buf, md->kind, md->get(v[i].m, v[i].cfg));
		fprintf(f, "%*s", VALUE_WIDTH, buf);
	}
	for (unsigned i = 1; i < n; i++) {
		struct report_value q = report_metric_ratio(md, v[i].m, v[i].cfg, v[0].m, v[0].cfg);

		if (q.valid)
			snprintf(buf, sizeof(buf), "%.3f", q.d);
		else
			snprintf(buf, sizeof(buf), "-");
		fprintf(f, "%*s", RATIO_WIDTH, buf);
	}
	fputc('\n', f);
}

/* A sweep's knee of the hit ratio per order: the memory past which more buys little. */
static void print_knee(FILE *f, const struct verdict_col *v, unsigned n)
{
	char buf[REPORT_CELL_LEN];
	uint64_t at;

	fprintf(f, "  %-*s", LABEL_WIDTH - 2, "memory knee (hit ratio)");
	for (unsigned i = 0; i < n; i++) {
		if (curve_knee(v[i].curve, &at))
			format_bytes(at, buf, sizeof(buf));
		else
			snprintf(buf, sizeof(buf), "none");
		fprintf(f, "%*s", VALUE_WIDTH, buf);
	}
	fputc('\n', f);
}

/*
 * A row of a metric --metrics left out is not shown: the run may not have kept what it needs
 * (refaults without shadow entries would read 0).
 */
static const struct report_metric *verdict_metric(const struct report *r, unsigned row)
{
	const struct report_metric *md = report_metric_find(verdict_rows[row].key);

	return !r->sel || r->sel->metric[md - report_metrics] ? md : NULL;
}

int report_write_verdict(FILE *f, const struct report *r)
{
	struct verdict_col v[VERDICT_MAX_COLS];
	unsigned more, n = pick_cols(r, v, &more);

	if (!n)
		return 0;
	print_title(f, r, v, n, more);
	print_header(f, v, n);
	for (unsigned i = 0; i < NR_VERDICT_ROWS; i++) {
		const struct report_metric *md = verdict_metric(r, i);

		if (md)
			print_row(f, verdict_rows[i].label, md, v, n);
	}
	if (r->curves)
		print_knee(f, v, n);
	if (r->trust)
		report_print_wrapped(f, r->trust);
	fputc('\n', f);
	return ferror(f) ? -1 : 0;
}
