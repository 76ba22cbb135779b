/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Miss-ratio curves of a plain LRU at every memory size in one pass (Mattson's stack
 * distances). An LRU whose folios all fit holds, at any memory size, the longest run of most
 * recently used folios that fits: the recency order is the same for every size and only the
 * cut differs. So each reference's distance - the pages of the folios used since its last
 * use, its own included - says at which sizes it hits. The folios are the model's own: the
 * file's largest order as its filesystem allows it and the fixed policy's aligned folio,
 * capped at EOF (placement.h). Distances come from a Fenwick tree over recency slots.
 *
 * Sampled mode follows only the folios whose hashed id falls below the rate (spatial
 * sampling, as SHARDS does) and scales their distances and counts up by 1 / rate.
 *
 * Exact under the conditions of the plain-LRU model with the fixed policy and no readahead:
 * reads, faults and writes are references; fault-around is none (the plain LRU ignores it,
 * lru/plain.c). Truncation and unlink leave holes where their folios were in the recency
 * order: at every size that held them the memory stays free until a folio fills it, as the
 * LRU fills free memory before it evicts. What breaks the conditions (buffered writes, whose
 * dirty folios reclaim passes over at the tail until written back, a file growing past a
 * folio placed at its old end, writes sized unlike reads, memory others take over time, tmpfs,
 * and folios of mixed sizes: the stack counts memory in pages where an instance must free a
 * whole aligned block for a large folio) is counted as inexact accesses, by reason.
 */
#ifndef FT_MODEL_STACK_H
#define FT_MODEL_STACK_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

struct stack_mrc;

/*
 * For the configuration cfg (cfg->order, its placement rules, block and page size); rate 1:
 * exact, else the share of folios followed (0 < rate < 1). NULL with *why set.
 */
struct stack_mrc *stack_mrc_new(const struct model_config *cfg, double rate, const char **why);
void stack_mrc_free(struct stack_mrc *s);

void stack_mrc_access(struct stack_mrc *s, const struct model_access *a);
/* Nothing happens with time alone. */
void stack_mrc_advance(struct stack_mrc *s, uint64_t ts);

/* After the last access: prepares the cumulative counts. false when out of memory. */
bool stack_mrc_finish(struct stack_mrc *s);
/*
 * The read metrics of the plain LRU with memory_bytes of memory (read requests, hits, bytes,
 * device read bytes and I/Os, accesses); other fields 0.
 */
void stack_mrc_metrics(const struct stack_mrc *s, uint64_t memory_bytes,
		       struct model_metrics *out);
/* What makes a curve inexact; an access may meet several. */
enum stack_inexact_reason {
	STACK_INEXACT_DIRTY,		/* a buffered write: reclaim may pass a dirty folio over */
	STACK_INEXACT_GROWTH,		/* a file grew past a folio capped at its old end */
	STACK_INEXACT_WRITE_SIZE,	/* --write-policy=sized made a folio unlike a read's */
	STACK_INEXACT_FOLIO_SIZE,	/* a cached folio of another size than placed now */
	STACK_INEXACT_OTHERS,		/* memory others take over time */
	STACK_INEXACT_SHMEM,		/* tmpfs */
	STACK_INEXACT_MIXED,		/* a folio below the largest order: blocks, not pages */
	STACK_INEXACT_LIMITS,		/* a memory cgroup's limits written during the trace */
	STACK_INEXACT_PROACTIVE,	/* the kernel's proactive reclaimer evicted pages */
	STACK_MRC_NR_REASONS
};

struct stack_inexact {
	const char *why;	/* static */
	uint64_t accesses;	/* the accesses that met it */
};

/*
 * Accesses outside the exact conditions (0: exact); each reason met, with the accesses that
 * met it, most first, into why[STACK_MRC_NR_REASONS], their number in *nwhy.
 */
uint64_t stack_mrc_inexact(const struct stack_mrc *s, struct stack_inexact *why,
			   unsigned *nwhy);
/* The accesses followed, exact or not (the stream's, less its statistics flushes). */
uint64_t stack_mrc_accesses(const struct stack_mrc *s);
/* Largest distance seen, in bytes: from there on every reference that can hit does. */
uint64_t stack_mrc_max_distance(const struct stack_mrc *s);
bool stack_mrc_oom(const struct stack_mrc *s);

#endif /* FT_MODEL_STACK_H */
