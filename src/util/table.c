// SPDX-License-Identifier: GPL-2.0-or-later
/* Large zeroed tables on huge pages: see table.h. */
#define _GNU_SOURCE		/* mremap() */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "util/table.h"

#define TABLE_HUGE	(2ul << 20)	/* an x86-64 and arm64 (4 KiB granule) PMD page */

static size_t table_mapped(size_t bytes)
{
	return (bytes + TABLE_HUGE - 1) & ~(TABLE_HUGE - 1);
}

static bool table_size_ok(size_t n, size_t size)
{
	return !size || n <= (SIZE_MAX - 2 * TABLE_HUGE) / size;
}

/* A zeroed mapping of len bytes (a multiple of TABLE_HUGE) at a 2 MiB boundary, or NULL. */
static void *table_map(size_t len)
{
	uintptr_t p, start;

	/* over-map by one huge page, then trim the ends to a 2 MiB aligned range */
	p = (uintptr_t)mmap(NULL, len + TABLE_HUGE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if ((void *)p == MAP_FAILED)
		return NULL;
	start = (p + TABLE_HUGE - 1) & ~(TABLE_HUGE - 1);
	if (start > p)
		munmap((void *)p, start - p);
	munmap((void *)(start + len), p + TABLE_HUGE - start);	/* never empty */
	/* advice only: without THP the table works on small pages */
	madvise((void *)start, len, MADV_HUGEPAGE);
	return (void *)start;
}

void *ft_table_alloc(size_t n, size_t size)
{
	size_t bytes;

	if (!table_size_ok(n, size))
		return NULL;
	bytes = n * size;
	if (bytes < TABLE_HUGE)
		return calloc(n ? n : 1, size ? size : 1);
	return table_map(table_mapped(bytes));
}

void *ft_table_grow(void *table, size_t n, size_t new_n, size_t size)
{
	size_t bytes = n * size, new_bytes;
	void *t;

	if (!table_size_ok(new_n, size) || new_n <= n)
		return NULL;
	new_bytes = new_n * size;
	if (new_bytes < TABLE_HUGE) {
		t = realloc(table, new_bytes);
		if (t)
			memset((char *)t + bytes, 0, new_bytes - bytes);
		return t;
	}
	if (bytes < TABLE_HUGE) {
		t = ft_table_alloc(new_n, size);
		if (t) {
			memcpy(t, table, bytes);
			free(table);
		}
		return t;
	}
	t = table_map(table_mapped(new_bytes));
	if (!t)
		return NULL;
	/* the old pages (huge ones whole) into the start of the new range, which they replace */
	if (mremap(table, table_mapped(bytes), table_mapped(bytes), MREMAP_MAYMOVE | MREMAP_FIXED,
		   t) == MAP_FAILED) {
		munmap(t, table_mapped(new_bytes));
		return NULL;
	}
	return t;
}

void ft_table_free(void *table, size_t n, size_t size)
{
	size_t bytes = n * size;

	if (!table)
		return;
	if (bytes < TABLE_HUGE)
		free(table);
	else
		munmap(table, table_mapped(bytes));
}
