/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The human table: one row per metric grouped by section, one column per configuration, then
 * one ratio column per configuration other than the baseline. Widths are measured first so
 * every column lines up whatever the magnitudes.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model/params.h"
#include "report/metrics.h"
#include "report/curve.h"
#include "report/report.h"
#include "util/escape.h"
#include "util/parse.h"

#define CELL_LEN	REPORT_CELL_LEN
#define TABLE_MAX_COLS	(2 * (MODEL_MAX_ORDER + 1) + 2)

unsigned report_pick_baseline(const struct report_col *cols, unsigned ncols)
{
	for (unsigned i = 0; i < ncols; i++)
		if (cols[i].cfg.order == 0)
			return i;
	return 0;
}

void report_format_value(char *buf, enum report_kind kind, struct report_value v)
{
	char b[CELL_LEN];

	if (!v.valid) {
		snprintf(buf, CELL_LEN, "-");
		return;
	}
	switch (kind) {
	case RK_COUNT:
		snprintf(buf, CELL_LEN, "%" PRIu64, v.u);
		break;
	case RK_BYTES:
		format_bytes(v.u, buf, CELL_LEN);
		break;
	case RK_MEAN:
		snprintf(buf, CELL_LEN, "%.1f", v.d);
		break;
	case RK_MEAN_BYTES:
		format_bytes((uint64_t)(v.d + 0.5), buf, CELL_LEN);
		break;
	case RK_FRACTION:
		snprintf(buf, CELL_LEN, "%.2f%%", 100.0 * v.d);
		break;
	case RK_FACTOR:
		snprintf(buf, CELL_LEN, "%.3fx", v.d);
		break;
	case RK_SECONDS:
		snprintf(buf, CELL_LEN, "%.3f s", v.d);
		break;
	case RK_INDEX:
		snprintf(buf, CELL_LEN, "%.3f", v.d);
		break;
	case RK_BYTES_PER_S:
		snprintf(buf, CELL_LEN, "%s/s", format_bytes((uint64_t)(v.d + 0.5), b, sizeof(b)));
		break;
	}
}

static void format_ratio(char *buf, struct report_value v)
{
	if (v.valid)
		snprintf(buf, CELL_LEN, "%.3f", v.d);
	else
		snprintf(buf, CELL_LEN, "-");
}

static unsigned nr_table_cols(const struct report *r)
{
	return 1 + r->ncols + (r->ncols > 1 ? r->ncols - 1 : 0);
}

/* Column j of the header row. */
static void header_cell(const struct report *r, unsigned j, char *buf)
{
	unsigned k;

	if (j == 0) {
		snprintf(buf, CELL_LEN, "metric");
	} else if (j <= r->ncols) {
		snprintf(buf, CELL_LEN, "%s", r->cols[j - 1].label);
	} else {
		/* ratio columns skip the baseline */
		k = j - r->ncols - 1;
		if (k >= r->baseline)
			k++;
		snprintf(buf, CELL_LEN, "%u/%u", r->cols[k].cfg.order,
			 r->cols[r->baseline].cfg.order);
	}
}

/* Column j of the row of metric mi. */
static void metric_cell(const struct report *r, unsigned mi, unsigned j, char *buf)
{
	const struct report_metric *md = &report_metrics[mi];
	const struct report_col *base = &r->cols[r->baseline];
	unsigned k;

	if (j == 0) {
		snprintf(buf, CELL_LEN, "%s", md->label);
	} else if (j <= r->ncols) {
		const struct report_col *c = &r->cols[j - 1];

		report_format_value(buf, md->kind, md->get(&c->m, &c->cfg));
	} else {
		k = j - r->ncols - 1;
		if (k >= r->baseline)
			k++;
		format_ratio(buf, report_metric_ratio(md, &r->cols[k].m, &r->cols[k].cfg, &base->m,
						      &base->cfg));
	}
}

/*
 * After the metrics, folios inserted per order (insertions_by_order): the orders readahead and
 * the write path really used. Only orders some column used get a row.
 */
#define ORDERS_SECTION	"folios inserted by order"

static bool order_used(const struct report *r, unsigned order)
{
	for (unsigned i = 0; i < r->ncols; i++)
		if (r->cols[i].m.insertions_by_order[order])
			return true;
	return false;
}

static struct report_value inserted_at(const struct report_col *c, unsigned order)
{
	uint64_t v = c->m.insertions_by_order[order];

	return (struct report_value){ .valid = true, .integer = true, .u = v, .d = (double)v };
}

static void order_cell(const struct report *r, unsigned order, unsigned j, char *buf)
{
	unsigned k;

	if (j == 0) {
		snprintf(buf, CELL_LEN, "order %u", order);
	} else if (j <= r->ncols) {
		report_format_value(buf, RK_COUNT, inserted_at(&r->cols[j - 1], order));
	} else {
		k = j - r->ncols - 1;
		if (k >= r->baseline)
			k++;
		format_ratio(buf, report_ratio(inserted_at(&r->cols[k], order),
					       inserted_at(&r->cols[r->baseline], order)));
	}
}

/* Zero, or no value, in every column: nothing happened that the row counts. */
static bool zero_everywhere(const struct report *r, unsigned mi)
{
	const struct report_metric *md = &report_metrics[mi];

	for (unsigned i = 0; i < r->ncols; i++) {
		struct report_value v = md->get(&r->cols[i].m, &r->cols[i].cfg);

		if (v.valid && report_value_double(v) != 0)
			return false;
	}
	return true;
}

/*
 * The default table leaves out the rows zero in every model: what the workload never did.
 * Rows named by --metrics, --all and -v keep them.
 */
static bool row_left_out(const struct report *r, unsigned mi)
{
	return !r->all_rows && !r->sel && zero_everywhere(r, mi);
}

/* Rows 0..report_nr_metrics-1 are metrics, the next MODEL_MAX_ORDER + 1 the orders. */
static bool row_cell(const struct report *r, unsigned row, unsigned j, char *buf)
{
	if (row < report_nr_metrics) {
		if ((r->sel && !r->sel->metric[row]) || row_left_out(r, row))
			return false;
		metric_cell(r, row, j, buf);
		return true;
	}
	if ((r->sel && !r->sel->orders) || !order_used(r, row - report_nr_metrics))
		return false;
	order_cell(r, row - report_nr_metrics, j, buf);
	return true;
}

static const char *row_section(unsigned row)
{
	return row < report_nr_metrics ? report_metrics[row].section : ORDERS_SECTION;
}

#define NR_ROWS (report_nr_metrics + MODEL_MAX_ORDER + 1)

static void measure(const struct report *r, unsigned *width)
{
	char buf[CELL_LEN];
	unsigned n = nr_table_cols(r);

	for (unsigned j = 0; j < n; j++) {
		header_cell(r, j, buf);
		width[j] = (unsigned)strlen(buf);
	}
	for (unsigned row = 0; row < NR_ROWS; row++) {
		for (unsigned j = 0; j < n; j++) {
			unsigned len;

			if (!row_cell(r, row, j, buf))
				break;
			len = (unsigned)strlen(buf) + (j == 0 ? 2 : 0);
			if (len > width[j])
				width[j] = len;
		}
	}
}

static void print_row_cell(FILE *f, unsigned j, unsigned width, const char *s, bool indent)
{
	if (j == 0)
		fprintf(f, "%s%-*s", indent ? "  " : "", (int)width - (indent ? 2 : 0), s);
	else
		fprintf(f, "  %*s", (int)width, s);
}


/* What was replayed, and what the figures do not cover. */
static void print_run_line(FILE *f, const struct report_run *run)
{
	fputs("replay of ", f);
	ft_fputs_escaped(f, run->trace_path, (size_t)-1);
	fprintf(f, ": %" PRIu64 " accesses, %" PRIu64 " files", run->accesses, run->files);
	if (run->ignored)
		fprintf(f, ", %" PRIu64 " ignored", run->ignored);
	if (run->bad)
		fprintf(f, ", %" PRIu64 " damaged records skipped", run->bad);
	if (run->late)
		fprintf(f, ", %" PRIu64 " accesses late", run->late);
	if (run->lost)
		fprintf(f, ", %" PRIu64 " events lost while recording", run->lost);
	if (run->truncated)
		fprintf(f, ", trace incomplete");
	fputc('\n', f);
	if (run->uncached)
		fprintf(f, "left out: %" PRIu64 " accesses of %" PRIu64 " procfs/sysfs files "
			"(no page cache)\n", run->uncached, run->uncached_files);
	if (!run->accesses)
		report_print_wrapped(f, "no accesses in the trace: every figure below is 0 or -; "
				     "a trace imported from ftrace needs the mm_filemap_get_pages, "
				     "map_pages or fault events (folio-trace-import(1))");
}

/*
 * Our own prose (no untrusted bytes) folded to TABLE_WIDTH columns after a comma or semicolon,
 * so that no value is cut from its unit; continuation lines are indented by two.
 */
#define TABLE_WIDTH	80

/* Length of the piece of s up to and with the next ", " or "; " (without the space). */
static size_t piece_len(const char *s)
{
	const char *p = s;

	while (*p && !((p[0] == ',' || p[0] == ';') && p[1] == ' '))
		p++;
	return (size_t)(p - s) + (*p ? 1 : 0);
}

void report_print_wrapped(FILE *f, const char *s)
{
	size_t col = 0;

	while (*s) {
		size_t len = piece_len(s);

		if (col && col + 1 + len > TABLE_WIDTH) {
			fputs("\n  ", f);
			col = 2;
		} else if (col) {
			fputc(' ', f);
			col++;
		}
		fwrite(s, 1, len, f);
		col += len;
		s += len;
		while (*s == ' ')
			s++;
	}
	fputc('\n', f);
}

/* What every column shares: the model's rows that have a summary place. */
static void print_config_line(FILE *f, const struct model_config *c)
{
	char item[CELL_LEN * 2], line[1024];
	size_t n = 0;

	line[0] = '\0';
	for (unsigned place = 1; place <= MODEL_SUMMARY_MAX; place++) {
		for (unsigned i = 0; i < model_nr_params; i++) {
			if (model_params[i].summary != place || n >= sizeof(line))
				continue;
			model_param_brief(&model_params[i], c, item, sizeof(item));
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%s", n ? ", " : "", item);
		}
	}
	report_print_wrapped(f, line);
}

/* Where the configuration came from, and the what-ifs of any column. */
static void print_sources(FILE *f, const struct report *r)
{
	char what_ifs[256];

	char line[sizeof(what_ifs) + 64];

	if (r->run->sources && r->run->sources[0])
		report_print_wrapped(f, r->run->sources);
	for (unsigned i = 0; i < r->ncols; i++) {
		model_config_what_ifs(&r->cols[i].cfg, what_ifs, sizeof(what_ifs));
		if (what_ifs[0]) {
			snprintf(line, sizeof(line), "what-ifs (no kernel behaves so): %s", what_ifs);
			report_print_wrapped(f, line);
			break;
		}
	}
}

/* How many rows the default left out, and how to see them. */
static void print_left_out(FILE *f, const struct report *r)
{
	unsigned n = 0;

	for (unsigned mi = 0; mi < report_nr_metrics; mi++)
		n += row_left_out(r, mi);
	if (n)
		fprintf(f, "(%u rows zero in every model left out: --all or -v shows them)\n", n);
}

int report_write_table(FILE *f, const struct report *r)
{
	if (r->ncols == 0 || nr_table_cols(r) > TABLE_MAX_COLS)
		return -1;
	if (report_write_verdict(f, r) < 0)
		return -1;
	return report_write_details(f, r);
}

int report_write_details(FILE *f, const struct report *r)
{
	unsigned width[TABLE_MAX_COLS];
	unsigned n = nr_table_cols(r);
	const char *section = NULL;
	char buf[CELL_LEN];

	if (r->ncols == 0 || n > TABLE_MAX_COLS)
		return -1;
	print_run_line(f, r->run);
	print_config_line(f, &r->cols[0].cfg);
	print_sources(f, r);
	fputc('\n', f);

	measure(r, width);
	for (unsigned j = 0; j < n; j++) {
		header_cell(r, j, buf);
		print_row_cell(f, j, width[j], buf, false);
	}
	fputc('\n', f);
	for (unsigned row = 0; row < NR_ROWS; row++) {
		if (!row_cell(r, row, 0, buf))
			continue;
		if (!section || strcmp(section, row_section(row)) != 0) {
			section = row_section(row);
			fprintf(f, "%s\n", section);
		}
		for (unsigned j = 0; j < n; j++) {
			row_cell(r, row, j, buf);
			print_row_cell(f, j, width[j], buf, true);
		}
		fputc('\n', f);
	}
	print_left_out(f, r);
	return ferror(f) ? -1 : 0;
}

int report_write_curve_table(FILE *f, const struct report *r)
{
	if (report_write_verdict(f, r) < 0)
		return -1;
	print_run_line(f, r->run);
	if (r->ncols)
		print_config_line(f, &r->cols[0].cfg);
	print_sources(f, r);
	if (r->mrc_set)
		fprintf(f, "--mrc set %s:\n  a stack pass follows nothing else\n", r->mrc_set);
	fputc('\n', f);
	return curve_write_table(f, r->curves);
}
