// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A sweep's curves side by side: each order's figures at every memory size divided by order
 * 0's (the first curve's when there is no order 0), so that what the order changes reads
 * without comparing two tables by eye.
 */
#include <inttypes.h>
#include <stdio.h>

#include "report/curve.h"
#include "report/metrics.h"
#include "util/parse.h"

static const char *const ratio_keys[] = {
	"hit_ratio", "device_read_bytes", "read_ios", "refaults", "writeback_bytes",
};
static const char *const ratio_heads[] = {
	"hit ratio", "device read", "read I/Os", "refaults", "writeback",
};
#define NR_RATIO_KEYS (sizeof(ratio_keys) / sizeof(ratio_keys[0]))

static unsigned baseline(const struct curve_set *s)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->c[i].order == 0)
			return i;
	return 0;
}

static const struct curve_point *point_at(const struct curve *c, uint64_t bytes)
{
	for (unsigned i = 0; i < c->n; i++)
		if (c->p[i].memory_bytes == bytes)
			return &c->p[i];
	return NULL;
}

/* The ratio of a point's metric to the baseline's at the same size; "-" where none exists. */
static void ratio_cell(char *buf, size_t len, const struct curve *c, const struct curve_point *p,
		       const struct curve *bc, const struct curve_point *bp, const char *key)
{
	const struct report_metric *md = report_metric_find(key);
	struct report_value q = { .valid = false };

	if (md && bp && curve_metric_known(c, key) && curve_metric_known(bc, key))
		q = report_ratio(md->get(&p->m, &p->cfg), md->get(&bp->m, &bp->cfg));
	if (q.valid)
		snprintf(buf, len, "%.3f", q.d);
	else
		snprintf(buf, len, "-");
}

static void ratio_table(FILE *f, const struct curve *c, const struct curve *bc)
{
	char buf[32];

	fprintf(f, "order %u against order %u, at each memory size\n", c->order, bc->order);
	fprintf(f, "  %12s", "memory");
	for (unsigned k = 0; k < NR_RATIO_KEYS; k++)
		fprintf(f, " %12s", ratio_heads[k]);
	fputc('\n', f);
	for (unsigned i = 0; i < c->n; i++) {
		const struct curve_point *bp = point_at(bc, c->p[i].memory_bytes);

		fprintf(f, "  %12s", format_bytes(c->p[i].memory_bytes, buf, sizeof(buf)));
		for (unsigned k = 0; k < NR_RATIO_KEYS; k++) {
			ratio_cell(buf, sizeof(buf), c, &c->p[i], bc, bp, ratio_keys[k]);
			fprintf(f, " %12s", buf);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

int curve_write_ratios(FILE *f, const struct curve_set *s)
{
	unsigned b = baseline(s);

	for (unsigned i = 0; i < s->n; i++)
		if (i != b && s->c[b].n)
			ratio_table(f, &s->c[i], &s->c[b]);
	return ferror(f) ? -1 : 0;
}
