/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memory a recorded cgroup's cache shared with others: from each sample of the cgroup's
 * memory.stat and usage, its usage less its file LRU pages (anonymous and kernel memory), and
 * its mapped file pages too when the model leaves mapped files out.
 */
#ifndef FT_REPLAY_BUDGET_H
#define FT_REPLAY_BUDGET_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace.h"

struct budget {
	int usage, inactive_file, active_file, mapped;	/* counter indexes, -1 unknown */
	uint16_t count;					/* counters in a sample */
	bool known;
};

void budget_init(struct budget *b);
/* The cgroup's counter names record. */
void budget_names(struct budget *b, const struct ft_counter_names *n);
/* Pages others held at the sample c; false when the sample does not say. */
bool budget_others(const struct budget *b, const struct ft_counters *c, unsigned page_size,
		   bool with_mapped, uint64_t *pages);

#endif /* FT_REPLAY_BUDGET_H */
