/* Report formats on hand-made metrics: exact values, alignment, ratios, CSV shape. */
#define _GNU_SOURCE
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/variants.h"
#include "report/curve.h"
#include "report/metrics.h"
#include "report/report.h"
#include "report/series.h"
#include "tap.h"

/* Sequential read of a 64 MiB file, read twice: what orders 0 and 9 must report. */
static void fill_col(struct report_col *c, unsigned order)
{
	uint64_t entries = (64ull << 20) >> (12 + order);

	memset(c, 0, sizeof(*c));
	snprintf(c->label, sizeof(c->label), "order %u", order);
	c->cfg.order = order;
	c->cfg.readahead = true;
	c->cfg.ra_pages = 32;
	c->cfg.block_size = 4096;
	c->cfg.memory_bytes = 1ull << 30;
	c->cfg.page_size = 4096;
	c->m.accesses = 2 * 16384;
	c->m.read_requests = 2 * 16384;
	c->m.read_hit_requests = 16384;
	c->m.read_bytes = 128ull << 20;
	c->m.read_hit_bytes = 64ull << 20;
	c->m.read_io_bytes = 64ull << 20;
	c->m.read_ios = entries;
	c->m.insertions = entries;
	c->m.inserted_pages = 16384;
	c->m.insertions_by_order[order] = entries;
	c->m.lru_entries.samples = 4;
	c->m.lru_entries.sum = 4.0 * entries;
	c->m.lru_entries.max = entries;
	c->m.lru_entries.p99 = entries;
	c->m.untouched_evicted_pages = order;	/* made up, to check the page-size product */
	c->m.first_ts = 1000000000;
	c->m.last_ts = 3000000000;
	c->m.writeback_bytes = 8ull << 20;	/* 8 MiB over 2 s */
}

static char *capture(int (*fn)(FILE *, const struct report *), const struct report *r, int *rc)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	*rc = fn(f, r);
	fclose(f);
	return buf;
}

static unsigned count_char(const char *s, char ch)
{
	unsigned n = 0;

	for (; *s; s++)
		n += *s == ch;
	return n;
}

/* Every key has a meaning for --metrics=help, short enough for 80 columns beside its key. */
static void test_meanings(void)
{
	unsigned missing = 0, long_ones = 0;
	char buf[96];

	for (unsigned i = 0; i < report_nr_metrics; i++) {
		if (!report_metric_meaning(report_metrics[i].key, buf, sizeof(buf)))
			missing++;
		else if (2 + 28 + 1 + strlen(buf) > 80)
			long_ones++;
	}
	is_u64(missing, 0, "every metric key has a meaning");
	is_u64(long_ones, 0, "every meaning fits 80 columns beside its key");
	ok(report_metric_meaning("lru_entries_p99", buf, sizeof(buf)) &&
	   strcmp(buf, "LRU entries: folios on the lists, 99th percentile") == 0,
	   "a distribution's meaning is its base's and the statistic: %s", buf);
}

static void test_metric_list(void)
{
	unsigned dup = 0;

	for (unsigned i = 0; i < report_nr_metrics; i++)
		for (unsigned j = i + 1; j < report_nr_metrics; j++)
			dup += strcmp(report_metrics[i].key, report_metrics[j].key) == 0;
	is_u64(dup, 0, "metric keys are unique");
	ok(report_nr_metrics > 50, "metric list is complete (%u)", report_nr_metrics);
	test_meanings();
	/* old names find the renamed metric */
	ok(report_metric_find("read_io_bytes") == report_metric_find("device_read_bytes") &&
	   report_metric_find("device_read_bytes") != NULL, "read_io_bytes is device_read_bytes");
	ok(report_metric_find("read_hit_ratio_requests") == report_metric_find("hit_ratio"),
	   "read_hit_ratio_requests is hit_ratio");
	ok(report_metric_find("bogus") == NULL, "an unknown key finds nothing");
}

static void test_values(const struct report_col *c0, const struct report_col *c9)
{
	struct report_value v0, v9;

	for (unsigned i = 0; i < report_nr_metrics; i++) {
		const struct report_metric *md = &report_metrics[i];

		v0 = md->get(&c0->m, &c0->cfg);
		v9 = md->get(&c9->m, &c9->cfg);
		if (strcmp(md->key, "lru_entries_mean") == 0) {
			is_dbl(v0.d, 16384, 0, "order 0 mean LRU length");
			is_dbl(v9.d, 32, 0, "order 9 mean LRU length");
			is_dbl(report_ratio(v9, v0).d, 1.0 / 512, 1e-12, "ratio 9/0 is 1/512");
		} else if (strcmp(md->key, "hit_ratio_bytes") == 0) {
			is_dbl(v9.d, 0.5, 0, "byte hit ratio");
		} else if (strcmp(md->key, "write_amplification") == 0) {
			ok(!v0.valid, "no write amplification without writes");
			ok(!report_ratio(v9, v0).valid, "ratio of nothing is none");
		} else if (strcmp(md->key, "untouched_evicted_bytes") == 0) {
			is_u64(v9.u, 9 * 4096, "untouched pages in bytes");
		} else if (strcmp(md->key, "write_bandwidth") == 0) {
			is_dbl(v9.d, 4 << 20, 1e-6, "mean write bandwidth 4 MiB/s");
		} else if (strcmp(md->key, "duration_s") == 0) {
			is_dbl(v0.d, 2, 0, "duration 2 s");
		}
	}
}

static void test_json(const struct report *r)
{
	int rc;
	char *s = capture(report_write_json, r, &rc);

	is_i64(rc, 0, "json written");
	ok(strstr(s, "\"format\": \"folio-trace-replay\"") != NULL, "json names its format");
	ok(strstr(s, "\"baseline\": \"order 0\"") != NULL, "json names the baseline");
	ok(strstr(s, "\"lru_entries_max\": 32,") != NULL, "order 9 LRU max exact");
	ok(strstr(s, "\"lru_entries_max\": 16384,") != NULL, "order 0 LRU max exact");
	ok(strstr(s, "\"lru_entries_max\": 0.001953125,") != NULL, "ratio 9/0 exact");
	ok(strstr(s, "\"write_amplification\": null,") != NULL, "none is null");
	ok(strstr(s, "\"insertions_by_order\": [0, 0, 0, 0, 0, 0, 0, 0, 0, 32, 0]") != NULL,
	   "per-order array");
	ok(strstr(s, "\"policy\": \"fixed\"") != NULL, "config names");
	is_u64(count_char(s, '{'), count_char(s, '}'), "braces balance");
	is_u64(count_char(s, '['), count_char(s, ']'), "brackets balance");
	free(s);
}

/* Field n (0-based) of a CSV line into out. */
static void csv_field(const char *line, unsigned n, char *out, size_t len)
{
	const char *end;

	for (; n && line; n--) {
		line = strchr(line, ',');
		if (line)
			line++;
	}
	if (!line) {
		out[0] = '\0';
		return;
	}
	end = line + strcspn(line, ",\n");
	snprintf(out, len, "%.*s", (int)(end - line), line);
}

static int csv_index(const char *header, const char *key)
{
	char f[64];

	for (unsigned i = 0; i < 1000; i++) {
		csv_field(header, i, f, sizeof(f));
		if (!f[0])
			return -1;
		if (strcmp(f, key) == 0)
			return (int)i;
	}
	return -1;
}

static void test_csv(const struct report *r)
{
	int rc, idx;
	char *s = capture(report_write_csv, r, &rc), *row1, *row2, f[64];
	unsigned fields = 1;

	for (const char *p = s; *p && *p != '\n'; p++)
		fields += *p == ',';

	is_i64(rc, 0, "csv written");
	is_u64(count_char(s, '\n'), 3, "header and two rows");
	is_u64(fields, 2 + report_nr_metrics + 3 * (MODEL_MAX_ORDER + 1) + MODEL_IOSIZE_BUCKETS,
	       "header has every key");
	row1 = strchr(s, '\n') + 1;
	row2 = strchr(row1, '\n') + 1;
	is_u64(count_char(row1, ',') - count_char(row2, ','), count_char(row2, ','),
	       "rows are equally long");
	idx = csv_index(s, "lru_entries_max");
	ok(idx > 0, "lru_entries_max column");
	csv_field(row2, (unsigned)idx, f, sizeof(f));
	is_str(f, "32", "order 9 row value");
	idx = csv_index(s, "write_amplification");
	csv_field(row1, (unsigned)idx, f, sizeof(f));
	is_str(f, "", "none is an empty cell");
	idx = csv_index(s, "insertions_by_order_9");
	csv_field(row2, (unsigned)idx, f, sizeof(f));
	is_str(f, "32", "flattened array");
	free(s);
}

/* Every metric line of the table is exactly as long as the header: the columns line up. */
static void test_table(const struct report *r)
{
	int rc;
	char *s = capture(report_write_table, r, &rc), *line, *save = NULL;
	size_t head = 0, bad = 0, rows = 0;
	bool seen_lru = false, seen_order9 = false;

	is_i64(rc, 0, "table written");
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strncmp(line, "metric", 6) == 0) {
			head = strlen(line);
			ok(strstr(line, "order 0") && strstr(line, "order 9") &&
			   strstr(line, "9/0"), "header has both columns and the ratio");
			continue;
		}
		if (!head || line[0] != ' ')
			continue;
		rows++;
		bad += strlen(line) != head;
		if (strncmp(line, "  order 9 ", 10) == 0) {
			seen_order9 = true;
			ok(strstr(line, " 0 ") && strstr(line, " 32 ") && line[strlen(line) - 1] == '-',
			   "order 9 row: none at order 0, 32 at order 9, no ratio: %s", line);
		}
		if (strncmp(line, "  LRU entries max", 17) == 0) {
			seen_lru = true;
			ok(strstr(line, " 16384 ") && strstr(line, " 32 ") &&
			   strstr(line, " 0.002"), "LRU max row: %s", line);
		}
	}
	is_u64(rows, report_nr_metrics + 2, "one row per metric and per order inserted");
	ok(seen_order9, "order 9 insertions row");
	is_u64(bad, 0, "all rows as wide as the header");
	ok(seen_lru, "LRU row present");
	free(s);
}

/* Zero in both columns (or no value): the rows the default table leaves out and counts. */
static unsigned zero_rows(const struct report *r)
{
	unsigned n = 0;

	for (unsigned i = 0; i < report_nr_metrics; i++) {
		const struct report_metric *md = &report_metrics[i];
		bool zero = true;

		for (unsigned c = 0; c < r->ncols; c++) {
			struct report_value v = md->get(&r->cols[c].m, &r->cols[c].cfg);

			zero &= !v.valid || report_value_double(v) == 0;
		}
		n += zero;
	}
	return n;
}

static void test_left_out(const struct report *r)
{
	unsigned want = zero_rows(r), got = 0, rows = 0;
	char *s, *line, *save = NULL;
	bool in_table = false;
	int rc;

	ok(want > 0 && want < report_nr_metrics, "some rows zero in both columns: %u", want);
	s = capture(report_write_table, r, &rc);
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		in_table |= strncmp(line, "metric ", 7) == 0;
		if (in_table && line[0] == ' ')
			rows++;
		sscanf(line, "(%u rows zero in every model left out", &got);
	}
	is_u64(got, want, "the table counts the rows it left out");
	/* the rows by order: orders 0 and 9 inserted */
	is_u64(rows, report_nr_metrics - want + 2, "and shows every other row");
	free(s);
}

static void test_single_column(struct report_col *c)
{
	struct report r = { .cols = c, .ncols = 1 };
	struct report_run run = { .trace_path = "x.ftr", .accesses = 9, .files = 2, .ignored = 3,
				  .lost = 5, .truncated = true };
	int rc;
	char *s, *head, *eol, *first, *run_line;

	r.run = &run;
	s = capture(report_write_table, &r, &rc);
	first = strndup(s, strcspn(s, "\n"));
	is_str(first, "verdict: order 9 alone; --folio-order=0,9 compares it with base pages",
	       "one column: the verdict says there is nothing to compare with");
	free(first);
	free(s);
	c->cfg.order = 0;	/* base pages alone: the order to compare with is a large one */
	s = capture(report_write_table, &r, &rc);
	first = strndup(s, strcspn(s, "\n"));
	is_str(first, "verdict: order 0 alone; --folio-order=0,9 compares base pages with large "
	       "folios", "order 0 alone: the verdict names the large order to compare with");
	free(first);
	free(s);
	c->cfg.order = 9;
	s = capture(report_write_table, &r, &rc);
	run_line = strstr(s, "\n\nreplay of ");
	ok(run_line != NULL, "the run's line follows the verdict");
	first = strndup(run_line ? run_line + 2 : s, strcspn(run_line ? run_line + 2 : s, "\n"));
	is_str(first, "replay of x.ftr: 9 accesses, 2 files, 3 ignored, 5 events lost while "
	       "recording, trace incomplete", "first line says what is not covered");
	free(first);
	head = strstr(s, "\nmetric");
	ok(head != NULL, "table has a header");
	if (head) {
		eol = strchr(head + 1, '\n');
		ok(eol && memchr(head, '/', (size_t)(eol - head)) == NULL,
		   "no ratio column for one configuration");
	}
	free(s);
}

static void test_series(void)
{
	struct series s;
	struct model_sample a = { .ts = 1500000000, .writeback_bytes_interval = 1000 };
	struct model_sample b = { .ts = 2500000000, .writeback_bytes_interval = 3000,
				  .lru_entries = 7 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	series_init(&s, 2, 1000000000);
	s.t0 = 1000000000;
	snprintf(s.col[0].label, sizeof(s.col[0].label), "order 0");
	s.col[1].order = 4;
	snprintf(s.col[1].label, sizeof(s.col[1].label), "order 4");
	ok(series_append(&s.col[0], &a) == 0 && series_append(&s.col[0], &b) == 0, "appended");
	is_dbl(series_write_bandwidth(&s, &s.col[0], 0), 2000, 1e-9,
	       "first interval counts from the start of the trace");
	is_dbl(series_write_bandwidth(&s, &s.col[0], 1), 3000, 1e-9, "bytes per second");
	f = open_memstream(&buf, &len);
	is_i64(series_write_csv(f, &s), 0, "series csv written");
	fclose(f);
	is_u64(count_char(buf, '\n'), 3, "header and one row per sample");
	ok(strstr(buf, "\"order 0\",0,0.500000,0,") != NULL, "time from t0");
	ok(strstr(buf, "\"order 0\",0,1.500000,7,") != NULL, "second sample");
	free(buf);
	series_release(&s);
}

/* Whether the panel key of the SVG svg holds text, up to the panel's end. */
static bool panel_says(const char *svg, const char *key, const char *text)
{
	char head[128];
	const char *p, *end, *hit;

	snprintf(head, sizeof(head), "class=\"panel\" data-panel=\"%s\"", key);
	p = strstr(svg, head);
	end = p ? strstr(p, "</g>") : NULL;
	hit = p ? strstr(p, text) : NULL;
	return hit && hit < end;
}

/*
 * The plot over time: order 4's LRU line is order 0's in one case (said beside the panel's
 * title), not in the other; the time axis ends at the last sample, 2.5 s after t0.
 */
static void test_series_svg(void)
{
	struct model_sample a = { .ts = 1000000000, .lru_entries = 5, .write_bytes_interval = 1 };
	struct model_sample b = { .ts = 3500000000, .lru_entries = 7 };
	struct series s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	series_init(&s, 2, 1000000000);
	s.t0 = 1000000000;
	for (unsigned i = 0; i < 2; i++) {
		s.col[i].order = 4 * i;
		snprintf(s.col[i].label, sizeof(s.col[i].label), "order %u", 4 * i);
		series_append(&s.col[i], &a);
		series_append(&s.col[i], &b);
	}
	f = open_memstream(&buf, &len);
	is_i64(series_write_svg(f, &s, "t", NULL), 0, "svg written");
	fclose(f);
	ok(panel_says(buf, "lru_entries", "order 4 on order 0's line</text>"),
	   "equal lines: said so beside the panel");
	ok(strstr(buf, "data-panel=\"lru_entries\" data-time-max=\"2.5\"") != NULL,
	   "the time axis ends at the trace's end");
	free(buf);
	s.col[1].v[1].lru_entries = 2;
	buf = NULL;
	f = open_memstream(&buf, &len);
	series_write_svg(f, &s, "t", NULL);
	fclose(f);
	ok(!panel_says(buf, "lru_entries", "class=\"coincide\"") &&
	   panel_says(buf, "fragmentation_index", "class=\"coincide\""),
	   "lines that differ: no note on their panel; the fragmentation lines, equal, noted");
	free(buf);
	series_release(&s);
}

/*
 * The curve plot: two orders' curves of three sizes, hit ratios 10%, 80% and 90% (a knee at
 * the middle size), equal in all but device reads; no refaults and no write-back at any size.
 */
static void test_curve_svg(void)
{
	static const uint64_t hits[3] = { 10, 80, 90 };
	struct curve_point p[2][3];
	struct curve c[2];
	struct curve_set set = { .n = 2, .c = c };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	memset(p, 0, sizeof(p));
	memset(c, 0, sizeof(c));
	for (unsigned o = 0; o < 2; o++) {
		c[o] = (struct curve){ .order = 9 * o, .source = CURVE_INSTANCES, .lru = "plain",
				       .n = 3, .p = p[o] };
		for (unsigned i = 0; i < 3; i++) {
			p[o][i].memory_bytes = (i + 1) << 20;
			p[o][i].cfg.page_size = 4096;
			p[o][i].m.read_requests = 100;
			p[o][i].m.read_hit_requests = hits[i];
			p[o][i].m.read_io_bytes = (3 - i + o) << 20;
		}
	}
	f = open_memstream(&buf, &len);
	is_i64(curve_write_svg(f, &set, "t"), 0, "curve svg written");
	fclose(f);
	ok(panel_says(buf, "hit_ratio", "order 9 on order 0's line</text>") &&
	   !panel_says(buf, "device_read_bytes", "class=\"coincide\""),
	   "curves: the equal hit-ratio lines said so, the device reads not");
	ok(panel_says(buf, "hit_ratio", "<circle class=\"knee\" data-order=\"0\""),
	   "curves: the knee marked");
	ok(!strstr(buf, "data-panel=\"refaults\"") &&
	   strstr(buf, "not drawn: Refaults (pages) (none at any size); Write-back bytes (none at "
		  "any size)</text>"), "curves: panels without data named, not drawn");
	free(buf);
}

int main(void)
{
	struct report_col cols[2];
	struct report_run run = { .trace_path = "seq.ftr", .accesses = 32768, .files = 1 };
	struct report r = { .run = &run, .cols = cols, .ncols = 2 };

	fill_col(&cols[0], 0);
	fill_col(&cols[1], 9);
	r.baseline = report_pick_baseline(cols, 2);
	is_u64(r.baseline, 0, "order 0 is the baseline");
	test_metric_list();
	test_values(&cols[0], &cols[1]);
	test_json(&r);
	test_csv(&r);
	r.all_rows = true;
	test_table(&r);
	r.all_rows = false;
	test_left_out(&r);
	test_single_column(&cols[1]);
	test_series();
	test_series_svg();
	test_curve_svg();
	{
		unsigned kind = 99;

		ok(model_variant_lookup(model_lru_kinds, "plain", &kind) && kind == LRU_PLAIN,
		   "name lookup");
		ok(!model_variant_lookup(model_lru_kinds, "clock", &kind), "unknown name");
	}
	return done_testing();
}
