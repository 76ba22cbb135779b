/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=csv: a header row of the JSON metric keys (arrays flattened as KEY_N) in the order
 * --metrics named them, then one row per configuration; --format=csv-long: a row per
 * configuration and metric, in the same order. Empty cell where a value does not exist.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "report/metrics.h"
#include "report/report.h"

static void csv_value(FILE *f, struct report_value v)
{
	if (!v.valid)
		return;
	if (v.integer)
		fprintf(f, "%" PRIu64, v.u);
	else if (isfinite(v.d))
		fprintf(f, "%.10g", v.d);
}

/* Labels are ours ("order 4"), but quote anyway so a comma could never shift columns. */
static void csv_label(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The items as --metrics named them, or every one in table order. */
static const struct report_select *columns(const struct report_select *sel,
					   struct report_select *all)
{
	if (sel)
		return sel;
	report_select_all(all);
	return all;
}

static bool is_array(unsigned item)
{
	return item >= REPORT_MAX_METRICS;
}

static void csv_header(FILE *f, const struct report_select *sel)
{
	fputs("label,order", f);
	for (unsigned k = 0; k < sel->norder; k++) {
		unsigned item = sel->order[k];
		const struct report_array *a;

		if (!is_array(item)) {
			fprintf(f, ",%s", report_metrics[item].key);
			continue;
		}
		a = &report_arrays[item - REPORT_MAX_METRICS];
		for (unsigned i = 0; i < a->len; i++)
			fprintf(f, ",%s_%u", a->key, i);
	}
	fputc('\n', f);
}

static void csv_row(FILE *f, const struct report_col *c, const struct report_select *sel)
{
	csv_label(f, c->label);
	fprintf(f, ",%u", c->cfg.order);
	for (unsigned k = 0; k < sel->norder; k++) {
		unsigned item = sel->order[k];
		const uint64_t *v;

		if (!is_array(item)) {
			fputc(',', f);
			csv_value(f, report_metrics[item].get(&c->m, &c->cfg));
			continue;
		}
		v = report_arrays[item - REPORT_MAX_METRICS].get(&c->m);
		for (unsigned i = 0; i < report_arrays[item - REPORT_MAX_METRICS].len; i++)
			fprintf(f, ",%" PRIu64, v[i]);
	}
	fputc('\n', f);
}

int report_write_csv(FILE *f, const struct report *r)
{
	struct report_select all;
	const struct report_select *sel = columns(r->sel, &all);

	csv_header(f, sel);
	for (unsigned i = 0; i < r->ncols; i++)
		csv_row(f, &r->cols[i], sel);
	return ferror(f) ? -1 : 0;
}

/* The long form: tools that pivot (R, pandas, spreadsheets) take one value per row. */
int report_write_csv_long(FILE *f, const struct report *r)
{
	struct report_select all;
	const struct report_select *sel = columns(r->sel, &all);

	fputs("label,order,metric,value\n", f);
	for (unsigned c = 0; c < r->ncols; c++) {
		const struct report_col *col = &r->cols[c];

		for (unsigned k = 0; k < sel->norder; k++) {
			unsigned item = sel->order[k];
			const struct report_array *a;
			const uint64_t *v;

			if (!is_array(item)) {
				csv_label(f, col->label);
				fprintf(f, ",%u,%s,", col->cfg.order, report_metrics[item].key);
				csv_value(f, report_metrics[item].get(&col->m, &col->cfg));
				fputc('\n', f);
				continue;
			}
			a = &report_arrays[item - REPORT_MAX_METRICS];
			v = a->get(&col->m);
			for (unsigned i = 0; i < a->len; i++) {
				csv_label(f, col->label);
				fprintf(f, ",%u,%s_%u,%" PRIu64 "\n", col->cfg.order, a->key, i,
					v[i]);
			}
		}
	}
	return ferror(f) ? -1 : 0;
}
