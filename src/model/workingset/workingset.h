/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The working set (mm/workingset.c): the shadow entries evictions leave, what the shadow
 * shrinker has freed, and refault detection. struct model's workingset; the nonresident age
 * refault distances are measured in is the lruvec's (lruvec.h).
 */
#ifndef FT_MODEL_WORKINGSET_H
#define FT_MODEL_WORKINGSET_H

#include <stdbool.h>
#include <stdint.h>

#include "model/workingset/shadow.h"

struct model;
struct lruvec;
struct mem_cgroup;

/* mm/workingset.c: shadow nodes above pages >> (XA_CHUNK_SHIFT - 3), 64 slots each */
#define SHADOWS_PER_PAGE	8
/* the shrinker frees none until the excess reaches two batches of 128 nodes (workingset.c) */
#define SHRINK_BATCH		128
#define SHADOW_SLACK		(2 * SHRINK_BATCH * 64)
/* mm/memcontrol.c FLUSH_TIME: the periodic flush of the memory cgroups' statistics */
#define STATS_FLUSH_NS		2000000000ull

/*
 * A shadow entry's value: the nonresident age at eviction (the shrinker frees entries by it)
 * in the low SHADOW_AGE_BITS, the evicting memory cgroup above them (as pack_shadow() keeps
 * its memcgid: the refault is judged on that cgroup's lruvec), and above that what the LRU
 * kind keeps (lru_policy.eviction: MGLRU's token). Ages are compared modulo 2^40 pages,
 * 4 PiB of 4 KiB pages evicted.
 */
#define SHADOW_AGE_BITS		40
#define SHADOW_AGE_MASK		((1ull << SHADOW_AGE_BITS) - 1)
#define SHADOW_MEMCG_BITS	5	/* MODEL_MAX_MEMCGS */
#define SHADOW_TOKEN_SHIFT	(SHADOW_AGE_BITS + SHADOW_MEMCG_BITS)

static inline uint64_t shadow_pack(uint64_t age, unsigned memcg, uint64_t token)
{
	return (age & SHADOW_AGE_MASK) | (uint64_t)memcg << SHADOW_AGE_BITS |
	       token << SHADOW_TOKEN_SHIFT;
}

static inline uint64_t shadow_age(uint64_t eviction)
{
	return eviction & SHADOW_AGE_MASK;
}

static inline unsigned shadow_memcg(uint64_t eviction)
{
	return (unsigned)(eviction >> SHADOW_AGE_BITS) & ((1u << SHADOW_MEMCG_BITS) - 1);
}

/* A shadow of before the trace not recently evicted there: a refault, never activated */
#define SHADOW_START_OLD	(1ull << 63)

static inline uint64_t shadow_token(uint64_t eviction)
{
	return (eviction & ~SHADOW_START_OLD) >> SHADOW_TOKEN_SHIFT;
}

/* The shadows of every lruvec (each counts its own for the shrinker: lruvec.h). */
struct workingset {
	struct shadow_table shadow;
};

/* A memory.stat read or the periodic flush: count_shadow_nodes() sees the LRUs as they are now. */
void memcg_stats_flush(struct model *m);
/* The periodic flush, if one is due (none when the trace gives the kernel's flushes). */
void memcg_stats_flush_due(struct model *m);
/* ... of one cgroup (a flush of its subtree). */
void memcg_stats_flush_one(struct mem_cgroup *memcg);
/*
 * Reclaim evicted from the lruvec: the shadow shrinker frees what count_shadow_nodes()
 * allows it to of that lruvec's shadows.
 */
void shadow_shrink(struct model *m, struct lruvec *lruvec);
/* workingset_refault(): true when the refault should activate the new folio. */
bool workingset_refault(struct model *m, uint32_t file, uint64_t idx, unsigned order);
/* The shadows pages [first, first + n) of file left when evicted before the trace. */
void workingset_start_shadows(struct model *m, uint32_t file, uint64_t first, uint64_t n,
			      bool recent);

#endif /* FT_MODEL_WORKINGSET_H */
