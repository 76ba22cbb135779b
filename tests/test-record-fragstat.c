// SPDX-License-Identifier: GPL-2.0-or-later
/* record's parsers of /proc/pagetypeinfo and debugfs extfrag, on texts of this machine. */
#include <stdlib.h>
#include <string.h>

#include "record/record.h"
#include "tap.h"

/* The value of a name, or ~0 when it is not there. */
static __u64 value_of(const struct ft_counter_list *l, const char *name)
{
	for (size_t i = 0; i < l->n; i++)
		if (strcmp(l->names[i], name) == 0)
			return l->values[i];
	return ~0ull;
}

static void test_pagetypeinfo(void)
{
	static const char text[] =
		"Page block order: 9\n"
		"Pages per block:  512\n"
		"\n"
		"Free pages count per migrate type at order       0      1      2      3      4"
		"      5      6      7      8      9     10 \n"
		"Node    0, zone      DMA, type    Unmovable      0      0      0      0      0"
		"      0      0      0      1      0      0 \n"
		"Node    0, zone      DMA, type      Movable      0      0      0      0      0"
		"      0      0      0      0      1      3 \n"
		"Node    0, zone   Normal, type    Unmovable   1795    540   2308   1789    986"
		"    343    174    164     73      0      2 \n"
		"Node    0, zone   Normal, type      Movable >100000  11501   6435   4106   2784"
		"    455     47      7      5     13    323 \n"
		"Node    0, zone   Normal, type   HighAtomic      0      0      0      0      0"
		"      0      0      0      0      0      0 \n"
		"\n"
		"Number of blocks type     Unmovable      Movable  Reclaimable   HighAtomic"
		"      Isolate \n"
		"Node 0, zone      DMA            1            7            0            0"
		"            0 \n"
		"Node 0, zone   Normal          324         1504           28            0"
		"            0 \n";
	struct ft_counter_list l = { 0 };

	ok(ft_parse_pagetypeinfo(text, &l) == 0, "pagetypeinfo parses");
	is_u64(l.n, 1 + 5 * 11 + 2 * 5, "1 + 5 rows x 11 orders + 2 zones x 5 types");
	is_u64(value_of(&l, "pageblock_order"), 9, "pageblock order 9");
	is_u64(value_of(&l, "0/DMA/Unmovable/8"), 1, "DMA unmovable order 8");
	is_u64(value_of(&l, "0/DMA/Movable/10"), 3, "DMA movable order 10");
	is_u64(value_of(&l, "0/Normal/Movable/0"), 100000, ">100000 counts as 100000");
	is_u64(value_of(&l, "0/Normal/Movable/10"), 323, "Normal movable order 10");
	is_u64(value_of(&l, "0/Normal/Unmovable/blocks"), 324, "Normal: 324 unmovable pageblocks");
	is_u64(value_of(&l, "0/Normal/Reclaimable/blocks"), 28, "Normal: 28 reclaimable");
	is_u64(value_of(&l, "0/DMA/Movable/blocks"), 7, "DMA: 7 movable");
	is_u64(value_of(&l, "0/Normal/Isolate/blocks"), 0, "Normal: no isolated pageblock");
	ft_counter_list_free(&l);
}

static void test_extfrag(void)
{
	static const char unusable[] =
		"Node 0, zone      DMA 0.000 0.000 0.000 0.000 0.000 0.000 0.000 0.000 0.000 0.142 "
		"0.571 \n"
		"Node 0, zone   Normal 0.000 0.000 0.012 0.040 0.087 0.110 0.116 0.120 0.124 0.132 "
		"0.134 \n";
	static const char extfrag[] =
		"Node 0, zone   Normal -1.000 -1.000 -1.000 -1.000 -1.000 -1.000 -1.000 -1.000 "
		"-1.000 -1.000 0.993 \n";
	struct ft_counter_list l = { 0 };

	ok(ft_parse_extfrag(unusable, 0, &l) == 0, "unusable_index parses");
	is_u64(l.n, 22, "2 zones x 11 orders");
	is_u64(value_of(&l, "0/DMA/10"), 571, "DMA order 10: 0.571");
	is_u64(value_of(&l, "0/Normal/2"), 12, "Normal order 2: 0.012");
	ft_counter_list_free(&l);
	ok(ft_parse_extfrag(extfrag, 1000, &l) == 0, "extfrag_index parses");
	is_u64(value_of(&l, "0/Normal/0"), 0, "-1.000 + 1000 = 0");
	is_u64(value_of(&l, "0/Normal/10"), 1993, "0.993 + 1000");
	ft_counter_list_free(&l);
}

int main(void)
{
	test_pagetypeinfo();
	test_extfrag();
	return done_testing();
}
