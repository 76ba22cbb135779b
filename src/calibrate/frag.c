// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fragmentation: the model's free memory against the kernel's /proc/buddyinfo samples (its
 * zones summed, as the model's one zone holds them) when the model started from the recorded
 * memory, and its compaction against /proc/vmstat's compact_* counters. Both are
 * system-wide: other tasks allocate and free too.
 */
#include <stdarg.h>
#include <stdio.h>

#include "calibrate/calibrate.h"
#include "model/buddy.h"

#define FRAG_ORDER	9	/* the order proactive compaction and THP care about */

static void frag_row(struct calibration *c, enum calib_scope scope, const char *source,
		     uint64_t model, uint64_t kernel, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

static void frag_row(struct calibration *c, enum calib_scope scope, const char *source,
		     uint64_t model, uint64_t kernel, const char *fmt, ...)
{
	struct calib_row *r;
	va_list ap;

	if (c->nrows >= CALIB_MAX_ROWS)
		return;
	r = &c->rows[c->nrows++];
	va_start(ap, fmt);
	vsnprintf(r->metric, sizeof(r->metric), fmt, ap);
	va_end(ap);
	r->source = source;
	r->model = model;
	r->kernel = kernel;
	r->scope = scope;
}

static uint64_t unusable(const uint64_t *nr_free)
{
	int v = buddy_unusable_free_index(nr_free, FRAG_ORDER);

	return v < 0 ? 0 : (uint64_t)v;
}

/* The model's free blocks at time ts: its last sample at or before it, else its first. */
static const uint64_t *model_at(const struct series_col *col, uint64_t ts)
{
	const struct model_sample *best = col->n ? &col->v[0] : NULL;

	for (size_t i = 0; i < col->n && col->v[i].ts <= ts; i++)
		best = &col->v[i];
	return best ? best->free_blocks : NULL;
}

static void index_over_time(struct calibration *c, const struct series_col *col,
			    const struct kernel_facts *k)
{
	static const unsigned pct[] = { 25, 50, 75 };
	uint64_t first = k->buddy[0].ts, last = k->buddy[k->nbuddy - 1].ts;

	for (unsigned i = 0; i < sizeof(pct) / sizeof(pct[0]) && k->nbuddy > 2; i++) {
		uint64_t want = first + (last - first) / 100 * pct[i];
		const struct kbuddy_sample *s = &k->buddy[0];
		const uint64_t *mf;

		for (size_t j = 0; j < k->nbuddy && k->buddy[j].ts <= want; j++)
			s = &k->buddy[j];
		mf = model_at(col, s->ts);
		if (mf)
			frag_row(c, CALIB_MEMORY, "buddyinfo", unusable(mf), unusable(s->nr_free),
				 "unusable index o9 at %u%%, 1/1000", pct[i]);
	}
}

static void compaction_rows(struct calibration *c, const struct model_metrics *m,
			    const struct kernel_facts *k)
{
	if (k->vm[KC_COMPACT_STALL].seen)
		frag_row(c, CALIB_SYSTEM, "compact_stall", m->compact_stall,
			 kcounter_delta(&k->vm[KC_COMPACT_STALL]), "direct compactions");
	if (k->vm[KC_COMPACT_SUCCESS].seen)
		frag_row(c, CALIB_SYSTEM, "compact_success", m->compact_success,
			 kcounter_delta(&k->vm[KC_COMPACT_SUCCESS]), "direct compactions succeeded");
	if (k->vm[KC_COMPACT_DAEMON_WAKE].seen)
		frag_row(c, CALIB_SYSTEM, "compact_daemon_wake", m->compact_daemon_wake,
			 kcounter_delta(&k->vm[KC_COMPACT_DAEMON_WAKE]), "kcompactd wakeups");
	if (k->vm[KC_COMPACT_MIGRATE_SCANNED].seen)
		frag_row(c, CALIB_SYSTEM, "compact_migrate_scanned", m->compact_migrate_scanned,
			 kcounter_delta(&k->vm[KC_COMPACT_MIGRATE_SCANNED]),
			 "compaction pages scanned");
}

void calib_frag_rows(struct calibration *c, const struct model_metrics *m,
		     const struct series_col *col, uint64_t t0, const struct kernel_facts *k)
{
	const struct kbuddy_sample *end;
	uint64_t mf = 0, kf = 0;
	int mi, ki;

	(void)t0;
	compaction_rows(c, m, k);
	/* an empty start is memory of the model's own, not the recorded one: nothing to compare */
	if (!k->nbuddy || c->cfg.start_state != START_RECORDED)
		return;
	end = &k->buddy[k->nbuddy - 1];
	for (unsigned o = 0; o <= MODEL_MAX_ORDER; o++) {
		mf += m->free_blocks[o] << o;
		kf += end->nr_free[o] << o;
	}
	frag_row(c, CALIB_MEMORY, "buddyinfo", mf, kf, "free pages (end)");
	frag_row(c, CALIB_MEMORY, "buddyinfo", m->free_blocks[9] + 2 * m->free_blocks[10],
		 end->nr_free[9] + 2 * end->nr_free[10], "free pageblocks (end)");
	for (unsigned o = 0; o <= MODEL_MAX_ORDER; o++)
		frag_row(c, CALIB_MEMORY, "buddyinfo", m->free_blocks[o], end->nr_free[o],
			 "free order-%u blocks (end)", o);
	frag_row(c, CALIB_MEMORY, "buddyinfo", unusable(m->free_blocks), unusable(end->nr_free),
		 "unusable index o9 (end), 1/1000");
	/* -1.000 (a block is free) to 1.000: shown 1000 up, so that -1.000 is 0 */
	mi = buddy_fragmentation_index(m->free_blocks, FRAG_ORDER);
	ki = buddy_fragmentation_index(end->nr_free, FRAG_ORDER);
	frag_row(c, CALIB_MEMORY, "buddyinfo", (uint64_t)(mi + 1000), (uint64_t)(ki + 1000),
		 "frag. index o9 + 1 (end), 1/1000");
	if (col)
		index_over_time(c, col, k);
}
