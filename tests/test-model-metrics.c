// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model unit tests: distributions (mean, max, p99), time-series samples, buddy allocation
 * with fallback and compaction, pinned memory, mmap young bits, workingset refaults.
 */
#include <stdio.h>

#include "model/metrics.h"
#include "model/model.h"
#include "model-harness.h"
#include "tap.h"

#define MiB	(1024ull * 1024)
#define PAGE	4096ull
#define SEC	1000000000ull

static struct model *make(unsigned order, uint64_t memory, void (*tweak)(struct model_config *))
{
	struct model_config c;

	model_config_defaults(&c);
	c.policy = FOLIO_POLICY_FIXED;	/* folios of the order: counts known exactly */
	c.order = order;
	c.memory_bytes = memory;
	c.readahead = false;
	if (tweak)
		tweak(&c);
	return checked_model(&c);
}

static void test_dist(void)
{
	struct dist h;
	struct model_dist d;

	dist_init(&h);
	for (uint64_t v = 1; v <= 100; v++)
		dist_add(&h, v);
	d = dist_summary(&h);
	is_u64(d.samples, 100, "100 samples");
	is_dbl(d.sum / d.samples, 50.5, 1e-12, "mean of 1..100");
	is_u64(d.max, 100, "max");
	is_u64(d.p99, 99, "p99 of 1..100 (exact below 128)");
	dist_init(&h);
	dist_add_n(&h, 1000000007, 50);
	d = dist_summary(&h);
	is_u64(d.p99, 1000000007, "a constant series reports its value");
	dist_add(&h, 1);
	is_u64(dist_percentile(&h, 1), 1, "p1 finds the small value");
	for (unsigned b = 16; b < DIST_BUCKETS; b += 37)
		ok(dist_bucket(dist_bucket_max(b)) == b && dist_bucket(dist_bucket_max(b) + 1) ==
		   b + 1, "bucket %u: upper edge", b);
	is_u64(dist_bucket(~0ull), DIST_BUCKETS - 1, "the largest value has the last bucket");

	/* the sum is exact past 2^53, in any order and grouping: runs of equal states merge */
	dist_init(&h);
	dist_add(&h, 1ull << 53);
	dist_add(&h, 1);
	dist_add(&h, 1);
	d = dist_summary(&h);
	ok(d.sum == 9007199254740994.0, "2^53 + 1 + 1 sums to 2^53 + 2 (a double sum stays 2^53)");
	dist_init(&h);
	dist_add_n(&h, 1ull << 53, 1);
	dist_add_n(&h, 1, 1);
	dist_add_n(&h, 1, 1);
	d = dist_summary(&h);
	{
		struct dist g;
		struct model_dist e;

		dist_init(&g);
		dist_add_n(&g, 1ull << 53, 1);
		dist_add_n(&g, 1, 2);
		e = dist_summary(&g);
		ok(d.sum == e.sum && d.sum == 0x1p53 + 2,
		   "one run of two samples or two runs of one: the same sum, 2^53 + 2");
	}
}

struct samples {
	struct model_sample s[16];
	unsigned n;
};

static void keep_sample(void *arg, const struct model_sample *s)
{
	struct samples *v = arg;

	if (v->n < 16)
		v->s[v->n] = *s;
	v->n++;
}

static void interval_1s(struct model_config *c)
{
	c->interval_ns = SEC;
}

static void test_time_series(void)
{
	struct model *m = make(0, 16 * MiB, interval_1s);
	struct samples v = { .n = 0 };

	model_set_sample_fn(m, keep_sample, &v);
	op(m, 0, MODEL_READ, 0, 0, 2 * PAGE, MiB);
	op(m, SEC / 2, MODEL_READ, 0, 2 * PAGE, PAGE, MiB);
	op(m, SEC / 5 * 6, MODEL_WRITE, 1, 0, PAGE, PAGE);
	op(m, SEC / 2 * 3, MODEL_FSYNC, 1, 0, 0, PAGE);
	op(m, SEC / 2 * 5, MODEL_READ, 0, 3 * PAGE, PAGE, MiB);
	model_finish(m, SEC / 10 * 32);
	is_u64(v.n, 4, "samples at 1, 2, 3 and 3.2 s");
	if (v.n < 4)
		return;
	is_u64(v.s[0].ts, SEC, "first at 1 s");
	is_u64(v.s[3].ts, SEC / 10 * 32, "last at the end of the trace");
	is_u64(v.s[0].read_io_bytes_interval, 3 * PAGE, "1 s: three pages read");
	is_u64(v.s[0].lru_entries, 3, "1 s: three folios");
	is_u64(v.s[1].writeback_bytes_interval, PAGE, "2 s: the fsync at 1.5 s");
	is_u64(v.s[1].read_io_bytes_interval, 0, "2 s: no read");
	is_u64(v.s[2].read_io_bytes_interval, PAGE, "3 s: the read at 2.5 s");
	is_u64(v.s[3].lru_entries, 5, "3.2 s: five folios");
	is_u64(v.s[3].cached_bytes, 5 * PAGE, "3.2 s: five pages cached");
	model_free(m);
}

static void fallback_compact(struct model_config *c)
{
	c->fallback = ALLOC_FALLBACK_COMPACT;
}

/*
 * 1024 pages filled by 1024 one-page files (order-0 folios at pfns 0..1023); unlinking the
 * even ones leaves 512 free pages, no two adjacent: an order-9 read must fall back, or reclaim.
 */
static void test_buddy_fallback(void)
{
	for (int compact = 0; compact < 2; compact++) {
		struct model *m = make(9, 1024 * PAGE, compact ? fallback_compact : NULL);
		struct model_metrics x;

		for (uint32_t f = 0; f < 1024; f++)
			op(m, 0, MODEL_READ, f, 0, PAGE, PAGE);
		for (uint32_t f = 0; f < 1024; f += 2)
			op(m, 0, MODEL_UNLINK, f, 0, 0, 0);
		x = metrics(m);
		is_u64(x.insertions_by_order[0], 1024, "1024 EOF-capped order-0 folios");
		is_dbl(x.unusable_index, 1.0, 1e-9, "order 9 unusable: 1.000");
		op(m, 0, MODEL_READ, 5000, 0, 2 * MiB, 2 * MiB);
		x = metrics(m);
		if (!compact) {
			/*
			 * mm/page_alloc.c __alloc_pages_slowpath() (6.18) for each order the
			 * folio steps down through: orders 9 and 8 skip compaction (512 free pages
			 * are not above compact_gap), 7 to 4 are costly and compact first, which
			 * fails and leaves reclaim nothing to do (compaction_ready()); order 3
			 * reclaims first, 32 pages: the odd files of pfns 1-63, and pfns 0-63 merge.
			 * Order 3 takes pfns 0-7, then the file's pages 8, 16 and 32 take orders 3,
			 * 4 and 5 from the same 64 pages. Each 64-page region of the file does so
			 * again (order 6 first): 8 regions, each one fallback and 32 evictions.
			 */
			is_u64(x.compaction_demand, 8, "8 allocations met fragmentation");
			is_u64(x.alloc_fallbacks, 8, "and fell back");
			is_u64(x.insertions_by_order[9], 0, "no order-9 folio");
			ok(x.insertions_by_order[3] == 16 && x.insertions_by_order[4] == 8 &&
			   x.insertions_by_order[5] == 8 && x.insertions_by_order[0] == 1024,
			   "orders 3, 3, 4, 5 in each 64-page region");
			is_u64(x.evictions, 256, "order 3 reclaims first: 8 x 32 pages");
		} else {
			is_u64(x.compaction_demand, 1, "one order-9 failure with 512 pages free");
			is_u64(x.alloc_fallbacks, 0, "compaction mode: no fallback");
			is_u64(x.insertions_by_order[9], 1, "one order-9 folio");
			is_u64(x.evictions, 256, "256 odd files reclaimed to free pfns 0-511");
			is_u64(x.alloc_by_order[9], 1, "allocated at order 9");
		}
		model_free(m);
	}
}

static void pinned_10(struct model_config *c)
{
	c->pinned_pct = 10;
	c->lru = LRU_PLAIN;
}

static void test_pinned(void)
{
	struct model *m = make(0, 1024 * PAGE, pinned_10);

	for (uint64_t p = 0; p < 2048; p++)
		op(m, 0, MODEL_READ, 0, p * PAGE, PAGE, 2048 * PAGE);
	is_u64(metrics(m).lru_pages.max, 1024 - 102, "10% of 1024 pages pinned: 922 cacheable");
	model_free(m);
}

static bool hit(struct model *m, uint32_t file, uint64_t page)
{
	uint64_t before = metrics(m).read_hit_requests;

	op(m, 0, MODEL_READ, file, page * PAGE, PAGE, 64 * PAGE);
	return metrics(m).read_hit_requests == before + 1;
}

/* A mapped folio seen young at the inactive tail gets a second trip. */
static void test_mmap_young(void)
{
	struct model *m = make(0, 4 * PAGE, NULL);

	op(m, 0, MODEL_MMAP_READ, 0, 0, PAGE, 64 * PAGE);
	for (uint64_t p = 1; p < 4; p++)
		hit(m, 0, p);
	ok(!hit(m, 0, 4), "page 4 misses, reclaim runs");
	ok(hit(m, 0, 0), "the mapped page 0 (young) was kept");
	ok(!hit(m, 0, 1), "page 1 was evicted instead");
	model_free(m);
}

/*
 * An eviction followed by a refault at a distance below the active list size (as the
 * statistics were last flushed: memory.stat read just before) activates.
 */
static void test_refault_activation(void)
{
	struct model *m = make(0, 8 * PAGE, NULL);
	struct model_metrics x;

	for (int round = 0; round < 2; round++)
		for (uint64_t p = 0; p < 4; p++)
			hit(m, 0, p);
	hit(m, 1, 0);			/* X */
	for (uint64_t p = 1; p <= 3; p++)
		hit(m, 1, p);		/* memory full: 4 active, 4 inactive */
	hit(m, 1, 4);			/* evicts X */
	x = metrics(m);
	is_u64(x.evictions, 1, "X evicted");
	model_access(m, &(struct model_access){ .op = MODEL_STATS_FLUSH });
	ok(!hit(m, 1, 0), "X misses again");
	x = metrics(m);
	is_u64(x.refaults, 1, "a refault");
	is_u64(x.refault_activations, 1, "distance 2 <= 4 active pages: activated");
	ok(hit(m, 1, 0), "X is cached");
	model_free(m);
}

static void plain_lru(struct model_config *c)
{
	c->lru = LRU_PLAIN;
}

static uint64_t free_blocks(const struct model_metrics *x)
{
	uint64_t n = 0;

	for (unsigned k = 0; k <= MODEL_MAX_ORDER; k++)
		n += x->free_blocks[k];
	return n;
}

/*
 * Without MODEL_KEEP_ADDRESSES an order-0 model in a zone of free MOVABLE pageblocks counts its
 * pages without placing them (no free block kept), with the same figures; a higher order, or
 * pinned pages, keep placing.
 */
static void test_count_pages(void)
{
	unsigned keep = MODEL_KEEP_ALL & ~MODEL_KEEP_ADDRESSES;
	struct model_metrics x[2];

	for (int counted = 0; counted < 2; counted++) {
		struct model *m = make(0, 1024 * PAGE, plain_lru);

		if (counted)
			model_set_keep(m, keep);
		for (int round = 0; round < 2; round++)
			for (uint64_t p = 0; p < 1500; p += 1 + p % 3)
				op(m, 0, MODEL_READ, 0, p * PAGE, PAGE, 2048 * PAGE);
		for (uint64_t p = 0; p < 300; p++)
			op(m, 0, MODEL_READ, 1, p * PAGE, PAGE, 300 * PAGE);
		op(m, 0, MODEL_UNLINK, 1, 0, 0, 0);
		x[counted] = metrics(m);
		model_free(m);
	}
	ok(x[1].read_hit_requests == x[0].read_hit_requests && x[0].read_hit_requests > 0 &&
	   x[1].evictions == x[0].evictions && x[0].evictions > 0 &&
	   x[1].lru_pages.max == x[0].lru_pages.max && x[1].alloc_failures == x[0].alloc_failures,
	   "order 0, counted: hits, evictions, LRU and failures as placed");
	ok(free_blocks(&x[0]) > 0 && free_blocks(&x[1]) == 0,
	   "order 0, counted: no free block kept (placed: %llu)",
	   (unsigned long long)free_blocks(&x[0]));
	for (int pinned = 0; pinned < 2; pinned++) {
		struct model *m = make(pinned ? 0 : 4, 1024 * PAGE, pinned ? pinned_10 : plain_lru);

		model_set_keep(m, keep);
		for (uint64_t p = 0; p < 100; p++)
			op(m, 0, MODEL_READ, 1, p * PAGE, PAGE, 300 * PAGE);
		op(m, 0, MODEL_UNLINK, 1, 0, 0, 0);
		x[0] = metrics(m);
		ok(free_blocks(&x[0]) > 0, "%s: placed all the same",
		   pinned ? "order 0 with pinned pages" : "order 4");
		model_free(m);
	}
}

int main(void)
{
	test_dist();
	test_time_series();
	test_buddy_fallback();
	test_pinned();
	test_mmap_young();
	test_refault_activation();
	test_count_pages();
	return done_testing();
}
