// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A set of page ranges of one file (record.h struct ft_pageset): sorted, disjoint, merged
 * where they touch. A file's cached pages come in runs, so a huge file costs a range per run
 * rather than a bit per page.
 */
#include <stdlib.h>
#include <string.h>

#include "record/record.h"

void ft_pageset_free(struct ft_pageset *s)
{
	free(s->r);
	memset(s, 0, sizeof(*s));
}

static int reserve(struct ft_pageset *s, size_t more)
{
	size_t cap = s->cap ? s->cap : 8;
	struct ft_page_range *r;

	if (s->n + more <= s->cap)
		return 0;
	while (cap < s->n + more)
		cap *= 2;
	r = realloc(s->r, cap * sizeof(*r));
	if (!r)
		return -1;
	s->r = r;
	s->cap = cap;
	return 0;
}

/* First range ending after page: where one touching or past it starts. */
static size_t first_after(const struct ft_pageset *s, __u64 page)
{
	size_t lo = 0, hi = s->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (s->r[mid].start + s->r[mid].len < page)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int ft_pageset_add(struct ft_pageset *s, __u64 start, __u64 len)
{
	__u64 end = start + len;
	size_t i, j;

	if (!len)
		return 0;
	/* the common case of a probe: runs found in order */
	if (s->n && s->r[s->n - 1].start + s->r[s->n - 1].len == start) {
		s->r[s->n - 1].len += len;
		return 0;
	}
	i = first_after(s, start);
	for (j = i; j < s->n && s->r[j].start <= end; j++) {
		__u64 e = s->r[j].start + s->r[j].len;

		if (s->r[j].start < start)
			start = s->r[j].start;
		if (e > end)
			end = e;
	}
	if (j == i) {
		if (reserve(s, 1))
			return -1;
		memmove(&s->r[i + 1], &s->r[i], (s->n - i) * sizeof(*s->r));
		s->n++;
	} else {
		memmove(&s->r[i + 1], &s->r[j], (s->n - j) * sizeof(*s->r));
		s->n -= j - i - 1;
	}
	s->r[i] = (struct ft_page_range){ .start = start, .len = end - start };
	return 0;
}

int ft_pageset_remove(struct ft_pageset *s, __u64 start, __u64 len)
{
	__u64 end = start + len;
	size_t i = first_after(s, start + 1);

	while (i < s->n && s->r[i].start < end) {
		struct ft_page_range *r = &s->r[i];
		__u64 re = r->start + r->len;

		if (r->start < start && re > end) {	/* split in two */
			if (reserve(s, 1))
				return -1;
			r = &s->r[i];
			memmove(&s->r[i + 1], r, (s->n - i) * sizeof(*r));
			s->n++;
			r->len = start - r->start;
			s->r[i + 1].start = end;
			s->r[i + 1].len = re - end;
			return 0;
		}
		if (r->start < start) {
			r->len = start - r->start;
			i++;
		} else if (re > end) {
			r->len = re - end;
			r->start = end;
			return 0;
		} else {
			memmove(r, r + 1, (s->n - i - 1) * sizeof(*r));
			s->n--;
		}
	}
	return 0;
}

bool ft_pageset_overlaps(const struct ft_pageset *s, __u64 start, __u64 len)
{
	size_t i = first_after(s, start + 1);

	return i < s->n && s->r[i].start < start + len && s->r[i].start + s->r[i].len > start;
}

bool ft_pageset_covers(const struct ft_pageset *s, __u64 start, __u64 len)
{
	size_t i = first_after(s, start + 1);

	/* ranges that touch are merged: one range holds them all or none does */
	return i < s->n && s->r[i].start <= start && s->r[i].start + s->r[i].len >= start + len;
}

__u64 ft_pageset_pages(const struct ft_pageset *s)
{
	__u64 n = 0;

	for (size_t i = 0; i < s->n; i++)
		n += s->r[i].len;
	return n;
}
