// SPDX-License-Identifier: GPL-2.0-or-later
/* Anonymous memory for the refault distance: see anon.h. */
#include "replay/anon.h"

void anon_init(struct replay_anon *a)
{
	*a = (struct replay_anon){ .swap_free = -1, .host_active = -1, .host_inactive = -1,
				   .cg_active = -1, .cg_inactive = -1 };
}

void anon_names(struct replay_anon *a, const struct ft_counter_names *n)
{
	switch (n->source) {
	case FT_SRC_MEMINFO:
		a->swap_free = ft_counter_index(n, "SwapFree");
		a->meminfo_count = n->count;
		break;
	case FT_SRC_VMSTAT:
		a->host_active = ft_counter_index(n, "nr_active_anon");
		a->host_inactive = ft_counter_index(n, "nr_inactive_anon");
		a->vmstat_count = n->count;
		break;
	case FT_SRC_CGROUP:
		a->cg_active = ft_counter_index(n, "active_anon");
		a->cg_inactive = ft_counter_index(n, "inactive_anon");
		a->cg_count = n->count;
		break;
	}
}

bool anon_sample(struct replay_anon *a, const struct ft_counters *c, unsigned page_size)
{
	const __u64 *v = ft_counters_values(c);

	switch (c->source) {
	case FT_SRC_MEMINFO:
		if (a->swap_free < 0 || c->count != a->meminfo_count)
			return false;
		/* mem_cgroup_get_nr_swap_pages() > 0: memory.swap.max is not recorded */
		a->swap = v[a->swap_free] > 0;
		a->swap_known = true;
		a->swap_seen |= a->swap;
		return true;
	case FT_SRC_VMSTAT:
		if (a->host_active < 0 || a->host_inactive < 0 || c->count != a->vmstat_count)
			return false;
		a->host_pages = v[a->host_active] + v[a->host_inactive];
		return true;
	case FT_SRC_CGROUP:
		if (a->cg_active < 0 || a->cg_inactive < 0 || c->count != a->cg_count ||
		    !page_size)
			return false;
		a->cg_pages = (v[a->cg_active] + v[a->cg_inactive]) / page_size;
		return true;
	}
	return false;
}

uint64_t anon_pages(const struct replay_anon *a, bool memcg)
{
	return memcg ? a->cg_pages : a->host_pages;
}
