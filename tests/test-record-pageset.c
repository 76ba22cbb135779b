/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page ranges of a file's start state (src/record/pageset.c): runs merged where they
 * touch, holes cut out of them and split them, overlap tests, as the probe and the corrections
 * of the events before it use them.
 */
#include <stdio.h>
#include <string.h>

#include "record/record.h"
#include "tap.h"

/* The set as "start+len,..." ("-" when empty). */
static const char *show(const struct ft_pageset *s)
{
	static char buf[256];
	size_t o = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < s->n && o < sizeof(buf); i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%llu+%llu", i ? "," : "",
				      (unsigned long long)s->r[i].start,
				      (unsigned long long)s->r[i].len);
	return s->n ? buf : "-";
}

int main(void)
{
	struct ft_pageset s;

	memset(&s, 0, sizeof(s));
	ft_pageset_add(&s, 0, 4);
	ft_pageset_add(&s, 4, 4);
	is_str(show(&s), "0+8", "a run found after the last one joins it");
	ft_pageset_add(&s, 20, 4);
	ft_pageset_add(&s, 10, 2);
	is_str(show(&s), "0+8,10+2,20+4", "runs apart stay apart, sorted");
	ft_pageset_add(&s, 7, 14);
	is_str(show(&s), "0+24", "a run over several merges them");
	ft_pageset_remove(&s, 8, 4);
	is_str(show(&s), "0+8,12+12", "a hole in the middle splits the run");
	ft_pageset_remove(&s, 0, 2);
	ft_pageset_remove(&s, 22, 10);
	is_str(show(&s), "2+6,12+10", "holes at the ends shorten the runs");
	ft_pageset_remove(&s, 2, 6);
	is_str(show(&s), "12+10", "a hole over a whole run removes it");
	is_u64(ft_pageset_pages(&s), 10, "pages counted");
	ok(ft_pageset_overlaps(&s, 21, 4), "a folio over the run's last page overlaps it");
	ok(!ft_pageset_overlaps(&s, 22, 4), "one starting past its end does not");
	ok(!ft_pageset_overlaps(&s, 8, 4), "nor one ending at its start");
	ok(ft_pageset_covers(&s, 12, 10), "the run covers itself");
	ok(ft_pageset_covers(&s, 14, 4), "and a block inside it");
	ok(!ft_pageset_covers(&s, 20, 4), "not a block past its end");
	ok(!ft_pageset_covers(&s, 10, 4), "nor one from before its start");
	ok(!ft_pageset_covers(&s, 0, 4), "nor one wholly before it");
	ft_pageset_remove(&s, 0, 100);
	is_str(show(&s), "-", "a hole over everything empties the set");
	for (unsigned i = 0; i < 1000; i++)
		ft_pageset_add(&s, 2 * (__u64)i, 1);
	is_u64(s.n, 1000, "1000 runs of one page, a page apart");
	ft_pageset_add(&s, 0, 2000);
	is_str(show(&s), "0+2000", "one range over them all leaves one");
	ft_pageset_free(&s);
	return done_testing();
}
