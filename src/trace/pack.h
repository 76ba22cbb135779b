/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Packed chunks (format 1.6, FT_CHUNK_PACKED): the records of a chunk as items before
 * deflate, an access in the few bytes by which it differs from the one before it, anything
 * else as it is. A replay of 4 KiB reads inflated 64 bytes a read, more CPU than a page-cache
 * simulator's whole run; packed, it inflates about 8 and expands them into the same records.
 * Layout in folio-trace(5):
 *   0xff, then one record as it is (its header's size bytes);
 *   a byte m below 0x80, then LEB128 varints: ts - ts' and pos - (pos' + len'), both zigzag,
 *   then for each bit of m set, in this order, the field that changed: tid (bit 0), ino (1),
 *   len (2), isize - isize' zigzag (3), dev (4), op | flags << 16 | ofile << 32 (5; ofile
 *   since 1.7), arg (6).
 * ' is the access before it in the chunk (all zero for the first).
 */
#ifndef FT_TRACE_PACK_H
#define FT_TRACE_PACK_H

#include <stdbool.h>
#include <stddef.h>
#include <linux/types.h>

#include "trace/events.h"

#define FT_PACK_RECORD	0xffu	/* an item holding a record as it is */

/*
 * Packs the records raw[0..len) (whole, valid records) into out, at most cap bytes. Returns
 * the bytes written, or 0 when they would not fit in cap (the chunk is then stored unpacked);
 * *as_is: how many of them are records as they are (not accesses).
 */
size_t ft_pack_records(const unsigned char *raw, size_t len, unsigned char *out, size_t cap,
		       size_t *as_is);

/* Expanding a chunk's items a window of records at a time, as they are read. */
struct ft_unpacker {
	const unsigned char *p, *end;
	struct ft_access prev;	/* the access before the next item */
};

void ft_unpack_start(struct ft_unpacker *u, const unsigned char *in, size_t len);

static inline bool ft_unpack_done(const struct ft_unpacker *u)
{
	return u->p == u->end;
}

/*
 * Expands items into records at out until want bytes of them are there (at most cap, at
 * least FT_RECORD_MAX more than want), the next would pass cap, or none is left. Returns the
 * bytes of records, or -1 with why set when an item is malformed.
 */
long ft_unpack_some(struct ft_unpacker *u, unsigned char *out, size_t want, size_t cap,
		    const char **why);

#endif
