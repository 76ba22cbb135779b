// SPDX-License-Identifier: GPL-2.0-or-later
/* Large zeroed tables on huge pages: see table.h. */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "util/table.h"

#define TABLE_HUGE	(2ul << 20)	/* an x86-64 and arm64 (4 KiB granule) PMD page */

static size_t table_mapped(size_t bytes)
{
	return (bytes + TABLE_HUGE - 1) & ~(TABLE_HUGE - 1);
}

void *ft_table_alloc(size_t n, size_t size)
{
	size_t bytes, len;
	uintptr_t p, start;

	if (size && n > (SIZE_MAX - 2 * TABLE_HUGE) / size)
		return NULL;
	bytes = n * size;
	if (bytes < TABLE_HUGE)
		return calloc(n ? n : 1, size ? size : 1);
	/* over-map by one huge page, then trim the ends to a 2 MiB aligned range */
	len = table_mapped(bytes);
	p = (uintptr_t)mmap(NULL, len + TABLE_HUGE, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if ((void *)p == MAP_FAILED)
		return NULL;
	start = (p + TABLE_HUGE - 1) & ~(TABLE_HUGE - 1);
	if (start > p)
		munmap((void *)p, start - p);
	if (p + TABLE_HUGE > start)
		munmap((void *)(start + len), p + TABLE_HUGE - start);
	/* advice only: without THP the table works on small pages */
	madvise((void *)start, len, MADV_HUGEPAGE);
	return (void *)start;
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
