/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LRU lists: one entry per folio, sizes kept in entries and in pages.
 * Two-list mode follows mm/swap.c and mm/vmscan.c: new folios at the inactive head,
 * folio_mark_accessed() promotes on the second access, the active list is shrunk to the
 * inactive head when inactive_is_low(). Plain mode is one strict LRU list (the inactive list
 * alone): every access moves the folio to the head, eviction takes the tail.
 */
#ifndef FT_MODEL_LRU_H
#define FT_MODEL_LRU_H

#include <stdbool.h>
#include <stdint.h>

#include "model/folio.h"

struct lru_list {
	uint32_t head, tail;	/* head: most recently added */
	uint64_t entries, pages;
};

struct lru {
	struct folio_pool *pool;
	struct lru_list inactive, active;
	bool plain;
	unsigned gb_shift;	/* pages -> GiB: 30 - page shift */
	uint64_t ratio_gb, ratio;	/* inactive_is_low() ratio, cached for one size in GiB */
	uint64_t activations, deactivations;
};

void lru_init(struct lru *l, struct folio_pool *pool, bool plain, unsigned page_shift);
/* Insert at the head of the inactive list, or of the active one (workingset refault). */
void lru_add(struct lru *l, uint32_t id, bool active);
void lru_del(struct lru *l, uint32_t id);
void lru_mark_accessed_slow(struct lru *l, uint32_t id);

/*
 * Buffered read of a folio (filemap_read's folio_mark_accessed), or any access in plain mode.
 * Inline for the common hit: an active, referenced folio (two-list) or the head (plain) stays.
 */
static inline void lru_mark_accessed(struct lru *l, uint32_t id)
{
	const struct folio *f = folio_at(l->pool, id);

	if (l->plain ? l->inactive.head == id :
	    (f->flags & (FOLIO_REFERENCED | FOLIO_ACTIVE)) == (FOLIO_REFERENCED | FOLIO_ACTIVE))
		return;
	lru_mark_accessed_slow(l, id);
}
/* Move to the active head (clears nothing else). */
void lru_activate(struct lru *l, uint32_t id);
/* Move to the inactive head, e.g. a referenced-once mapped folio that reclaim keeps. */
void lru_rotate_inactive(struct lru *l, uint32_t id);
/* mm/vmscan.c inactive_is_low() for the file LRU, sizes in pages. */
bool lru_inactive_is_low(struct lru *l);
/* shrink_active_list() for one folio: the active tail to the inactive head. false if empty. */
bool lru_deactivate_tail(struct lru *l);

static inline uint64_t lru_entries(const struct lru *l)
{
	return l->inactive.entries + l->active.entries;
}

static inline uint64_t lru_pages(const struct lru *l)
{
	return l->inactive.pages + l->active.pages;
}

#endif /* FT_MODEL_LRU_H */
