/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "replay/budget.h"

void budget_init(struct budget *b)
{
	*b = (struct budget){ .usage = -1, .inactive_file = -1, .active_file = -1, .mapped = -1 };
}

void budget_names(struct budget *b, const struct ft_counter_names *n)
{
	b->usage = ft_counter_index(n, "usage_in_bytes");
	b->inactive_file = ft_counter_index(n, "inactive_file");
	b->active_file = ft_counter_index(n, "active_file");
	b->mapped = ft_counter_index(n, "mapped_file");		/* cgroup v1 */
	if (b->mapped < 0)
		b->mapped = ft_counter_index(n, "file_mapped");	/* v2 */
	b->count = n->count;
	b->known = b->usage >= 0 && b->inactive_file >= 0 && b->active_file >= 0;
}

bool budget_others(const struct budget *b, const struct ft_counters *c, unsigned page_size,
		   bool with_mapped, uint64_t *pages)
{
	const __u64 *v = ft_counters_values(c);
	uint64_t file, bytes;

	if (!b->known || c->count != b->count || !page_size)
		return false;
	file = v[b->inactive_file] + v[b->active_file];
	bytes = v[b->usage] > file ? v[b->usage] - file : 0;
	if (with_mapped && b->mapped >= 0)
		bytes += v[b->mapped];
	*pages = bytes / page_size;
	return true;
}
