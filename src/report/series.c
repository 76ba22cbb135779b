/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The sample store and its CSV form (--timeseries). */
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/series.h"
#include "util/grow.h"

void series_init(struct series *s, unsigned ncols, uint64_t interval_ns)
{
	memset(s, 0, sizeof(*s));
	s->ncols = ncols < SERIES_MAX_COLS ? ncols : SERIES_MAX_COLS;
	s->interval_ns = interval_ns;
	for (unsigned i = 0; i < SERIES_MAX_COLS; i++)
		s->col[i].max = (size_t)MODEL_SAMPLES_MAX + 1;
}

void series_release(struct series *s)
{
	for (unsigned i = 0; i < s->ncols; i++) {
		free(s->col[i].v);
		s->col[i].v = NULL;
		s->col[i].n = s->col[i].cap = 0;
	}
}

int series_append(struct series_col *c, const struct model_sample *sample)
{
	struct model_sample *v;

	if (c->n >= c->max)
		return 0;
	v = ft_grow(c->v, &c->cap, c->n, sizeof(*v), 256);
	if (!v)
		return -1;
	c->v = v;
	c->v[c->n++] = *sample;
	return 0;
}

/*
 * The model emits a sample at the end of each interval; the last one (at the end of the trace)
 * may cover less, so divide by the real gap to the previous sample.
 */
static double per_second(const struct series *s, const struct series_col *c, size_t i,
			 uint64_t bytes)
{
	uint64_t ts = c->v[i].ts, gap;

	if (i > 0)
		gap = ts > c->v[i - 1].ts ? ts - c->v[i - 1].ts : 0;
	else if (ts > s->t0 && ts - s->t0 < s->interval_ns)
		gap = ts - s->t0;
	else
		gap = s->interval_ns;
	if (gap == 0)
		return 0;
	return (double)bytes * 1e9 / (double)gap;
}

double series_write_bandwidth(const struct series *s, const struct series_col *c, size_t i)
{
	return per_second(s, c, i, c->v[i].writeback_bytes_interval);
}

double series_read_io_bandwidth(const struct series *s, const struct series_col *c, size_t i)
{
	return per_second(s, c, i, c->v[i].read_io_bytes_interval);
}

double series_hit_ratio(const struct series *s, const struct series_col *c, size_t i)
{
	const struct model_sample *m = &c->v[i];

	if (!m->read_bytes_interval)
		return NAN;
	return (double)m->read_hit_bytes_interval / (double)m->read_bytes_interval;
}

bool series_reads(const struct series *s)
{
	for (unsigned i = 0; i < s->ncols; i++)
		for (size_t k = 0; k < s->col[i].n; k++)
			if (s->col[i].v[k].read_bytes_interval)
				return true;
	return false;
}

bool series_writes(const struct series *s)
{
	for (unsigned i = 0; i < s->ncols; i++)
		for (size_t k = 0; k < s->col[i].n; k++)
			if (s->col[i].v[k].write_bytes_interval ||
			    s->col[i].v[k].writeback_bytes_interval || s->col[i].v[k].dirty_bytes)
				return true;
	return false;
}

static double rel_seconds(const struct series *s, uint64_t ts)
{
	return ts >= s->t0 ? (double)(ts - s->t0) / 1e9 : -(double)(s->t0 - ts) / 1e9;
}

int series_write_csv(FILE *f, const struct series *s)
{
	fputs("label,order,time_s,lru_entries,lru_inactive,lru_active,lru_pages,cached_bytes,"
	      "dirty_bytes,writeback_bytes,write_bandwidth_bytes_per_s,device_read_bytes,"
	      "unusable_index,fragmentation_index,read_bytes,read_hit_bytes,hit_ratio_bytes,"
	      "device_read_bandwidth_bytes_per_s,write_bytes,lru_gen0_pages,lru_gen1_pages,"
	      "lru_gen2_pages,lru_gen3_pages\n", f);
	for (unsigned i = 0; i < s->ncols; i++) {
		const struct series_col *c = &s->col[i];

		for (size_t k = 0; k < c->n; k++) {
			const struct model_sample *m = &c->v[k];
			double hit = series_hit_ratio(s, c, k);

			fprintf(f, "\"%s\",%u,%.6f,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
				",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%.3f,%" PRIu64 ",%.6g,%.6g,%"
				PRIu64 ",%" PRIu64 ",",
				c->label, c->order, rel_seconds(s, m->ts), m->lru_entries,
				m->lru_inactive, m->lru_active, m->lru_pages, m->cached_bytes,
				m->dirty_bytes, m->writeback_bytes_interval,
				series_write_bandwidth(s, c, k), m->read_io_bytes_interval,
				m->unusable_index, m->fragmentation_index, m->read_bytes_interval,
				m->read_hit_bytes_interval);
			/* no read in the interval: no ratio, an empty field */
			if (!isnan(hit))
				fprintf(f, "%.6f", hit);
			fprintf(f, ",%.3f,%" PRIu64, series_read_io_bandwidth(s, c, k),
				m->write_bytes_interval);
			for (unsigned g = 0; g < MODEL_LRU_GENS; g++)
				fprintf(f, ",%" PRIu64, m->lru_gen_pages[g]);
			fputc('\n', f);
		}
	}
	return ferror(f) ? -1 : 0;
}
