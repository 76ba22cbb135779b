// SPDX-License-Identifier: GPL-2.0-or-later
/* Shadow entries for refault detection: see shadow.h. */
#include <stdlib.h>

#include "model/shadow.h"

static uint64_t shadow_set(const struct shadow_table *t, uint32_t file, uint64_t index)
{
	uint64_t h = (index ^ ((uint64_t)file << 40)) * 0x9e3779b97f4a7c15ull;

	return ((h >> 29) ^ h) & t->set_mask;
}

static uint32_t shadow_tag(uint32_t gen, unsigned order)
{
	return gen << 5 | (order + 1);
}

bool shadow_init(struct shadow_table *t, uint64_t entries)
{
	uint64_t sets = 64;

	while (sets * SHADOW_WAYS < entries && sets < (1ull << 36))
		sets <<= 1;
	t->e = calloc(sets * SHADOW_WAYS, sizeof(*t->e));
	t->set_mask = sets - 1;
	return t->e != NULL;
}

void shadow_release(struct shadow_table *t)
{
	free(t->e);
	t->e = NULL;
}

static struct shadow_entry *shadow_find(struct shadow_entry *set, uint32_t file, uint32_t tag,
				       uint64_t index)
{
	for (unsigned w = 0; w < SHADOW_WAYS; w++)
		if (set[w].tag == tag && set[w].index == index && set[w].file == file)
			return &set[w];
	return NULL;
}

/* An empty way, else the oldest entry. */
static struct shadow_entry *shadow_victim(struct shadow_entry *set)
{
	struct shadow_entry *victim = &set[0];

	for (unsigned w = 0; w < SHADOW_WAYS; w++) {
		if (!set[w].tag)
			return &set[w];
		if (set[w].eviction < victim->eviction)
			victim = &set[w];
	}
	return victim;
}

void shadow_store(struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
		  unsigned order, uint64_t eviction)
{
	struct shadow_entry *set = &t->e[shadow_set(t, file, index) * SHADOW_WAYS];
	uint32_t tag = shadow_tag(gen, order);
	struct shadow_entry *e = shadow_find(set, file, tag, index);

	if (!e)
		e = shadow_victim(set);
	*e = (struct shadow_entry){ .index = index, .eviction = eviction, .file = file, .tag = tag };
}

bool shadow_take(struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
		 unsigned order, uint64_t *eviction)
{
	struct shadow_entry *set = &t->e[shadow_set(t, file, index) * SHADOW_WAYS];
	struct shadow_entry *e = shadow_find(set, file, shadow_tag(gen, order), index);

	if (!e)
		return false;
	*eviction = e->eviction;
	e->tag = 0;
	return true;
}
