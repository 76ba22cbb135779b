/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=csv: a header row of the JSON metric keys (arrays flattened as KEY_N), then one row
 * per configuration; --format=csv-long: a row per configuration and metric. Empty cell where a
 * value does not exist.
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

static void csv_header(FILE *f, const struct report_select *sel)
{
	fputs("label,order", f);
	for (unsigned i = 0; i < report_nr_metrics; i++)
		if (!sel || sel->metric[i])
			fprintf(f, ",%s", report_metrics[i].key);
	for (unsigned i = 0; i < report_nr_arrays; i++)
		if (!sel || sel->array[i])
			for (unsigned k = 0; k < report_arrays[i].len; k++)
			fprintf(f, ",%s_%u", report_arrays[i].key, k);
	fputc('\n', f);
}

static void csv_row(FILE *f, const struct report_col *c, const struct report_select *sel)
{
	csv_label(f, c->label);
	fprintf(f, ",%u", c->cfg.order);
	for (unsigned i = 0; i < report_nr_metrics; i++) {
		if (sel && !sel->metric[i])
			continue;
		fputc(',', f);
		csv_value(f, report_metrics[i].get(&c->m, &c->cfg));
	}
	for (unsigned i = 0; i < report_nr_arrays; i++) {
		const uint64_t *v = report_arrays[i].get(&c->m);

		if (sel && !sel->array[i])
			continue;
		for (unsigned k = 0; k < report_arrays[i].len; k++)
			fprintf(f, ",%" PRIu64, v[k]);
	}
	fputc('\n', f);
}

int report_write_csv(FILE *f, const struct report *r)
{
	csv_header(f, r->sel);
	for (unsigned i = 0; i < r->ncols; i++)
		csv_row(f, &r->cols[i], r->sel);
	return ferror(f) ? -1 : 0;
}

/* The long form: tools that pivot (R, pandas, spreadsheets) take one value per row. */
int report_write_csv_long(FILE *f, const struct report *r)
{
	const struct report_select *sel = r->sel;

	fputs("label,order,metric,value\n", f);
	for (unsigned c = 0; c < r->ncols; c++) {
		const struct report_col *col = &r->cols[c];

		for (unsigned i = 0; i < report_nr_metrics; i++) {
			if (sel && !sel->metric[i])
				continue;
			csv_label(f, col->label);
			fprintf(f, ",%u,%s,", col->cfg.order, report_metrics[i].key);
			csv_value(f, report_metrics[i].get(&col->m, &col->cfg));
			fputc('\n', f);
		}
		for (unsigned i = 0; i < report_nr_arrays; i++) {
			const uint64_t *v = report_arrays[i].get(&col->m);

			if (sel && !sel->array[i])
				continue;
			for (unsigned k = 0; k < report_arrays[i].len; k++) {
				csv_label(f, col->label);
				fprintf(f, ",%u,%s_%u,%" PRIu64 "\n", col->cfg.order,
					report_arrays[i].key, k, v[k]);
			}
		}
	}
	return ferror(f) ? -1 : 0;
}
