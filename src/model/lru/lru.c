// SPDX-License-Identifier: GPL-2.0-or-later
/* LRU lists: see lru.h. */
#include "model/lru/lru.h"

void lru_init(struct lru *l, struct folio_pool *pool, unsigned page_shift)
{
	*l = (struct lru){ .pool = pool, .gb_shift = 30 - page_shift };
	for (unsigned i = 0; i < LRU_NR_LISTS; i++)
		l->lists[i].head = l->lists[i].tail = FOLIO_NIL;
}

static struct lru_list *lru_list_of(struct lru *l, const struct folio *f)
{
	return folio_test(f, FOLIO_ACTIVE) ? &l->active : &l->inactive;
}

void lru_list_push_head(struct lru *l, struct lru_list *list, uint32_t id)
{
	struct folio *f = folio_at(l->pool, id);

	f->lru_prev = FOLIO_NIL;
	f->lru_next = list->head;
	if (list->head != FOLIO_NIL)
		folio_at(l->pool, list->head)->lru_prev = id;
	else
		list->tail = id;
	list->head = id;
	list->entries++;
	list->pages += folio_nr_pages(f);
}

void lru_list_push_tail(struct lru *l, struct lru_list *list, uint32_t id)
{
	struct folio *f = folio_at(l->pool, id);

	f->lru_next = FOLIO_NIL;
	f->lru_prev = list->tail;
	if (list->tail != FOLIO_NIL)
		folio_at(l->pool, list->tail)->lru_next = id;
	else
		list->head = id;
	list->tail = id;
	list->entries++;
	list->pages += folio_nr_pages(f);
}

void lru_list_unlink(struct lru *l, struct lru_list *list, uint32_t id)
{
	struct folio *f = folio_at(l->pool, id);

	if (f->lru_prev != FOLIO_NIL)
		folio_at(l->pool, f->lru_prev)->lru_next = f->lru_next;
	else
		list->head = f->lru_next;
	if (f->lru_next != FOLIO_NIL)
		folio_at(l->pool, f->lru_next)->lru_prev = f->lru_prev;
	else
		list->tail = f->lru_prev;
	f->lru_prev = f->lru_next = FOLIO_NIL;
	list->entries--;
	list->pages -= folio_nr_pages(f);
}

void lru_add(struct lru *l, uint32_t id, bool active)
{
	struct folio *f = folio_at(l->pool, id);

	if (active) {
		folio_set(f, FOLIO_ACTIVE);
		lru_list_push_head(l, &l->active, id);
	} else {
		lru_list_push_head(l, &l->inactive, id);
	}
}

void lru_del(struct lru *l, uint32_t id)
{
	lru_list_unlink(l, lru_list_of(l, folio_at(l->pool, id)), id);
}

void lru_activate(struct lru *l, uint32_t id)
{
	struct folio *f = folio_at(l->pool, id);

	lru_list_unlink(l, lru_list_of(l, f), id);
	folio_set(f, FOLIO_ACTIVE);
	lru_list_push_head(l, &l->active, id);
	l->activations++;
}

void lru_rotate_inactive(struct lru *l, uint32_t id)
{
	struct folio *f = folio_at(l->pool, id);

	lru_list_unlink(l, lru_list_of(l, f), id);
	if (folio_test(f, FOLIO_ACTIVE)) {
		folio_clear(f, FOLIO_ACTIVE);
		l->deactivations++;
	}
	lru_list_push_head(l, &l->inactive, id);
}

void lru_move_inactive_tail(struct lru *l, uint32_t id)
{
	struct folio *f = folio_at(l->pool, id);

	lru_list_unlink(l, lru_list_of(l, f), id);
	folio_clear(f, FOLIO_ACTIVE);
	lru_list_push_tail(l, &l->inactive, id);
}

static unsigned int_sqrt(uint64_t x)
{
	uint64_t r = 0, bit = 1ull << 62;

	while (bit > x)
		bit >>= 2;
	while (bit) {
		if (x >= r + bit) {
			x -= r + bit;
			r = (r >> 1) + bit;
		} else {
			r >>= 1;
		}
		bit >>= 2;
	}
	return (unsigned)r;
}

bool lru_inactive_is_low(struct lru *l)
{
	uint64_t gb = lru_pages(l) >> l->gb_shift;

	if (gb != l->ratio_gb || !l->ratio) {
		l->ratio_gb = gb;
		l->ratio = gb ? int_sqrt(10 * gb) : 1;
	}
	return l->inactive.pages * l->ratio < l->active.pages;
}

bool lru_sizes_inactive_is_low(const struct lru *l, uint64_t inactive, uint64_t active)
{
	uint64_t gb = (inactive + active) >> l->gb_shift;

	return inactive * (gb ? int_sqrt(10 * gb) : 1) < active;
}

bool lru_deactivate_tail(struct lru *l)
{
	uint32_t id = l->active.tail;

	if (id == FOLIO_NIL)
		return false;
	/* shrink_active_list() checks PTE young bits (clearing them) and moves file folios */
	folio_clear(folio_at(l->pool, id), FOLIO_YOUNG);
	lru_rotate_inactive(l, id);
	return true;
}

uint32_t lru_inactive_tail_balanced(struct lru *l)
{
	while (lru_inactive_is_low(l))
		lru_deactivate_tail(l);
	return l->inactive.tail;
}
