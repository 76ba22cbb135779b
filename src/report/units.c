/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/metrics.h"
#include "report/units.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/parse.h"

const char *const report_unit_sorts[UNIT_SORT_N] = {
	[UNIT_SORT_READS] = "read_requests",
	[UNIT_SORT_READ_BYTES] = "read_bytes",
	[UNIT_SORT_HIT_RATIO] = "hit_ratio",
	[UNIT_SORT_DEVICE_READ_BYTES] = "device_read_bytes",
	[UNIT_SORT_REFAULTS] = "refaults",
	[UNIT_SORT_EVICTED] = "evicted_pages",
	[UNIT_SORT_WRITE_BYTES] = "write_bytes",
	[UNIT_SORT_WRITEBACK_BYTES] = "writeback_bytes",
	[UNIT_SORT_WRITE_AMPLIFICATION] = "write_amplification",
	[UNIT_SORT_INSERTED] = "insertions",
	[UNIT_SORT_KERNEL_INSERTED] = "kernel_inserted",
	[UNIT_SORT_KERNEL_WRITEBACK_BYTES] = "kernel_writeback_bytes",
};

/* --sort's names before they became the report's metric keys: still taken. */
static const char *const old_sorts[][2] = {
	{ "reads", "read_requests" },
	{ "inserted", "insertions" },
};

/* The report's metric keys, or an old name of one. */
bool report_unit_sort_parse(const char *s, enum report_unit_sort *out)
{
	const char *canon = report_metric_canonical(s, strlen(s));

	for (unsigned i = 0; !canon && i < sizeof(old_sorts) / sizeof(old_sorts[0]); i++)
		if (strcmp(s, old_sorts[i][0]) == 0)
			canon = old_sorts[i][1];
	if (canon)
		s = canon;
	for (unsigned i = 0; i < UNIT_SORT_N; i++) {
		if (strcmp(s, report_unit_sorts[i]) == 0) {
			*out = (enum report_unit_sort)i;
			return true;
		}
	}
	return false;
}

static uint64_t sum_orders(const uint64_t *v, unsigned n)
{
	uint64_t s = 0;

	for (unsigned i = 0; i < n; i++)
		s += v[i];
	return s;
}

/* NAN where the ratio does not exist (nothing read, nothing written). */
static double hit_ratio(const struct model_unit *m)
{
	return m->read_requests ? (double)m->read_hit_requests / (double)m->read_requests : NAN;
}

static double write_amp(const struct model_unit *m)
{
	return m->write_bytes ? (double)m->writeback_bytes / (double)m->write_bytes : NAN;
}

static double kernel_write_amp(const struct report_unit *r)
{
	return r->kernel_wb_known && r->m[0].write_bytes ?
	       (double)r->kernel_written_back / (double)r->m[0].write_bytes : NAN;
}

/* The unit's value to sort by, in the first model; NAN sorts last. */
static double sort_value(const struct report_unit *r, enum report_unit_sort s)
{
	const struct model_unit *m = &r->m[0];

	switch (s) {
	case UNIT_SORT_READS: return (double)m->read_requests;
	case UNIT_SORT_READ_BYTES: return (double)m->read_bytes;
	case UNIT_SORT_HIT_RATIO: return hit_ratio(m);
	case UNIT_SORT_DEVICE_READ_BYTES: return (double)m->read_io_bytes;
	case UNIT_SORT_REFAULTS: return (double)m->refaults;
	case UNIT_SORT_EVICTED: return (double)m->evicted_pages;
	case UNIT_SORT_WRITE_BYTES: return (double)m->write_bytes;
	case UNIT_SORT_WRITEBACK_BYTES: return (double)m->writeback_bytes;
	case UNIT_SORT_WRITE_AMPLIFICATION: return write_amp(m);
	case UNIT_SORT_INSERTED:
		return (double)sum_orders(m->insertions_by_order, MODEL_MAX_ORDER + 1);
	case UNIT_SORT_KERNEL_INSERTED:
		return (double)sum_orders(r->kernel_inserted, REPORT_UNIT_ORDERS);
	case UNIT_SORT_KERNEL_WRITEBACK_BYTES:
		return r->kernel_wb_known ? (double)r->kernel_written_back : NAN;
	default: return NAN;
	}
}

static enum report_unit_sort sorting;

/* Largest first (hit ratio: lowest first), values that do not exist last, then by name. */
static int compare_rows(const void *pa, const void *pb)
{
	const struct report_unit *a = pa, *b = pb;
	double va = sort_value(a, sorting), vb = sort_value(b, sorting);
	int c;

	if (isnan(va) != isnan(vb))
		return isnan(va) ? 1 : -1;
	if (!isnan(va) && va != vb) {
		c = va > vb ? -1 : 1;
		return sorting == UNIT_SORT_HIT_RATIO ? -c : c;
	}
	c = strcmp(a->name, b->name);
	if (c)
		return c;
	return a->id != b->id ? (a->id < b->id ? -1 : 1) :
	       a->ino != b->ino ? (a->ino < b->ino ? -1 : 1) :
	       a->dev != b->dev ? (a->dev < b->dev ? -1 : 1) : 0;
}

void report_units_sort(struct report_units *u)
{
	sorting = u->sort;
	if (u->nrows > 1 && u->ncols)
		qsort(u->rows, u->nrows, sizeof(*u->rows), compare_rows);
	if (u->nrows > u->top)
		u->nrows = u->top;
}

static const char *const kind_names[] = {
	[UNIT_FILE] = "file", [UNIT_PROCESS] = "process", [UNIT_CGROUP] = "cgroup",
};
static const char *const kind_plurals[] = {
	[UNIT_FILE] = "files", [UNIT_PROCESS] = "processes", [UNIT_CGROUP] = "cgroups",
};
/* The CSV columns before the name that tell units apart. */
static const char *const kind_csv_ids[] = {
	[UNIT_FILE] = "dev,ino", [UNIT_PROCESS] = "pid", [UNIT_CGROUP] = "cgroup_id",
};

/* ---- table --------------------------------------------------------------------------------- */

static const char *bytes_cell(uint64_t v, char *buf, unsigned len)
{
	return v ? format_bytes(v, buf, len) : "0";
}

static const char *ratio_cell(double v, char *buf, unsigned len, bool percent)
{
	if (isnan(v))
		return "-";
	snprintf(buf, len, percent ? "%.1f%%" : "%.2f", percent ? 100.0 * v : v);
	return buf;
}

/* "0:16384 9:32": the orders with folios, and their counts; "-" for none. */
static const char *orders_cell(const uint64_t *v, unsigned n, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned o = 0; o < n && used < len; o++) {
		if (!v[o])
			continue;
		if (o == n - 1 && n == REPORT_UNIT_ORDERS)
			used += (size_t)snprintf(buf + used, len - used, "%s?:%" PRIu64,
						 used ? " " : "", v[o]);
		else
			used += (size_t)snprintf(buf + used, len - used, "%s%u:%" PRIu64,
						 used ? " " : "", o, v[o]);
	}
	return buf[0] ? buf : "-";
}

static int orders_width(const struct report_units *u, int col)
{
	char buf[512];
	int w = 20;

	for (uint32_t i = 0; i < u->nrows; i++) {
		const struct report_unit *r = &u->rows[i];
		int n = col < 0 ?
			(int)strlen(orders_cell(r->kernel_inserted, REPORT_UNIT_ORDERS, buf,
						sizeof(buf))) :
			(int)strlen(orders_cell(r->m[col].insertions_by_order, MODEL_MAX_ORDER + 1,
						buf, sizeof(buf)));

		if (n > w)
			w = n;
	}
	return w;
}

static void print_name(FILE *f, const struct report_unit *r)
{
	char buf[4 * 256 + 1];

	fprintf(f, "  %s\n", ft_escape(buf, sizeof(buf), r->name, (size_t)-1));
}

static void print_model_block(FILE *f, const struct report_units *u, unsigned c)
{
	int ow = orders_width(u, (int)c);
	char b[7][32], folios[512];

	fprintf(f, "%s\n", u->cols[c].label);
	fprintf(f, "%9s %10s %6s %10s %9s %9s %10s %10s %6s  %-*s  %s\n", "reads", "read", "hit",
		"dev read", "refaults", "evicted", "written", "wrt back", "w-amp", ow,
		"folios in (order:n)", kind_names[u->kind]);
	for (uint32_t i = 0; i < u->nrows; i++) {
		const struct report_unit *r = &u->rows[i];
		const struct model_unit *m = &r->m[c];

		fprintf(f, "%9" PRIu64 " %10s %6s %10s %9" PRIu64 " %9" PRIu64 " %10s %10s %6s  %-*s",
			m->read_requests, bytes_cell(m->read_bytes, b[0], 32),
			ratio_cell(hit_ratio(m), b[1], 32, true),
			bytes_cell(m->read_io_bytes, b[2], 32), m->refaults, m->evicted_pages,
			bytes_cell(m->write_bytes, b[3], 32),
			bytes_cell(m->writeback_bytes, b[4], 32),
			ratio_cell(write_amp(m), b[5], 32, false), ow,
			orders_cell(m->insertions_by_order, MODEL_MAX_ORDER + 1, folios,
				    sizeof(folios)));
		print_name(f, r);
	}
}

static void print_kernel_block(FILE *f, const struct report_units *u)
{
	int ow = orders_width(u, -1);
	char b[3][32], folios[512];

	fprintf(f, "kernel (the trace's events)\n");
	fprintf(f, "%-*s %9s %10s %6s  %s\n", ow, "folios in (order:n)", "refaults", "wrt back",
		"w-amp", kind_names[u->kind]);
	for (uint32_t i = 0; i < u->nrows; i++) {
		const struct report_unit *r = &u->rows[i];

		snprintf(b[2], sizeof(b[2]), "%" PRIu64, r->kernel_refaults);
		fprintf(f, "%-*s %9s %10s %6s", ow,
			orders_cell(r->kernel_inserted, REPORT_UNIT_ORDERS, folios, sizeof(folios)),
			r->kernel_refaults_known ? b[2] : "-",
			r->kernel_wb_known ? bytes_cell(r->kernel_written_back, b[0], 32) : "-",
			ratio_cell(kernel_write_amp(r), b[1], 32, false));
		print_name(f, r);
	}
}

int report_units_table(FILE *f, const struct report_units *u)
{
	const char *what = kind_names[u->kind];

	fprintf(f, "\nBy %s: %" PRIu32 " of %" PRIu32 " %s, by %s%s of %s%s\n", what,
		u->nrows, u->total, u->total == 1 ? what : kind_plurals[u->kind],
		report_unit_sorts[u->sort], u->sort == UNIT_SORT_HIT_RATIO ? " (lowest first)" :
		"", u->ncols ? u->cols[0].label : "-",
		u->incomplete ? " (incomplete: out of memory)" : "");
	for (unsigned c = 0; c < u->ncols; c++)
		print_model_block(f, u, c);
	print_kernel_block(f, u);
	return ferror(f) ? -1 : 0;
}

/* ---- JSON and CSV -------------------------------------------------------------------------- */

static void json_double(FILE *f, double v)
{
	if (isnan(v) || !isfinite(v))
		fputs("null", f);
	else
		fprintf(f, "%.10g", v);
}

static void json_orders(FILE *f, const uint64_t *v, unsigned n)
{
	fputc('[', f);
	for (unsigned o = 0; o < n; o++)
		fprintf(f, "%s%" PRIu64, o ? ", " : "", v[o]);
	fputc(']', f);
}

static void json_model(FILE *f, const struct report_col *c, const struct model_unit *m)
{
	fputs("{\"label\": ", f);
	ft_json_string(f, c->label);
	fprintf(f, ", \"order\": %u, \"read_requests\": %" PRIu64 ", \"read_hit_requests\": %" PRIu64
		", \"read_bytes\": %" PRIu64 ", \"hit_ratio\": ", c->cfg.order, m->read_requests,
		m->read_hit_requests, m->read_bytes);
	json_double(f, hit_ratio(m));
	fprintf(f, ", \"device_read_bytes\": %" PRIu64 ", \"refaults\": %" PRIu64
		", \"evicted_pages\": %" PRIu64 ", \"write_requests\": %" PRIu64
		", \"write_bytes\": %" PRIu64 ", \"writeback_bytes\": %" PRIu64
		", \"write_amplification\": ", m->read_io_bytes, m->refaults, m->evicted_pages,
		m->write_requests, m->write_bytes, m->writeback_bytes);
	json_double(f, write_amp(m));
	fputs(", \"inserted_by_order\": ", f);
	json_orders(f, m->insertions_by_order, MODEL_MAX_ORDER + 1);
	fputc('}', f);
}

int report_units_json(FILE *f, const struct report_units *u)
{
	fprintf(f, "{\n    \"unit\": \"%s\",\n    \"sort\": \"%s\",\n    \"top\": %" PRIu32
		",\n    \"units\": %" PRIu32 ",\n    \"incomplete\": %s,\n    \"rows\": [",
		kind_names[u->kind], report_unit_sorts[u->sort], u->top, u->total,
		u->incomplete ? "true" : "false");
	for (uint32_t i = 0; i < u->nrows; i++) {
		const struct report_unit *r = &u->rows[i];

		fprintf(f, "%s\n      {\"name\": ", i ? "," : "");
		ft_json_string(f, r->name);
		if (u->kind == UNIT_PROCESS)
			fprintf(f, ", \"pid\": %" PRIu64, r->id);
		else if (u->kind == UNIT_CGROUP)
			fprintf(f, ", \"cgroup_id\": %" PRIu64, r->id);
		else
			fprintf(f, ", \"dev\": \"%u:%u\", \"ino\": %" PRIu64, r->dev >> 20,
				r->dev & 0xfffff, r->ino);
		fputs(",\n       \"kernel\": {\"inserted_by_order\": ", f);
		json_orders(f, r->kernel_inserted, REPORT_UNIT_ORDERS);
		fputs(", \"writeback_bytes\": ", f);
		if (r->kernel_wb_known)
			fprintf(f, "%" PRIu64, r->kernel_written_back);
		else
			fputs("null", f);
		fputs(", \"write_amplification\": ", f);
		json_double(f, kernel_write_amp(r));
		fputs(", \"refaults\": ", f);
		if (r->kernel_refaults_known)
			fprintf(f, "%" PRIu64, r->kernel_refaults);
		else
			fputs("null", f);
		fputs("},\n       \"models\": [", f);
		for (unsigned c = 0; c < u->ncols; c++) {
			fputs(c ? ",\n         " : "\n         ", f);
			json_model(f, &u->cols[c], &r->m[c]);
		}
		fputs("]}", f);
	}
	fputs("\n    ]\n  }", f);
	return ferror(f) ? -1 : 0;
}

/* A cell of untrusted text: escaped (one line, no control bytes), then quoted. */
static void csv_text(FILE *f, const char *s)
{
	char buf[4 * 256 + 1];

	fputc('"', f);
	for (const char *p = ft_escape(buf, sizeof(buf), s, (size_t)-1); *p; p++) {
		if (*p == '"')
			fputc('"', f);
		fputc(*p, f);
	}
	fputc('"', f);
}

static void csv_double(FILE *f, double v)
{
	if (!isnan(v) && isfinite(v))
		fprintf(f, "%.10g", v);
}

int report_units_csv(FILE *f, const struct report_units *u)
{
	fprintf(f, "rank,%s,name,label,order,read_requests,read_hit_requests,read_bytes,hit_ratio,"
		"device_read_bytes,refaults,evicted_pages,write_requests,write_bytes,writeback_bytes,"
		"write_amplification", kind_csv_ids[u->kind]);
	for (unsigned o = 0; o <= MODEL_MAX_ORDER; o++)
		fprintf(f, ",inserted_%u", o);
	for (unsigned o = 0; o < REPORT_UNIT_ORDERS; o++)
		fprintf(f, ",kernel_inserted_%u", o);
	fputs(",kernel_writeback_bytes,kernel_write_amplification,kernel_refaults\n", f);
	for (uint32_t i = 0; i < u->nrows; i++) {
		const struct report_unit *r = &u->rows[i];

		for (unsigned c = 0; c < u->ncols; c++) {
			const struct model_unit *m = &r->m[c];

			fprintf(f, "%" PRIu32 ",", i + 1);
			if (u->kind != UNIT_FILE)
				fprintf(f, "%" PRIu64 ",", r->id);
			else
				fprintf(f, "%u:%u,%" PRIu64 ",", r->dev >> 20, r->dev & 0xfffff,
					r->ino);
			csv_text(f, r->name);
			fputc(',', f);
			csv_text(f, u->cols[c].label);
			fprintf(f, ",%u,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", u->cols[c].cfg.order,
				m->read_requests, m->read_hit_requests, m->read_bytes);
			csv_double(f, hit_ratio(m));
			fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
				",%" PRIu64 ",", m->read_io_bytes, m->refaults, m->evicted_pages,
				m->write_requests, m->write_bytes, m->writeback_bytes);
			csv_double(f, write_amp(m));
			for (unsigned o = 0; o <= MODEL_MAX_ORDER; o++)
				fprintf(f, ",%" PRIu64, m->insertions_by_order[o]);
			for (unsigned o = 0; o < REPORT_UNIT_ORDERS; o++)
				fprintf(f, ",%" PRIu64, r->kernel_inserted[o]);
			fputc(',', f);
			if (r->kernel_wb_known)
				fprintf(f, "%" PRIu64, r->kernel_written_back);
			fputc(',', f);
			csv_double(f, kernel_write_amp(r));
			fputc(',', f);
			if (r->kernel_refaults_known)
				fprintf(f, "%" PRIu64, r->kernel_refaults);
			fputc('\n', f);
		}
	}
	return ferror(f) ? -1 : 0;
}
