// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fragmentation: the model's free memory against the kernel's /proc/buddyinfo samples (its
 * zones summed, as the model's one zone holds them) when the model started from the recorded
 * memory, and its compaction against /proc/vmstat's compact_* counters. Both are
 * system-wide: other tasks allocate and free too.
 */
#include <stdio.h>

#include "calibrate/calibrate.h"
#include "model/memory/buddy.h"

#define FRAG_ORDER	9	/* the order proactive compaction and THP care about */

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
			calib_add_row(c, "buddyinfo", unusable(mf), unusable(s->nr_free),
				      CALIB_MEMORY, "unusable index o9 at %u%%, 1/1000", pct[i]);
	}
}

static void compaction_rows(struct calibration *c, const struct model_metrics *m,
			    const struct kernel_facts *k)
{
	const struct {
		unsigned kc;
		uint64_t model;
		const char *name, *what;
	} rows[] = {
		{ KC_COMPACT_STALL, m->compact_stall, "compact_stall", "direct compactions" },
		{ KC_COMPACT_SUCCESS, m->compact_success, "compact_success",
		  "direct compactions succeeded" },
		{ KC_COMPACT_DAEMON_WAKE, m->compact_daemon_wake, "compact_daemon_wake",
		  "kcompactd wakeups" },
		{ KC_COMPACT_MIGRATE_SCANNED, m->compact_migrate_scanned,
		  "compact_migrate_scanned", "compaction pages scanned" },
	};

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		if (k->vm[rows[i].kc].seen)
			calib_add_row(c, rows[i].name, rows[i].model,
				      kcounter_delta(&k->vm[rows[i].kc]), CALIB_SYSTEM, "%s",
				      rows[i].what);
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
	calib_add_row(c, "buddyinfo", mf, kf, CALIB_MEMORY, "free pages (end)");
	calib_add_row(c, "buddyinfo", m->free_blocks[9] + 2 * m->free_blocks[10],
		      end->nr_free[9] + 2 * end->nr_free[10], CALIB_MEMORY, "free pageblocks (end)");
	for (unsigned o = 0; o <= MODEL_MAX_ORDER; o++)
		calib_add_row(c, "buddyinfo", m->free_blocks[o], end->nr_free[o],
			      CALIB_MEMORY, "free order-%u blocks (end)", o);
	calib_add_row(c, "buddyinfo", unusable(m->free_blocks), unusable(end->nr_free),
		      CALIB_MEMORY, "unusable index o9 (end), 1/1000");
	/* -1.000 (a block is free) to 1.000: shown 1000 up, so that -1.000 is 0 */
	mi = buddy_fragmentation_index(m->free_blocks, FRAG_ORDER);
	ki = buddy_fragmentation_index(end->nr_free, FRAG_ORDER);
	calib_add_row(c, "buddyinfo", (uint64_t)(mi + 1000), (uint64_t)(ki + 1000),
		      CALIB_MEMORY, "frag. index o9 + 1 (end), 1/1000");
	if (col)
		index_over_time(c, col, k);
}
