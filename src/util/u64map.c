/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util/u64map.h"

#define EMPTY UINT64_MAX

static int table_alloc(struct u64map *m, uint64_t cap)
{
	m->keys = malloc(cap * sizeof(*m->keys));
	m->vals = malloc(cap * sizeof(*m->vals));
	if (!m->keys || !m->vals) {
		free(m->keys);
		free(m->vals);
		return -ENOMEM;
	}
	memset(m->keys, 0xff, cap * sizeof(*m->keys));
	m->mask = cap - 1;
	m->count = 0;
	return 0;
}

int u64map_init(struct u64map *m, uint64_t capacity_hint)
{
	uint64_t cap = 64;

	while (cap < capacity_hint * 2)
		cap <<= 1;
	return table_alloc(m, cap);
}

void u64map_free(struct u64map *m)
{
	free(m->keys);
	free(m->vals);
	m->keys = m->vals = NULL;
}

static uint64_t slot_of(const struct u64map *m, uint64_t key)
{
	uint64_t i = ft_hash64(key) & m->mask;

	while (m->keys[i] != EMPTY && m->keys[i] != key)
		i = (i + 1) & m->mask;
	return i;
}

uint64_t *u64map_find(const struct u64map *m, uint64_t key)
{
	uint64_t i = slot_of(m, key);

	return m->keys[i] == key ? &m->vals[i] : NULL;
}

static int grow(struct u64map *m)
{
	struct u64map old = *m;

	if (table_alloc(m, (old.mask + 1) * 2) < 0) {
		*m = old;
		return -ENOMEM;
	}
	for (uint64_t i = 0; i <= old.mask; i++) {
		if (old.keys[i] != EMPTY) {
			uint64_t j = slot_of(m, old.keys[i]);

			m->keys[j] = old.keys[i];
			m->vals[j] = old.vals[i];
			m->count++;
		}
	}
	u64map_free(&old);
	return 0;
}

uint64_t *u64map_get_or_add(struct u64map *m, uint64_t key, uint64_t init, bool *added)
{
	uint64_t i = slot_of(m, key);

	*added = false;
	if (m->keys[i] == key)
		return &m->vals[i];
	if ((m->count + 1) * 2 > m->mask + 1) {
		if (grow(m) < 0)
			return NULL;
		i = slot_of(m, key);
	}
	m->keys[i] = key;
	m->vals[i] = init;
	m->count++;
	*added = true;
	return &m->vals[i];
}
