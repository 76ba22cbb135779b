/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The lruvec as the rest of the model moves folios on it: each call goes to the LRU kind's
 * own operation where it has one (variants.h struct lru_policy), else to the two lists of
 * lru.c, which the two-list and plain kinds share.
 */
#ifndef FT_MODEL_LRU_KIND_H
#define FT_MODEL_LRU_KIND_H

#include "model/instance.h"

/* The memory cgroup a folio is charged to (its inserter's), and its lruvec. */
static inline struct mem_cgroup *folio_memcg(struct model *m, const struct folio *f)
{
	return memcg_of(m, f->memcg);
}

static inline struct lruvec *folio_lruvec(struct model *m, uint32_t id)
{
	return &folio_memcg(m, folio_at(&m->pool, id))->lruvec;
}

static inline void lruvec_add(struct model *m, uint32_t id, bool active)
{
	struct lruvec *lruvec = folio_lruvec(m, id);

	if (m->lru_kind->add)
		m->lru_kind->add(m, lruvec, id, active);
	else
		lru_add(&lruvec->lru, id, active);
}

static inline void lruvec_del(struct model *m, uint32_t id)
{
	struct lruvec *lruvec = folio_lruvec(m, id);

	if (m->lru_kind->del)
		m->lru_kind->del(m, lruvec, id);
	else
		lru_del(&lruvec->lru, id);
}

/* Reclaim keeps the folio as used (FOLIOREF_ACTIVATE), or under writeback. */
static inline void lruvec_activate(struct model *m, uint32_t id)
{
	struct lruvec *lruvec = folio_lruvec(m, id);

	if (m->lru_kind->activate)
		m->lru_kind->activate(m, lruvec, id);
	else
		lru_activate(&lruvec->lru, id);
}

/* Reclaim spares the folio this time (FOLIOREF_KEEP, or its writeback just started). */
static inline void lruvec_keep(struct model *m, uint32_t id)
{
	struct lruvec *lruvec = folio_lruvec(m, id);

	if (m->lru_kind->keep)
		m->lru_kind->keep(m, lruvec, id);
	else
		lru_rotate_inactive(&lruvec->lru, id);
}

/* folio_rotate_reclaimable(): its writeback ended with PG_reclaim: reclaim it next. */
static inline void lruvec_rotate(struct model *m, uint32_t id)
{
	struct lruvec *lruvec = folio_lruvec(m, id);

	if (m->lru_kind->rotate)
		m->lru_kind->rotate(m, lruvec, id);
	else
		lru_move_inactive_tail(&lruvec->lru, id);
}

/* What the folio's shadow entry keeps beside the nonresident age (shadow_pack()). */
static inline uint64_t lruvec_eviction_token(struct model *m, uint32_t id)
{
	return m->lru_kind->eviction ? m->lru_kind->eviction(m, folio_lruvec(m, id), id) : 0;
}

/* The entries and pages the kernel counts as inactive (MGLRU: all but the two youngest). */
static inline void lruvec_inactive(const struct model *m, const struct lruvec *lruvec,
				   uint64_t *entries, uint64_t *pages)
{
	if (m->lru_kind->inactive) {
		m->lru_kind->inactive(m, lruvec, entries, pages);
	} else {
		*entries = lruvec->lru.inactive.entries;
		*pages = lruvec->lru.inactive.pages;
	}
}

/* The access paths' calls: a read, a mapping, a buffered write of the folio. */
static inline void lruvec_read(struct model *m, uint32_t id, bool again)
{
	m->lru_kind->read(m, folio_lruvec(m, id), id, again);
}

static inline void lruvec_mapped(struct model *m, uint32_t id)
{
	m->lru_kind->mapped(m, folio_lruvec(m, id), id);
}

/*
 * filemap_map_pages() mapped the folio around a fault: it marks nothing accessed, the young
 * bit of its page table entry is what a kernel LRU sees; a kind that sees only the
 * application's own accesses ignores it.
 */
static inline void lruvec_mapped_around(struct model *m, uint32_t id)
{
	if (!m->lru_kind->faults_only)
		lruvec_mapped(m, id);
}

static inline void lruvec_written(struct model *m, uint32_t id)
{
	if (m->lru_kind->written)
		m->lru_kind->written(m, folio_lruvec(m, id), id);
}

#endif /* FT_MODEL_LRU_KIND_H */
