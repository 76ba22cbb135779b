/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One dirty byte range per folio, by folio id: what NFS keeps in the struct nfs_page request
 * of a folio (wb_offset, wb_bytes; fs/nfs/write.c). Only folios with a range have an entry,
 * so the map is as large as the dirty folios of the files tracked by range, and empty for
 * every other trace. An open-addressed table, grown at half full.
 */
#ifndef FT_MODEL_DIRTY_RANGES_H
#define FT_MODEL_DIRTY_RANGES_H

#include <stdbool.h>
#include <stdint.h>

struct dirty_range {
	uint32_t id;		/* the folio; FOLIO_NIL: a free slot */
	uint32_t from, to;	/* bytes [from, to) of the folio */
};

struct dirty_ranges {
	struct dirty_range *slot;
	uint32_t mask;		/* slots - 1; no table while slot is NULL */
	uint32_t used;
};

/* The folio's range, NULL when it has none. */
struct dirty_range *dirty_range_find(const struct dirty_ranges *r, uint32_t id);
/* Sets the folio's range; false when the table could not grow (the folio then has none). */
bool dirty_range_set(struct dirty_ranges *r, uint32_t id, uint32_t from, uint32_t to);
void dirty_range_del(struct dirty_ranges *r, uint32_t id);
void dirty_ranges_free(struct dirty_ranges *r);

#endif /* FT_MODEL_DIRTY_RANGES_H */
