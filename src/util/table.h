/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Zeroed memory for the model's large hash tables. A table read at random addresses over
 * tens of MiB misses the TLB on almost every probe with 4 KiB pages; from 2 MiB up it is
 * mapped on its own, 2 MiB aligned and advised for transparent huge pages (THP "madvise"
 * mode, Debian's default), which also takes one page fault per 2 MiB instead of 512.
 * Smaller tables come from calloc().
 */
#ifndef FT_UTIL_TABLE_H
#define FT_UTIL_TABLE_H

#include <stddef.h>

/* n elements of size bytes, zeroed; NULL when out of memory or n * size overflows. */
void *ft_table_alloc(size_t n, size_t size);
/*
 * The table grown from n to new_n elements (new_n > n), its first n elements kept and the rest
 * zeroed; NULL when out of memory, the table then as it was. A large table's pages are moved,
 * not copied: what the old table held is neither copied nor faulted in and zeroed again.
 */
void *ft_table_grow(void *table, size_t n, size_t new_n, size_t size);
/* Frees a table of n elements of size bytes from ft_table_alloc() (NULL: nothing). */
void ft_table_free(void *table, size_t n, size_t size);

#endif /* FT_UTIL_TABLE_H */
