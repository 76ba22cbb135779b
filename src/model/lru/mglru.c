// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The multi-generational LRU for file folios (CONFIG_LRU_GEN, on by default in Debian's 6.12
 * and in the Android and Fedora lineages), as 6.12's sources have it:
 * - a new folio joins the second oldest generation, or the oldest while there are only
 *   three (include/linux/mm_inline.h lru_gen_add_folio()); one reclaim keeps for writeback
 *   joins the second youngest, one reclaim saw used the youngest;
 * - a read counts an access in the folio's flags: PG_referenced, then PG_workingset, then
 *   two more bits (mm/swap.c folio_inc_refs()); the accesses make its tier,
 *   order_base_2(refs + 1) (lru_tier_from_refs());
 * - eviction scans the oldest generation's tail: a folio whose tier the PID controller
 *   protects moves to the next generation with its count cleared (mm/vmscan.c sort_folio(),
 *   folio_inc_gen(), get_tier_idx(): a tier is protected while its refaults per eviction stay
 *   above tier 0's, at twice the gain); the others are isolated (isolate_folio()) and
 *   shrink_folio_list() treats them as for the two lists (reclaim.c);
 * - it goes by batches (evict_folios()): the protected tiers are chosen once for a batch,
 *   which ends with MIN_LRU_BATCH pages isolated or the oldest generation scanned to its end
 *   (scan_folios()); a limit reclaim takes the batch whole though its goal is smaller
 *   (memcg.c): 6.12's charge over memory.max evicts 64 pages at a time, as a cgroup's
 *   mm_vmscan_lru_shrink_inactive events show;
 * - the oldest generation emptied, min_seq moves on (try_to_inc_min_seq()); with only two
 *   generations left, aging opens a new youngest one (inc_max_seq());
 * - the shadow of an evicted folio keeps min_seq and its accesses (lru_gen_eviction()); a
 *   refault while min_seq is still the same is counted in its tier and, with three accesses
 *   or more, comes back with them all (mm/workingset.c lru_gen_refault()).
 * Left out: the page table walk of aging (a mapped folio's young bit is seen when reclaim
 * meets it, as lru_gen_look_around() does), aging at lower priorities when the generations
 * are uneven (should_run_aging()), lru_gen_in_fault() (faults refault as reads do) and
 * min_ttl_ms. 6.1 counts a refault in workingset_refault_file only while it is recent.
 */
#include "model/lru/kind.h"

#define TOKEN_SEQ_SHIFT		(1 + LRU_REFS_WIDTH)
#define TOKEN_SEQ_MASK		((1ull << (64 - SHADOW_TOKEN_SHIFT - TOKEN_SEQ_SHIFT)) - 1)
#define REFS_MAX		((1u << LRU_REFS_WIDTH) - 1)

static struct lru_list *gen_list(struct lruvec *lruvec, uint64_t seq)
{
	return &lruvec->lru.lists[seq % MAX_NR_GENS];
}

static uint64_t nr_gens(const struct lru_gen *g)
{
	return g->max_seq - g->min_seq + 1;
}

/* folio_lru_refs(): the accesses beyond PG_referenced */
static unsigned folio_lru_refs(const struct folio *f)
{
	return f->refs + (folio_test(f, FOLIO_WORKINGSET) ? 1 : 0);
}

/* lru_tier_from_refs(): order_base_2(refs + 1) */
static unsigned tier_from_refs(unsigned refs)
{
	return refs ? 32u - (unsigned)__builtin_clz(refs) : 0;
}

/* lru_gen_add_folio(); reclaiming: at the oldest generation's tail, to be reclaimed first */
static void gen_add(struct model *m, struct lruvec *lruvec, uint32_t id, bool reclaiming)
{
	struct lru_gen *g = &lruvec->gen;
	struct folio *f = folio_at(&m->pool, id);
	struct lru_list *list;
	uint64_t seq;

	if (folio_test(f, FOLIO_ACTIVE))
		seq = g->max_seq;
	else if (folio_test_reclaim(m, f) && (f->flags & (FOLIO_DIRTY | FOLIO_WRITEBACK)))
		seq = g->max_seq - 1;
	else if (reclaiming || g->min_seq + MIN_NR_GENS >= g->max_seq)
		seq = g->min_seq;
	else
		seq = g->min_seq + 1;
	if (folio_test(f, FOLIO_ACTIVE)) {
		f->refs = 0;
		folio_clear(f, FOLIO_REFERENCED | FOLIO_ACTIVE);
	}
	f->gen = seq % MAX_NR_GENS;
	list = gen_list(lruvec, seq);
	if (reclaiming)
		lru_list_push_tail(&lruvec->lru, list, id);
	else
		lru_list_push_head(&lruvec->lru, list, id);
}

static void gen_del(struct model *m, struct lruvec *lruvec, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);

	lru_list_unlink(&lruvec->lru, &lruvec->lru.lists[f->gen], id);
}

/* active: lru_gen_refault() gave it all its accesses back (PG_workingset and the refs) */
static void mglru_add(struct model *m, struct lruvec *lruvec, uint32_t id, bool active)
{
	struct folio *f = folio_at(&m->pool, id);

	if (active) {
		folio_set(f, FOLIO_WORKINGSET);
		f->refs = REFS_MAX;
	}
	gen_add(m, lruvec, id, false);
}

/* folio_mark_accessed() with lru_gen_enabled(): folio_inc_refs() */
static void mglru_read(struct model *m, struct lruvec *lruvec, uint32_t id, bool again)
{
	struct folio *f = folio_at(&m->pool, id);

	if (again)
		return;
	if (!folio_test(f, FOLIO_REFERENCED))
		folio_set(f, FOLIO_REFERENCED);
	else if (!folio_test(f, FOLIO_WORKINGSET))
		folio_set(f, FOLIO_WORKINGSET);
	else if (f->refs < REFS_MAX)
		f->refs++;
}

static void mglru_mapped(struct model *m, struct lruvec *lruvec, uint32_t id)
{
	folio_set(folio_at(&m->pool, id), FOLIO_YOUNG);
}

static bool mglru_read_changes_nothing(const struct model *m, uint32_t id)
{
	const struct folio *f = folio_at(&m->pool, id);
	const unsigned both = FOLIO_REFERENCED | FOLIO_WORKINGSET;

	return (f->flags & both) == both && f->refs == REFS_MAX;
}

/*
 * evict_folios() puts back what shrink_folio_list() kept: for writeback (PG_reclaim, dirty
 * or under writeback) with its PG_referenced restored; anything else it saw used or could
 * not free goes to the youngest generation, its accesses cleared.
 */
static void mglru_putback(struct model *m, struct lruvec *lruvec, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);

	gen_del(m, lruvec, id);
	if (folio_test_reclaim(m, f) && (f->flags & (FOLIO_DIRTY | FOLIO_WRITEBACK))) {
		if (folio_test(f, FOLIO_WORKINGSET))
			folio_set(f, FOLIO_REFERENCED);
	} else {
		f->refs = 0;
		folio_clear(f, FOLIO_REFERENCED | FOLIO_WORKINGSET);
		folio_set(f, FOLIO_ACTIVE);
	}
	gen_add(m, lruvec, id, false);
}

/* folio_rotate_reclaimable() -> lru_move_tail(): the oldest generation's tail */
static void mglru_rotate(struct model *m, struct lruvec *lruvec, uint32_t id)
{
	gen_del(m, lruvec, id);
	folio_clear(folio_at(&m->pool, id), FOLIO_ACTIVE);
	gen_add(m, lruvec, id, true);
}

/* ---- the PID controller --------------------------------------------------------------- */

struct ctrl_pos {
	uint64_t refaulted, total, gain;
};

static void read_ctrl_pos(const struct lru_gen *g, unsigned tier, unsigned gain,
			  struct ctrl_pos *pos)
{
	unsigned hist = (unsigned)(g->min_seq % MAX_NR_GENS);

	pos->refaulted = g->avg_refaulted[tier] + g->refaulted[hist][tier];
	pos->total = g->avg_total[tier] + g->evicted[hist][tier];
	if (tier)
		pos->total += g->protected[hist][tier - 1];
	pos->gain = gain;
}

/* positive_ctrl_err(): few refaults, or fewer per eviction than the set point */
static bool positive_ctrl_err(const struct ctrl_pos *sp, const struct ctrl_pos *pv)
{
	return pv->refaulted < MIN_LRU_BATCH ||
	       pv->refaulted * (sp->total + MIN_LRU_BATCH) * sp->gain <=
	       (sp->refaulted + 1) * pv->total * pv->gain;
}

/* get_tier_idx(): tiers above it are protected */
static unsigned get_tier_idx(const struct lru_gen *g)
{
	struct ctrl_pos sp, pv;
	unsigned tier;

	read_ctrl_pos(g, 0, 1, &sp);
	for (tier = 1; tier < MAX_NR_TIERS; tier++) {
		read_ctrl_pos(g, tier, 2, &pv);
		if (!positive_ctrl_err(&sp, &pv))
			break;
	}
	return tier - 1;
}

/*
 * reset_ctrl_pos(): carryover (min_seq moves on) halves the running averages into the
 * oldest slot's counts; otherwise (max_seq moves on) the slot the new generation will use
 * starts empty.
 */
static void reset_ctrl_pos(struct lru_gen *g, bool carryover)
{
	unsigned hist = (unsigned)((carryover ? g->min_seq : g->max_seq + 1) % MAX_NR_GENS);

	for (unsigned tier = 0; tier < MAX_NR_TIERS; tier++) {
		if (carryover) {
			g->avg_refaulted[tier] = (g->avg_refaulted[tier] + g->refaulted[hist][tier]) / 2;
			g->avg_total[tier] = (g->avg_total[tier] + g->evicted[hist][tier] +
					      (tier ? g->protected[hist][tier - 1] : 0)) / 2;
		} else {
			g->refaulted[hist][tier] = g->evicted[hist][tier] = 0;
			if (tier)
				g->protected[hist][tier - 1] = 0;
		}
	}
}

/* ---- generations ------------------------------------------------------------------------ */

/* folio_inc_gen(): to the generation after the oldest, its accesses cleared */
static void folio_inc_gen(struct model *m, struct lruvec *lruvec, uint32_t id)
{
	struct folio *f = folio_at(&m->pool, id);

	lru_list_unlink(&lruvec->lru, &lruvec->lru.lists[f->gen], id);
	f->refs = 0;
	folio_clear(f, FOLIO_REFERENCED | FOLIO_WORKINGSET);
	f->gen = (lruvec->gen.min_seq + 1) % MAX_NR_GENS;
	lru_list_push_tail(&lruvec->lru, &lruvec->lru.lists[f->gen], id);
}

/* scan_folios() stops at the end of the oldest generation: so does its batch */
static void batch_end(struct lru_gen *g)
{
	g->batch_left = 0;
}

/* isolate_folios(): a batch chooses the tiers it protects when it begins */
static void batch_begin(struct lru_gen *g)
{
	if (g->batch_left)
		return;
	g->batch_tier_idx = get_tier_idx(g);
	g->batch_left = MIN_LRU_BATCH;
}

/* isolate_folio() took the folio: scan_folios() counts the pages to MIN_LRU_BATCH */
static void batch_isolated(struct lru_gen *g, uint64_t nr)
{
	g->batch_left -= nr < g->batch_left ? nr : g->batch_left;
}

static bool mglru_reclaim_batch_open(const struct lruvec *lruvec)
{
	return lruvec->gen.batch_left != 0;
}

/* try_to_inc_min_seq(): past the empty oldest generations, keeping MIN_NR_GENS */
static bool try_to_inc_min_seq(struct model *m, struct lruvec *lruvec)
{
	struct lru_gen *g = &lruvec->gen;
	uint64_t seq = g->min_seq;

	while (seq + MIN_NR_GENS <= g->max_seq && !gen_list(lruvec, seq)->entries)
		seq++;
	if (seq == g->min_seq)
		return false;
	reset_ctrl_pos(g, true);
	g->min_seq = seq;
	return true;
}

/* inc_max_seq(): a new youngest generation; with MAX_NR_GENS, the oldest merged forward */
static void inc_max_seq(struct model *m, struct lruvec *lruvec)
{
	struct lru_gen *g = &lruvec->gen;

	if (nr_gens(g) == MAX_NR_GENS) {
		struct lru_list *oldest = gen_list(lruvec, g->min_seq);

		while (oldest->tail != FOLIO_NIL)
			folio_inc_gen(m, lruvec, oldest->tail);
		reset_ctrl_pos(g, true);
		g->min_seq++;
	}
	reset_ctrl_pos(g, false);
	g->max_seq++;
}

/* ---- eviction ------------------------------------------------------------------------------ */

/*
 * The next folio evict_folios() isolates from the oldest generation: sort_folio() moves the
 * protected ones on first; isolate_folio() clears the accesses of one not referenced since
 * and PG_referenced, for shrink_folio_list(). FOLIO_NIL: the lruvec is empty.
 */
static uint32_t mglru_reclaim_next(struct model *m, struct lruvec *lruvec)
{
	struct lru_gen *g = &lruvec->gen;

	for (;;) {
		struct lru_list *oldest = gen_list(lruvec, g->min_seq);
		struct folio *f;
		unsigned refs, tier;
		uint32_t id;

		if (!lru_entries(&lruvec->lru))
			return FOLIO_NIL;
		if (oldest->tail == FOLIO_NIL) {
			batch_end(g);
			if (!try_to_inc_min_seq(m, lruvec))
				inc_max_seq(m, lruvec);
			continue;
		}
		/* scan_folios() takes nothing with MIN_NR_GENS left: aging first */
		if (nr_gens(g) <= MIN_NR_GENS) {
			batch_end(g);
			inc_max_seq(m, lruvec);
			continue;
		}
		batch_begin(g);
		id = oldest->tail;
		f = folio_at(&m->pool, id);
		refs = folio_lru_refs(f);
		tier = tier_from_refs(refs);
		if (tier > g->batch_tier_idx || refs == 1u << LRU_REFS_WIDTH) {
			g->protected[g->min_seq % MAX_NR_GENS][tier - 1] += folio_nr_pages(f);
			g->promoted += folio_nr_pages(f);
			folio_inc_gen(m, lruvec, id);
			continue;
		}
		if (!folio_test(f, FOLIO_REFERENCED))
			f->refs = 0;
		folio_clear(f, FOLIO_REFERENCED);
		batch_isolated(g, folio_nr_pages(f));
		return id;
	}
}

/* mglru_reclaim_next() ages by itself: nothing is left once it gives none */
static bool mglru_reclaim_refill(struct model *m, struct lruvec *lruvec)
{
	(void)m;
	return false;
}

/* lru_gen_eviction(): the token min_seq and the accesses, counted as evicted in its tier */
static uint64_t mglru_eviction(struct model *m, struct lruvec *lruvec, uint32_t id)
{
	struct lru_gen *g = &lruvec->gen;
	const struct folio *f = folio_at(&m->pool, id);
	unsigned refs = folio_lru_refs(f);

	g->evicted[g->min_seq % MAX_NR_GENS][tier_from_refs(refs)] += folio_nr_pages(f);
	return (g->min_seq & TOKEN_SEQ_MASK) << TOKEN_SEQ_SHIFT |
	       (uint64_t)(refs ? refs - 1 : 0) << 1 | (refs ? 1 : 0);
}

/*
 * lru_gen_refault(): recent while min_seq has not moved since the eviction; a folio another
 * cgroup evicted is no refault of this one's (lruvec != folio_lruvec(folio); 6.1 compares the ids)
 */
static unsigned mglru_refault(struct model *m, struct lruvec *evicted, struct lruvec *lruvec,
			      uint64_t eviction, unsigned order)
{
	struct lru_gen *g = &lruvec->gen;
	uint64_t token = shadow_token(eviction);
	unsigned refs = (unsigned)((token >> 1) & REFS_MAX) + (unsigned)(token & 1);

	if (evicted != lruvec)
		return LRU_REFAULT_UNCOUNTED;
	if ((token >> TOKEN_SEQ_SHIFT) != (g->min_seq & TOKEN_SEQ_MASK))
		return 0;
	g->refaulted[g->min_seq % MAX_NR_GENS][tier_from_refs(refs)] += 1ull << order;
	return LRU_REFAULT_ACTIVATE | (refs >= REFS_MAX ? LRU_REFAULT_ADD_ACTIVE : 0);
}

/* lru_gen_is_active(): the two youngest generations count as active, the rest inactive */
static void mglru_inactive(const struct model *m, const struct lruvec *lruvec, uint64_t *entries, uint64_t *pages)
{
	const struct lru_gen *g = &lruvec->gen;
	const struct lru *l = &lruvec->lru;

	*entries = *pages = 0;
	for (uint64_t seq = g->min_seq; seq + 1 < g->max_seq; seq++) {
		*entries += l->lists[seq % MAX_NR_GENS].entries;
		*pages += l->lists[seq % MAX_NR_GENS].pages;
	}
}

/* The generations from max_seq down to min_seq, the youngest first. */
static void mglru_generations(const struct lruvec *lruvec, uint64_t pages[MODEL_LRU_GENS])
{
	const struct lru_gen *g = &lruvec->gen;

	for (uint64_t age = 0; age <= g->max_seq - g->min_seq && age < MODEL_LRU_GENS; age++)
		pages[age] += lruvec->lru.lists[(g->max_seq - age) % MAX_NR_GENS].pages;
}

const struct lru_policy lru_mglru = {
	.v = {
		.name = "mglru",
		.help = "generations and tiers as lru_gen (CONFIG_LRU_GEN)",
		.kernel = "mm/vmscan.c lru_gen: sort_folio(), evict_folios(), inc_max_seq(); "
			  "mm/workingset.c lru_gen_refault() (6.12)",
	},
	.reclaim_next = mglru_reclaim_next,
	.reclaim_refill = mglru_reclaim_refill,
	.reclaim_batch_open = mglru_reclaim_batch_open,
	.read = mglru_read,
	.mapped = mglru_mapped,
	.read_changes_nothing = mglru_read_changes_nothing,
	.refault = mglru_refault,
	.add = mglru_add,
	.del = gen_del,
	.activate = mglru_putback,
	.keep = mglru_putback,
	.rotate = mglru_rotate,
	.eviction = mglru_eviction,
	.generations = mglru_generations,
	.inactive = mglru_inactive,
};
