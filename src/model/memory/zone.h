/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The zone the page cache allocates from: its watermarks, what compaction remembers between
 * runs (mm/compaction.c: cached scanner positions, deferral) and kcompactd's pending work.
 * Part of struct model (instance.h); memory.c and compaction.c keep it.
 */
#ifndef FT_MODEL_ZONE_H
#define FT_MODEL_ZONE_H

#include <stdbool.h>
#include <stdint.h>

/* include/linux/compaction.h: ordered, callers compare them */
enum compact_result {
	COMPACT_NOT_SUITABLE_ZONE,
	COMPACT_SKIPPED,
	COMPACT_DEFERRED,
	COMPACT_NO_SUITABLE_PAGE,
	COMPACT_CONTINUE,
	COMPACT_COMPLETE,
	COMPACT_PARTIAL_SKIPPED,
	COMPACT_CONTENDED,
	COMPACT_SUCCESS,
};

#define COMPACT_MAX_DEFER_SHIFT		6
#define COMPACTION_HPAGE_ORDER		9
#define HPAGE_FRAG_CHECK_INTERVAL_NS	500000000ull	/* kcompactd's proactive check */
#define COMPACT_ORDER_ANY		UINT32_MAX	/* cc->order == -1: proactive */

struct zone {
	uint64_t pages;			/* managed pages */
	bool watermarks;		/* kswapd keeps free pages above them */
	uint64_t wmark_min, wmark_low, wmark_high;
	bool recorded;			/* built from the trace's recorded state */

	/* compaction's memory, per zone */
	uint64_t cached_migrate_pfn[2];	/* [0] async, [1] sync */
	uint64_t cached_free_pfn;
	unsigned defer_shift, considered, order_failed;
	unsigned kcompactd_order;	/* wakeup_kcompactd()'s pending order, 0: none */
	uint64_t next_proactive;	/* model time of kcompactd's next proactive check */
};

#endif /* FT_MODEL_ZONE_H */
