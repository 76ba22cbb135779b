/* Replay option syntax, the file table and the defaults taken from the recorded host. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/files.h"
#include "replay/host.h"
#include "replay/options.h"
#include "util/parse.h"
#include "tap.h"

static void test_orders(void)
{
	unsigned o[REPLAY_MAX_CONFIGS], n = 0;
	const char *why = NULL;

	ok(parse_order_list("0,4,9", o, &n, &why), "0,4,9 parses");
	ok(n == 3 && o[0] == 0 && o[1] == 4 && o[2] == 9, "in the given order");
	ok(parse_order_list("10", o, &n, &why) && n == 1 && o[0] == 10, "10 is the top order");
	ok(parse_order_list("0,1,2,3,4,5,6,7,8,9,10", o, &n, &why) && n == 11, "all orders");
	ok(!parse_order_list("11", o, &n, &why), "11 refused");
	ok(!parse_order_list("0,0", o, &n, &why), "duplicate refused");
	ok(!parse_order_list("4,", o, &n, &why), "trailing comma refused");
	ok(!parse_order_list(",4", o, &n, &why), "leading comma refused");
	ok(!parse_order_list("", o, &n, &why), "empty refused");
	ok(!parse_order_list("-1", o, &n, &why), "negative refused");
	ok(!parse_order_list("x", o, &n, &why), "junk refused");
}

static void test_device(void)
{
	double lat = 0, bw = 0;
	const char *why = NULL;
	double plat = 0, pbw = 0;

	ok(model_device_preset("hdd", &plat, &pbw), "the model knows hdd");
	ok(parse_device("hdd", &lat, &bw, &why) && lat == plat && bw == pbw, "hdd preset");
	ok(parse_device("sata-ssd", &lat, &bw, &why) && parse_device("nfs", &lat, &bw, &why) &&
	   parse_device("nvme", &lat, &bw, &why), "every named preset");
	ok(parse_device("lat=150,bw=250.5", &lat, &bw, &why) && lat == 150 && bw == 250.5,
	   "explicit latency and bandwidth");
	ok(!parse_device("lat=150", &lat, &bw, &why), "bandwidth missing refused");
	ok(!parse_device("lat=1,bw=0", &lat, &bw, &why), "zero bandwidth refused");
	ok(!parse_device("bw=1,lat=1", &lat, &bw, &why), "other key order refused");
	ok(!parse_device("floppy", &lat, &bw, &why), "unknown device refused");
}

static void test_centisecs(void)
{
	uint64_t ns = 0;
	const char *why = NULL;

	ok(parse_centisecs("3000", &ns, &why) && ns == 30000000000ull, "3000 cs is 30 s");
	ok(parse_centisecs("5s", &ns, &why) && ns == 5000000000ull, "5s");
	ok(parse_centisecs("250ms", &ns, &why) && ns == 250000000ull, "250ms");
	ok(parse_centisecs("0", &ns, &why) && ns == 0, "0 turns it off");
	ok(!parse_centisecs("5 parsecs", &ns, &why), "junk refused");
	ok(!parse_centisecs("", &ns, &why), "empty refused");
}

/* Sizes: binary units, decimals with a unit, no SI suffixes (folio-trace(1), SIZES). */
static void test_size(void)
{
	const char *why = NULL;
	uint64_t v = 0;

	ok(parse_size("4096", &v, &why) && v == 4096, "plain bytes");
	ok(parse_size("4K", &v, &why) && v == 4096, "K is 1024");
	ok(parse_size("4k", &v, &why) && v == 4096, "k too");
	ok(parse_size("1.5G", &v, &why) && v == 1610612736ull, "1.5G is 1.5 GiB");
	ok(parse_size("0.5M", &v, &why) && v == 524288, "0.5M");
	ok(parse_size("2GiB", &v, &why) && v == 2147483648ull, "GiB");
	ok(parse_size("64MiB", &v, &why) && v == 67108864, "MiB");
	ok(parse_size("1KiB", &v, &why) && v == 1024, "KiB");
	ok(parse_size("1TiB", &v, &why) && v == 1099511627776ull, "TiB");
	ok(parse_size("512B", &v, &why) && v == 512, "B is bytes");
	ok(parse_size("1.1K", &v, &why) && v == 1126, "a fraction rounds to the nearest byte");
	ok(!parse_size("4GB", &v, &why) && strstr(why, "GiB"), "4GB refused, saying G or GiB");
	ok(!parse_size("4MB", &v, &why), "4MB refused");
	ok(!parse_size("1.5", &v, &why), "fractional bytes refused");
	ok(!parse_size("1.G", &v, &why), "point without digits refused");
	ok(!parse_size(".5G", &v, &why), "no leading digit refused");
	ok(!parse_size("1e3", &v, &why), "exponent refused");
	ok(!parse_size("0x10", &v, &why), "hex refused");
	ok(!parse_size("1.5.2G", &v, &why), "two points refused");
	ok(!parse_size("-1G", &v, &why), "negative refused");
	ok(!parse_size(" 1G", &v, &why), "leading blank refused");
	ok(!parse_size("16E", &v, &why), "overflow refused");
	ok(!parse_size("1.5Gi", &v, &why), "Gi without B refused");
	ok(!parse_size("1Q", &v, &why), "unknown unit refused");
}

static void test_block_size(void)
{
	unsigned bs = 0;
	const char *why = NULL;

	ok(parse_block_size("4K", &bs, &why) && bs == 4096, "4K");
	ok(parse_block_size("512", &bs, &why) && bs == 512, "512");
	ok(!parse_block_size("3000", &bs, &why), "not a power of two");
	ok(!parse_block_size("128K", &bs, &why), "too large");
	ok(!parse_block_size("256", &bs, &why), "too small");
}

static void test_files(void)
{
	struct file_table t;
	uint32_t a, b, c, again;
	unsigned mismatches = 0;

	file_table_init(&t);
	a = file_table_id(&t, 8, 100);
	b = file_table_id(&t, 9, 100);
	c = file_table_id(&t, 8, 101);
	is_u64(a, 0, "first file gets id 0");
	is_u64(b, 1, "same inode on another device is another file");
	is_u64(c, 2, "ids are dense");
	again = file_table_id(&t, 8, 100);
	is_u64(again, 0, "lookup finds the first file again");
	/* past several table growths, every file keeps its id */
	for (uint64_t ino = 1000; ino < 21000; ino++)
		file_table_id(&t, 3, ino);
	for (uint64_t ino = 1000; ino < 21000; ino++)
		mismatches += file_table_id(&t, 3, ino) != 3 + (ino - 1000);
	is_u64(mismatches, 0, "20000 files keep their ids");
	is_u64(t.nfiles, 20003, "file count");
	is_u64(file_table_id(&t, 9, 100), 1, "early id survives growth");
	file_table_get(&t, 1)->size = 77;
	is_u64(file_table_get(&t, file_table_id(&t, 9, 100))->size, 77, "per-file size kept");
	file_table_release(&t);
}

static void test_host(void)
{
	struct model_config c = { .memory_bytes = 1, .page_size = 4096, .dirty_ratio = 20,
				  .dirty_background_ratio = 10,
				  .dirty_expire_ns = 30000000000ull };
	struct ft_host h = { .mem_bytes = 8ull << 30, .memory_limit = 1ull << 30,
			     .page_size = 16384, .dirty_ratio = 40,
			     .dirty_background_bytes = 1 << 20,
			     .dirty_expire_centisecs = 1500, .ndevs = 2 };
	struct ft_host_dev devs[2] = { { .dev = 7, .block_size = 1024 },
				       { .dev = 8, .block_size = 65536 } };

	replay_host_defaults(&c, 0, &h);
	is_u64(c.memory_bytes, 1ull << 30, "cgroup limit below memory wins");
	is_u64(c.page_size, 16384, "host page size");
	is_u64(c.dirty_ratio, 40, "host dirty_ratio");
	is_u64(c.dirty_background_bytes, 1 << 20, "host dirty_background_bytes");
	is_u64(c.dirty_background_ratio, 10, "unrecorded ratio keeps the default");
	is_u64(c.dirty_expire_ns, 15000000000ull, "host dirty_expire_centisecs");
	is_u64(c.writeback_period_ns, 0, "unrecorded writeback period untouched");

	c.memory_bytes = 123;
	c.dirty_ratio = 5;
	c.dirty_background_bytes = 0;
	replay_host_defaults(&c, MODEL_REC_MEMORY | MODEL_REC_DIRTY_RATIO |
			     MODEL_REC_DIRTY_BACKGROUND, &h);
	is_u64(c.memory_bytes, 123, "--memory wins over the host");
	is_u64(c.dirty_ratio, 5, "--dirty-ratio wins over the host");
	is_u64(c.dirty_background_bytes, 0, "--dirty-background-ratio wins over host bytes");

	h.memory_limit = 0;
	replay_host_defaults(&c, 0, &h);
	is_u64(c.memory_bytes, 8ull << 30, "no limit: host memory");
	h.memory_limit = 64ull << 30;
	replay_host_defaults(&c, 0, &h);
	is_u64(c.memory_bytes, 8ull << 30, "limit above memory: host memory");

	is_u64(replay_host_block_size(&h, devs, 8), 65536, "block size of the file's device");
	is_u64(replay_host_block_size(&h, devs, 9), 0, "unknown device");

	c.ra_rule = RA_RULE_6_6;
	snprintf(h.release, sizeof(h.release), "6.18.44-fc-v1147");
	replay_host_defaults(&c, 0, &h);
	is_u64(c.ra_rule, RA_RULE_6_17, "a 6.18 host reads ahead by the 6.17 rule");
}

static void test_ra_rule(void)
{
	enum ra_rule r = RA_RULE_6_6;

	ok(model_ra_rule_for_release("6.17.0", &r) && r == RA_RULE_6_17, "6.17 is the new rule");
	ok(model_ra_rule_for_release("6.16.9-arch1", &r) && r == RA_RULE_6_11,
	   "6.16: the 6.11 rule");
	ok(model_ra_rule_for_release("6.10.2", &r) && r == RA_RULE_6_6, "6.10: the 6.6 rule");
	ok(model_ra_rule_for_release("6.6.30", &r) && r == RA_RULE_6_6, "6.6 the old one");
	ok(model_ra_rule_for_release("7.2.0", &r) && r == RA_RULE_6_17, "7.2 the new one");
	r = RA_RULE_6_17;
	ok(!model_ra_rule_for_release("synthetic", &r) && r == RA_RULE_6_17,
	   "no release: left as it was");
}

int main(void)
{
	test_orders();
	test_device();
	test_centisecs();
	test_size();
	test_block_size();
	test_files();
	test_host();
	test_ra_rule();
	return done_testing();
}
