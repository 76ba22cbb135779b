// SPDX-License-Identifier: GPL-2.0-or-later
/* Shadow entries for refault detection: see shadow.h. */
#include <stdlib.h>

#include "model/shadow.h"
#include "util/hash.h"

static uint64_t shadow_key(uint32_t file, uint32_t gen, uint64_t index, unsigned order)
{
	uint64_t k = ft_hash64(index * FT_GOLDEN64 ^ ((uint64_t)file << 32 | gen) ^
			       ((uint64_t)order << 58));

	return k ? k : 1;	/* 0 marks an empty way */
}

static struct shadow_entry *shadow_set(const struct shadow_table *t, uint64_t key)
{
	return &t->e[((key >> 17) & t->set_mask) * SHADOW_WAYS];
}

bool shadow_init(struct shadow_table *t, uint64_t entries)
{
	uint64_t sets = 64;

	while (sets * SHADOW_WAYS < entries && sets < (1ull << 36))
		sets <<= 1;
	/* one set per 64-byte line */
	t->e = aligned_alloc(64, sets * SHADOW_WAYS * sizeof(*t->e));
	t->set_mask = sets - 1;
	if (!t->e)
		return false;
	for (uint64_t i = 0; i < sets * SHADOW_WAYS; i++)
		t->e[i] = (struct shadow_entry){ 0, 0 };
	return true;
}

void shadow_release(struct shadow_table *t)
{
	free(t->e);
	t->e = NULL;
}

/* The entry of key, else an empty way, else the oldest entry. */
static struct shadow_entry *shadow_slot(struct shadow_entry *set, uint64_t key)
{
	struct shadow_entry *victim = NULL;

	for (unsigned w = 0; w < SHADOW_WAYS; w++) {
		if (set[w].key == key)
			return &set[w];
		if (!victim || (victim->key && (!set[w].key || set[w].eviction < victim->eviction)))
			victim = &set[w];
	}
	return victim;
}

void shadow_store(struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
		  unsigned order, uint64_t eviction)
{
	uint64_t key = shadow_key(file, gen, index, order);
	struct shadow_entry *e = shadow_slot(shadow_set(t, key), key);

	e->key = key;
	e->eviction = eviction;
}

void shadow_prefetch(const struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
		     unsigned order)
{
	__builtin_prefetch(shadow_set(t, shadow_key(file, gen, index, order)));
}

bool shadow_take(struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
		 unsigned order, uint64_t *eviction)
{
	uint64_t key = shadow_key(file, gen, index, order);
	struct shadow_entry *set = shadow_set(t, key);

	for (unsigned w = 0; w < SHADOW_WAYS; w++) {
		if (set[w].key == key) {
			*eviction = set[w].eviction;
			set[w].key = 0;
			return true;
		}
	}
	return false;
}
