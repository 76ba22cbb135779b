// SPDX-License-Identifier: GPL-2.0-or-later
/* Shadow entries for refault detection: see shadow.h. */
#include <stdlib.h>

#include "model/workingset/shadow.h"
#include "util/table.h"

#define SHADOW_MIN_SLOTS	1024
#define SHADOW_HINT_MIN_SLOTS	1024

static bool shadow_alloc(struct shadow_table *t, uint64_t slots)
{
	t->e = ft_table_alloc(slots, sizeof(*t->e));
	t->mask = slots - 1;
	t->count = 0;
	return t->e != NULL;
}

bool shadow_init(struct shadow_table *t, uint64_t max_entries)
{
	t->max_entries = max_entries;
	t->hint = calloc(SHADOW_HINT_MIN_SLOTS, sizeof(*t->hint));
	t->hint_newest = malloc(SHADOW_HINT_MIN_SLOTS * sizeof(*t->hint_newest));
	t->hint_mask = SHADOW_HINT_MIN_SLOTS - 1;
	t->hint_count = 0;
	t->hint_lost = false;
	return t->hint && t->hint_newest && shadow_alloc(t, SHADOW_MIN_SLOTS);
}

void shadow_release(struct shadow_table *t)
{
	free(t->hint);
	free(t->hint_newest);
	t->hint = NULL;
	t->hint_newest = NULL;
	ft_table_free(t->e, t->mask + 1, sizeof(*t->e));
	t->e = NULL;
}

/* The slot of key, or the empty slot where it would go. */
static struct shadow_entry *shadow_find(const struct shadow_table *t, uint64_t key)
{
	uint64_t i = shadow_home(t, key);

	while (t->e[i].key && t->e[i].key != key)
		i = (i + 1) & t->mask;
	return &t->e[i];
}

/* A table of slots slots with the entries evicted at or after keep_from; false on ENOMEM. */
static bool shadow_rehash(struct shadow_table *t, uint64_t slots, uint64_t keep_from)
{
	struct shadow_table old = *t;

	if (!shadow_alloc(t, slots)) {
		*t = old;
		return false;
	}
	for (uint64_t i = 0; i <= old.mask; i++) {
		if (!old.e[i].key || old.e[i].eviction < keep_from)
			continue;
		*shadow_find(t, old.e[i].key) = old.e[i];
		t->count++;
	}
	ft_table_free(old.e, old.mask + 1, sizeof(*old.e));
	return true;
}

/*
 * Doubles the table in place: its memory grows (ft_table_grow() moves the pages, neither
 * copying nor zeroing what is there) and every entry moves to its slot under the new mask, in
 * slot order, each taken out and put back from its new home. Such a probe crosses only entries
 * put back already, and ends at the latest at the slot just emptied, so every entry is found
 * afterwards, provided no run of entries wraps from the end of the old table to its start:
 * that run is set aside first and put back last. false on ENOMEM, the table as it was.
 */
static bool shadow_grow(struct shadow_table *t)
{
	uint64_t n = t->mask + 1, k = 0, c = n, nwrap = 0;
	struct shadow_entry *wrap = NULL, *e;

	/* the run through slot 0: slots [c, n) and [0, k) */
	while (k < n && t->e[k].key)
		k++;
	if (k == n)
		return false;
	while (k && c > k && t->e[c - 1].key)
		c--;
	if (k) {
		wrap = malloc((k + n - c) * sizeof(*wrap));
		if (!wrap)
			return false;
	}
	e = ft_table_grow(t->e, n, 2 * n, sizeof(*e));
	if (!e) {
		free(wrap);
		return false;
	}
	for (uint64_t i = c; i < n + k; i++) {	/* none when k is 0: c is n */
		wrap[nwrap++] = e[i % n];
		e[i % n].key = 0;
	}
	t->e = e;
	t->mask = 2 * n - 1;
	for (uint64_t i = 0; i < n; i++) {
		struct shadow_entry x = e[i];

		if (!x.key)
			continue;
		e[i].key = 0;
		*shadow_find(t, x.key) = x;
	}
	for (uint64_t i = 0; i < nwrap; i++)
		*shadow_find(t, wrap[i].key) = wrap[i];
	free(wrap);
	return true;
}

/*
 * Drops the entries evicted before keep_from in place: no second table to allocate, fault in
 * and zero. The walk starts after a slot that is empty now, which no probe sequence crosses,
 * so the entries before the one in hand are final: each survivor moves back to the first free
 * slot from its home. false if there is no empty slot (a table left full by ENOMEM).
 */
static bool shadow_drop_before(struct shadow_table *t, uint64_t keep_from)
{
	uint64_t first = 0;

	while (t->e[first].key)
		if (++first > t->mask)
			return false;
	for (uint64_t n = 0, i = first; n <= t->mask; n++) {
		struct shadow_entry *e;

		i = (i + 1) & t->mask;
		e = &t->e[i];
		if (!e->key)
			continue;
		if (e->eviction < keep_from) {
			e->key = 0;
			t->count--;
			continue;
		}
		for (uint64_t j = shadow_home(t, e->key); j != i; j = (j + 1) & t->mask) {
			if (!t->e[j].key) {
				t->e[j] = *e;
				e->key = 0;
				break;
			}
		}
	}
	return true;
}

static void shadow_hint_rehash(struct shadow_table *t, uint64_t slots, uint64_t keep_from);

/* At max_entries: forget the older half (by eviction age), as a shrinker frees old nodes. */
static void shadow_forget_oldest(struct shadow_table *t)
{
	uint64_t lo = UINT64_MAX, hi = 0, keep_from;

	for (uint64_t i = 0; i <= t->mask; i++) {
		if (!t->e[i].key)
			continue;
		if (t->e[i].eviction < lo)
			lo = t->e[i].eviction;
		if (t->e[i].eviction > hi)
			hi = t->e[i].eviction;
	}
	keep_from = lo + (hi - lo) / 2 + 1;
	if (!shadow_drop_before(t, keep_from))
		shadow_rehash(t, t->mask + 1, keep_from);
	if (!t->hint_lost)
		shadow_hint_rehash(t, t->hint_mask + 1, keep_from);
}

/* The slot of the region's key, or the empty slot where it would go, to write. */
static struct shadow_hint *shadow_hint_slot(struct shadow_table *t, uint64_t key)
{
	return (struct shadow_hint *)shadow_hint_find(t, key);
}

/*
 * The hint in a table of slots slots, with the regions whose newest shadow was evicted at or
 * after keep_from; on ENOMEM it is lost (every order may be there from then on).
 */
static void shadow_hint_rehash(struct shadow_table *t, uint64_t slots, uint64_t keep_from)
{
	struct shadow_hint *old = t->hint, *h = calloc(slots, sizeof(*h));
	uint64_t *old_newest = t->hint_newest, *newest = malloc(slots * sizeof(*newest));
	uint64_t old_mask = t->hint_mask;

	if (!h || !newest) {
		free(h);
		free(newest);
		t->hint_lost = true;
		return;
	}
	t->hint = h;
	t->hint_newest = newest;
	t->hint_mask = slots - 1;
	t->hint_count = 0;
	for (uint64_t i = 0; i <= old_mask; i++) {
		struct shadow_hint *to;

		if (!old[i].key || old_newest[i] < keep_from)
			continue;
		to = shadow_hint_slot(t, old[i].key);
		*to = old[i];
		newest[to - h] = old_newest[i];
		t->hint_count++;
	}
	free(old);
	free(old_newest);
}

/* A shadow of order 1..5 stored: its block's bit set, its region made if new. */
static void shadow_hint_set(struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
			    unsigned order, uint64_t eviction)
{
	struct shadow_hint *h;
	uint64_t key;

	if (!(SHADOW_HINT_ORDERS >> order & 1) || t->hint_lost)
		return;
	key = shadow_hint_key(file, gen, index);
	h = shadow_hint_slot(t, key);
	if (!h->key) {
		/* at most half full, as the entries' table */
		if ((t->hint_count + 1) * 2 > t->hint_mask + 1) {
			shadow_hint_rehash(t, 2 * (t->hint_mask + 1), 0);
			if (t->hint_lost)
				return;
			h = shadow_hint_slot(t, key);
		}
		h->key = key;
		h->bits = 0;
		t->hint_newest[h - t->hint] = eviction;
		t->hint_count++;
	}
	h->bits |= 1ull << shadow_hint_bit(index, order);
	if (eviction > t->hint_newest[h - t->hint])
		t->hint_newest[h - t->hint] = eviction;
}

/* Backward-shift deletion of a region, as shadow_delete() of an entry. */
static void shadow_hint_delete(struct shadow_table *t, struct shadow_hint *hole)
{
	uint64_t i = (uint64_t)(hole - t->hint), j = i;

	for (;;) {
		uint64_t home;

		j = (j + 1) & t->hint_mask;
		if (!t->hint[j].key)
			break;
		home = shadow_hint_home(t, t->hint[j].key);
		if (((j - home) & t->hint_mask) >= ((j - i) & t->hint_mask)) {
			t->hint[i] = t->hint[j];
			t->hint_newest[i] = t->hint_newest[j];
			i = j;
		}
	}
	t->hint[i].key = 0;
	t->hint_count--;
}

/* The block of order 1..5 has no shadow now: its bit cleared, its region gone when empty. */
static void shadow_hint_clear(struct shadow_table *t, uint32_t file, uint32_t gen,
			      uint64_t index, unsigned order)
{
	struct shadow_hint *h;

	if (!(SHADOW_HINT_ORDERS >> order & 1) || t->hint_lost)
		return;
	h = shadow_hint_slot(t, shadow_hint_key(file, gen, index));
	if (!h->key)
		return;
	h->bits &= ~(1ull << shadow_hint_bit(index, order));
	if (!h->bits)
		shadow_hint_delete(t, h);
}

void shadow_store(struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
		  unsigned order, uint64_t eviction)
{
	uint64_t key = shadow_key(file, gen, index, order);
	struct shadow_entry *e;

	if (t->count >= t->max_entries)
		shadow_forget_oldest(t);
	/* at most half full: probe runs stay short (ENOMEM only leaves it fuller) */
	if ((t->count + 1) * 2 > t->mask + 1 && !shadow_grow(t))
		shadow_rehash(t, (t->mask + 1) * 2, 0);
	e = shadow_find(t, key);
	if (!e->key)
		t->count++;
	shadow_hint_set(t, file, gen, index, order, eviction);
	e->key = key;
	e->eviction = eviction;
}

/* Backward-shift deletion: no tombstones, so a probe always ends at an empty slot. */
static void shadow_delete(struct shadow_table *t, struct shadow_entry *hole)
{
	uint64_t i = (uint64_t)(hole - t->e), j = i;

	for (;;) {
		uint64_t home;

		j = (j + 1) & t->mask;
		if (!t->e[j].key)
			break;
		home = shadow_home(t, t->e[j].key);
		if (((j - home) & t->mask) >= ((j - i) & t->mask)) {
			t->e[i] = t->e[j];
			i = j;
		}
	}
	t->e[i].key = 0;
	t->count--;
}

bool shadow_take(struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
		 unsigned order, uint64_t *eviction)
{
	struct shadow_entry *e = shadow_find(t, shadow_key(file, gen, index, order));

	shadow_hint_clear(t, file, gen, index, order);
	if (!e->key)
		return false;
	*eviction = e->eviction;
	shadow_delete(t, e);
	return true;
}
