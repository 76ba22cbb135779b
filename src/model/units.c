/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per-unit figures (model_set_units()): an access's effect is the change of the model's
 * counters across it, counted for the access's unit; the time that passes before an access
 * (the flusher, completions) is not part of it. Writeback runs apart from the accesses (the
 * flusher, reclaim, fsync of one file while another is written): its bytes count for the
 * file written back, or for the unit that last wrote to that file.
 */
#include <stdlib.h>
#include <string.h>

#include "model/instance.h"

#define UNIT_NONE	UINT32_MAX

void model_set_units(struct model *m, enum model_units_by by)
{
	m->units.by = by;
}

const struct model_unit *model_units(const struct model *m, uint32_t *n, bool *oom)
{
	*n = m->units.n;
	*oom = m->units.oom;
	return m->units.u;
}

void units_release(struct model *m)
{
	free(m->units.u);
	free(m->units.file_unit);
	m->units.u = NULL;
	m->units.file_unit = NULL;
}

/* Unit u's figures, the table grown to hold it; NULL when out of memory (counted). */
static struct model_unit *unit_get(struct model *m, uint32_t u)
{
	if (u == UNIT_NONE)
		return NULL;
	if (u >= m->units.cap) {
		uint32_t cap = m->units.cap ? m->units.cap : 64;
		struct model_unit *nu;

		while (cap <= u && cap < UINT32_MAX / 2)
			cap *= 2;
		if (cap <= u || !(nu = realloc(m->units.u, (size_t)cap * sizeof(*nu)))) {
			m->units.oom = true;
			return NULL;
		}
		memset(nu + m->units.cap, 0, (size_t)(cap - m->units.cap) * sizeof(*nu));
		m->units.u = nu;
		m->units.cap = cap;
	}
	if (u >= m->units.n)
		m->units.n = u + 1;
	return &m->units.u[u];
}

static void snap_take(const struct model *m, struct model_unit *s)
{
	const struct model_metrics *x = &m->mx;

	s->read_requests = x->read_requests;
	s->read_hit_requests = x->read_hit_requests;
	s->read_bytes = x->read_bytes;
	s->read_io_bytes = x->read_io_bytes;
	s->refaults = x->refaults;
	s->evicted_pages = x->evicted_pages;
	s->write_requests = x->write_requests;
	s->write_bytes = x->write_bytes;
	memcpy(s->insertions_by_order, x->insertions_by_order, sizeof(s->insertions_by_order));
}

static uint32_t unit_of(const struct model *m, const struct model_access *a)
{
	return m->units.by == MODEL_UNITS_FILE ? a->file_id : a->unit;
}

/* MODEL_UNITS_GIVEN: the file's data is now (also) the writer's. */
static void note_writer(struct model *m, uint32_t file, uint32_t unit)
{
	if (file >= m->units.nfiles) {
		uint32_t n = m->units.nfiles ? m->units.nfiles : 64;
		uint32_t *fu;

		while (n <= file && n < UINT32_MAX / 2)
			n *= 2;
		if (n <= file || !(fu = realloc(m->units.file_unit, (size_t)n * sizeof(*fu)))) {
			m->units.oom = true;
			return;
		}
		for (uint32_t i = m->units.nfiles; i < n; i++)
			fu[i] = UNIT_NONE;
		m->units.file_unit = fu;
		m->units.nfiles = n;
	}
	m->units.file_unit[file] = unit;
}

void units_begin(struct model *m, const struct model_access *a, struct units_snap *s)
{
	if (m->units.by == MODEL_UNITS_GIVEN &&
	    (a->op == MODEL_WRITE || a->op == MODEL_MMAP_WRITE))
		note_writer(m, a->file_id, a->unit);
	snap_take(m, &s->u);
}

void units_end(struct model *m, const struct model_access *a, const struct units_snap *s)
{
	struct model_unit now, *u;

	snap_take(m, &now);
	if (!memcmp(&now, &s->u, sizeof(now)))
		return;
	if (!(u = unit_get(m, unit_of(m, a))))
		return;
	u->read_requests += now.read_requests - s->u.read_requests;
	u->read_hit_requests += now.read_hit_requests - s->u.read_hit_requests;
	u->read_bytes += now.read_bytes - s->u.read_bytes;
	u->read_io_bytes += now.read_io_bytes - s->u.read_io_bytes;
	u->refaults += now.refaults - s->u.refaults;
	u->evicted_pages += now.evicted_pages - s->u.evicted_pages;
	u->write_requests += now.write_requests - s->u.write_requests;
	u->write_bytes += now.write_bytes - s->u.write_bytes;
	for (unsigned o = 0; o <= MODEL_MAX_ORDER; o++)
		u->insertions_by_order[o] += now.insertions_by_order[o] -
					     s->u.insertions_by_order[o];
}

void units_writeback(struct model *m, uint32_t file, uint64_t bytes)
{
	uint32_t unit = file;
	struct model_unit *u;

	if (m->units.by == MODEL_UNITS_GIVEN)
		unit = file < m->units.nfiles ? m->units.file_unit[file] : UNIT_NONE;
	if ((u = unit_get(m, unit)))
		u->writeback_bytes += bytes;
}
