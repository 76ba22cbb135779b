/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The /proc parsers of record's sampler, on fixed texts with known values. */
#include <stdlib.h>
#include <string.h>

#include "record/record.h"
#include "tap.h"

static void test_vmstat(void)
{
	struct ft_counter_list l = { 0 };

	ok(ft_parse_vmstat("nr_free_pages 961490\nnr_dirtied 272372\npgpgout 0\n", &l) == 0,
	   "vmstat parses");
	is_u64(l.n, 3, "vmstat: 3 counters");
	is_str(l.names[1], "nr_dirtied", "vmstat: second name");
	is_u64(l.values[1], 272372, "vmstat: second value");
	is_u64(l.values[2], 0, "vmstat: zero value");
	ft_counter_list_free(&l);
}

static void test_meminfo(void)
{
	struct ft_counter_list l = { 0 };

	ok(ft_parse_meminfo("MemTotal:       24683664 kB\nActive(file):      73432 kB\n"
			    "HugePages_Total:       3\nHugepagesize:       2048 kB", &l) == 0,
	   "meminfo parses");
	is_u64(l.n, 4, "meminfo: 4 counters (last line without newline)");
	is_str(l.names[0], "MemTotal", "meminfo: name without the colon");
	is_u64(l.values[0], 24683664ull * 1024, "meminfo: kB turned into bytes");
	is_str(l.names[1], "Active(file)", "meminfo: name with parentheses");
	is_u64(l.values[1], 73432ull * 1024, "meminfo: Active(file) in bytes");
	is_u64(l.values[2], 3, "meminfo: a count stays a count");
	is_u64(l.values[3], 2048ull * 1024, "meminfo: Hugepagesize in bytes");
	ft_counter_list_free(&l);
}

static void test_buddyinfo(void)
{
	struct ft_counter_list l = { 0 };
	const char *text =
		"Node 0, zone      DMA      0      0      0      0      0      0      0      0"
		"      1      1      3 \n"
		"Node 0, zone   Normal    135    398    476   1783    911    335    191     89"
		"     20      8    107 \n";

	ok(ft_parse_buddyinfo(text, &l) == 0, "buddyinfo parses");
	is_u64(l.n, 22, "buddyinfo: 2 zones x 11 orders");
	is_str(l.names[0], "0/DMA/0", "buddyinfo: first name");
	is_str(l.names[10], "0/DMA/10", "buddyinfo: last order of DMA");
	is_u64(l.values[10], 3, "buddyinfo: DMA order 10");
	is_str(l.names[14], "0/Normal/3", "buddyinfo: Normal order 3");
	is_u64(l.values[14], 1783, "buddyinfo: Normal order 3 free blocks");
	is_u64(l.values[21], 107, "buddyinfo: Normal order 10");
	ft_counter_list_free(&l);
}

int main(void)
{
	test_vmstat();
	test_meminfo();
	test_buddyinfo();
	return done_testing();
}
