/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The /proc parsers of record's sampler, on fixed texts with known values; the FT_DEVICE
 * description, on mount options and a sysfs tree made here.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record.h"
#include "scratch.h"
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

static void test_device_options(void)
{
	__u16 huge, flags;

	ft_device_options("tmpfs", "rw,size=1048576k,huge=within_size,inode64", &huge, &flags);
	ok(huge == FT_HUGE_WITHIN_SIZE && flags == 0, "tmpfs huge=within_size (%u, %u)", huge,
	   flags);
	ft_device_options("tmpfs", "rw,size=1048576k,inode64", &huge, &flags);
	ok(huge == FT_HUGE_NEVER, "tmpfs without huge=: never (%u)", huge);
	ft_device_options("ext4", "rw,data=journal", &huge, &flags);
	ok(huge == FT_HUGE_UNKNOWN && flags == FT_DEV_DATA_JOURNAL, "ext4 data=journal (%u, %u)",
	   huge, flags);
	ft_device_options("xfs", "rw,sync,dax=always,attr2", &huge, &flags);
	ok(flags == (FT_DEV_DAX | FT_DEV_SYNC), "xfs sync,dax=always (%u)", flags);
	ft_device_options("ext4", "rw,data=ordered", &huge, &flags);
	ok(flags == 0, "ext4 data=ordered: no flag (%u)", flags);
}

/* A sysfs of a disk sda (8:0) with a partition sda1 (8:1), and a btrfs over a file loop9. */
static void make_sysfs(const char *t)
{
	char cmd[1024];

	snprintf(cmd, sizeof(cmd), "mkdir -p %1$s/devices/sda/sda1 %1$s/devices/sda/queue "
		 "%1$s/dev/block %1$s/class/bdi/8:0 %1$s/fs/btrfs/f00d/devices %1$s/fs/btrfs/f00d/bdi"
		 " && ln -s ../../devices/sda %1$s/dev/block/8:0"
		 " && ln -s ../../devices/sda/sda1 %1$s/dev/block/8:1", t);
	if (system(cmd) != 0)
		return;
	put_file(t, "devices/sda/dev", "8:0\n");
	put_file(t, "devices/sda/sda1/partition", "1\n");
	put_file(t, "devices/sda/queue/max_sectors_kb", "1280\n");
	put_file(t, "class/bdi/8:0/read_ahead_kb", "128\n");
	put_file(t, "fs/btrfs/f00d/devices/loop9", "");
	put_file(t, "fs/btrfs/f00d/bdi/read_ahead_kb", "4096\n");
	put_file(t, "loop9", "");
}

static void test_device_describe(void)
{
	char t[] = "/tmp/ft-sysfs.XXXXXX", src[64], cmd[64];
	struct ft_mount m = { .fstype = "ext4", .options = "rw", .source = "/dev/sda1" };
	struct ft_device d;

	if (!mkdtemp(t)) {
		tap_skip("no temporary directory");
		return;
	}
	make_sysfs(t);
	m.dev = 8u << 20 | 1;
	ft_device_describe(&m, t, 4096, &d);
	ok(d.hdr.type == FT_DEVICE && d.dev == m.dev, "FT_DEVICE of 8:1");
	ok(d.ra_pages == 32 && d.io_pages == 320,
	   "a partition reads through its disk's bdi and queue: ra 32, io 320 pages (%u, %u)",
	   d.ra_pages, d.io_pages);
	snprintf(src, sizeof(src), "%s/loop9", t);
	m = (struct ft_mount){ .dev = 46, .fstype = "btrfs", .options = "rw", .source = src };
	ft_device_describe(&m, t, 4096, &d);
	ok(d.ra_pages == 1024 && d.io_pages == 0,
	   "btrfs: its own bdi's readahead, no io_pages (%u, %u)", d.ra_pages, d.io_pages);
	m = (struct ft_mount){ .dev = 40, .fstype = "tmpfs", .options = "rw,huge=always",
			       .source = "tmpfs" };
	ft_device_describe(&m, t, 4096, &d);
	ok(d.ra_pages == 0 && d.io_pages == 0 && d.huge == FT_HUGE_ALWAYS,
	   "tmpfs: no bdi, huge=always (%u, %u, %u)", d.ra_pages, d.io_pages, d.huge);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", t);
	if (system(cmd) != 0)
		diag("could not remove %s", t);
}

int main(void)
{
	test_vmstat();
	test_meminfo();
	test_buddyinfo();
	test_device_options();
	test_device_describe();
	return done_testing();
}
