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

/*
 * A line of the screen, cut at the terminal's width: a wrapped line would push the title off
 * the top. width 0: no limit.
 */
static void put_line(FILE *f, const struct top_view *v, const char *line)
{
	fprintf(f, "%.*s\n", v->width ? (int)v->width : (int)strlen(line), line);
}

/* "0: 263, 2: 64, 9: 24": the orders the kernel inserted folios at, or "" when none. */
static void orders_text(char *buf, size_t len, const struct top_counts *a)
{
	size_t n = 0;

	buf[0] = '\0';
	for (unsigned o = 0; o < TOP_ORDERS && n < len; o++)
		if (a->inserted[o])
			n += (size_t)snprintf(buf + n, len - n, "%s%s%u: %llu", n ? ", " : "",
					      o == TOP_ORDERS - 1 ? ">=" : "", o,
					      (unsigned long long)a->inserted[o]);
}

/* The figures of the interval above the rows; how many lines they took. */
static unsigned header_lines(FILE *f, const struct top_view *v, const struct top_tally *t,
			     unsigned interval, double seconds)
{
	const struct top_counts *a = &t->all_now;
	const struct top_system *s = &t->sys_now;
	char b1[32], b2[32], b3[32], b4[32], hit[16], waf[16], orders[256], line[512];
	const char *by = top_by_names[t->by];

	unsigned lines = 6;

	if (v->heading) {
		snprintf(line, sizeof(line), "%s (%.6f s), by %s, sorted by %s%s", v->heading,
			 seconds, by, top_column_name(v->sort),
			 v->reverse ? " (smallest first)" : "");
		put_line(f, v, line);
	} else {
		/* two lines: the sort column must not be cut off at 80 columns */
		snprintf(line, sizeof(line), "folio-trace top: %s, interval %u (%.1f s)",
			 v->title ? v->title : "the whole system", interval, seconds);
		put_line(f, v, line);
		snprintf(line, sizeof(line), "by %s, sorted by %s%s%s", by,
			 top_column_name(v->sort), v->reverse ? " (smallest first)" : "",
			 v->keys ? "; h: help, q: quit" : "");
		put_line(f, v, line);
		lines++;
	}
	orders_text(orders, sizeof(orders), a);
	snprintf(line, sizeof(line), "inserted %llu pages%s%s",
		 (unsigned long long)a->inserted_pages, orders[0] ? " in folios of order " : "",
		 orders);
	put_line(f, v, line);
	ratio_cell(hit, sizeof(hit), hit_ratio(a) * 100, "%.1f%%");
	snprintf(line, sizeof(line), "evicted %llu pages; hit ratio %s; refaults %llu",
		 (unsigned long long)a->evicted_pages, hit, (unsigned long long)s->refaults);
	put_line(f, v, line);
	ratio_cell(waf, sizeof(waf), amplification(a), "%.2fx");
	snprintf(line, sizeof(line), "read %s, written %s, dirtied %s, written back %s (%s)",
		 bytes(a->read_bytes, b1, sizeof(b1)), bytes(a->write_bytes, b2, sizeof(b2)),
		 bytes(a->dirtied_bytes, b3, sizeof(b3)),
		 bytes(a->written_back_bytes, b4, sizeof(b4)), waf);
	put_line(f, v, line);
	snprintf(line, sizeof(line), "readahead: %llu decisions, %llu windows asked for (%.0f "
		 "pages on average)", (unsigned long long)a->readaheads,
		 (unsigned long long)a->readahead_windows,
		 a->readahead_windows ? (double)a->readahead_pages / (double)a->readahead_windows
				      : 0);
	put_line(f, v, line);
	snprintf(line, sizeof(line), "reclaim: %llu scanned, %llu reclaimed, %llu kswapd wake-ups, "
		 "%llu direct; %llu events lost", (unsigned long long)s->reclaim_scanned,
		 (unsigned long long)s->reclaim_reclaimed, (unsigned long long)s->kswapd_wakes,
		 (unsigned long long)s->direct_reclaims, (unsigned long long)s->lost);
	put_line(f, v, line);
	return lines;
}

/*
 * The number columns: their width, one more than the head's so that '*' can mark the sort
 * column, and which go first when the screen is narrow.
 */
static const unsigned column_width[TOP_COLUMNS] = {
	[TOP_COL_READ] = 9, [TOP_COL_WRITE] = 9, [TOP_COL_DIRTIED] = 9,
	[TOP_COL_WRITTEN_BACK] = 9, [TOP_COL_AMPLIFICATION] = 5, [TOP_COL_INSERTED] = 9,
	[TOP_COL_ORDER0] = 6, [TOP_COL_ORDER1_3] = 5, [TOP_COL_ORDER4_8] = 5,
	[TOP_COL_ORDER9] = 5, [TOP_COL_EVICTED] = 8, [TOP_COL_HIT] = 5, [TOP_COL_READAHEAD] = 4,
};

/* What top is for first: folios by order, then the bytes, then the rest. */
static const enum top_column column_priority[] = {
	TOP_COL_INSERTED, TOP_COL_ORDER0, TOP_COL_ORDER1_3, TOP_COL_ORDER4_8, TOP_COL_ORDER9,
	TOP_COL_READ, TOP_COL_WRITE, TOP_COL_AMPLIFICATION, TOP_COL_WRITTEN_BACK, TOP_COL_HIT,
	TOP_COL_EVICTED, TOP_COL_DIRTIED, TOP_COL_READAHEAD,
};
#define NR_NUMBER_COLUMNS (sizeof(column_priority) / sizeof(column_priority[0]))

/* A name keeps at least this many columns on a narrow screen: 80 shows 7 number columns. */
#define NAME_MIN	24

struct layout {
	bool shown[TOP_COLUMNS];
	unsigned name_width;
};

/*
 * The sort column first, then the others by priority while they fit beside a name of
 * NAME_MIN; the name gets what is left, up to the longest name shown. No width: everything.
 */
static void plan_layout(const struct top_view *v, unsigned longest, struct layout *l)
{
	unsigned used = 0;

	memset(l, 0, sizeof(*l));
	if (v->sort != TOP_COL_NAME) {
		l->shown[v->sort] = true;
		used += column_width[v->sort] + 1;
	}
	for (unsigned i = 0; i < NR_NUMBER_COLUMNS; i++) {
		enum top_column c = column_priority[i];

		if (l->shown[c])
			continue;
		if (v->width && NAME_MIN + used + column_width[c] + 1 > v->width)
			continue;
		l->shown[c] = true;
		used += column_width[c] + 1;
	}
	l->name_width = longest > NAME_MIN ? longest : NAME_MIN;
	if (v->width && l->name_width + used > v->width)
		l->name_width = v->width > used + NAME_MIN ? v->width - used : NAME_MIN;
}

/* s in at most width columns: the middle cut out for "...", both ends kept. */
static void fit_middle(char *out, size_t len, const char *s, unsigned width)
{
	size_t n = strlen(s), head, tail;

	if (n <= width || width < 5) {
		snprintf(out, len, "%.*s", (int)width, s);
		return;
	}
	head = (width - 3) / 2;
	tail = width - 3 - head;
	snprintf(out, len, "%.*s...%s", (int)head, s, s + n - tail);
}

/* The heads, the sort column marked with '*' before its name. */
static void print_heads(FILE *f, const struct top_view *v, const struct layout *l)
{
	char line[512], head[16];
	size_t n;

	n = (size_t)snprintf(line, sizeof(line), "%-*s", (int)l->name_width,
			     v->sort == TOP_COL_NAME ? "*NAME" : "NAME");
	for (int c = 0; c < TOP_COL_NAME && n < sizeof(line); c++) {
		if (!l->shown[c])
			continue;
		snprintf(head, sizeof(head), "%s%s", c == (int)v->sort ? "*" : "",
			 column_names[c]);
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %*s", (int)column_width[c],
				      head);
	}
	put_line(f, v, line);
}

static void number_cell(char *out, size_t len, const struct top_row *r, enum top_column c)
{
	const struct top_counts *k = &r->now;

	switch (c) {
	case TOP_COL_READ: bytes(k->read_bytes, out, (unsigned)len); break;
	case TOP_COL_WRITE: bytes(k->write_bytes, out, (unsigned)len); break;
	case TOP_COL_DIRTIED: bytes(k->dirtied_bytes, out, (unsigned)len); break;
	case TOP_COL_WRITTEN_BACK: bytes(k->written_back_bytes, out, (unsigned)len); break;
	case TOP_COL_AMPLIFICATION: ratio_cell(out, len, amplification(k), "%.2f"); break;
	case TOP_COL_HIT: ratio_cell(out, len, hit_ratio(k) * 100, "%.0f"); break;
	default: snprintf(out, len, "%.0f", column_value(r, c)); break;
	}
}

static void print_row(FILE *f, const struct top_view *v, const struct layout *l,
		      const struct top_row *r)
{
	char line[512], name[4 * TOP_NAME_LEN], fit[4 * TOP_NAME_LEN], cell[32];
	size_t n;

	/* a file, command or cgroup name: escaped, so it cannot drive the terminal */
	ft_escape(name, sizeof(name), r->name, sizeof(r->name));
	fit_middle(fit, sizeof(fit), name, l->name_width);
	n = (size_t)snprintf(line, sizeof(line), "%-*s", (int)l->name_width, fit);
	for (int c = 0; c < TOP_COL_NAME && n < sizeof(line); c++) {
		if (!l->shown[c])
			continue;
		number_cell(cell, sizeof(cell), r, (enum top_column)c);
		n += (size_t)snprintf(line + n, sizeof(line) - n, " %*s", (int)column_width[c],
				      cell);
	}
	put_line(f, v, line);
}

static unsigned longest_name(const struct top_tally *t, const uint32_t *idx, uint32_t n)
{
	char name[4 * TOP_NAME_LEN];
	unsigned longest = 0;

	for (uint32_t i = 0; i < n; i++) {
		size_t len = strlen(ft_escape(name, sizeof(name), t->rows[idx[i]].name,
					      sizeof(t->rows[idx[i]].name)));

		if (len > longest)
			longest = (unsigned)len;
	}
	return longest;
}

void top_view_help(FILE *f, const struct top_view *v)
{
	static const char *const lines[] = {
		"keys:",
		"  h or ?   this help; another key, the table from the next interval on",
		"  < and >  sort by the column left or right of the marked one (*)",
		"  R        reverse the order: smallest first",
		"  q        quit",
		"",
		"columns: NAME, then as many as the width allows, the sort column first:",
		"  INSERTED pages the kernel inserted; O0, O1-3, O4-8, O9+ folios by order",
		"  READ, WRITE bytes; WAF written back per byte written; WBACK written back",
		"  HIT% pages found cached per page accessed; EVICTED pages; DIRTIED bytes;",
		"  RA readahead decisions. Long names lose their middle (\"...\").",
		"See folio-trace-top(1).",
	};

	for (unsigned i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		put_line(f, v, lines[i]);
}

void top_view_text(FILE *f, const struct top_view *v, const struct top_tally *t,
		   unsigned interval, double seconds)
{
	uint32_t *idx = t->nrows ? malloc(t->nrows * sizeof(*idx)) : NULL, n, shown = UINT32_MAX;
	unsigned head;
	struct layout l;

	head = header_lines(f, v, t, interval, seconds);
	fputc('\n', f);
	if (v->help) {
		top_view_help(f, v);
		free(idx);
		return;
	}
	n = idx ? sorted_rows(v, t, idx) : 0;
	/* the blank line, the heads, and the last line empty: a newline there would scroll */
	if (v->height)
		shown = v->height > head + 3 ? v->height - head - 3 : 1;
	if (v->max_rows && v->max_rows < shown)
		shown = v->max_rows;
	if (n > shown)
		n = shown;
	plan_layout(v, longest_name(t, idx, n), &l);
	print_heads(f, v, &l);
	for (uint32_t i = 0; i < n; i++)
		print_row(f, v, &l, &t->rows[idx[i]]);
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

/*
 * --lines: the interval's system-wide figures on one line, as cachestat prints them; the
 * heading again every TOP_LINE_HEADING lines so it stays on a terminal's screen. INSERTED is
 * pages, LARGE% the share of them in folios of order 1 or more. 80 columns.
 */
#define TOP_LINE_HEADING	20

void top_view_line(FILE *f, const struct top_tally *t, unsigned interval, double seconds)
{
	const struct top_counts *c = &t->all_now;
	uint64_t large = c->inserted_pages - (c->inserted[0] < c->inserted_pages ?
					      c->inserted[0] : c->inserted_pages);
	char rd[16], wr[16], wb[16], hit[16], waf[16], lg[16];

	if (interval % TOP_LINE_HEADING == 1)
		fprintf(f, "%6s %9s %9s %5s %8s %6s %7s %7s %9s %5s\n", "TIME", "READ", "WRITE",
			"HIT%", "INSERTED", "LARGE%", "EVICTED", "REFAULT", "WBACK", "WAF");
	ratio_cell(hit, sizeof(hit), hit_ratio(c) * 100, "%.1f");
	ratio_cell(waf, sizeof(waf), amplification(c), "%.2f");
	ratio_cell(lg, sizeof(lg), c->inserted_pages ? 100.0 * (double)large /
		   (double)c->inserted_pages : -1, "%.1f");
	/* whole seconds for intervals of a second or more: a day fits the column */
	fprintf(f, "%6.*f %9s %9s %5s %8llu %6s %7llu %7llu %9s %5s\n", seconds >= 1 ? 0 : 2,
		interval * seconds,
		bytes(c->read_bytes, rd, sizeof(rd)), bytes(c->write_bytes, wr, sizeof(wr)), hit,
		(unsigned long long)c->inserted_pages, lg, (unsigned long long)c->evicted_pages,
		(unsigned long long)t->sys_now.refaults,
		bytes(c->written_back_bytes, wb, sizeof(wb)), waf);
}
