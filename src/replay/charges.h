/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What each memory cgroup of the trace was charged besides its traced page cache, found at its
 * limit reclaims. A charge that fails reclaims when memory.current would pass memory.max:
 * for a page (a page-cache folio of order 0, an anonymous page) when memory.current is
 * memory.max itself, after try_charge_memcg() fell back from its batch of
 * MEMCG_CHARGE_BATCH pages to the page alone (mm/memcontrol.c, 6.1-6.18). So at the first
 * mm_vmscan_lru_isolate the task that last grew the cgroup's cache traces, the cgroup's other
 * charges (kernel memory such as the page cache's own xarray nodes, XA_FLAGS_ACCOUNT; its
 * tasks' memory; charges cached on other CPUs; files the trace left out) are memory.max less
 * the traced pages it had cached, which the kernel's page-cache events count (each folio
 * charged to the cgroup of the task that inserted it). Seen in Debian's 6.12: 76 to 139 pages
 * of a 32 MiB cgroup reading one file. A larger folio's or a kernel object's charge reclaims
 * a little below memory.max, so this may be above the truth by part of a folio; a task of the
 * cgroup in global reclaim would read as one at its limit (none where the limit binds first).
 * A limit written reclaims in the writer's context, not at memory.max, and is recorded at the
 * next sample: what was found under the old limit is dropped when the new one is recorded.
 */
#ifndef FT_REPLAY_CHARGES_H
#define FT_REPLAY_CHARGES_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "util/u64map.h"

struct replay_charges {
	struct u64map owner;		/* a cached folio's key: 1 + its cgroup's index */
	uint64_t max_pages[MODEL_MAX_MEMCGS];	/* recorded memory.max, 0 none */
	uint64_t cached[MODEL_MAX_MEMCGS];	/* traced pages in the kernel's cache */
	uint64_t others[MODEL_MAX_MEMCGS];	/* as last found */
	bool grown[MODEL_MAX_MEMCGS];		/* its cache grew since the last found */
	uint32_t grower[MODEL_MAX_MEMCGS];	/* the task that last grew it */
};

int replay_charges_init(struct replay_charges *c);
void replay_charges_free(struct replay_charges *c);
/*
 * The recorded memory.max of the models' cgroup index (UINT64_MAX none), in pages: true when
 * that drops what was found under another (the models' others of it are 0 again).
 */
bool replay_charges_limit(struct replay_charges *c, uint8_t index, uint64_t max_pages);
/* A folio task tid cached (index: its cgroup), or one removed. -1 out of memory. */
int replay_charges_added(struct replay_charges *c, uint8_t index, uint32_t tid, uint32_t dev,
			 uint64_t ino, uint64_t idx, unsigned order);
void replay_charges_deleted(struct replay_charges *c, uint32_t dev, uint64_t ino, uint64_t idx,
			    unsigned order);
/*
 * A task of cgroup index isolated folios for reclaim: true with *pages set when that is a
 * limit reclaim that tells the cgroup's other charges anew.
 */
bool replay_charges_reclaim(struct replay_charges *c, uint8_t index, uint32_t tid,
			    uint64_t *pages);

#endif /* FT_REPLAY_CHARGES_H */
