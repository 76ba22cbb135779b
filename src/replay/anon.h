/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The anonymous memory a file refault is measured against (mm/workingset.c
 * workingset_test_recent(), 6.1 to 6.18): with swap space free, the workingset size a refault
 * distance is compared with is the active file list plus the active and inactive anonymous
 * lists of the evicting cgroup. The trace's samples give both: SwapFree of /proc/meminfo, and
 * the anonymous lists of the recorded cgroup (memory.stat active_anon + inactive_anon, bytes)
 * or, under no limit, of the host (/proc/vmstat nr_active_anon + nr_inactive_anon, pages).
 */
#ifndef FT_REPLAY_ANON_H
#define FT_REPLAY_ANON_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace.h"

struct replay_anon {
	int swap_free, host_active, host_inactive, cg_active, cg_inactive;	/* -1: none */
	uint16_t meminfo_count, vmstat_count, cg_count;
	bool swap_known, swap, swap_seen;	/* sampled, free now, free in some sample */
	uint64_t host_pages, cg_pages;
};

void anon_init(struct replay_anon *a);
/* A source's counter names: where its figures are. */
void anon_names(struct replay_anon *a, const struct ft_counter_names *n);
/* A sample: true when it is one of the sources the figure comes from. */
bool anon_sample(struct replay_anon *a, const struct ft_counters *c, unsigned page_size);
/* The first memory cgroup's anon pages: the recorded cgroup's with memcg, else the host's. */
uint64_t anon_pages(const struct replay_anon *a, bool memcg);

#endif /* FT_REPLAY_ANON_H */
