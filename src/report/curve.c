/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Miss-ratio curves and the other curves against memory: see curve.h. */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/curve.h"
#include "report/metrics.h"
#include "util/json.h"
#include "util/parse.h"

const char *const curve_keys[] = {
	"hit_ratio", "hit_ratio_bytes", "device_read_bytes", "read_ios", "refaults",
	"writeback_bytes",
};

const unsigned curve_nr_keys = sizeof(curve_keys) / sizeof(curve_keys[0]);

/* What a stack pass counts: the read side of the cache, nothing of writeback or refaults. */
static const char *const stack_keys[] = {
	"read_requests", "read_hit_requests", "hit_ratio", "read_bytes", "read_hit_bytes",
	"hit_ratio_bytes", "device_read_bytes", "read_ios", "read_amplification",
};

bool curve_metric_known(const struct curve *c, const char *key)
{
	if (c->source == CURVE_INSTANCES)
		return true;
	for (unsigned i = 0; i < sizeof(stack_keys) / sizeof(stack_keys[0]); i++)
		if (strcmp(stack_keys[i], key) == 0)
			return true;
	return false;
}

static struct report_value point_value(const struct curve *c, const struct curve_point *p,
				       const struct report_metric *md)
{
	if (!curve_metric_known(c, md->key))
		return (struct report_value){ .valid = false };
	return md->get(&p->m, &p->cfg);
}

static double hit_ratio(const struct curve_point *p)
{
	return p->m.read_requests ? (double)p->m.read_hit_requests / (double)p->m.read_requests :
				    NAN;
}

const char *curve_source_text(const struct curve *c)
{
	switch (c->source) {
	case CURVE_EXACT:
		return "exact, one pass of stack distances over folio ids";
	case CURVE_SAMPLED:
		return "sampled stack distances over a spatial sample of the folios";
	case CURVE_INSTANCES:
	default:
		break;
	}
	if (c->lru && strcmp(c->lru, "plain") == 0)
		return "one model instance per memory size";
	if (c->lru && strcmp(c->lru, "mglru") == 0)
		return "one model instance per memory size (MGLRU is no stack algorithm: "
		       "no one-pass curve)";
	return "one model instance per memory size (the two-list LRU is no stack algorithm: "
	       "no one-pass curve)";
}

bool curve_knee(const struct curve *c, uint64_t *bytes)
{
	double x0, x1, y0 = INFINITY, y1 = -INFINITY, best = 0;
	bool found = false;

	if (c->n < 3)
		return false;
	for (unsigned i = 0; i < c->n; i++) {
		double y = hit_ratio(&c->p[i]);

		if (isnan(y))
			return false;
		y0 = y < y0 ? y : y0;
		y1 = y > y1 ? y : y1;
	}
	x0 = (double)c->p[0].memory_bytes;
	x1 = (double)c->p[c->n - 1].memory_bytes;
	if (!(y1 > y0) || !(x1 > x0))
		return false;
	for (unsigned i = 0; i < c->n; i++) {
		double xn = ((double)c->p[i].memory_bytes - x0) / (x1 - x0);
		double yn = (hit_ratio(&c->p[i]) - y0) / (y1 - y0);

		if (yn - xn > best) {
			best = yn - xn;
			*bytes = c->p[i].memory_bytes;
			found = true;
		}
	}
	return found;
}

bool curve_hit90(const struct curve *c, uint64_t *bytes)
{
	double top = -1;

	for (unsigned i = 0; i < c->n; i++) {
		double y = hit_ratio(&c->p[i]);

		if (!isnan(y) && y > top)
			top = y;
	}
	if (!(top > 0))
		return false;
	for (unsigned i = 0; i < c->n; i++) {
		if (hit_ratio(&c->p[i]) >= 0.9 * top) {
			*bytes = c->p[i].memory_bytes;
			return true;
		}
	}
	return false;
}

void curve_compare(struct curve *sampled, const struct curve *exact)
{
	double sum = 0, max = 0;
	unsigned n = 0;

	for (unsigned i = 0, j = 0; i < sampled->n && j < exact->n;) {
		uint64_t a = sampled->p[i].memory_bytes, b = exact->p[j].memory_bytes;

		if (a < b) {
			i++;
		} else if (b < a) {
			j++;
		} else {
			double e = fabs(hit_ratio(&sampled->p[i]) - hit_ratio(&exact->p[j]));

			if (!isnan(e)) {
				sum += e;
				max = e > max ? e : max;
				n++;
			}
			i++;
			j++;
		}
	}
	sampled->have_error = n > 0;
	sampled->mae = n ? sum / n : 0;
	sampled->max_error = max;
}

void curve_set_release(struct curve_set *s)
{
	for (unsigned i = 0; i < s->n; i++)
		free(s->c[i].p);
	free(s->c);
	memset(s, 0, sizeof(*s));
}

/* ---- table ---------------------------------------------------------------------------------- */

static void table_cell(char *buf, size_t len, const struct report_metric *md,
		       struct report_value v)
{
	if (!v.valid) {
		snprintf(buf, len, "-");
		return;
	}
	switch (md->kind) {
	case RK_FRACTION:
		snprintf(buf, len, "%.2f%%", report_value_double(v) * 100);
		break;
	case RK_BYTES:
		format_bytes(v.u, buf, (unsigned)len);
		break;
	default:
		snprintf(buf, len, "%" PRIu64, v.u);
		break;
	}
}

static const char *const table_heads[] = {
	"hit ratio", "hit (bytes)", "device read", "read I/Os", "refaults", "writeback",
};

/* Every reason a stack curve is not exact, with the accesses that met it. */
static void table_inexact(FILE *f, const struct curve *c)
{
	uint64_t sum = 0;

	for (unsigned k = 0; k < c->n_inexact; k++)
		sum += c->inexact[k].accesses;
	fprintf(f, "  not exact: %" PRIu64 " of %" PRIu64 " accesses a stack cannot follow%s\n",
		c->inexact_events, c->accesses, sum > c->inexact_events ?
		" (one may meet several)" : "");
	for (unsigned k = 0; k < c->n_inexact; k++)
		fprintf(f, "    %" PRIu64 ": %s\n", c->inexact[k].accesses, c->inexact[k].why);
}

static void table_curve(FILE *f, const struct curve *c)
{
	char buf[32];
	uint64_t at;

	fprintf(f, "order %u, %s LRU: %s\n", c->order, c->lru, curve_source_text(c));
	if (c->source == CURVE_SAMPLED)
		fprintf(f, "  %.4g%% of the folios followed\n", c->sample_rate * 100);
	if (c->have_error)
		fprintf(f, "  hit ratio error against the exact curve: mean %.4f, max %.4f\n",
			c->mae, c->max_error);
	if (c->source != CURVE_INSTANCES && c->inexact_events)
		table_inexact(f, c);
	fprintf(f, "  %12s", "memory");
	for (unsigned k = 0; k < curve_nr_keys; k++)
		fprintf(f, " %12s", table_heads[k]);
	fputc('\n', f);
	for (unsigned i = 0; i < c->n; i++) {
		format_bytes(c->p[i].memory_bytes, buf, sizeof(buf));
		fprintf(f, "  %12s", buf);
		for (unsigned k = 0; k < curve_nr_keys; k++) {
			const struct report_metric *md = report_metric_find(curve_keys[k]);

			table_cell(buf, sizeof(buf), md, point_value(c, &c->p[i], md));
			fprintf(f, " %12s", buf);
		}
		fputc('\n', f);
	}
	if (curve_knee(c, &at))
		fprintf(f, "  knee of the hit ratio at %s", format_bytes(at, buf, sizeof(buf)));
	else
		fputs("  no knee (flat hit ratio)", f);
	if (curve_hit90(c, &at))
		fprintf(f, "; 90%% of the highest hit ratio from %s",
			format_bytes(at, buf, sizeof(buf)));
	fputs("\n\n", f);
}

int curve_write_table(FILE *f, const struct curve_set *s)
{
	char buf[32];

	fprintf(f, "working set: %s (distinct pages touched)\n\n",
		format_bytes(s->working_set_bytes, buf, sizeof(buf)));
	for (unsigned i = 0; i < s->n; i++)
		table_curve(f, &s->c[i]);
	return curve_write_ratios(f, s);
}

/* ---- JSON ------------------------------------------------------------------------------------ */

static void json_number(FILE *f, struct report_value v)
{
	if (!v.valid)
		fputs("null", f);
	else if (v.integer)
		fprintf(f, "%" PRIu64, v.u);
	else if (isfinite(v.d))
		fprintf(f, "%.10g", v.d);
	else
		fputs("null", f);
}

static void json_estimate(FILE *f, const char *key, bool ok, uint64_t bytes)
{
	fprintf(f, ",\n      \"%s\": ", key);
	if (ok)
		fprintf(f, "%" PRIu64, bytes);
	else
		fputs("null", f);
}

static void json_curve(FILE *f, const struct curve *c)
{
	static const char *const sources[] = { "instances", "exact", "sampled" };
	uint64_t at = 0;
	bool ok;

	fprintf(f, "\n    {\n      \"order\": %u,\n      \"lru\": ", c->order);
	ft_json_string(f, c->lru);
	fprintf(f, ",\n      \"source\": \"%s\",\n      \"method\": ", sources[c->source]);
	ft_json_string(f, curve_source_text(c));
	fprintf(f, ",\n      \"sample_rate\": %.10g", c->source == CURVE_SAMPLED ?
		c->sample_rate : 1.0);
	fprintf(f, ",\n      \"exact\": %s", c->source == CURVE_EXACT && !c->inexact_events ?
		"true" : "false");
	fprintf(f, ",\n      \"inexact_accesses\": %" PRIu64 ",\n      \"inexact_why\": ",
		c->inexact_events);
	ft_json_string(f, c->n_inexact ? c->inexact[0].why : "");
	fputs(",\n      \"inexact_reasons\": [", f);
	for (unsigned k = 0; k < c->n_inexact; k++) {
		fprintf(f, "%s{ \"accesses\": %" PRIu64 ", \"why\": ", k ? ", " : " ",
			c->inexact[k].accesses);
		ft_json_string(f, c->inexact[k].why);
		fputs(" }", f);
	}
	fputs(c->n_inexact ? " ]" : "]", f);
	fputs(",\n      \"error_vs_exact\": ", f);
	if (c->have_error)
		fprintf(f, "{ \"mae\": %.10g, \"max\": %.10g }", c->mae, c->max_error);
	else
		fputs("null", f);
	ok = curve_knee(c, &at);
	json_estimate(f, "knee_bytes", ok, at);
	ok = curve_hit90(c, &at);
	json_estimate(f, "hit90_bytes", ok, at);
	fputs(",\n      \"points\": [", f);
	for (unsigned i = 0; i < c->n; i++) {
		fprintf(f, "%s\n        { \"memory_bytes\": %" PRIu64, i ? "," : "",
			c->p[i].memory_bytes);
		for (unsigned k = 0; k < curve_nr_keys; k++) {
			const struct report_metric *md = report_metric_find(curve_keys[k]);

			fprintf(f, ", \"%s\": ", md->key);
			json_number(f, point_value(c, &c->p[i], md));
		}
		fputs(" }", f);
	}
	fputs("\n      ]\n    }", f);
}

int curve_write_json(FILE *f, const struct curve_set *s)
{
	fprintf(f, "{\n    \"working_set_bytes\": %" PRIu64 ",\n    \"curves\": [",
		s->working_set_bytes);
	for (unsigned i = 0; i < s->n; i++) {
		if (i)
			fputc(',', f);
		json_curve(f, &s->c[i]);
	}
	fputs("\n    ]\n  }", f);
	return ferror(f) ? -1 : 0;
}

/* ---- CSV ------------------------------------------------------------------------------------- */

int curve_write_csv(FILE *f, const struct curve_set *s)
{
	static const char *const sources[] = { "instances", "exact", "sampled" };

	fputs("order,lru,source,sample_rate,memory_bytes", f);
	for (unsigned k = 0; k < report_nr_metrics; k++)
		fprintf(f, ",%s", report_metrics[k].key);
	fputc('\n', f);
	for (unsigned i = 0; i < s->n; i++) {
		const struct curve *c = &s->c[i];

		for (unsigned j = 0; j < c->n; j++) {
			fprintf(f, "%u,%s,%s,%.10g,%" PRIu64, c->order, c->lru, sources[c->source],
				c->source == CURVE_SAMPLED ? c->sample_rate : 1.0,
				c->p[j].memory_bytes);
			for (unsigned k = 0; k < report_nr_metrics; k++) {
				struct report_value v;

				v = point_value(c, &c->p[j], &report_metrics[k]);

				fputc(',', f);
				if (v.valid && v.integer)
					fprintf(f, "%" PRIu64, v.u);
				else if (v.valid && isfinite(v.d))
					fprintf(f, "%.10g", v.d);
			}
			fputc('\n', f);
		}
	}
	return ferror(f) ? -1 : 0;
}
