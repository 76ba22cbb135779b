/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memory as the recorded kernel had it when the trace began: the first /proc/pagetypeinfo
 * sample (FT_SRC_PAGETYPEINFO), its zones summed into the model's one zone. The replay
 * starts from it by default (model.h struct model_zone_state); calibrate compares with the
 * later samples.
 */
#ifndef FT_REPLAY_STARTSTATE_H
#define FT_REPLAY_STARTSTATE_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "trace/trace.h"

#define START_ZONES_MAX	16

struct recorded_start {
	uint8_t *slot;		/* per counter: type << 4 | order (0..10), 11 blocks, 15 other */
	uint8_t *zone;		/* per counter: the zone it belongs to */
	unsigned count;		/* counters in the names record */
	unsigned nzones;
	char zone_names[START_ZONES_MAX][40];	/* "NODE/ZONE" */
	unsigned pageblock_order;
	bool have;		/* a sample was taken */
	uint64_t ts;		/* when */
	struct model_zone_state state;
};

void start_state_init(struct recorded_start *s);
void start_state_release(struct recorded_start *s);
/* An FT_COUNTER_NAMES record of FT_SRC_PAGETYPEINFO: how to read the samples. */
void start_state_names(struct recorded_start *s, const struct ft_counter_names *n);
/* An FT_COUNTERS record of the source: the state it gives, into *st. false: not readable. */
bool start_state_read(const struct recorded_start *s, const struct ft_counters *c,
		      struct model_zone_state *st);
/* The first sample becomes the start state; later ones are left alone. */
void start_state_sample(struct recorded_start *s, const struct ft_counters *c);
/* Pages of the state's pageblocks. */
uint64_t start_state_pages(const struct model_zone_state *st);

#endif /* FT_REPLAY_STARTSTATE_H */
