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
 * Exact under the conditions of the plain-LRU model with the fixed policy and no readahead;
 * what breaks them (truncation and unlink of cached folios, fault-around, a file growing past
 * a folio placed at its old end, writes sized unlike reads, memory others take over time,
 * tmpfs) is counted as inexact accesses with the first reason.
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
/* Accesses outside the exact conditions, and the first reason (static), or 0. */
uint64_t stack_mrc_inexact(const struct stack_mrc *s, const char **why);
/* Largest distance seen, in bytes: from there on every reference that can hit does. */
uint64_t stack_mrc_max_distance(const struct stack_mrc *s);
bool stack_mrc_oom(const struct stack_mrc *s);

#endif /* FT_MODEL_STACK_H */
