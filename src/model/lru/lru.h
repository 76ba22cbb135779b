/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The LRU lists: one entry per folio, sizes kept in entries and in pages. New folios go to the
 * inactive head (or the active one), reclaim takes the inactive tail, and the active list is
 * shrunk to the inactive head when inactive_is_low() (mm/vmscan.c). How accesses move folios
 * between them is the LRU kind's (two_list.c, plain.c: variants.h).
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

/* lists: the two-list kinds use inactive and active; MGLRU one per generation (mglru.c) */
#define LRU_NR_LISTS	4

struct lru {
	struct folio_pool *pool;
	union {
		struct lru_list lists[LRU_NR_LISTS];
		struct {
			struct lru_list inactive, active;
		};
	};
	unsigned gb_shift;	/* pages -> GiB: 30 - page shift */
	uint64_t ratio_gb, ratio;	/* inactive_is_low() ratio, cached for one size in GiB */
	uint64_t activations, deactivations;
};

void lru_init(struct lru *l, struct folio_pool *pool, unsigned page_shift);
/* A list's own head and tail, for kinds that keep lists of their own (mglru.c). */
void lru_list_push_head(struct lru *l, struct lru_list *list, uint32_t id);
void lru_list_push_tail(struct lru *l, struct lru_list *list, uint32_t id);
void lru_list_unlink(struct lru *l, struct lru_list *list, uint32_t id);
/* Insert at the head of the inactive list, or of the active one (workingset refault). */
void lru_add(struct lru *l, uint32_t id, bool active);
void lru_del(struct lru *l, uint32_t id);
/* Move to the active head (clears nothing else). */
void lru_activate(struct lru *l, uint32_t id);
/* Move to the inactive head, e.g. a referenced-once mapped folio that reclaim keeps. */
void lru_rotate_inactive(struct lru *l, uint32_t id);
/* mm/vmscan.c inactive_is_low() for the file LRU, sizes in pages. */
bool lru_inactive_is_low(struct lru *l);
/* The same for the sizes given (such as the last flush's, which reclaim reads). */
bool lru_sizes_inactive_is_low(const struct lru *l, uint64_t inactive, uint64_t active);
/* lru_move_tail() (mm/swap.c): to the inactive tail, active or not, for reclaim next. */
void lru_move_inactive_tail(struct lru *l, uint32_t id);
/* shrink_active_list() for one folio: the active tail to the inactive head. false if empty. */
bool lru_deactivate_tail(struct lru *l);
/*
 * The two lists' reclaim: shrink_active_list() while inactive_is_low(), then the inactive
 * tail (FOLIO_NIL: the inactive list is empty).
 */
uint32_t lru_inactive_tail_balanced(struct lru *l);

static inline uint64_t lru_entries(const struct lru *l)
{
	return l->lists[0].entries + l->lists[1].entries + l->lists[2].entries +
	       l->lists[3].entries;
}

static inline uint64_t lru_pages(const struct lru *l)
{
	return l->lists[0].pages + l->lists[1].pages + l->lists[2].pages + l->lists[3].pages;
}

#endif /* FT_MODEL_LRU_H */
