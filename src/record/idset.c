/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A set of (u32, u64) keys, open addressing with linear probing, grown at 1/2 load. */
#include <stdlib.h>

#include "record/record.h"
#include "util/hash.h"

struct ft_idset_slot {
	__u64 b;
	__u32 a;
	__u32 used;
};

void ft_idset_init(struct ft_idset *s)
{
	s->slots = NULL;
	s->cap = 0;
	s->used = 0;
}

void ft_idset_free(struct ft_idset *s)
{
	free(s->slots);
	ft_idset_init(s);
}

static size_t idset_hash(__u32 a, __u64 b)
{
	return (size_t)ft_hash64(b ^ ((__u64)a << 32 | a));
}

static struct ft_idset_slot *idset_find(const struct ft_idset *s, __u32 a, __u64 b)
{
	size_t mask = s->cap - 1;

	for (size_t i = idset_hash(a, b) & mask;; i = (i + 1) & mask) {
		struct ft_idset_slot *sl = &s->slots[i];

		if (!sl->used || (sl->a == a && sl->b == b))
			return sl;
	}
}

static int idset_grow(struct ft_idset *s)
{
	struct ft_idset old = *s;

	s->cap = old.cap ? old.cap * 2 : 1024;
	s->slots = calloc(s->cap, sizeof(*s->slots));
	if (!s->slots) {
		*s = old;
		return -1;
	}
	for (size_t i = 0; i < old.cap; i++)
		if (old.slots[i].used)
			*idset_find(s, old.slots[i].a, old.slots[i].b) = old.slots[i];
	free(old.slots);
	return 0;
}

int ft_idset_add(struct ft_idset *s, __u32 a, __u64 b)
{
	struct ft_idset_slot *sl;

	if ((s->used + 1) * 2 > s->cap && idset_grow(s))
		return -1;
	sl = idset_find(s, a, b);
	if (sl->used)
		return 0;
	sl->a = a;
	sl->b = b;
	sl->used = 1;
	s->used++;
	return 1;
}

bool ft_idset_has(const struct ft_idset *s, __u32 a, __u64 b)
{
	return s->cap && idset_find(s, a, b)->used;
}
