// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The zone with pageblocks, compaction and a recorded starting state, on known answers:
 * - a recorded state is laid out exactly (free blocks per order, pageblocks per type), and
 *   scaled to a smaller memory;
 * - the watermarks of this machine's zones (min_free_kbytes raised by THP to 67584 KiB);
 * - direct compaction of one movable pageblock for an order-9 folio: its 312 used pages move
 *   to the free blocks at the top of the zone, the pageblock is free, the folio gets it;
 * - compaction is not tried when the fragmentation index says memory is short;
 * - an unmovable pageblock's free pages are stolen for the page cache only when nothing
 *   movable is left, and proactive compaction brings the fragmentation score down.
 */
#include <string.h>

#include "model/model.h"
#include "model-harness.h"
#include "tap.h"

#define MiB	(1024ull * 1024)
#define PAGE	4096ull
#define SEC	1000000000ull
#define PB	512ull

enum { U, M, R, H };

static struct model *make(unsigned order, uint64_t memory, const struct model_zone_state *st,
			  void (*tweak)(struct model_config *))
{
	struct model_config c;

	model_config_defaults(&c);
	c.policy = FOLIO_POLICY_FIXED;
	c.write_policy = WRITE_POLICY_FIXED;
	c.order = order;
	c.memory_bytes = memory;
	c.readahead = false;
	if (st) {
		c.start_state = START_RECORDED;
		c.start = st;
	}
	if (tweak)
		tweak(&c);
	return checked_model(&c);
}

static void counts_are(const uint64_t *got, const uint64_t *want, const char *what)
{
	int same = memcmp(got, want, (MODEL_MAX_ORDER + 1) * sizeof(*got)) == 0;

	ok(same, "%s", what);
	for (unsigned k = 0; !same && k <= MODEL_MAX_ORDER; k++)
		diag("order %u: got %llu want %llu", k, (unsigned long long)got[k],
		     (unsigned long long)want[k]);
}

/* /proc/pagetypeinfo of this machine (DMA, DMA32 and Normal summed), once. */
static const struct model_zone_state host = {
	.pageblocks = { [U] = 325, [M] = 3039, [R] = 28 },
	.free = {
		[U] = { 1795, 540, 2308, 1789, 986, 343, 174, 164, 74, 0, 2 },
		[M] = { 3922, 11505, 6437, 4108, 2785, 457, 47, 10, 8, 15, 1079 },
		[R] = { 0, 95, 55, 14, 45, 61, 37, 14, 10, 0, 0 },
	},
	.zones = 3,
};

static void test_recorded_layout(void)
{
	uint64_t zone = (325 + 3039 + 28) * PB * PAGE, want[MODEL_MAX_ORDER + 1];
	struct model *m = make(9, zone, &host, NULL);
	struct model_metrics x;

	for (unsigned k = 0; k <= MODEL_MAX_ORDER; k++)
		want[k] = host.free[U][k] + host.free[M][k] + host.free[R][k];
	x = metrics(m);
	counts_are(x.free_blocks, want, "the recorded free blocks, order by order");
	ok(x.pageblocks[U] == 325 && x.pageblocks[M] == 3039 && x.pageblocks[R] == 28,
	   "the recorded pageblocks: 325 unmovable, 3039 movable, 28 reclaimable");
	is_u64(x.zone_pages, 3392 * PB, "the zone is the pageblocks'");
	/* min_free_kbytes: int_sqrt(6946816 * 16) = 10542 < khugepaged's 512 * 3 * 11 pages */
	is_u64(x.wmark_min, 16896, "min watermark 16896 pages (67584 KiB)");
	/* step max(16896 / 4, 1736704 * 10 / 10000) = 4224 */
	is_u64(x.wmark_low, 21120, "low watermark min + 4224");
	is_u64(x.wmark_high, 25344, "high watermark low + 4224");
	model_free(m);

	/* half the memory: every count halved (rounded), pageblocks too */
	m = make(9, zone / 2, &host, NULL);
	x = metrics(m);
	is_u64(x.zone_pages, 1696 * PB, "half the memory: 1696 pageblocks");
	ok(x.pageblocks[U] == 163 && x.pageblocks[R] == 14 && x.pageblocks[M] == 1519,
	   "pageblocks halved: 163 + 1519 + 14");
	is_u64(x.free_blocks[10], 541, "order-10 blocks halved: 1 + 540");
	model_free(m);
}

/*
 * Eight movable pageblocks, each with free blocks of orders 7, 6 and 3 (200 pages) and 312
 * pages others hold (movable): 1600 pages free, no order-9 block. An order-9 folio: the
 * fragmentation index of order 9 is 1000 - (1000 + 1600000 / 512) / 24 = 829 > 500, and
 * 1600 free pages are above the low watermark (255) plus compact_gap (1024): direct
 * compaction runs. The migration scanner takes pageblock 0, the free scanner gives the
 * highest free blocks, all 200 pages of pageblock 7 and 112 of pageblock 6; pageblock 0 is
 * then free, and the folio takes it.
 */
static const struct model_zone_state eight = {
	.pageblocks = { [M] = 8 },
	.free = { [M] = { [3] = 8, [6] = 8, [7] = 8 } },
	.zones = 1,
};

static void test_compact_one_pageblock(void)
{
	struct model *m = make(9, 8 * PB * PAGE, &eight, NULL);
	uint64_t want[MODEL_MAX_ORDER + 1] = { [3] = 8, [6] = 8, [7] = 8 };
	struct model_metrics x = metrics(m);

	counts_are(x.free_blocks, want, "eight pageblocks with 200 free pages each");
	/* 4096 pages: min_free_kbytes 512, 5% cap 204 pages; step max(51, 4) */
	ok(x.wmark_min == 204 && x.wmark_low == 255 && x.wmark_high == 306,
	   "watermarks 204/255/306");
	op(m, 1 * SEC, MODEL_READ, 0, 0, 2 * MiB, 2 * MiB);
	x = metrics(m);
	is_u64(x.alloc_by_order[9], 1, "the order-9 folio was allocated");
	is_u64(x.alloc_fallbacks, 0, "without falling back");
	is_u64(x.compaction_demand, 1, "after one fragmentation failure");
	ok(x.compact_stall == 1 && x.compact_success == 1 && x.compact_fail == 0,
	   "one direct compaction, a success");
	is_u64(x.compact_migrated, 312, "312 pages migrated");
	is_u64(x.compact_migrate_scanned, 512, "the migration scanner looked at one pageblock");
	is_u64(x.compact_free_scanned, 512, "the free scanner went down one pageblock");
	is_u64(x.compact_daemon_wake, 1, "kcompactd was woken");
	is_u64(x.compact_daemon_migrated, 0, "and found nothing to do (below the watermark)");
	is_u64(x.zone_free_pages, 1600 - 512, "1088 pages free after the folio");
	model_free(m);
}

/*
 * compaction_suitable() on three zones of eight movable pageblocks, an order-9 folio that may
 * not fall back (--min-order=9): with 320 pages free there is no room at all; with 1088 free
 * (orders 3 and 7, index 1000 - (1000 + 2125) / 16 = 805) the free pages are below the low
 * watermark plus compact_gap (255 + 1024); with 2048 free in eight order-8 blocks the index
 * is 1000 - (1000 + 4000) / 8 = 375 <= vm.extfrag_threshold (500): memory is short, not
 * fragmented. No direct compaction in any of them, and the allocations fail (one per page
 * the read path tries).
 */
static const struct model_zone_state scarce = {
	.pageblocks = { [M] = 8 },
	.free = { [M] = { [0] = 64, [2] = 64 } },
	.zones = 1,
};

static const struct model_zone_state short_blocks = {
	.pageblocks = { [M] = 8 },
	.free = { [M] = { [3] = 8, [7] = 8 } },
	.zones = 1,
};

static const struct model_zone_state short_memory = {
	.pageblocks = { [M] = 8 },
	.free = { [M] = { [8] = 8 } },
	.zones = 1,
};

static void min_order_9(struct model_config *c)
{
	c->min_order = 9;
}

static void test_compaction_not_suitable(void)
{
	static const struct {
		const struct model_zone_state *st;
		const char *what;
	} cases[] = {
		{ &scarce, "320 pages free: no room, no compaction" },
		{ &short_blocks, "1088 free < low + compact_gap: compaction skipped" },
		{ &short_memory, "index 375 <= extfrag_threshold: compaction skipped" },
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct model *m = make(9, 8 * PB * PAGE, cases[i].st, min_order_9);
		struct model_metrics x;

		op(m, 1 * SEC, MODEL_READ, 0, 0, 2 * MiB, 2 * MiB);
		x = metrics(m);
		ok(x.compact_stall == 0 && x.alloc_failures > 0 && x.alloc_by_order[9] == 0,
		   "%s", cases[i].what);
		model_free(m);
	}
}

static void unmovable_half(struct model_config *c)
{
	c->unmovable_blocks_pct = 50;
	c->block_fill_pct = 50;
}

/*
 * Eight pageblocks, four of them UNMOVABLE and half used (--unmovable-blocks=50,
 * --block-fill=50): 2048 + 1024 pages free. Order-0 page cache takes the 2048 movable pages
 * first; only then does it fall back, stealing from the unmovable pageblocks (a movable
 * allocation below order 4 never claims one: can_steal_fallback()).
 */
static void test_steal_for_cache(void)
{
	struct model *m = make(0, 8 * PB * PAGE, NULL, unmovable_half);
	struct model_metrics x = metrics(m);

	ok(x.pageblocks[U] == 4 && x.pageblocks[M] == 4, "four pageblocks made unmovable");
	is_u64(x.zone_free_pages, 4 * PB + 4 * PB / 2, "3072 pages free");
	op(m, 1 * SEC, MODEL_READ, 0, 0, 2048 * PAGE, 3072 * PAGE);
	x = metrics(m);
	ok(x.extfrag_steals == 0 && x.extfrag_claims == 0, "2048 pages: all movable, no fallback");
	op(m, 2 * SEC, MODEL_READ, 0, 2048 * PAGE, 100 * PAGE, 3072 * PAGE);
	x = metrics(m);
	is_u64(x.extfrag_steals, 100, "100 more pages: each stolen from an unmovable pageblock");
	ok(x.pageblocks[U] == 4, "the pageblocks stay unmovable");
	model_free(m);
}

/*
 * Eight UNMOVABLE pageblocks with 1024 free pages, every free block of order 2: no folio above
 * order 2 can be had, and compaction has no movable pageblock to move to or from. Folios are
 * at least order 2 (--min-order=2), so every larger order readahead asks for is costly and
 * reclaims nothing (compaction_ready()). A 1 MiB file read in 128 KiB reads by the 6.17 rule
 * (ra_pages 32): the first window (32 pages at 0, its async part 16) is read at the minimum
 * order. Each marker hit then pushes a 32-page window forward, ra->order 2 + 2 = 4 for the one
 * at 32, then 5 (ilog2 of the window) (mm/readahead.c page_cache_async_ra(), 6.18); its first
 * folio cannot be allocated, page_cache_ra_order() breaks out and do_page_cache_ra() reads all
 * 32 pages at order 2, the folio at start + size - async_size = start marked, so the next read
 * finds the mark. Seven windows after the first, each one fallback; 64 order-2 folios, every
 * page once, one read I/O per window: 8. (Stepping down and advancing by the order asked for,
 * an order-2 folio at 32, then at 48... leave pages to misses.)
 */
static const struct model_zone_state order2_only = {
	.pageblocks = { [U] = 8 },
	.free = { [U] = { [2] = 256 } },
	.zones = 1,
};

static void readahead_6_17(struct model_config *c)
{
	c->policy = FOLIO_POLICY_READAHEAD;
	c->readahead = true;
	c->ra_rule = RA_RULE_6_17;
	c->ra_pages = 32;
	c->io_pages = 32;
	c->min_order = 2;
}

static void test_readahead_no_smaller_order(void)
{
	struct model *m = make(9, 8 * PB * PAGE, &order2_only, readahead_6_17);
	uint64_t want[MODEL_MAX_ORDER + 1] = { [2] = 64 };
	struct model_metrics x;

	for (uint64_t pos = 0; pos < MiB; pos += 128 * 1024)
		op(m, 1 * SEC + pos, MODEL_READ, 0, pos, 128 * 1024, MiB);
	x = metrics(m);
	counts_are(x.insertions_by_order, want, "readahead without larger blocks: 64 order-2 folios");
	is_u64(x.inserted_pages, 256, "every page of the file read once");
	is_u64(x.alloc_fallbacks, 7, "one fallback per window after the first");
	is_u64(x.alloc_failures, 0, "no allocation failed for good");
	is_u64(x.evictions, 0, "costly orders: no reclaim");
	is_u64(x.read_ios, 8, "one read I/O per window: no page left to a miss");
	is_u64(x.read_hit_requests + x.read_waited_requests, 7, "every read after the first cached");
	model_free(m);
}

/*
 * Reclaim or compaction first (mm/page_alloc.c __alloc_pages_slowpath(), 6.18): eight movable
 * pageblocks, 1000 pages free in order-0 blocks that cannot merge, the rest others' movable
 * pages. 64 one-page files read first hold 64 order-0 folios (936 free, above the low
 * watermark 255 plus the folio). Then a 4-page file wants an order-2 folio: no block of order
 * 2, orders 1 to 3 are not costly, so direct reclaim runs first: SWAP_CLUSTER_MAX = 32 pages,
 * the 32 oldest folios, whose pages go back where they were and merge with nothing; then
 * direct compaction (sync-light) moves others' pages and frees a block: one stall, a success,
 * 32 evictions. A 16-page file wants order 4, costly: async compaction first, which frees the
 * block, and no reclaim at all.
 */
static const struct model_zone_state order0_free = {
	.pageblocks = { [M] = 8 },
	.free = { [M] = { [0] = 1000 } },
	.zones = 1,
};

static void no_proactive(struct model_config *c)
{
	c->compaction_proactiveness = 0;	/* only the allocation compacts */
}

static struct model *small_files_read(unsigned order)
{
	struct model *m = make(order, 8 * PB * PAGE, &order0_free, no_proactive);

	for (uint32_t f = 1; f <= 64; f++)
		op(m, 1 * SEC + f, MODEL_READ, f, 0, PAGE, PAGE);
	return m;
}

static void test_reclaim_before_compaction(void)
{
	struct model *m = small_files_read(2);
	struct model_metrics x = metrics(m);

	ok(x.evictions == 0 && x.zone_free_pages == 936 && x.compaction_demand == 0,
	   "64 order-0 folios cached, 936 pages free");
	op(m, 2 * SEC, MODEL_READ, 0, 0, 4 * PAGE, 4 * PAGE);
	x = metrics(m);
	is_u64(x.alloc_by_order[2], 1, "order 2: the folio was allocated");
	is_u64(x.alloc_fallbacks, 0, "order 2: no fallback");
	is_u64(x.evicted_pages, 32, "order 2: direct reclaim first, 32 pages");
	ok(x.compact_stall == 1 && x.compact_success == 1,
	   "order 2: then one direct compaction, a success");
	model_free(m);

	m = small_files_read(4);
	op(m, 2 * SEC, MODEL_READ, 0, 0, 16 * PAGE, 16 * PAGE);
	x = metrics(m);
	is_u64(x.alloc_by_order[4], 1, "order 4: the folio was allocated");
	is_u64(x.evicted_pages, 0, "order 4 (costly): no reclaim");
	ok(x.compact_stall == 1 && x.compact_success == 1, "order 4: async compaction first, a success");
	model_free(m);
}

int main(void)
{
	test_recorded_layout();
	test_compact_one_pageblock();
	test_compaction_not_suitable();
	test_steal_for_cache();
	test_readahead_no_smaller_order();
	test_reclaim_before_compaction();
	return done_testing();
}
