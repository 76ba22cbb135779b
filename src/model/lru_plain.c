// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A plain LRU: one strict list, every access moves the folio to its head, eviction takes the
 * tail, refaults are counted but never activate (no refault_activates). Not a kernel's: it is the textbook policy
 * other cache simulators implement, for cross-checking against them.
 */
#include "model/instance.h"

static void plain_touch(struct model *m, uint32_t id)
{
	if (m->lru.inactive.head != id)
		lru_rotate_inactive(&m->lru, id);
}

static void plain_read(struct model *m, uint32_t id, bool again)
{
	(void)again;
	plain_touch(m, id);
}

const struct lru_policy lru_plain = {
	.v = {
		.name = "plain",
		.help = "one strict LRU",
		.kernel = "none: the textbook LRU of cache simulators",
		.what_if = true,
	},
	.read = plain_read,
	.mapped = plain_touch,
	.written = plain_touch,
};
