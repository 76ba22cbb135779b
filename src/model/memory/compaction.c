// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Compaction, as mm/compaction.c (6.12, the same rules in 6.18) decides it, on the model's
 * one zone:
 * - compaction_suitable(): the order-0 watermark (low for orders above
 *   PAGE_ALLOC_COSTLY_ORDER, else min) plus compact_gap(order) = 2 << order pages free, and for
 *   costly orders a fragmentation index above vm.extfrag_threshold (500): a failure for lack of
 *   memory is left to reclaim;
 * - compaction_suit_allocation_order(): none when the watermark for the order already holds;
 * - compact_zone(): the migration scanner walks pageblocks up from the zone's start (or where
 *   the last run left it), the free scanner down from its end; movable pages (page-cache folios,
 *   others' movable pages) are moved to free blocks the free scanner finds, highest address
 *   first; it ends when a free block of the order is there (__compact_finished(): on the
 *   movable lists, or a fallback block big enough to claim), when the scanners meet, or for
 *   proactive compaction when the fragmentation score is back under its low mark;
 * - direct compaction (__alloc_pages_direct_compact()) at the allocation's priority: with
 *   MIGRATE_ASYNC (INIT_COMPACT_PRIORITY) migration sources only in MOVABLE pageblocks
 *   (suitable_migration_source()), and a cc->order-aligned block with a page that cannot move
 *   is skipped whole (isolate_migratepages_block()'s skip_on_failure); MIGRATE_SYNC_LIGHT
 *   (DEF_COMPACT_PRIORITY) takes from every pageblock and, failing, defers the order
 *   (try_to_compact_pages(): only sync runs defer); compaction_deferred() skips a deferred
 *   order either way; counted as compact_stall, then compact_success or compact_fail;
 * - kcompactd (MIGRATE_SYNC_LIGHT, every pageblock a source): woken by an allocation that
 *   failed for an order (wakeup_kcompactd(), here right after it), and every 500 ms
 *   (HPAGE_FRAG_CHECK_INTERVAL_MSEC) it compacts proactively when the fragmentation score
 *   (extfrag_for_order() at order 9, weighted by the zone's share of the node) is above
 *   100 - vm.compaction_proactiveness + 10, down to 100 - proactiveness.
 * Scanned pages are counted per pageblock the scanners visit; migrations take no model time.
 * Not modelled: the skip bits of pageblocks that failed (PG_migrate_skip), the fast free list
 * searches (fast_isolate_freepages(), fast_find_migrateblock()), lock contention and the
 * per-CPU lists drained on the way.
 */
#include <stdlib.h>

#include "model/instance.h"
#include "util/checks.h"

struct compact_control {
	unsigned order;			/* COMPACT_ORDER_ANY: proactive */
	bool async;			/* MIGRATE_ASYNC: an allocating task's first try */
	bool proactive;
	bool whole_zone;		/* started at the zone's first pageblock */
	bool met;			/* the scanners met */
	uint64_t migrate_pfn;		/* the next pageblock the migration scanner looks at */
	uint64_t free_pfn;		/* the pageblock the free scanner is at */
	uint64_t migrate_scanned, free_scanned, migrated;
};

static uint64_t pb_start(uint64_t pfn)
{
	return pfn & ~(uint64_t)(PAGEBLOCK_PAGES - 1);
}

/* __zone_watermark_ok() without reserves: free pages above mark, and a block of the order. */
bool zone_watermark_ok(const struct model *m, unsigned order, uint64_t mark)
{
	uint64_t free = buddy_free_pages(m->mem.buddy), unusable = (1ull << order) - 1;

	if (free <= unusable || free - unusable <= mark)
		return false;
	if (!order)
		return true;
	for (unsigned mt = 0; mt < MT_PCPTYPES; mt++)
		if (buddy_free_area_has(m->mem.buddy, order, mt))
			return true;
	return false;
}

static int fragmentation_index(const struct model *m, unsigned order)
{
	uint64_t nr_free[BUDDY_MAX_ORDER + 1];

	buddy_free_counts(m->mem.buddy, nr_free);
	return buddy_fragmentation_index(nr_free, order);
}

/* compaction_suitable() */
static bool compaction_suitable(const struct model *m, unsigned order)
{
	const struct zone *z = &m->mem.zone;
	uint64_t mark = order > PAGE_ALLOC_COSTLY_ORDER ? z->wmark_low : z->wmark_min;
	int fi;

	if (!zone_watermark_ok(m, 0, mark + (2ull << order)))
		return false;
	if (order <= PAGE_ALLOC_COSTLY_ORDER)
		return true;
	fi = fragmentation_index(m, order);
	return !(fi >= 0 && fi <= (int)m->cfg.extfrag_threshold);
}

/* compaction_suit_allocation_order() */
static enum compact_result suit_allocation_order(const struct model *m, unsigned order,
						 uint64_t mark)
{
	if (zone_watermark_ok(m, order, mark))
		return COMPACT_SUCCESS;
	if (!compaction_suitable(m, order))
		return COMPACT_SKIPPED;
	return COMPACT_CONTINUE;
}

/* ---- deferral (compaction_deferred() and friends) ------------------------------------- */

static void defer_compaction(struct zone *z, unsigned order)
{
	z->considered = 0;
	z->defer_shift++;
	if (order < z->order_failed)
		z->order_failed = order;
	if (z->defer_shift > COMPACT_MAX_DEFER_SHIFT)
		z->defer_shift = COMPACT_MAX_DEFER_SHIFT;
}

static bool compaction_deferred(struct zone *z, unsigned order)
{
	unsigned limit = 1u << z->defer_shift;

	if (order < z->order_failed)
		return false;
	if (++z->considered >= limit) {
		z->considered = limit;
		return false;
	}
	return true;
}

static void compaction_defer_reset(struct zone *z, unsigned order, bool alloc_success)
{
	if (alloc_success) {
		z->considered = 0;
		z->defer_shift = 0;
	}
	if (order >= z->order_failed)
		z->order_failed = order + 1;
}

/* ---- the fragmentation score (proactive compaction) ----------------------------------- */

static unsigned fragmentation_score(const struct model *m)
{
	uint64_t nr_free[BUDDY_MAX_ORDER + 1], pages = m->mem.zone.pages;

	buddy_free_counts(m->mem.buddy, nr_free);
	/* fragmentation_score_zone_weighted() of the node's one zone */
	return (unsigned)(pages * buddy_extfrag_for_order(nr_free, COMPACTION_HPAGE_ORDER) /
			  (pages + 1));
}

/* fragmentation_score_wmark() */
static unsigned score_wmark(const struct model *m, bool low)
{
	unsigned p = m->cfg.compaction_proactiveness;
	unsigned wmark_low = p > 95 ? 5 : 100 - p;

	return low ? wmark_low : (wmark_low + 10 < 100 ? wmark_low + 10 : 100);
}

/* ---- the scanners ---------------------------------------------------------------------- */

static void reset_cached_positions(struct model *m)
{
	struct zone *z = &m->mem.zone;

	z->cached_migrate_pfn[0] = z->cached_migrate_pfn[1] = 0;
	z->cached_free_pfn = pb_start(m->mem.nr_pages - 1);
}

/* __compact_finished() */
static enum compact_result compact_finished(struct model *m, struct compact_control *cc)
{
	if (cc->met) {
		reset_cached_positions(m);
		return cc->whole_zone ? COMPACT_COMPLETE : COMPACT_PARTIAL_SKIPPED;
	}
	if (cc->proactive)
		return fragmentation_score(m) > score_wmark(m, true) ? COMPACT_CONTINUE :
								       COMPACT_SUCCESS;
	if (buddy_free_area_has(m->mem.buddy, cc->order, MT_MOVABLE))
		return COMPACT_SUCCESS;
	for (unsigned order = cc->order; order <= BUDDY_MAX_ORDER; order++) {
		bool can_claim;

		if (buddy_find_fallback(m->mem.buddy, order, MT_MOVABLE, &can_claim) >= 0 && can_claim)
			return COMPACT_SUCCESS;
	}
	return COMPACT_CONTINUE;
}

/*
 * skip_isolation_on_order(): folios of the order compaction is for or larger, and of a
 * pageblock or more, are not moved; this is the first order that is not.
 */
static unsigned isolation_limit(const struct compact_control *cc)
{
	return cc->order < PAGEBLOCK_ORDER ? cc->order : PAGEBLOCK_ORDER;
}

/*
 * The free scanner: the highest free block, of an order from order up to the largest a
 * target pageblock may give (below the order compaction is for), in a MOVABLE pageblock
 * above the migration scanner. BUDDY_NO_PFN when it meets the migration scanner.
 */
static uint64_t free_target(struct model *m, struct compact_control *cc, unsigned order)
{
	unsigned limit = isolation_limit(cc);
	uint64_t best = BUDDY_NO_PFN;

	for (unsigned j = order; j < limit; j++) {
		uint64_t pfn = buddy_last_free(m->mem.buddy, j, MT_MOVABLE);

		if (pfn != BUDDY_NO_PFN && (best == BUDDY_NO_PFN || pfn > best))
			best = pfn;
	}
	if (best == BUDDY_NO_PFN || pb_start(best) <= cc->migrate_pfn ||
	    pb_start(best) > cc->free_pfn)
		return BUDDY_NO_PFN;
	if (pb_start(best) < cc->free_pfn) {
		cc->free_scanned += cc->free_pfn - pb_start(best);
		cc->free_pfn = pb_start(best);
	}
	return best;
}

#define SCAN_PREFETCH_PAGES	8

/* The used block at pfn: its order and whether this run may move it; false at a free block. */
static bool used_unit(struct model *m, const struct compact_control *cc, uint64_t pfn,
		      unsigned *order, bool *movable, uint32_t *tag)
{
	uint64_t start;
	unsigned o;
	int mo;

	/* the scanner goes a folio at a time, base pages the most often: a few ahead */
	memory_prefetch_movable(m, pfn + SCAN_PREFETCH_PAGES);
	*tag = buddy_tag(m->mem.buddy, pfn);
	/* a folio's first page is in use: no free list to look it up in, order by order */
	if (!memory_tag_is_folio(*tag) && buddy_free_block_of(m->mem.buddy, pfn, &start, &o)) {
		*order = o;	/* the caller skips to its end */
		return false;
	}
	mo = memory_movable_order(m, *tag);
	*order = mo >= 0 ? (unsigned)mo : 0;
	*movable = mo >= 0 && (unsigned)mo < isolation_limit(cc);
	return true;
}

/* Moves the movable block at pfn, of the order; false when the free scanner met this one. */
static bool migrate_unit(struct model *m, struct compact_control *cc, uint64_t pfn,
			 unsigned order, uint32_t tag)
{
	uint64_t target = free_target(m, cc, order);

	if (target == BUDDY_NO_PFN) {
		cc->met = true;
		return false;
	}
	if (memory_migrate(m, pfn, target, order, tag))
		cc->migrated += 1ull << order;
	return true;
}

/*
 * The movable blocks of [from, to) one after the other, from the heads its pageblock keeps:
 * the scanner's walk block by block finds the same ones in the same order (it reaches every
 * head, a free block or a block in use holding no other) and does nothing at the others.
 * A block moves to a pageblock above the scanner's, so the heads after it stay as they were.
 */
static bool migrate_heads(struct model *m, struct compact_control *cc, uint64_t from,
			  uint64_t to)
{
	unsigned limit = isolation_limit(cc);

	for (uint64_t pfn = buddy_next_head(m->mem.buddy, from, to, limit); pfn < to;) {
		uint32_t tag = buddy_tag(m->mem.buddy, pfn);
		unsigned order = (unsigned)memory_movable_order(m, tag);

		if (!migrate_unit(m, cc, pfn, order, tag))
			return false;
		pfn = buddy_next_head(m->mem.buddy, pfn + (1ull << order), to, limit);
	}
	return true;
}

/*
 * The walk block by block: the first movable block in use at or after pfn, below to (to when
 * none), its order in *order and its tag in *tag
 */
static uint64_t next_movable_unit(struct model *m, const struct compact_control *cc, uint64_t pfn,
				  uint64_t to, unsigned *order, uint32_t *tag)
{
	while (pfn < to) {
		bool movable;

		if (!used_unit(m, cc, pfn, order, &movable, tag)) {
			pfn = (pfn & ~((1ull << *order) - 1)) + (1ull << *order);
			continue;
		}
		if (movable)
			return pfn;
		pfn += 1ull << *order;
	}
	return to;
}

#ifdef FT_EXPENSIVE_CHECKS
/* The heads kept name the blocks the walk block by block would move, and no other. */
static void check_heads(struct model *m, const struct compact_control *cc, uint64_t from,
			uint64_t to)
{
	uint64_t next = buddy_next_head(m->mem.buddy, from, to, isolation_limit(cc));
	unsigned order;
	uint32_t tag;

	for (uint64_t pfn = next_movable_unit(m, cc, from, to, &order, &tag); pfn < to;
	     pfn = next_movable_unit(m, cc, pfn + (1ull << order), to, &order, &tag)) {
		if (next != pfn)
			abort();
		next = buddy_next_head(m->mem.buddy, pfn + 1, to, isolation_limit(cc));
	}
	if (next != to)
		abort();
}
#endif

/* Moves every movable block of [from, to); false when the free scanner met this one. */
static bool migrate_range(struct model *m, struct compact_control *cc, uint64_t from,
			  uint64_t to, bool heads)
{
	unsigned order;
	uint32_t tag;

	if (heads) {
#ifdef FT_EXPENSIVE_CHECKS
		check_heads(m, cc, from, to);
#endif
		return migrate_heads(m, cc, from, to);
	}
	for (uint64_t pfn = next_movable_unit(m, cc, from, to, &order, &tag); pfn < to;
	     pfn = next_movable_unit(m, cc, pfn + (1ull << order), to, &order, &tag))
		if (!migrate_unit(m, cc, pfn, order, tag))
			return false;
	return true;
}

/* Does [from, to) hold a page that cannot move? */
static bool range_pinned(struct model *m, const struct compact_control *cc, uint64_t from,
			 uint64_t to)
{
	for (uint64_t pfn = from; pfn < to;) {
		unsigned order;
		bool movable;
		uint32_t tag;

		if (!used_unit(m, cc, pfn, &order, &movable, &tag)) {
			pfn = (pfn & ~((1ull << order) - 1)) + (1ull << order);
			continue;
		}
		if (!movable)
			return true;
		pfn += 1ull << order;
	}
	return false;
}

/* isolate_migratepages() and the migration of what it took, for one pageblock. */
static void migrate_pageblock(struct model *m, struct compact_control *cc)
{
	uint64_t from = cc->migrate_pfn, to = from + PAGEBLOCK_PAGES;
	uint64_t chunk = PAGEBLOCK_PAGES;
	bool heads;

	if (to > m->mem.nr_pages)
		to = m->mem.nr_pages;
	if (from >= cc->free_pfn) {
		cc->met = true;
		return;
	}
	cc->migrate_pfn = to;
	/* suitable_migration_source(): async direct compaction keeps to MOVABLE pageblocks */
	if (cc->async && buddy_pageblock_type(m->mem.buddy, from) != MT_MOVABLE)
		return;
	cc->migrate_scanned += to - from;
	if (!buddy_pageblock_used(m->mem.buddy, from, MT_MOVABLE))
		return;		/* nothing to isolate */
	heads = memory_track_heads(m, from);
	if (cc->async && cc->order < PAGEBLOCK_ORDER)
		chunk = 1ull << cc->order;
	for (uint64_t c = from; c < to; c += chunk) {
		uint64_t end = c + chunk < to ? c + chunk : to;

		/* skip_on_failure: a block of the order that cannot be freed is not touched */
		if (cc->async && range_pinned(m, cc, c, end))
			continue;
		if (!migrate_range(m, cc, c, end, heads))
			return;
	}
}

/* compact_zone() */
static enum compact_result compact_zone(struct model *m, struct compact_control *cc)
{
	struct zone *z = &m->mem.zone;
	bool sync = !cc->async;
	enum compact_result ret;

	if (!cc->proactive) {
		ret = suit_allocation_order(m, cc->order, z->wmark_min);
		if (ret != COMPACT_CONTINUE)
			return ret;
	}
	if (cc->proactive) {
		cc->migrate_pfn = 0;
		cc->free_pfn = pb_start(m->mem.nr_pages - 1);
		cc->whole_zone = true;
	} else {
		cc->migrate_pfn = z->cached_migrate_pfn[sync];
		cc->free_pfn = z->cached_free_pfn;
		if (cc->free_pfn >= m->mem.nr_pages)
			cc->free_pfn = z->cached_free_pfn = pb_start(m->mem.nr_pages - 1);
		cc->whole_zone = cc->migrate_pfn == 0;
	}
	while ((ret = compact_finished(m, cc)) == COMPACT_CONTINUE) {
		migrate_pageblock(m, cc);
		if (!cc->proactive && !cc->met) {
			/* update_cached_migrate(), and the free scanner's place */
			if (cc->migrate_pfn > z->cached_migrate_pfn[sync])
				z->cached_migrate_pfn[sync] = cc->migrate_pfn;
			if (cc->free_pfn < z->cached_free_pfn)
				z->cached_free_pfn = cc->free_pfn;
		}
	}
	m->mx.compact_migrate_scanned += cc->migrate_scanned;
	m->mx.compact_free_scanned += cc->free_scanned;
	m->mx.compact_migrated += cc->migrated;
	return ret;
}

/* ---- the callers ------------------------------------------------------------------------ */

/*
 * __alloc_pages_direct_compact() with try_to_compact_pages() (6.18): MIGRATE_ASYNC at
 * INIT_COMPACT_PRIORITY (async), else MIGRATE_SYNC_LIGHT. *rc: what compaction said, for the
 * slow path's __GFP_NORETRY check (COMPACT_SKIPPED, COMPACT_DEFERRED: it did not run).
 */
uint64_t compact_direct(struct model *m, unsigned order, bool async, enum compact_result *rc)
{
	struct compact_control cc = { .order = order, .async = async };
	uint64_t pfn;

	*rc = COMPACT_SKIPPED;
	if (!order)
		return BUDDY_NO_PFN;
	if (compaction_deferred(&m->mem.zone, order)) {
		*rc = COMPACT_DEFERRED;
	} else {
		*rc = compact_zone(m, &cc);
		if (*rc == COMPACT_SUCCESS)
			compaction_defer_reset(&m->mem.zone, order, false);
		else if (!async && (*rc == COMPACT_COMPLETE || *rc == COMPACT_PARTIAL_SKIPPED))
			defer_compaction(&m->mem.zone, order);
	}
	/* the kernel counts a stall, and tries the free lists, after a deferred run too */
	if (*rc == COMPACT_SKIPPED)
		return BUDDY_NO_PFN;
	m->mx.compact_stall++;
	pfn = buddy_alloc(m->mem.buddy, order);
	if (pfn != BUDDY_NO_PFN) {
		compaction_defer_reset(&m->mem.zone, order, true);
		m->mx.compact_success++;
	} else {
		m->mx.compact_fail++;
	}
	return pfn;
}

/*
 * compaction_ready() (mm/vmscan.c): direct reclaim for an order above
 * PAGE_ALLOC_COSTLY_ORDER leaves the zone alone when the allocation could succeed or
 * compaction could run with the high watermark plus compact_gap() free.
 */
bool compaction_ready(const struct model *m, unsigned order)
{
	const struct zone *z = &m->mem.zone;

	if (zone_watermark_ok(m, order, z->wmark_min))
		return true;
	if (!compaction_suitable(m, order))
		return false;
	return zone_watermark_ok(m, 0, z->wmark_high + (2ull << order));
}

void wakeup_kcompactd(struct model *m, unsigned order)
{
	if (order && m->mem.zone.kcompactd_order < order)
		m->mem.zone.kcompactd_order = order;
}

static void kcompactd_count(struct model *m, const struct compact_control *cc)
{
	m->mx.compact_daemon_migrate_scanned += cc->migrate_scanned;
	m->mx.compact_daemon_free_scanned += cc->free_scanned;
	m->mx.compact_daemon_migrated += cc->migrated;
}

/* kcompactd_do_work() for the order it was woken for */
static void kcompactd_do_work(struct model *m)
{
	struct compact_control cc = { .order = m->mem.zone.kcompactd_order };
	enum compact_result status;

	m->mem.zone.kcompactd_order = 0;
	m->mx.compact_daemon_wake++;
	if (compaction_deferred(&m->mem.zone, cc.order) ||
	    suit_allocation_order(m, cc.order, m->mem.zone.wmark_min) != COMPACT_CONTINUE)
		return;
	status = compact_zone(m, &cc);
	if (status == COMPACT_SUCCESS)
		compaction_defer_reset(&m->mem.zone, cc.order, false);
	else if (status == COMPACT_PARTIAL_SKIPPED || status == COMPACT_COMPLETE)
		defer_compaction(&m->mem.zone, cc.order);
	kcompactd_count(m, &cc);
}

/*
 * compact_node(proactive) when should_proactive_compact_node() says so; the next check is
 * 64 periods away when the score did not go down. The period to wait next.
 */
static uint64_t kcompactd_proactive(struct model *m)
{
	struct compact_control cc = { .order = COMPACT_ORDER_ANY, .proactive = true };
	unsigned prev = fragmentation_score(m);

	if (prev <= score_wmark(m, false))
		return HPAGE_FRAG_CHECK_INTERVAL_NS;
	m->mx.compact_proactive++;
	compact_zone(m, &cc);
	kcompactd_count(m, &cc);
	if (fragmentation_score(m) >= prev)
		return HPAGE_FRAG_CHECK_INTERVAL_NS << COMPACT_MAX_DEFER_SHIFT;
	return HPAGE_FRAG_CHECK_INTERVAL_NS;
}

/*
 * kcompactd(): woken, it does the order's work and starts its timeout anew; else every
 * timeout it checks the score. The model runs it when an allocation comes by.
 */
void kcompactd_run(struct model *m)
{
	struct zone *z = &m->mem.zone;

	if (z->kcompactd_order) {
		kcompactd_do_work(m);
		z->next_proactive = m->now + HPAGE_FRAG_CHECK_INTERVAL_NS;
		return;
	}
	if (!m->cfg.compaction_proactiveness || m->now < z->next_proactive)
		return;
	/*
	 * should_proactive_compact_node(): not while kswapd runs (here: free pages below the high
	 * watermark), and a zone without watermarks is a budget the cache fills: never.
	 */
	if (!z->watermarks || buddy_free_pages(m->mem.buddy) < z->wmark_high) {
		z->next_proactive = m->now + HPAGE_FRAG_CHECK_INTERVAL_NS;
		return;
	}
	z->next_proactive = m->now + kcompactd_proactive(m);
}
