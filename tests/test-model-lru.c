// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model unit tests: LRU lengths by order, the plain LRU against a textbook LRU, cyclic scans,
 * two-list promotion/eviction order, readahead orders, EOF caps, write-path orders.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/lru/lru.h"
#include "model/model.h"
#include "model/filemap/placement.h"
#include "model/variants.h"
#include "model-harness.h"
#include "tap.h"

#define KiB	1024ull
#define MiB	(1024ull * 1024)
#define PAGE	4096ull

static struct model *new_model(unsigned order, uint64_t memory, enum lru_kind lru, bool ra)
{
	struct model_config c;
	const char *why = NULL;
	struct model *m;

	model_config_defaults(&c);
	c.policy = FOLIO_POLICY_FIXED;	/* folios of the order: counts known exactly */
	c.order = order;
	c.memory_bytes = memory;
	c.lru = lru;
	c.readahead = ra;
	m = model_new(&c, &why);
	if (!m)
		diag("model_new: %s", why);
	return m;
}

static void do_op(struct model *m, enum model_op op, uint32_t file, uint64_t pos, uint64_t len,
		  uint64_t isize)
{
	struct model_access a = { .ts = 0, .file_id = file, .op = op, .pos = pos, .len = len,
				  .isize = isize };

	model_access(m, &a);
}

static void rd(struct model *m, uint32_t file, uint64_t pos, uint64_t len, uint64_t isize)
{
	do_op(m, MODEL_READ, file, pos, len, isize);
}

/*
 * 64 MiB read sequentially in 64 KiB reads: one LRU entry per folio. Without readahead the
 * entries after read i are 16i (order 0), i (order 4), ceil(i/32) (order 9): the means over
 * the 1024 reads are 8200, 512.5 and 16.5.
 */
static void test_lru_entries_by_order(void)
{
	static const struct { unsigned order; uint64_t entries; double mean; } want[] = {
		{ 0, 16384, 8200 }, { 4, 1024, 512.5 }, { 9, 32, 16.5 },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		for (int ra = 0; ra < 2; ra++) {
			struct model *m = new_model(want[i].order, 256 * MiB, LRU_TWO_LIST, ra);
			struct model_metrics x;
			char what[80];

			for (uint64_t pos = 0; pos < 64 * MiB; pos += 64 * KiB)
				rd(m, 0, pos, 64 * KiB, 64 * MiB);
			x = metrics(m);
			snprintf(what, sizeof(what), "order %u%s: LRU entries at the end",
				 want[i].order, ra ? " readahead" : "");
			is_u64(x.lru_entries.max, want[i].entries, what);
			if (!ra) {
				snprintf(what, sizeof(what), "order %u: mean LRU entries",
					 want[i].order);
				is_dbl(x.lru_entries.sum / (double)x.lru_entries.samples,
				       want[i].mean, 1e-9, what);
			}
			snprintf(what, sizeof(what), "order %u: cached pages", want[i].order);
			is_u64(x.lru_pages.max, 16384, what);
			snprintf(what, sizeof(what), "order %u: read I/O bytes", want[i].order);
			is_u64(x.read_io_bytes, 64 * MiB, what);
			snprintf(what, sizeof(what), "order %u: no evictions", want[i].order);
			is_u64(x.evictions, 0, what);
			snprintf(what, sizeof(what), "order %u: bytes ever touched", want[i].order);
			is_u64(x.touched_bytes, 64 * MiB, what);
			model_free(m);
		}
	}
}

/* A textbook LRU of pages: an array ordered by recency (fine for small capacities). */
struct textbook_lru {
	uint64_t *page;
	size_t n, cap;
};

static bool textbook_access(struct textbook_lru *l, uint64_t page)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (l->page[i] == page)
			break;
	if (i < l->n) {		/* hit: move to the front */
		memmove(&l->page[1], &l->page[0], i * sizeof(uint64_t));
		l->page[0] = page;
		return true;
	}
	if (l->n < l->cap)
		l->n++;
	memmove(&l->page[1], &l->page[0], (l->n - 1) * sizeof(uint64_t));
	l->page[0] = page;
	return false;
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Order 0, plain LRU, no readahead: misses equal the textbook LRU's, page for page. */
static void test_plain_lru_matches_textbook(void)
{
	const size_t cap = 300;
	const uint64_t file_pages = 1000;
	struct textbook_lru tb = { .page = calloc(cap, sizeof(uint64_t)), .cap = cap };
	struct model *m = new_model(0, cap * PAGE, LRU_PLAIN, false);
	uint64_t seed = 12345, tb_misses = 0, tb_miss_requests = 0;
	const unsigned requests = 20000;
	struct model_metrics x;

	for (unsigned r = 0; r < requests; r++) {
		/* skewed: half the requests in the first 200 pages, lengths 1-4 pages */
		uint64_t v = xorshift(&seed);
		uint64_t first = (v & 1) ? (v >> 8) % 200 : (v >> 8) % (file_pages - 4);
		uint64_t n = 1 + (v >> 40) % 4;
		bool miss = false;

		for (uint64_t p = first; p < first + n; p++)
			if (!textbook_access(&tb, p)) {
				tb_misses++;
				miss = true;
			}
		tb_miss_requests += miss;
		rd(m, 1, first * PAGE, n * PAGE, file_pages * PAGE);
	}
	x = metrics(m);
	is_u64(x.inserted_pages, tb_misses, "plain LRU: page misses equal the textbook LRU's");
	is_u64(x.read_requests - x.read_hit_requests, tb_miss_requests,
	       "plain LRU: missing requests equal the textbook LRU's");
	is_u64(x.evictions, tb_misses - cap, "plain LRU: evictions = misses - capacity");
	ok(tb_misses > cap && x.read_hit_requests > 0, "the trace both hits and misses (%llu)",
	   (unsigned long long)tb_misses);
	model_free(m);
	free(tb.page);
}

/* A cyclic scan over one page more than memory misses every time (plain and two-list). */
static void test_cyclic_scan(void)
{
	const uint64_t mem_pages = 64, cycles = 10;

	for (int two = 0; two < 2; two++) {
		struct model *m = new_model(0, mem_pages * PAGE, two ? LRU_TWO_LIST : LRU_PLAIN,
					    false);
		struct model_metrics x;

		for (uint64_t c = 0; c < cycles; c++)
			for (uint64_t p = 0; p <= mem_pages; p++)
				rd(m, 0, p * PAGE, PAGE, (mem_pages + 1) * PAGE);
		x = metrics(m);
		is_u64(x.read_hit_requests, 0, two ? "two-list cyclic scan: no hit" :
						     "plain cyclic scan: no hit");
		is_u64(x.inserted_pages, cycles * (mem_pages + 1), "every access inserts a page");
		is_u64(x.refaults, (cycles - 1) * (mem_pages + 1),
		       "every miss after the first cycle is a refault");
		is_u64(x.refault_activations, 0, "refault distance too long to activate");
		model_free(m);
	}
}

static bool hit(struct model *m, uint64_t page)
{
	uint64_t before = metrics(m).read_hit_requests;

	rd(m, 0, page * PAGE, PAGE, 64 * PAGE);
	return metrics(m).read_hit_requests == before + 1;
}

/* Two-list: the second access activates; eviction takes the inactive tail. */
static void test_two_list_order(void)
{
	struct model *m = new_model(0, 4 * PAGE, LRU_TWO_LIST, false);
	struct model_metrics x;

	/* A B C D fill memory; A read again is activated; E evicts B (inactive tail) */
	for (uint64_t p = 0; p < 4; p++)
		ok(!hit(m, p), "first read of page %llu misses", (unsigned long long)p);
	ok(hit(m, 0), "A hits");
	is_u64(metrics(m).activations, 1, "second read of A activates it");
	ok(!hit(m, 4), "E misses");
	ok(hit(m, 0), "A (active) survives");
	ok(!hit(m, 1), "B was the inactive tail: evicted");
	ok(!hit(m, 2), "C was next: evicted by B");
	ok(hit(m, 0), "A still cached");
	ok(hit(m, 4), "E still cached");
	x = metrics(m);
	is_u64(x.evictions, 3, "three evictions");
	is_u64(x.deactivations, 0, "inactive never low");
	model_free(m);

	/*
	 * All four active, and the statistics flushed then (a memory.stat read): the empty
	 * inactive list takes the active tail (A); the reclaim reads the lists as flushed,
	 * inactive (0) low against active (4), and a reclaim of lists that small scans them
	 * whole only at priority 0: 3 active pages per page taken, so B, C and D follow A over.
	 */
	m = new_model(0, 4 * PAGE, LRU_TWO_LIST, false);
	for (int round = 0; round < 2; round++)
		for (uint64_t p = 0; p < 4; p++)
			hit(m, p);
	is_u64(metrics(m).activations, 4, "A-D read twice: all active");
	model_access(m, &(struct model_access){ .op = MODEL_STATS_FLUSH });
	ok(!hit(m, 4), "E misses");
	x = metrics(m);
	is_u64(x.deactivations, 4, "A, then B, C and D deactivated (3 per page taken)");
	is_u64(x.evictions, 1, "one eviction");
	ok(!hit(m, 0), "A, the old active tail, was evicted");
	ok(!hit(m, 1), "B, deactivated next, was evicted by A's read");
	ok(!hit(m, 2), "C was evicted by B's");
	ok(hit(m, 4), "E, inserted after the deactivations, still cached");
	model_free(m);

	/*
	 * The same without the flush: the lists as last flushed (empty) are not low, so only the
	 * refill of the empty inactive list moves A over; B, C and D stay active.
	 */
	m = new_model(0, 4 * PAGE, LRU_TWO_LIST, false);
	for (int round = 0; round < 2; round++)
		for (uint64_t p = 0; p < 4; p++)
			hit(m, p);
	ok(!hit(m, 4), "not flushed: E misses");
	is_u64(metrics(m).deactivations, 1, "not flushed: A alone moved over (the refill)");
	ok(hit(m, 1) && hit(m, 2) && hit(m, 3), "not flushed: B, C and D still cached");
	model_free(m);
}

/*
 * MGLRU in four pages, worked through mm/vmscan.c by hand. The lruvec starts with max_seq 3
 * and min_seq 0: new folios join generation 1 (min_seq + 1), and the first reclaim moves
 * min_seq past the empty generation 0, leaving three, whose oldest new folios then join.
 */
static void test_mglru_generations(void)
{
	struct model *m = new_model(0, 4 * PAGE, LRU_MGLRU, false);
	struct model_metrics x;

	/*
	 * A-D read five times each, round robin (a read in the folio the last one ended in is
	 * no access): PG_referenced, PG_workingset and three refs, folio_lru_refs() 4, which
	 * sort_folio() protects whatever the controller says.
	 */
	for (int round = 0; round < 5; round++)
		for (uint64_t p = 0; p < 4; p++)
			hit(m, p);
	/*
	 * E: all four protected into generation 2 (A first, so D ends at its tail), their
	 * counts cleared; generation 1 empty, min_seq 2, two generations left: aging opens a
	 * fourth (max_seq 4); D, now tier 0, is evicted; E joins generation 2.
	 */
	ok(!hit(m, 4), "E misses");
	x = metrics(m);
	is_u64(x.evictions, 1, "one eviction");
	/* by age from max_seq: A-D sat in generation 1 (age 2), A-C and E in 2 (age 2 again) */
	is_u64(x.lru_gen2_pages.max, 4, "the four folios were two generations below the youngest");
	is_u64(x.lru_gen0_pages.max + x.lru_gen1_pages.max + x.lru_gen3_pages.max, 0,
	       "no other generation held a page");
	/*
	 * D refaults while min_seq is still 2: recent, an activation in the kernel's count,
	 * but with no accesses in its shadow it is not restored; C, the tail, goes for it
	 */
	ok(!hit(m, 3), "D, the last protected, was evicted: it misses");
	x = metrics(m);
	is_u64(x.refaults, 1, "D refaulted");
	is_u64(x.refault_activations, 1, "recent (same min_seq): counted as activated");
	is_u64(x.evictions, 2, "C evicted for it");
	ok(hit(m, 4), "E cached");
	ok(hit(m, 0), "A cached");
	ok(hit(m, 1), "B cached");
	ok(hit(m, 3), "D cached");
	model_free(m);

	/*
	 * Tiers: A read four times (folio_lru_refs() 3, tier 2), B five (4), C and D once.
	 * With no refaults the controller protects no tier (get_tier_idx() 3): only B's full
	 * count is. E evicts A, the tail; F finds B protected and evicts C.
	 */
	m = new_model(0, 4 * PAGE, LRU_MGLRU, false);
	for (uint64_t p = 0; p < 4; p++)
		hit(m, p);
	for (int round = 0; round < 3; round++) {
		hit(m, 1);
		hit(m, 0);
	}
	hit(m, 1);
	ok(!hit(m, 4), "E misses");
	ok(!hit(m, 5), "F misses");
	x = metrics(m);
	is_u64(x.evictions, 2, "two evictions");
	ok(hit(m, 1), "B (four accesses beyond the first) protected");
	ok(hit(m, 3), "D cached");
	ok(hit(m, 4), "E cached");
	ok(hit(m, 5), "F cached");
	is_u64(metrics(m).evictions, 2, "no eviction since");
	model_free(m);
}

/*
 * The one-pass scan of the kernel lab's case: a hot set read four times survives a scan
 * twice the memory with the two lists (activated), and not with MGLRU (tier 2, unprotected
 * without refaults), as Debian's 6.1 and 6.12 kernels do.
 */
static void test_hot_set_through_scan(void)
{
	for (int mglru = 0; mglru <= 1; mglru++) {
		struct model *m = new_model(0, 64 * PAGE, mglru ? LRU_MGLRU : LRU_TWO_LIST, false);
		unsigned hits = 0;

		for (int round = 0; round < 4; round++)
			for (uint64_t p = 0; p < 16; p++)
				hit(m, p);
		for (uint64_t p = 100; p < 228; p++)
			hit(m, p);
		for (uint64_t p = 0; p < 16; p++)
			hits += hit(m, p);
		is_u64(hits, mglru ? 0 : 16, mglru ? "mglru: the hot set is lost to the scan" :
		       "two-list: the hot set (active) survives the scan");
		model_free(m);
	}
}

/* filemap_read: a read starting in the folio the previous read ended in is not an access. */
static void test_same_folio_skip(void)
{
	for (unsigned order = 0; order <= 9; order += 9) {
		struct model *m = new_model(order, 16 * MiB, LRU_TWO_LIST, false);

		rd(m, 0, 0, PAGE, 4 * MiB);
		rd(m, 0, 0, PAGE, 4 * MiB);	/* same page again: skipped */
		is_u64(metrics(m).activations, 0, "re-read of the same page does not activate");
		rd(m, 0, PAGE, PAGE, 4 * MiB);
		rd(m, 0, 0, PAGE, 4 * MiB);
		is_u64(metrics(m).activations, order ? 0 : 1,
		       order ? "order 9: small reads inside one folio count once" :
			       "order 0: page 0 read after page 1 activates");
		model_free(m);
	}
}

/* A file of 5 pages at order 9: an order-2 folio and an order-0 one, never past EOF. */
static void test_eof_cap(void)
{
	struct model *m = new_model(9, 16 * MiB, LRU_TWO_LIST, false);
	struct model_metrics x;

	rd(m, 0, 0, 20000, 20000);
	x = metrics(m);
	is_u64(x.insertions_by_order[2], 1, "one order-2 folio");
	is_u64(x.insertions_by_order[0], 1, "one order-0 folio");
	is_u64(x.insertions, 2, "two folios in all");
	is_u64(x.read_io_bytes, 20480, "read I/O: 5 blocks");
	model_free(m);

	is_u64(place_fixed_order(0, 9, 0, 5), 2, "place_fixed_order(0, eof 5) = 2");
	is_u64(place_fixed_order(4, 9, 0, 5), 0, "place_fixed_order(4, eof 5) = 0");
	is_u64(place_fixed_order(700, 9, 0, 1024), 9, "inside the file: the full order");
	is_u64(place_fixed_order(1000, 9, 0, 1024), 9, "EOF 1024: order 9 at 512 fits");
	is_u64(place_fixed_order(990, 9, 0, 1000), 5, "EOF 1000: order 5 at 960");
}

/*
 * Cold sequential reads of a 64 MiB file in reads of one size, with the readahead policy at
 * order 9: the folios each rule adds, by order. The 6.17 rows with ra_pages 2048 are what
 * this 6.18 kernel added reading a 64 MiB ext4 file with dd (read_ahead_kb 8192,
 * max_sectors_kb 4096); the others follow the rules step by step: 6.17 keeps ra->order
 * and aligns each window's end, so 4 KiB reads reach order 5 (ilog2 of the 32-page window)
 * in 521 folios; 6.6-6.16 start each async window at its marked folio, which 4 KiB reads
 * leave misaligned, so their folios stay at orders 2-4; a request above the window
 * reads up to io_pages at once (ractl_max_pages()), and synchronous windows are order 0 from
 * 6.17 on.
 */
struct ra_case {
	enum ra_rule rule;
	uint64_t bs;
	unsigned ra_pages, io_pages;
	uint64_t orders[MODEL_MAX_ORDER + 1];
};

static const struct ra_case ra_cases[] = {
	{ RA_RULE_6_17, 4096, 32, 32, { [0] = 4, [2] = 3, [3] = 2, [4] = 2, [5] = 510 } },
	{ RA_RULE_6_17, 4096, 32, 1024, { [0] = 4, [2] = 3, [3] = 2, [4] = 2, [5] = 510 } },
	{ RA_RULE_6_17, 128 * KiB, 32, 32, { [0] = 32, [2] = 8, [4] = 2, [5] = 509 } },
	{ RA_RULE_6_17, MiB, 32, 32, { [0] = 32, [2] = 8, [4] = 2, [5] = 509 } },
	{ RA_RULE_6_17, MiB, 32, 256, { [0] = 256, [2] = 64, [4] = 16, [6] = 4, [8] = 60 } },
	{ RA_RULE_6_17, MiB, 32, 1024, { [0] = 256, [2] = 64, [4] = 16, [6] = 4, [8] = 60 } },
	{ RA_RULE_6_17, 4096, 2048, 1024,
	  { [0] = 4, [2] = 5, [3] = 1, [4] = 4, [5] = 1, [6] = 4, [7] = 1, [8] = 2, [9] = 30 } },
	{ RA_RULE_6_17, 128 * KiB, 2048, 1024,
	  { [0] = 128, [2] = 64, [4] = 32, [6] = 16, [7] = 1, [8] = 8, [9] = 24 } },
	{ RA_RULE_6_17, MiB, 2048, 1024,
	  { [0] = 512, [2] = 256, [4] = 128, [6] = 32, [8] = 8, [9] = 17 } },
	{ RA_RULE_6_11, 4096, 32, 32, { [2] = 1028, [3] = 512, [4] = 511 } },
	{ RA_RULE_6_11, 128 * KiB, 32, 32, { [2] = 8, [4] = 2, [5] = 510 } },
	{ RA_RULE_6_11, MiB, 32, 256, { [2] = 64, [4] = 16, [6] = 4, [8] = 61 } },
	{ RA_RULE_6_11, MiB, 32, 1024, { [2] = 64, [4] = 16, [6] = 4, [8] = 61 } },
	{ RA_RULE_6_11, 128 * KiB, 2048, 1024,
	  { [2] = 32, [4] = 16, [6] = 8, [7] = 17, [8] = 10, [9] = 21 } },
	{ RA_RULE_6_6, 4096, 32, 32, { [2] = 1030, [3] = 511, [4] = 511 } },
	{ RA_RULE_6_6, 128 * KiB, 32, 32, { [2] = 8, [4] = 2, [5] = 510 } },
	{ RA_RULE_6_6, MiB, 32, 1024, { [2] = 64, [4] = 16, [6] = 4, [8] = 61 } },
	{ RA_RULE_6_6, 4096, 2048, 1024, { [2] = 40, [3] = 10, [4] = 1009 } },
};

static void test_readahead_orders(void)
{
	is_u64(ra_init_size(1, 32), 4, "init window for 1 page: 4");
	is_u64(ra_init_size(4, 32), 8, "init window for 4 pages: 8");
	is_u64(ra_init_size(32, 32), 32, "init window for 32 pages: 32");
	is_u64(ra_next_size(4, 32), 8, "next after 4: 8");
	is_u64(ra_next_size(1, 32), 4, "next after 1: 4 (x4 below max/16)");
	is_u64(ra_next_size(32, 32), 32, "next after 32: 32");
	for (size_t i = 0; i < sizeof(ra_cases) / sizeof(ra_cases[0]); i++) {
		const struct ra_case *rc = &ra_cases[i];
		struct model_config c;
		struct model_metrics x;
		const char *why;
		struct model *m;
		bool same = true;

		model_config_defaults(&c);
		c.order = 9;
		c.policy = FOLIO_POLICY_READAHEAD;
		c.ra_rule = rc->rule;
		c.ra_pages = rc->ra_pages;
		c.io_pages = rc->io_pages;
		m = model_new(&c, &why);
		for (uint64_t pos = 0; pos < 64 * MiB; pos += rc->bs)
			rd(m, 0, pos, rc->bs, 64 * MiB);
		x = metrics(m);
		for (unsigned o = 0; o <= MODEL_MAX_ORDER; o++) {
			if (x.insertions_by_order[o] != rc->orders[o]) {
				diag("order %u: %llu folios, want %llu", o,
				     (unsigned long long)x.insertions_by_order[o],
				     (unsigned long long)rc->orders[o]);
				same = false;
			}
		}
		ok(same && x.inserted_pages == 16384,
		   "rule %s, %llu KiB reads, ra_pages %u, io_pages %u: the rule's folio orders",
		   model_ra_rules[rc->rule]->name, (unsigned long long)(rc->bs / KiB),
		   rc->ra_pages, rc->io_pages);
		model_free(m);
	}
}

/* 1 MiB read in 128 KiB reads with the readahead policy at order 9, by the 6.6 rule. */
static void test_readahead_model(void)
{
	struct model_config c;
	const char *why;
	struct model *m;
	struct model_metrics x;

	model_config_defaults(&c);
	c.order = 9;
	c.ra_rule = RA_RULE_6_6;
	c.policy = FOLIO_POLICY_READAHEAD;
	c.memory_bytes = 64 * MiB;
	m = model_new(&c, &why);
	for (uint64_t pos = 0; pos < MiB; pos += 128 * KiB)
		rd(m, 0, pos, 128 * KiB, MiB);
	x = metrics(m);
	is_u64(x.insertions_by_order[2], 8, "first window: eight order-2 folios");
	is_u64(x.insertions_by_order[4], 2, "second window: two order-4 folios");
	is_u64(x.insertions_by_order[5], 6, "then order 5 (ilog2 of the 32-page window)");
	is_u64(x.inserted_pages, 256, "every page once");
	/* all at time 0: the readahead I/O is still in flight, so they wait rather than hit */
	is_u64(x.read_hit_requests + x.read_waited_requests, 7,
	       "async readahead: every read after the first finds its pages cached");
	is_u64(x.read_waited_requests, 7, "at time 0 each waits for the readahead I/O");
	is_u64(x.read_ios, 8, "one read I/O per window");
	model_free(m);

	/* 4 KiB reads: orders never above 5 */
	m = model_new(&c, &why);
	for (uint64_t pos = 0; pos < 4 * MiB; pos += 4 * KiB)
		rd(m, 0, pos, 4 * KiB, 4 * MiB);
	x = metrics(m);
	is_u64(x.inserted_pages, 1024, "4 KiB reads: every page once");
	ok(x.insertions_by_order[6] + x.insertions_by_order[7] + x.insertions_by_order[8] +
	   x.insertions_by_order[9] == 0, "4 KiB reads: no folio above order 5");
	is_u64(x.insertions_by_order[2] > 0, 1, "4 KiB reads: order-2 folios");
	model_free(m);
}

/*
 * Reads that find their pages cached but the readahead I/O still in flight wait for it: 64
 * reads of 4 KiB, 1 us apart, on a device taking at least 100 us per batch wait, every one
 * after the first (a miss); 10 ms apart, every batch is done when the read comes: hits.
 */
static void test_waited_on_readahead(void)
{
	for (unsigned spaced = 0; spaced < 2; spaced++) {
		struct model_config c;
		struct model_metrics x;
		const char *why;
		struct model *m;
		uint64_t gap = spaced ? 10000000 : 1000;

		model_config_defaults(&c);
		c.order = 9;
		c.device_latency_us = 100;
		c.device_bandwidth_mbps = 100;
		m = model_new(&c, &why);
		for (uint64_t i = 0; i < 64; i++) {
			struct model_access a = { .ts = i * gap, .op = MODEL_READ,
						  .pos = i * PAGE, .len = PAGE, .isize = MiB };

			model_access(m, &a);
		}
		x = metrics(m);
		is_u64(x.read_hit_requests, spaced ? 63 : 0,
		       spaced ? "reads 10 ms apart: every one after the first hits" :
				"reads 1 us apart: none hits");
		is_u64(x.read_waited_requests, spaced ? 0 : 63,
		       spaced ? "none waits" : "every one after the first waits for readahead");
		is_u64(x.read_waited_bytes, spaced ? 0 : 63 * PAGE, "bytes that waited");
		model_free(m);
	}
}

/* page_cache_sync_ra(): random reads as is, sequential misses and context readahead. */
static void test_sync_readahead_kinds(void)
{
	struct model *m = new_model(0, 16 * MiB, LRU_TWO_LIST, true);
	const uint64_t size = 4 * MiB;

	rd(m, 0, 500 * PAGE, PAGE, size);
	is_u64(metrics(m).inserted_pages, 1, "a random read reads its page only");
	rd(m, 0, 700 * PAGE, PAGE, size);
	is_u64(metrics(m).inserted_pages, 2, "another random read: one page");
	rd(m, 0, 701 * PAGE, PAGE, size);
	is_u64(metrics(m).inserted_pages, 6, "the page after the previous read: a 4-page window");
	for (uint64_t p = 100; p < 110; p++)
		do_op(m, MODEL_WRITE, 0, p * PAGE, PAGE, size);
	is_u64(metrics(m).inserted_pages, 16, "ten written pages");
	rd(m, 0, 110 * PAGE, PAGE, size);
	is_u64(metrics(m).inserted_pages, 27,
	       "after 10 cached pages: a context window of 10 + 1 pages");
	model_free(m);
}

/* The rule of a release, the 6.6 rule when it does not say. */
static enum ra_rule rule_of(const char *release)
{
	enum ra_rule r = RA_RULE_6_6;

	model_ra_rule_for_release(release, &r);
	return r;
}

/*
 * The 6.17+ readahead rule against the kernel: traces/seq-copy.ftr recorded dd bs=128k
 * reading a 64 MiB file on 6.18 (ext4, read_ahead_kb 8192); the kernel added folios of
 * orders 0:128 2:64 4:32 6:16 7:1 8:8 9:24 (mm_filemap_add_to_page_cache).
 */
static void test_readahead_6_17_matches_kernel(void)
{
	static const uint64_t kernel[MODEL_MAX_ORDER + 1] = {
		[0] = 128, [2] = 64, [4] = 32, [6] = 16, [7] = 1, [8] = 8, [9] = 24,
	};
	struct model_config c;
	struct model_metrics x;
	const char *why;
	struct model *m;
	bool same = true;

	model_config_defaults(&c);
	c.order = 9;
	c.policy = FOLIO_POLICY_READAHEAD;
	c.ra_rule = RA_RULE_6_17;
	c.ra_pages = 2048;
	m = model_new(&c, &why);
	for (uint64_t pos = 0; pos < 64 * MiB; pos += 128 * KiB)
		rd(m, 0, pos, 128 * KiB, 64 * MiB);
	x = metrics(m);
	for (unsigned o = 0; o <= MODEL_MAX_ORDER; o++) {
		if (x.insertions_by_order[o] != kernel[o]) {
			diag("order %u: model %llu, kernel %llu", o,
			     (unsigned long long)x.insertions_by_order[o],
			     (unsigned long long)kernel[o]);
			same = false;
		}
	}
	ok(same, "6.17 rule: folio orders of a 128 KiB sequential read equal the kernel's");
	is_u64(rule_of("6.18.44-fc-v1147"), RA_RULE_6_17, "6.18: 6.17 rule");
	is_u64(rule_of("6.12.0"), RA_RULE_6_11, "6.12: 6.11 rule (sync and async apart)");
	is_u64(rule_of("6.10.3"), RA_RULE_6_6, "6.10: 6.6 rule (ondemand_readahead)");
	is_u64(rule_of("7.2.1"), RA_RULE_6_17, "7.2: 6.17 rule");
	is_u64(rule_of("junk"), RA_RULE_6_6, "unparsable: 6.6 rule");
	is_u64(x.read_hit_requests + x.read_waited_requests, 511,
	       "every read but the first finds its pages cached");
	model_free(m);
}

/* Order-0 folios from small writes, then order-9 reads: every page cached exactly once. */
static void test_mixed_orders_tile(void)
{
	for (int policy = 0; policy < 2; policy++) {
		struct model_config c;
		struct model_metrics x;
		const char *why;
		struct model *m;
		uint64_t seed = 5, written = 0, pages = 2048;
		static bool dirty[2048];

		model_config_defaults(&c);
		c.order = 9;
		c.policy = policy ? FOLIO_POLICY_READAHEAD : FOLIO_POLICY_FIXED;
		c.memory_bytes = 64 * MiB;
		m = model_new(&c, &why);
		memset(dirty, 0, sizeof(dirty));
		for (int i = 0; i < 300; i++) {
			uint64_t p = xorshift(&seed) % pages;

			do_op(m, MODEL_WRITE, 0, p * PAGE, PAGE, pages * PAGE);
			written += !dirty[p];
			dirty[p] = true;
		}
		for (uint64_t pos = 0; pos < pages * PAGE; pos += 64 * KiB)
			rd(m, 0, pos, 64 * KiB, pages * PAGE);
		x = metrics(m);
		is_u64(x.lru_pages.max, pages, policy ? "readahead: the file cached once" :
							 "fixed: the file cached once");
		is_u64(x.inserted_pages, pages, "no page inserted twice");
		is_u64(x.insertions_by_order[0] >= written, 1, "the written pages stay order 0");
		is_u64(x.read_io_bytes, (pages - written) * PAGE, "only unwritten pages read");
		model_free(m);
	}
}

static void test_write_orders(void)
{
	is_u64(place_write_order(0, MiB, 9, 0, 12), 8, "1 MiB write at 0: order 8");
	is_u64(place_write_order(512 * KiB, 1536 * KiB, 9, 0, 12), 7,
	       "1 MiB write at 512 KiB: order 7 first");
	is_u64(place_write_order(MiB, 1536 * KiB, 9, 0, 12), 7, "then order 7 at 1 MiB");
	is_u64(place_write_order(0, 4096, 9, 0, 12), 0, "4 KiB write: order 0");
	is_u64(place_write_order(0, 12288, 9, 0, 12), 1, "12 KiB write: order 1");
	is_u64(place_write_order(0, 8 * MiB, 9, 0, 12), 9, "8 MiB write: capped at order 9");
	is_u64(place_write_order(0, 4 * MiB, 4, 0, 12), 4, "max order 4");
	is_u64(place_write_order(100, 4 * MiB, 4, 0, 12), 3,
	       "unaligned start: 64 KiB - 100 bytes asks for order 3");
}

/* inactive_is_low(): ratio int_sqrt(10 * GiB): 3 at 1 GiB, 10 at 10 GiB (order-10 folios). */
static bool low_with(uint64_t inactive, uint64_t active)
{
	struct folio_pool pool;
	struct lru l;
	bool low;

	folio_pool_init(&pool);
	lru_init(&l, &pool, 12);
	for (uint64_t i = 0; i < inactive + active; i++) {
		uint32_t id = folio_pool_get(&pool);

		folio_at(&pool, id)->order = 10;
		lru_add(&l, id, i >= inactive);
	}
	low = lru_inactive_is_low(&l);
	folio_pool_release(&pool);
	return low;
}

static void test_inactive_ratio(void)
{
	ok(!low_with(64, 192), "1 GiB, 64:192 folios: not low (ratio 3)");
	ok(low_with(63, 193), "1 GiB, 63:193 folios: low");
	ok(!low_with(233, 2327), "10 GiB, 233:2327: not low (ratio 10)");
	ok(low_with(232, 2328), "10 GiB, 232:2328: low");
	ok(!low_with(1, 1), "below 1 GiB the ratio is 1: 1:1 not low");
	ok(low_with(1, 2), "1:2 low");
}

static void test_bad_config(void)
{
	struct model_config c;
	const char *why = NULL;

	model_config_defaults(&c);
	c.order = 11;
	ok(!model_new(&c, &why) && why, "order 11 refused: %s", why ? why : "");
	model_config_defaults(&c);
	c.memory_bytes = 0;
	why = NULL;
	ok(!model_new(&c, &why) && why, "memory 0 refused: %s", why ? why : "");
	model_config_defaults(&c);
	c.policy = 7;
	why = NULL;
	ok(!model_new(&c, &why) && why, "unknown policy refused: %s", why ? why : "");
}

int main(void)
{
	test_lru_entries_by_order();
	test_plain_lru_matches_textbook();
	test_cyclic_scan();
	test_two_list_order();
	test_mglru_generations();
	test_hot_set_through_scan();
	test_same_folio_skip();
	test_eof_cap();
	test_readahead_orders();
	test_readahead_model();
	test_waited_on_readahead();
	test_sync_readahead_kinds();
	test_readahead_6_17_matches_kernel();
	test_mixed_orders_tile();
	test_write_orders();
	test_inactive_ratio();
	test_bad_config();
	return done_testing();
}
