/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page cache before the trace (FT_START_CACHE records): the ranges met before the models
 * start, kept until they do, and what the trace said in all, for the report.
 */
#ifndef FT_REPLAY_STARTCACHE_H
#define FT_REPLAY_STARTCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "replay/files.h"

/*
 * One range as the models get it: MODEL_START_CACHE of file, pages [first, first + n), of
 * which the last dirty were dirty.
 */
struct start_range {
	uint32_t file;
	uint16_t device;
	uint64_t first, n, isize, dirty;
	uint8_t shadow;		/* START_SHADOW_*: not cached, shadows of evicted pages */
	bool folio;		/* one folio the kernel's deletes show */
};

#define START_SHADOW_NONE	0
#define START_SHADOW_OLD	1	/* evicted, not recently */
#define START_SHADOW_RECENT	2

struct replay_start_cache {
	struct start_range *v;	/* met before the models started */
	size_t n, cap;
	bool seen;		/* a record before the first access */
	uint64_t files, pages;	/* in the trace, all records */
	uint32_t last_dev;	/* the file of the last record: a file's records follow each other */
	uint64_t last_ino;
	uint64_t file_pages;	/* its ranges' pages in the records before this one */
};

void start_cache_init(struct replay_start_cache *s);
void start_cache_release(struct replay_start_cache *s);
/* Keeps a range until the models start. 0, or -1 on ENOMEM. */
int start_cache_keep(struct replay_start_cache *s, const struct start_range *r);
/* The kept ranges went to the models: their memory is given back. */
void start_cache_sent(struct replay_start_cache *s);
/*
 * Counts a record of file (dev, ino) of pages pages; true when it is the first of the file's
 * records in a row (its group, the files-th, startfolios.h).
 */
bool start_cache_count(struct replay_start_cache *s, uint32_t dev, uint64_t ino, uint64_t pages);
/*
 * The dirty pages of the next range of n pages of the file start_cache_count() counted last,
 * of its nr_cache cached pages, nr_dirty dirty: the last pages of its ranges, as
 * startcache.c's rule takes them. Counts the range's pages as met.
 */
uint64_t start_cache_dirty(struct replay_start_cache *s, uint64_t n, uint64_t nr_cache,
			   uint64_t nr_dirty);

/*
 * Readahead marks of before the trace (model/filemap/startstate.c filemap_start_mark()): the
 * kernel deleted pages [idx, idx + n) of the file, which may not be start pages since.
 */
void start_cache_deleted(struct file_info *fi, uint64_t idx, uint64_t n);
/*
 * Whether the kernel's async readahead from the marked folio at page first, for a read up to
 * page last, hit a mark of before the trace: the file had pages cached then and the kernel
 * deleted none of [first, last] since, so its folio there is the one cached before (one the
 * trace inserted would have been deleted first).
 */
bool start_cache_mark_of_before(const struct file_info *fi, uint64_t first, uint64_t last);

#endif /* FT_REPLAY_STARTCACHE_H */
