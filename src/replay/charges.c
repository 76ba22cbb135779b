// SPDX-License-Identifier: GPL-2.0-or-later
/* The memory cgroups' charges besides their traced page cache: see charges.h. */
#include <string.h>

#include "replay/charges.h"

/* One key per (file, page index): file_key() spread by the index, UINT64_MAX avoided. */
static uint64_t folio_key(uint32_t dev, uint64_t ino, uint64_t idx)
{
	uint64_t k = ft_hash64(file_key(dev, ino) + idx * 0x9e3779b97f4a7c15ull);

	return k == UINT64_MAX ? 0 : k;
}

int replay_charges_init(struct replay_charges *c)
{
	memset(c, 0, sizeof(*c));
	return u64map_init(&c->owner, 1024);
}

void replay_charges_free(struct replay_charges *c)
{
	u64map_free(&c->owner);
}

bool replay_charges_limit(struct replay_charges *c, uint8_t index, uint64_t max_pages)
{
	bool dropped;

	if (index >= MODEL_MAX_MEMCGS)
		return false;
	if (max_pages == UINT64_MAX)
		max_pages = 0;
	dropped = max_pages != c->max_pages[index] && c->others[index];
	c->max_pages[index] = max_pages;
	if (dropped)
		c->others[index] = 0;
	return dropped;
}

int replay_charges_added(struct replay_charges *c, uint8_t index, uint32_t tid, uint32_t dev,
			 uint64_t ino, uint64_t idx, unsigned order)
{
	bool added;
	uint64_t *owner;

	if (index >= MODEL_MAX_MEMCGS)
		return 0;
	owner = u64map_get_or_add(&c->owner, folio_key(dev, ino, idx), 0, &added);
	if (!owner)
		return -1;
	if (*owner) {	/* a delete the trace lost: the folio is charged anew */
		uint64_t *cached = &c->cached[*owner - 1];

		*cached -= *cached < 1ull << order ? *cached : 1ull << order;
	}
	*owner = 1 + (uint64_t)index;
	c->cached[index] += 1ull << order;
	c->grown[index] = true;
	c->grower[index] = tid;
	return 0;
}

void replay_charges_deleted(struct replay_charges *c, uint32_t dev, uint64_t ino, uint64_t idx,
			    unsigned order)
{
	uint64_t *owner = u64map_find(&c->owner, folio_key(dev, ino, idx));
	uint64_t *cached;

	if (!owner || !*owner)
		return;
	cached = &c->cached[*owner - 1];
	*cached -= *cached < 1ull << order ? *cached : 1ull << order;
	*owner = 0;
}

bool replay_charges_reclaim(struct replay_charges *c, uint8_t index, uint32_t tid,
			    uint64_t *pages)
{
	uint64_t max;

	if (index >= MODEL_MAX_MEMCGS || !(max = c->max_pages[index]) || !c->grown[index] ||
	    c->grower[index] != tid)
		return false;
	c->grown[index] = false;
	*pages = max > c->cached[index] ? max - c->cached[index] : 0;
	if (*pages == c->others[index])
		return false;
	c->others[index] = *pages;
	return true;
}
