/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The screen and the JSON document of one interval of `folio-trace top`. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "top/view.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/parse.h"

static const char *const column_names[TOP_COLUMNS] = {
	"READ", "WRITE", "DIRTIED", "WBACK", "WAF", "INSERTED", "O0", "O1-3", "O4-8", "O9+",
	"EVICTED", "HIT%", "RA", "NAME",
};

const char *top_column_name(enum top_column c)
{
	return c < TOP_COLUMNS ? column_names[c] : "?";
}

int top_column_parse(const char *name)
{
	for (int c = 0; c < TOP_COLUMNS; c++)
		if (!strcasecmp(name, column_names[c]))
			return c;
	return -1;
}

static uint64_t folios_of_orders(const struct top_counts *c, unsigned lo, unsigned hi)
{
	uint64_t n = 0;

	for (unsigned o = lo; o <= hi && o < TOP_ORDERS; o++)
		n += c->inserted[o];
	return n;
}

/* Pages found in the cache per page accessed, as cachestat estimates it; -1: none accessed. */
static double hit_ratio(const struct top_counts *c)
{
	if (!c->accessed_pages)
		return -1;
	if (c->inserted_pages >= c->accessed_pages)
		return 0;
	return (double)(c->accessed_pages - c->inserted_pages) / (double)c->accessed_pages;
}

/* Bytes written back per byte written; -1: nothing written. */
static double amplification(const struct top_counts *c)
{
	return c->write_bytes ? (double)c->written_back_bytes / (double)c->write_bytes : -1;
}

static double column_value(const struct top_row *r, enum top_column c)
{
	const struct top_counts *n = &r->now;

	switch (c) {
	case TOP_COL_READ: return (double)n->read_bytes;
	case TOP_COL_WRITE: return (double)n->write_bytes;
	case TOP_COL_DIRTIED: return (double)n->dirtied_bytes;
	case TOP_COL_WRITTEN_BACK: return (double)n->written_back_bytes;
	case TOP_COL_AMPLIFICATION: return amplification(n);
	case TOP_COL_INSERTED: return (double)n->inserted_pages;
	case TOP_COL_ORDER0: return (double)n->inserted[0];
	case TOP_COL_ORDER1_3: return (double)folios_of_orders(n, 1, 3);
	case TOP_COL_ORDER4_8: return (double)folios_of_orders(n, 4, 8);
	case TOP_COL_ORDER9: return (double)folios_of_orders(n, 9, TOP_ORDERS - 1);
	case TOP_COL_EVICTED: return (double)n->evicted_pages;
	case TOP_COL_HIT: return hit_ratio(n);
	case TOP_COL_READAHEAD: return (double)n->readaheads;
	default: return 0;
	}
}

static bool row_active(const struct top_row *r)
{
	const struct top_counts *n = &r->now;

	return n->read_bytes || n->write_bytes || n->mmap_pages || n->inserted_pages ||
	       n->evicted_pages || n->dirtied_bytes || n->written_back_bytes || n->readaheads ||
	       n->readahead_windows;
}

/* The active rows' indexes in display order; their count. */
static uint32_t sorted_rows(const struct top_view *v, const struct top_tally *t, uint32_t *idx)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < t->nrows; i++)
		if (row_active(&t->rows[i]))
			idx[n++] = i;
	/* insertion sort by the column, ties by name: stable screens, rows are few */
	for (uint32_t i = 1; i < n; i++) {
		uint32_t x = idx[i], j = i;
		const struct top_row *rx = &t->rows[x];

		while (j > 0) {
			const struct top_row *ry = &t->rows[idx[j - 1]];
			int cmp;

			if (v->sort == TOP_COL_NAME) {
				cmp = strcmp(ry->name, rx->name);
			} else {
				double a = column_value(ry, v->sort), b = column_value(rx, v->sort);

				cmp = a < b ? 1 : a > b ? -1 : strcmp(ry->name, rx->name);
			}
			if (v->reverse)
				cmp = -cmp;
			if (cmp <= 0)
				break;
			idx[j] = idx[j - 1];
			j--;
		}
		idx[j] = x;
	}
	return n;
}

static const char *bytes(uint64_t b, char *buf, unsigned len)
{
	return format_bytes(b, buf, len);
}

static void ratio_cell(char *out, size_t len, double x, const char *fmt)
{
	if (x < 0)
		snprintf(out, len, "-");
	else
		snprintf(out, len, fmt, x);
}

static void header_lines(FILE *f, const struct top_view *v, const struct top_tally *t,
			 unsigned interval, double seconds)
{
	const struct top_counts *a = &t->all_now;
	const struct top_system *s = &t->sys_now;
	char b1[32], b2[32], b3[32], b4[32], hit[16], waf[16];
	const char *by = top_by_names[t->by];

	if (v->heading)
		fprintf(f, "%s (%.6f s), by %s, sorted by %s%s\n", v->heading, seconds, by,
			top_column_name(v->sort), v->reverse ? " (smallest first)" : "");
	else
		fprintf(f, "folio-trace top: %s, interval %u (%.1f s), by %s, sorted by %s%s\n",
			v->title ? v->title : "the whole system", interval, seconds, by,
			top_column_name(v->sort), v->reverse ? " (smallest first)" : "");
	fprintf(f, "inserted %llu pages in folios of order", (unsigned long long)a->inserted_pages);
	for (unsigned o = 0; o < TOP_ORDERS; o++)
		if (a->inserted[o])
			fprintf(f, " %s%u: %llu", o == TOP_ORDERS - 1 ? ">=" : "", o,
				(unsigned long long)a->inserted[o]);
	ratio_cell(hit, sizeof(hit), hit_ratio(a) * 100, "%.1f%%");
	fprintf(f, "; evicted %llu pages; hit ratio %s; refaults %llu\n",
		(unsigned long long)a->evicted_pages, hit, (unsigned long long)s->refaults);
	ratio_cell(waf, sizeof(waf), amplification(a), "%.2fx");
	fprintf(f, "read %s, written %s, dirtied %s, written back %s (%s); readahead: %llu "
		"decisions, %llu windows asked for (%.0f pages on average)\n",
		bytes(a->read_bytes, b1, sizeof(b1)), bytes(a->write_bytes, b2, sizeof(b2)),
		bytes(a->dirtied_bytes, b3, sizeof(b3)), bytes(a->written_back_bytes, b4, sizeof(b4)),
		waf, (unsigned long long)a->readaheads, (unsigned long long)a->readahead_windows,
		a->readahead_windows ? (double)a->readahead_pages / (double)a->readahead_windows : 0);
	fprintf(f, "reclaim: %llu scanned, %llu reclaimed, %llu kswapd wake-ups, %llu direct; "
		"%llu events lost\n", (unsigned long long)s->reclaim_scanned,
		(unsigned long long)s->reclaim_reclaimed, (unsigned long long)s->kswapd_wakes,
		(unsigned long long)s->direct_reclaims, (unsigned long long)s->lost);
}

void top_view_text(FILE *f, const struct top_view *v, const struct top_tally *t,
		   unsigned interval, double seconds)
{
	uint32_t *idx = t->nrows ? malloc(t->nrows * sizeof(*idx)) : NULL, n, shown;
	char line[512 + 4 * TOP_NAME_LEN], name[4 * TOP_NAME_LEN], c[TOP_COLUMNS][24];

	header_lines(f, v, t, interval, seconds);
	n = idx ? sorted_rows(v, t, idx) : 0;
	snprintf(line, sizeof(line),
		 "%9s %9s %9s %9s %5s %8s %6s %5s %5s %5s %8s %5s %4s  %s",
		 "READ", "WRITE", "DIRTIED", "WBACK", "WAF", "INSERTED", "O0", "O1-3", "O4-8",
		 "O9+", "EVICTED", "HIT%", "RA", "NAME");
	fprintf(f, "\n%.*s\n", v->width ? (int)v->width : (int)sizeof(line), line);
	shown = v->height > 6 ? v->height - 6 : UINT32_MAX;
	for (uint32_t i = 0; i < n && i < shown; i++) {
		const struct top_row *r = &t->rows[idx[i]];
		const struct top_counts *k = &r->now;

		bytes(k->read_bytes, c[0], 24);
		bytes(k->write_bytes, c[1], 24);
		bytes(k->dirtied_bytes, c[2], 24);
		bytes(k->written_back_bytes, c[3], 24);
		ratio_cell(c[4], 24, amplification(k), "%.2f");
		ratio_cell(c[5], 24, hit_ratio(k) * 100, "%.0f");
		/* a file, command or cgroup name: escaped, so it cannot drive the terminal */
		ft_escape(name, sizeof(name), r->name, sizeof(r->name));
		snprintf(line, sizeof(line),
			 "%9s %9s %9s %9s %5s %8llu %6llu %5llu %5llu %5llu %8llu %5s %4llu  %s",
			 c[0], c[1], c[2], c[3], c[4], (unsigned long long)k->inserted_pages,
			 (unsigned long long)k->inserted[0],
			 (unsigned long long)folios_of_orders(k, 1, 3),
			 (unsigned long long)folios_of_orders(k, 4, 8),
			 (unsigned long long)folios_of_orders(k, 9, TOP_ORDERS - 1),
			 (unsigned long long)k->evicted_pages, c[5],
			 (unsigned long long)k->readaheads, name);
		fprintf(f, "%.*s\n", v->width ? (int)v->width : (int)sizeof(line), line);
	}
	free(idx);
}

static void json_counts(FILE *f, const struct top_counts *c)
{
	fprintf(f, "\"read_bytes\":%llu,\"write_bytes\":%llu,\"mmap_pages\":%llu,"
		"\"accessed_pages\":%llu,\"inserted_pages\":%llu,\"inserted_folios_by_order\":[",
		(unsigned long long)c->read_bytes, (unsigned long long)c->write_bytes,
		(unsigned long long)c->mmap_pages, (unsigned long long)c->accessed_pages,
		(unsigned long long)c->inserted_pages);
	for (unsigned o = 0; o < TOP_ORDERS; o++)
		fprintf(f, "%s%llu", o ? "," : "", (unsigned long long)c->inserted[o]);
	fprintf(f, "],\"evicted_pages\":%llu,\"dirtied_bytes\":%llu,\"written_back_bytes\":%llu,"
		"\"readaheads\":%llu,\"readahead_windows\":%llu,\"readahead_pages\":%llu",
		(unsigned long long)c->evicted_pages, (unsigned long long)c->dirtied_bytes,
		(unsigned long long)c->written_back_bytes, (unsigned long long)c->readaheads,
		(unsigned long long)c->readahead_windows, (unsigned long long)c->readahead_pages);
}

static void json_system(FILE *f, const struct top_system *s)
{
	fprintf(f, ",\"refaults\":%llu,\"reclaim_scanned\":%llu,\"reclaim_reclaimed\":%llu,"
		"\"kswapd_wakes\":%llu,\"direct_reclaims\":%llu,\"lost_events\":%llu",
		(unsigned long long)s->refaults, (unsigned long long)s->reclaim_scanned,
		(unsigned long long)s->reclaim_reclaimed, (unsigned long long)s->kswapd_wakes,
		(unsigned long long)s->direct_reclaims, (unsigned long long)s->lost);
}

void top_view_json(FILE *f, const struct top_tally *t, unsigned interval, double seconds)
{
	bool first = true;

	fprintf(f, "{\"interval\":%u,\"seconds\":%.3f,\"by\":\"%s\",\"page_size\":%u,"
		"\"interval_totals\":{", interval, seconds, top_by_names[t->by], t->page_size);
	json_counts(f, &t->all_now);
	json_system(f, &t->sys_now);
	fputs("},\"run_totals\":{", f);
	json_counts(f, &t->all_total);
	json_system(f, &t->sys_total);
	fputs("},\"rows\":[", f);
	for (uint32_t i = 0; i < t->nrows; i++) {
		const struct top_row *r = &t->rows[i];

		if (!row_active(r))
			continue;
		fputs(first ? "{\"name\":" : ",{\"name\":", f);
		ft_json_string(f, r->name);
		fputc(',', f);
		json_counts(f, &r->now);
		fputc('}', f);
		first = false;
	}
	fputs("]}\n", f);
}
