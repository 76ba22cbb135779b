/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shadow entries (mm/workingset.c): what an evicted folio leaves in the page cache, its
 * eviction age, so a later miss on it is a refault with a known refault distance.
 * Bounded memory: a 4-way set-associative table of about one entry per page of the modelled
 * memory; a full set forgets its oldest entry (the kernel's shadow shrinker also drops old
 * shadow nodes first). An entry is a 64-bit fingerprint of (file, generation, index, order)
 * and the age, 16 bytes, so a set is one cache line; a false match needs a 64-bit collision.
 */
#ifndef FT_MODEL_SHADOW_H
#define FT_MODEL_SHADOW_H

#include <stdbool.h>
#include <stdint.h>

#define SHADOW_WAYS	4

struct shadow_entry {
	uint64_t key;		/* fingerprint; 0: empty */
	uint64_t eviction;	/* nonresident age at eviction */
};

struct shadow_table {
	struct shadow_entry *e;
	uint64_t set_mask;	/* number of sets - 1 */
};

bool shadow_init(struct shadow_table *t, uint64_t entries);
void shadow_release(struct shadow_table *t);
void shadow_store(struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
		  unsigned order, uint64_t eviction);
/* Hints the line of the folio's set: an eviction or a refault check on it comes soon. */
void shadow_prefetch(const struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
		     unsigned order);
/* Finds and removes the entry of the folio (file, gen, index, order); false if none. */
bool shadow_take(struct shadow_table *t, uint32_t file, uint32_t gen, uint64_t index,
		 unsigned order, uint64_t *eviction);

#endif /* FT_MODEL_SHADOW_H */
