/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --format=json: one document. Keys are documented in folio-trace-replay(1); renaming one bumps
 * REPORT_JSON_VERSION. Integers are exact, a value that does not exist (a ratio over zero) is
 * null.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>

#include "model/params.h"
#include "report/curve.h"
#include "report/metrics.h"
#include "report/report.h"
#include "report/units.h"
#include "util/json.h"

/* 2: hit_ratio, hit_ratio_bytes and device_read_bytes were read_hit_ratio_*, read_io_bytes */
#define REPORT_JSON_VERSION 2

static void json_double(FILE *f, double d)
{
	if (isfinite(d))
		fprintf(f, "%.10g", d);
	else
		fputs("null", f);
}

static void json_value(FILE *f, struct report_value v)
{
	if (!v.valid)
		fputs("null", f);
	else if (v.integer)
		fprintf(f, "%" PRIu64, v.u);
	else
		json_double(f, v.d);
}

static void json_key(FILE *f, const char *indent, const char *key, bool *first)
{
	fprintf(f, "%s\n%s", *first ? "" : ",", indent);
	ft_json_string(f, key);
	fputs(": ", f);
	*first = false;
}

static void json_run(FILE *f, const struct report_run *run)
{
	bool first = true;

	fputs("{", f);
	json_key(f, "    ", "path", &first);
	ft_json_string(f, run->trace_path);
	json_key(f, "    ", "release", &first);
	ft_json_string(f, run->release ? run->release : "");
	json_key(f, "    ", "sources", &first);
	ft_json_string(f, run->sources ? run->sources : "");
	json_key(f, "    ", "records", &first);
	fprintf(f, "%" PRIu64, run->records);
	json_key(f, "    ", "accesses", &first);
	fprintf(f, "%" PRIu64, run->accesses);
	json_key(f, "    ", "ignored", &first);
	fprintf(f, "%" PRIu64, run->ignored);
	json_key(f, "    ", "uncached", &first);
	fprintf(f, "%" PRIu64, run->uncached);
	json_key(f, "    ", "uncached_files", &first);
	fprintf(f, "%" PRIu64, run->uncached_files);
	json_key(f, "    ", "damaged", &first);
	fprintf(f, "%" PRIu64, run->bad);
	json_key(f, "    ", "late", &first);
	fprintf(f, "%" PRIu64, run->late);
	json_key(f, "    ", "files", &first);
	fprintf(f, "%" PRIu64, run->files);
	json_key(f, "    ", "lost_events", &first);
	fprintf(f, "%" PRIu64, run->lost);
	json_key(f, "    ", "clean_end", &first);
	fputs(run->clean_end ? "true" : "false", f);
	json_key(f, "    ", "truncated", &first);
	fputs(run->truncated ? "true" : "false", f);
	fputs("\n  }", f);
}

/* The configuration, every row of the model's table in its order. */
static void json_config(FILE *f, const struct model_config *c)
{
	bool first = true;

	fputs("{", f);
	for (unsigned i = 0; i < model_nr_params; i++) {
		struct model_param_value v = model_param_get(&model_params[i], c);

		json_key(f, "        ", model_params[i].key, &first);
		switch (v.kind) {
		case PV_NUMBER:
			fprintf(f, "%" PRIu64, v.u);
			break;
		case PV_REAL:
			json_double(f, v.d);
			break;
		case PV_NAME:
			ft_json_string(f, v.name);
			break;
		case PV_BOOL:
			fputs(v.b ? "true" : "false", f);
			break;
		}
	}
	fputs("\n      }", f);
}

static void json_metrics(FILE *f, const struct report_col *c, const struct report_select *sel)
{
	bool first = true;

	fputs("{", f);
	for (unsigned i = 0; i < report_nr_metrics; i++) {
		if (sel && !sel->metric[i])
			continue;
		json_key(f, "        ", report_metrics[i].key, &first);
		json_value(f, report_metrics[i].get(&c->m, &c->cfg));
	}
	for (unsigned i = 0; i < report_nr_arrays; i++) {
		const uint64_t *v = report_arrays[i].get(&c->m);

		if (sel && !sel->array[i])
			continue;
		json_key(f, "        ", report_arrays[i].key, &first);
		fputc('[', f);
		for (unsigned k = 0; k < report_arrays[i].len; k++)
			fprintf(f, "%s%" PRIu64, k ? ", " : "", v[k]);
		fputc(']', f);
	}
	fputs("\n      }", f);
}

static void json_ratios(FILE *f, const struct report_col *c, const struct report_col *base,
			const struct report_select *sel)
{
	bool first = true;

	fputs("{", f);
	for (unsigned i = 0; i < report_nr_metrics; i++) {
		const struct report_metric *md = &report_metrics[i];

		if (sel && !sel->metric[i])
			continue;
		json_key(f, "        ", md->key, &first);
		json_value(f, report_metric_ratio(md, &c->m, &c->cfg, &base->m, &base->cfg));
	}
	fputs("\n      }", f);
}

int report_write_json(FILE *f, const struct report *r)
{
	const struct report_col *base = r->ncols ? &r->cols[r->baseline] : NULL;
	char what_ifs[256];

	fprintf(f, "{\n  \"format\": \"folio-trace-replay\",\n  \"version\": %d,\n",
		REPORT_JSON_VERSION);
	fputs("  \"trace\": ", f);
	json_run(f, r->run);
	fputs(",\n  \"baseline\": ", f);
	if (base)
		ft_json_string(f, base->label);
	else
		fputs("null", f);
	fputs(",\n  \"configurations\": [", f);
	for (unsigned i = 0; i < r->ncols; i++) {
		const struct report_col *c = &r->cols[i];

		fprintf(f, "%s\n    {\n      \"label\": ", i ? "," : "");
		ft_json_string(f, c->label);
		fputs(",\n      \"config\": ", f);
		json_config(f, &c->cfg);
		model_config_what_ifs(&c->cfg, what_ifs, sizeof(what_ifs));
		fputs(",\n      \"what_ifs\": ", f);
		ft_json_string(f, what_ifs);
		fputs(",\n      \"metrics\": ", f);
		json_metrics(f, c, r->sel);
		fputs(",\n      \"ratio_to_baseline\": ", f);
		json_ratios(f, c, base, r->sel);
		fputs("\n    }", f);
	}
	fputs("\n  ]", f);
	if (r->curves) {
		fputs(",\n  \"sweep\": ", f);
		curve_write_json(f, r->curves);
	}
	if (r->units) {
		fputs(",\n  \"by\": ", f);
		report_units_json(f, r->units);
	}
	fputs("\n}\n", f);
	return ferror(f) ? -1 : 0;
}
