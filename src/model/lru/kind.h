/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lruvec as the rest of the model moves folios on it: each call goes to the LRU kind's
 * own operation where it has one (variants.h struct lru_policy), else to the two lists of
 * lru.c, which the two-list and plain kinds share.
 */
#ifndef FT_MODEL_LRU_KIND_H
#define FT_MODEL_LRU_KIND_H

#include "model/instance.h"

static inline void lruvec_add(struct model *m, uint32_t id, bool active)
{
	if (m->lru_kind->add)
		m->lru_kind->add(m, id, active);
	else
		lru_add(&m->lruvec.lru, id, active);
}

static inline void lruvec_del(struct model *m, uint32_t id)
{
	if (m->lru_kind->del)
		m->lru_kind->del(m, id);
	else
		lru_del(&m->lruvec.lru, id);
}

/* Reclaim keeps the folio as used (FOLIOREF_ACTIVATE), or under writeback. */
static inline void lruvec_activate(struct model *m, uint32_t id)
{
	if (m->lru_kind->activate)
		m->lru_kind->activate(m, id);
	else
		lru_activate(&m->lruvec.lru, id);
}

/* Reclaim spares the folio this time (FOLIOREF_KEEP, or its writeback just started). */
static inline void lruvec_keep(struct model *m, uint32_t id)
{
	if (m->lru_kind->keep)
		m->lru_kind->keep(m, id);
	else
		lru_rotate_inactive(&m->lruvec.lru, id);
}

/* folio_rotate_reclaimable(): its writeback ended with PG_reclaim: reclaim it next. */
static inline void lruvec_rotate(struct model *m, uint32_t id)
{
	if (m->lru_kind->rotate)
		m->lru_kind->rotate(m, id);
	else
		lru_move_inactive_tail(&m->lruvec.lru, id);
}

/* What the folio's shadow entry keeps beside the nonresident age (shadow_pack()). */
static inline uint64_t lruvec_eviction_token(struct model *m, uint32_t id)
{
	return m->lru_kind->eviction ? m->lru_kind->eviction(m, id) : 0;
}

/* The entries and pages the kernel counts as inactive (MGLRU: all but the two youngest). */
static inline void lruvec_inactive(const struct model *m, uint64_t *entries, uint64_t *pages)
{
	if (m->lru_kind->inactive) {
		m->lru_kind->inactive(m, entries, pages);
	} else {
		*entries = m->lruvec.lru.inactive.entries;
		*pages = m->lruvec.lru.inactive.pages;
	}
}

#endif /* FT_MODEL_LRU_KIND_H */
