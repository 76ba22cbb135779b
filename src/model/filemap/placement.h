/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Folio order choice, as pure functions of the request (no cache state):
 * - fixed: the aligned folio of the configured order that contains the page, capped by EOF;
 * - write-path: order from the write's length per iteration (fgf_set_order in
 *   iomap/generic_perform_write), aligned at the page index (__ffs);
 * - readahead: the window sizes of mm/readahead.c; their orders are the rule's (variants.h).
 * The caller still checks the chosen range against folios already cached and steps down.
 */
#ifndef FT_MODEL_PLACEMENT_H
#define FT_MODEL_PLACEMENT_H

#include <stdbool.h>
#include <stdint.h>

/* Index of the lowest set bit (__ffs); idx must be non-zero. */
static inline unsigned place_ffs(uint64_t idx)
{
	return (unsigned)__builtin_ctzll(idx);
}

/* ilog2 of a non-zero value. */
static inline unsigned place_ilog2(uint64_t v)
{
	return 63u - (unsigned)__builtin_clzll(v);
}

/* Bytes the device reads to fill a folio of size bytes at pos: whole blocks below EOF. */
static inline uint64_t place_read_bytes(uint64_t pos, uint64_t size, uint64_t isize,
					uint64_t block_size)
{
	uint64_t n;

	if (pos >= isize)
		return 0;
	n = (isize - pos + block_size - 1) / block_size * block_size;
	return n < size ? n : size;
}

/* Pages a file of isize bytes needs (at least 1, so an empty file still gets a page). */
uint64_t place_eof_pages(uint64_t isize, unsigned page_shift);

/*
 * Largest order in [min_order, order] whose aligned folio containing idx ends at or before
 * eof_pages; min_order even past EOF (a filesystem's minimum folio size is a hard limit).
 */
unsigned place_fixed_order(uint64_t idx, unsigned order, unsigned min_order, uint64_t eof_pages);

/*
 * Write path: the folio the kernel requests at byte position p of a write ending at end:
 * bytes = min(chunk - p % chunk, end - p) with chunk = the max folio size; order =
 * fgf_set_order(bytes) clamped to [min_order, max_order], then lowered to __ffs(idx) when idx
 * is not aligned (idx already aligned down to min_order by the caller's folio start).
 */
unsigned place_write_order(uint64_t p, uint64_t end, unsigned max_order, unsigned min_order,
			   unsigned page_shift);

/*
 * Readahead state of one file (struct file_ra_state): the last window read, the part of it
 * whose marked folio starts the next, and the order the 6.17 rule keeps.
 */
struct ra_state {
	uint64_t start;		/* first page of the current window */
	uint32_t size;		/* pages */
	uint32_t async_size;	/* the folio at start + size - async_size carries PG_readahead */
	uint8_t order;		/* ra->order (6.17+) */
};

/* get_init_ra_size(): first window for a request of req pages. */
uint32_t ra_init_size(uint32_t req, uint32_t max);
/* get_next_ra_size(): the window after one of cur pages. */
uint32_t ra_next_size(uint32_t cur, uint32_t max);
/* order capped by the largest order and by the window's size, at least min_order. */
unsigned ra_order_cap(unsigned order, uint32_t size, unsigned max_order, unsigned min_order);

#endif /* FT_MODEL_PLACEMENT_H */
