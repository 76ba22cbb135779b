// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Reclaim (mm/vmscan.c shrink_folio_list on the file LRU) and refault detection
 * (mm/workingset.c). Large folios are evicted whole. At the inactive tail:
 * - a folio seen young through a mapping is kept (referenced set, back to the inactive head)
 *   the first time and activated the second, as folio_check_references() does;
 * - PG_referenced alone does not save an unmapped folio;
 * - a dirty folio is counted (reclaim_dirty_folios) and handled as the release's dirty reclaim
 *   says (variants.h: written by reclaim and evicted, or left to the flusher).
 * LRU kinds without young bits (plain) never have FOLIO_YOUNG set.
 */
#include "model/instance.h"

void reclaim_evict(struct model *m, uint32_t id)
{
	cache_remove(m, id, true);
}

bool reclaim_one(struct model *m)
{
	struct lru *l = &m->lru;

	for (;;) {
		uint32_t id;
		struct folio *f;

		while (lru_inactive_is_low(l))
			lru_deactivate_tail(l);
		id = l->inactive.tail;
		if (id == FOLIO_NIL) {
			if (!lru_deactivate_tail(l))
				return false;
			continue;
		}
		f = folio_at(&m->pool, id);
		if (folio_test(f, FOLIO_YOUNG)) {
			folio_clear(f, FOLIO_YOUNG);
			if (folio_test(f, FOLIO_REFERENCED)) {
				lru_activate(l, id);
			} else {
				folio_set(f, FOLIO_REFERENCED);
				lru_rotate_inactive(l, id);
			}
			continue;
		}
		if (folio_test(f, FOLIO_DIRTY)) {
			m->mx.reclaim_dirty_folios++;
			if (!m->dirty_reclaim->tail_folio(m, id))
				continue;
		}
		reclaim_evict(m, id);
		return true;
	}
}

bool reclaim_until_free(struct model *m, uint64_t pages)
{
	while (buddy_free_pages(m->buddy) < pages)
		if (!reclaim_one(m))
			return false;
	return true;
}

/*
 * The kernel keeps an evicted large folio's shadow in one multi-index entry over all its
 * indices; a smaller folio added inside splits it (xas_split) and the other indices keep the
 * shadow. Here: the pieces of [start, start + 2^o) around the new folio's range are stored
 * again, aligned power-of-two blocks with the same eviction age.
 */
static void shadow_split_around(struct model *m, uint32_t file, uint64_t start, unsigned o,
				uint64_t idx, unsigned order, uint64_t eviction)
{
	struct mfile *mf = model_file(m, file);

	while (o > order) {
		uint64_t half = 1ull << --o;
		uint64_t other = (idx & half) ? start : start + half;

		shadow_store(&m->shadow, file, mf->gen, other, o, eviction);
		mf->shadow_mask |= (uint16_t)(1u << o);
		if (idx & half)
			start += half;
	}
}

/*
 * Counted in pages of the new folio, as workingset_refault() adds folio_nr_pages() to
 * workingset_refault_file and workingset_activate_file; the folio counts are kept beside.
 */
bool workingset_refault(struct model *m, uint32_t file, uint64_t idx, unsigned order)
{
	struct mfile *mf = model_file(m, file);
	unsigned mask = mf->shadow_mask;
	uint64_t eviction, nr = 1ull << order;

	while (mask) {
		unsigned o = 31u - (unsigned)__builtin_clz(mask);
		uint64_t start = idx & ~((1ull << o) - 1);

		mask &= ~(1u << o);
		if (!shadow_take(&m->shadow, file, mf->gen, start, o, &eviction))
			continue;
		if (o > order)
			shadow_split_around(m, file, start, o, idx, order, eviction);
		m->mx.refaults += nr;
		m->mx.refault_folios++;
		if (m->lru_kind->refault_activates && m->lru_kind->refault_activates(m, eviction)) {
			m->mx.refault_activations += nr;
			m->mx.refault_activation_folios++;
			m->nonresident_age += nr;
			return true;
		}
		return false;
	}
	return false;
}
