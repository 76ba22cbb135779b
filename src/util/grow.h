/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Arrays that grow one element at a time: the allocation doubles, so appends cost O(1). */
#ifndef FT_UTIL_GROW_H
#define FT_UTIL_GROW_H

#include <stdint.h>
#include <stdlib.h>

/*
 * The array v of *cap elements of elem bytes, with room for element n: v itself while n is
 * below *cap, else v moved to an allocation twice as large (first elements the first time) and
 * *cap updated. NULL when out of memory: v and *cap are then as they were.
 */
static inline void *ft_grow(void *v, size_t *cap, size_t n, size_t elem, size_t first)
{
	size_t c = *cap;
	void *nv;

	if (n < c)
		return v;
	c = c ? 2 * c : first;
	if (c <= n || c > SIZE_MAX / elem)
		return NULL;
	nv = realloc(v, c * elem);
	if (nv)
		*cap = c;
	return nv;
}

#endif
