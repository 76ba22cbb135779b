// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The zone at the start (--start-state): empty, or as the recorded kernel had it: its
 * pageblocks by type, their free blocks per order, the rest used by others, and the kernel's
 * watermarks.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/bitmap.h"
#include "model/instance.h"
#include "util/rng.h"

/* ---- the zone at the start ---------------------------------------------------------------- */

static unsigned page_kb(const struct model *m)
{
	return m->cfg.page_size / 1024 ? m->cfg.page_size / 1024 : 1;
}

static uint64_t isqrt(uint64_t x)
{
	uint64_t r = (uint64_t)sqrt((double)x);

	while (r * r > x)
		r--;
	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

/*
 * The kernel's watermarks for a node whose zones the model keeps as one: min_free_kbytes
 * from the memory (raised to khugepaged's recommendation for zones zones with THP), and
 * low/high min + max(min / 4, managed * watermark_scale_factor (10) / 10000) apart.
 */
static void zone_watermarks(struct model *m, unsigned zones)
{
	struct zone *z = &m->mem.zone;
	uint64_t kb = page_kb(m), lowmem_kb = z->pages * kb, min_kb, rec, step;

	min_kb = isqrt(lowmem_kb * 16);
	if (min_kb < 128)
		min_kb = 128;
	if (min_kb > 262144)
		min_kb = 262144;
	/* set_recommended_min_free_kbytes(): 2 + MIGRATE_PCPTYPES^2 pageblocks a zone, <= 5% */
	rec = (uint64_t)PAGEBLOCK_PAGES * zones * (2 + MT_PCPTYPES * MT_PCPTYPES);
	if (rec > z->pages / 20)
		rec = z->pages / 20;
	if (rec * kb > min_kb)
		min_kb = rec * kb;
	z->wmark_min = min_kb / kb;
	step = z->wmark_min / 4;
	if (z->pages * 10 / 10000 > step)
		step = z->pages * 10 / 10000;
	z->wmark_low = z->wmark_min + step;
	z->wmark_high = z->wmark_low + step;
	z->watermarks = true;
}

/* The layout of one pageblock of a recorded state: its type and the free blocks in it. */
struct pb_plan {
	uint8_t mt;
	uint8_t whole;			/* 9: wholly free; 10: half of a free order-10 block */
	uint16_t free_pages;
	uint64_t free_map[PAGEBLOCK_PAGES / 64];	/* pages of free blocks */
	uint64_t keep_map[PAGEBLOCK_PAGES / 64];	/* first pages of free blocks' buddies */
};

static bool pmap_test(const uint64_t *map, unsigned i)
{
	return map[i / 64] >> (i % 64) & 1;
}

static bool pmap_any(const uint64_t *map, unsigned from, unsigned n)
{
	for (unsigned i = from; i < from + n; i++)
		if (pmap_test(map, i))
			return true;
	return false;
}

/*
 * Places a free block of order k in a pageblock where it cannot merge with anything: its
 * buddy's first page stays used, and it covers no page another block needs used. Tries the
 * aligned places from a pseudo-random one on. false when none fits.
 */
static bool plan_place(struct pb_plan *p, unsigned k, uint64_t *rng)
{
	unsigned n = 1u << k, slots = PAGEBLOCK_PAGES >> k;
	unsigned first = (unsigned)ft_splitmix64_below(rng, slots);

	for (unsigned i = 0; i < slots; i++) {
		unsigned s = ((first + i) % slots) << k, b = s ^ n;

		if (pmap_any(p->free_map, s, n) || pmap_any(p->keep_map, s, n) ||
		    pmap_test(p->free_map, b))
			continue;
		bitmap_set_range(p->free_map, s, s + n);
		bitmap_set_range(p->keep_map, b, b + 1);
		p->free_pages = (uint16_t)(p->free_pages + n);
		return true;
	}
	return false;
}

/* A recorded count scaled to a zone of another size. */
static uint64_t scaled(uint64_t v, double scale)
{
	return scale >= 1 ? v : (uint64_t)llround((double)v * scale);
}

/*
 * The pageblocks of the recorded state in a seeded random order, so types and free blocks
 * spread over the zone: free order-10 blocks take an aligned pair of their type, wholly free
 * pageblocks a pair with a used one (two free buddies would merge), used pageblocks the rest.
 */
static void plan_types(struct pb_plan *plan, uint64_t npb, const uint64_t nb[MT_TYPES],
		       const uint64_t f10[MT_TYPES], const uint64_t f9[MT_TYPES], uint64_t *rng)
{
	uint64_t npairs = npb / 2, pair = 0, left[MT_TYPES], nleft = 0, *order;
	uint64_t whole9[MT_TYPES];

	for (unsigned t = 0; t < MT_TYPES; t++) {
		left[t] = nb[t];
		whole9[t] = f9[t];
	}
	order = malloc((npairs ? npairs : 1) * sizeof(*order));
	for (uint64_t i = 0; order && i < npairs; i++)
		order[i] = i;
	/* Fisher-Yates: the pairs in random order */
	for (uint64_t i = npairs; order && i > 1; i--) {
		uint64_t j = ft_splitmix64_below(rng, i), tmp = order[i - 1];

		order[i - 1] = order[j];
		order[j] = tmp;
	}
	for (unsigned t = 0; t < MT_TYPES; t++) {
		for (uint64_t i = 0; i < f10[t] && left[t] >= 2 && pair < npairs; i++, pair++) {
			uint64_t pb = 2 * (order ? order[pair] : pair);

			plan[pb].mt = plan[pb + 1].mt = (uint8_t)t;
			plan[pb].whole = plan[pb + 1].whole = 10;
			left[t] -= 2;
		}
	}
	for (unsigned t = 0; t < MT_TYPES; t++)
		nleft += left[t];
	/* the other pageblocks, types drawn in proportion, wholly free ones apart from each other */
	for (; pair < npairs; pair++) {
		uint64_t pb = 2 * (order ? order[pair] : pair);

		for (unsigned h = 0; h < 2; h++) {
			uint64_t r = nleft ? ft_splitmix64_below(rng, nleft) : 0;
			unsigned t = 0;

			while (t + 1 < MT_TYPES && r >= left[t])
				r -= left[t++];
			if (nleft && left[t])
				left[t]--, nleft--;
			plan[pb + h].mt = (uint8_t)t;
			/* one of the two may be wholly free, never both */
			if (whole9[t] && !(h == 1 && plan[pb].whole == 9)) {
				plan[pb + h].whole = 9;
				whole9[t]--;
			}
		}
	}
	if (npb & 1)		/* an odd last pageblock: used, of the type most left */
		plan[npb - 1].mt = MT_MOVABLE;
	free(order);
}

/* The free blocks below a pageblock of each type, spread round-robin over its pageblocks. */
static void plan_small_blocks(struct pb_plan *plan, uint64_t npb,
			      const uint64_t fr[MT_TYPES][BUDDY_MAX_ORDER + 1], uint64_t *rng)
{
	for (unsigned t = 0; t < MT_TYPES; t++) {
		uint64_t *pbs = malloc((npb ? npb : 1) * sizeof(*pbs)), n = 0, next = 0;

		if (!pbs)
			return;
		for (uint64_t i = 0; i < npb; i++)
			if (plan[i].mt == t && !plan[i].whole)
				pbs[n++] = i;
		for (int k = PAGEBLOCK_ORDER - 1; n && k >= 0; k--) {
			for (uint64_t c = 0; c < fr[t][k]; c++) {
				/* the next pageblock with room for it, at most one lap */
				for (uint64_t tries = 0; tries < n; tries++) {
					struct pb_plan *p = &plan[pbs[next++ % n]];

					if (p->free_pages + (1u << k) < PAGEBLOCK_PAGES &&
					    plan_place(p, (unsigned)k, rng))
						break;
				}
			}
		}
		free(pbs);
	}
}

/*
 * Builds the planned pageblocks in the buddy allocator: every page taken, then the free ones
 * given back one by one; merging rebuilds the planned blocks, which cannot merge further.
 */
static void build_plan(struct model *m, const struct pb_plan *plan, uint64_t npb)
{
	struct buddy *b = m->mem.buddy;

	for (uint64_t i = 0; i < npb; i++) {
		uint64_t pfn = i << PAGEBLOCK_ORDER;

		buddy_take(b, pfn, PAGEBLOCK_ORDER, plan[i].mt);
		buddy_set_pageblock_type(b, pfn, plan[i].mt);
	}
	for (uint64_t i = 0; i < npb; i++) {
		const struct pb_plan *p = &plan[i];
		uint64_t base = i << PAGEBLOCK_ORDER;

		if (p->whole) {
			buddy_free_mt(b, base, PAGEBLOCK_ORDER, p->mt);
			continue;
		}
		for (unsigned s = 0; s < PAGEBLOCK_PAGES; s++) {
			if (pmap_test(p->free_map, s))
				buddy_free_mt(b, base + s, 0, p->mt);
			else if (p->mt == MT_MOVABLE)	/* others' page: movable here */
				buddy_set_tag(b, base + s, BUDDY_TAG_MOVABLE, 0);
		}
	}
}

static uint64_t state_pageblocks(const struct model_zone_state *st)
{
	uint64_t n = 0;

	for (unsigned t = 0; t < MT_TYPES; t++)
		n += st->pageblocks[t];
	return n;
}

/* The zone as recorded, scaled down to npb pageblocks when smaller. */
static bool place_recorded(struct model *m, const struct model_zone_state *st, uint64_t npb)
{
	uint64_t rec = state_pageblocks(st), nb[MT_TYPES], f10[MT_TYPES], f9[MT_TYPES], sum = 0;
	uint64_t fr[MT_TYPES][BUDDY_MAX_ORDER + 1], rng = m->cfg.seed ^ 0x70616765626c6bull;
	double scale = rec > npb ? (double)npb / (double)rec : 1;
	struct pb_plan *plan;

	if (rec < npb)
		npb = rec;
	for (unsigned t = 0; t < MT_TYPES; t++) {
		nb[t] = scaled(st->pageblocks[t], scale);
		sum += nb[t];
		for (unsigned k = 0; k <= BUDDY_MAX_ORDER; k++)
			fr[t][k] = scaled(st->free[t][k], scale);
		f10[t] = fr[t][10];
		f9[t] = fr[t][9];
	}
	/* rounding: the movable type takes up the difference */
	if (sum > npb)
		nb[MT_MOVABLE] -= nb[MT_MOVABLE] > sum - npb ? sum - npb : nb[MT_MOVABLE];
	else
		nb[MT_MOVABLE] += npb - sum;
	plan = calloc(npb ? npb : 1, sizeof(*plan));
	if (!plan)
		return false;
	plan_types(plan, npb, nb, f10, f9, &rng);
	plan_small_blocks(plan, npb, fr, &rng);
	build_plan(m, plan, npb);
	free(plan);
	return true;
}

/*
 * Others' pressure per pageblock (--unmovable-blocks, --reclaimable-blocks): that share of the
 * pageblocks, picked by the seed, takes the type and has block_fill percent of its pages
 * used, pages picked at random (slab and page-table pages are small and scattered).
 */
static void apply_pressure(struct model *m, unsigned mt, double pct, uint64_t *rng)
{
	uint64_t npb = m->mem.nr_pages >> PAGEBLOCK_ORDER, want, cand = npb;
	unsigned fill = (unsigned)llround(m->cfg.block_fill_pct * PAGEBLOCK_PAGES / 100.0);

	want = (uint64_t)llround(pct * (double)npb / 100.0);
	for (uint64_t i = 0; i < npb && want; i++, cand--) {
		uint64_t base = i << PAGEBLOCK_ORDER;
		unsigned left = fill, pages = PAGEBLOCK_PAGES;
		struct buddy_pageblock_usage u;

		if (ft_splitmix64_below(rng, cand) >= want)
			continue;
		buddy_pageblock_usage(m->mem.buddy, base, &u);
		if (u.free < PAGEBLOCK_PAGES || buddy_pageblock_type(m->mem.buddy, base) != MT_MOVABLE)
			continue;	/* taken by the other kind already */
		want--;
		buddy_take(m->mem.buddy, base, PAGEBLOCK_ORDER, mt);
		buddy_set_pageblock_type(m->mem.buddy, base, mt);
		/* give back 512 - fill pages: the used ones are a random subset (Knuth's S) */
		for (unsigned s = 0; s < PAGEBLOCK_PAGES; s++, pages--) {
			if (left && ft_splitmix64_below(rng, pages) < left) {
				left--;
				continue;
			}
			buddy_free_mt(m->mem.buddy, base + s, 0, mt);
		}
	}
}

bool memory_init(struct model *m)
{
	const struct model_config *c = &m->cfg;
	const struct model_zone_state *st = c->start_state == START_RECORDED ? c->start : NULL;
	struct zone *z = &m->mem.zone;
	uint64_t budget = m->mem.nr_pages, rec = 0, rng = c->seed;
	unsigned zones = 1;

	if (st && !(rec = state_pageblocks(st)))
		st = NULL;
	if (st) {
		zones = st->zones ? st->zones : 1;
		/* in a cgroup the zone is the host's, the memory its limit */
		if (c->memcg)
			m->mem.nr_pages = rec << PAGEBLOCK_ORDER;
		else if (rec << PAGEBLOCK_ORDER > m->mem.nr_pages)
			m->mem.nr_pages &= ~(uint64_t)(PAGEBLOCK_PAGES - 1);
	}
	m->mem.buddy = buddy_new(m->mem.nr_pages);
	if (!m->mem.buddy)
		return false;
	z->pages = m->mem.nr_pages;
	if (st) {
		if (!place_recorded(m, st, m->mem.nr_pages >> PAGEBLOCK_ORDER))
			return false;
		z->recorded = true;
		zone_watermarks(m, zones);
		if (c->memcg) {
			memcg_of(m, 0)->max_pages = budget;
			memcg_of(m, 0)->follows_limits = true;
		}
	}
	if (c->pinned_pct > 0)
		buddy_pin_random(m->mem.buddy, c->pinned_pct, c->seed);
	if (c->unmovable_blocks_pct > 0)
		apply_pressure(m, MT_UNMOVABLE, c->unmovable_blocks_pct, &rng);
	if (c->reclaimable_blocks_pct > 0)
		apply_pressure(m, MT_RECLAIMABLE, c->reclaimable_blocks_pct, &rng);
	z->cached_free_pfn = (m->mem.nr_pages - 1) & ~(uint64_t)(PAGEBLOCK_PAGES - 1);
	z->order_failed = BUDDY_MAX_ORDER + 1;
	return true;
}
_Static_assert(MT_TYPES == MODEL_MIGRATETYPES, "the recorded state has the allocator's types");
