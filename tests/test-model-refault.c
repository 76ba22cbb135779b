// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model unit tests: refaults counted in pages (workingset_refault_file adds folio_nr_pages),
 * a large folio's shadow entry covering every one of its indices until each is refilled, the
 * LRU lists' sizes in pages beside their sizes in folios, and the shadows of before the trace.
 */
#include <stddef.h>

#include "model/model.h"
#include "model-harness.h"
#include "tap.h"

#define PAGE	4096ull

static struct model *make(unsigned order, enum folio_policy policy, uint64_t pages)
{
	struct model_config c;
	const char *why = NULL;
	struct model *m;

	model_config_defaults(&c);
	c.order = order;
	c.policy = policy;
	c.memory_bytes = pages * PAGE;
	c.readahead = false;
	m = model_new(&c, &why);
	if (!m)
		diag("model_new: %s", why);
	return m;
}

static void rd(struct model *m, uint32_t file, uint64_t page)
{
	op(m, 0, MODEL_READ, file, page * PAGE, PAGE, 64 * PAGE);
}

/* An evicted order-2 folio read back as one order-2 folio: one folio, four pages. */
static void test_refault_counts_pages(void)
{
	struct model *m = make(2, FOLIO_POLICY_FIXED, 8);
	struct model_metrics x;

	rd(m, 0, 0);		/* file 0 [0, 4) */
	rd(m, 1, 0);		/* file 1 [0, 4): memory full */
	rd(m, 1, 4);		/* evicts file 0's folio, the inactive tail */
	x = metrics(m);
	is_u64(x.evicted_pages, 4, "the order-2 folio was evicted");
	rd(m, 0, 1);		/* refault in [0, 4) */
	x = metrics(m);
	is_u64(x.refault_folios, 1, "one refaulting folio");
	is_u64(x.refaults, 4, "workingset_refault_file: folio_nr_pages = 4");
	is_u64(x.refault_activations, 0, "no active list: the distance is too long");
	model_free(m);
}

/*
 * A 16 KiB write makes an order-2 folio; once clean and evicted, order-0 reads refill it page
 * by page. The shadow covers every index: each read is a refault, not only the first.
 */
static void test_refault_shadow_covers_folio(void)
{
	struct model *m = make(2, FOLIO_POLICY_READAHEAD, 8);
	struct model_metrics x;

	op(m, 0, MODEL_WRITE, 0, 0, 4 * PAGE, 4 * PAGE);
	op(m, 0, MODEL_FSYNC, 0, 0, 4 * PAGE, 4 * PAGE);
	for (uint64_t p = 0; p < 5; p++)
		rd(m, 1, p);	/* the fifth evicts the written folio */
	x = metrics(m);
	is_u64(x.evictions, 1, "one folio evicted");
	is_u64(x.evicted_pages, 4, "its four pages");
	is_u64(x.insertions_by_order[2], 1, "the write made an order-2 folio");
	for (uint64_t p = 0; p < 4; p++)
		op(m, 0, MODEL_READ, 0, p * PAGE, PAGE, 4 * PAGE);
	x = metrics(m);
	is_u64(x.insertions_by_order[0], 9, "reads insert order-0 folios");
	is_u64(x.refault_folios, 4, "every page of the evicted folio refaults");
	is_u64(x.refaults, 4, "four pages");
	/* reading one page again after its refault is a hit, not a second refault */
	op(m, 0, MODEL_READ, 0, 3 * PAGE, PAGE, 4 * PAGE);
	is_u64(metrics(m).refaults, 4, "a refilled index has no shadow left");
	model_free(m);
}

static void keep_last(void *arg, const struct model_sample *s)
{
	*(struct model_sample *)arg = *s;
}

/* Order-2 folios: one active, one inactive after the three reads. */
static void test_lru_pages(void)
{
	struct model_config c;
	struct model_sample last = { 0 };
	const char *why = NULL;
	struct model *m;
	struct model_metrics x;

	model_config_defaults(&c);
	c.policy = FOLIO_POLICY_FIXED;	/* folios of the order: counts known exactly */
	c.order = 2;
	c.memory_bytes = 64 * PAGE;
	c.readahead = false;
	c.interval_ns = 1000000000ull;
	m = model_new(&c, &why);
	if (!m) {
		diag("model_new: %s", why);
		return;
	}
	model_set_sample_fn(m, keep_last, &last);
	rd(m, 0, 0);		/* [0, 4) inactive, referenced */
	rd(m, 0, 8);		/* [8, 12) inactive */
	rd(m, 0, 0);		/* [0, 4) activated */
	model_finish(m, 2000000000ull);
	x = metrics(m);
	is_u64(x.lru_inactive.max, 2, "inactive folios max");
	is_u64(x.lru_inactive_pages.max, 8, "inactive pages max: 2 folios of 4");
	ok(x.lru_inactive_pages.sum == 16.0, "inactive pages over the accesses: 4 + 8 + 4");
	is_u64(x.lru_active_pages.max, 4, "active pages max");
	ok(x.lru_active_pages.sum == 4.0, "active pages over the accesses: 0 + 0 + 4");
	is_u64(x.lru_active_pages.samples, 3, "one sample per access");
	is_u64(last.lru_inactive, 1, "last sample: one inactive folio");
	is_u64(last.lru_inactive_pages, 4, "last sample: four inactive pages");
	is_u64(last.lru_active, 1, "last sample: one active folio");
	is_u64(last.lru_active_pages, 4, "last sample: four active pages");
	model_free(m);
}

/*
 * The shadows last as long as the shadow shrinker lets them: count_shadow_nodes() allows nodes
 * up to pages / 8 (the memory outside a cgroup; the cgroup's LRU pages as last flushed inside
 * one), and do_shrink_slab() frees the oldest 128 nodes (8192 order-0 shadows) each time the
 * excess reaches 256. Here 1024 pages of memory reread a file in order-0 pages, 10 us per page,
 * so page x is evicted at nonresident age x in the first pass.
 * - No cgroup, a 2048-page file: 16 nodes of shadows, far below 128; every page of the second
 *   pass refaults (the first pass's, and those the second evicts before reading them).
 * - A cgroup never flushed since it began (bound 0), a 20480-page file: the first pass trims
 *   at age 16384 (shadows below 8192 gone); the second trims at 24576 and 32768, each time
 *   before the pages it would refault: nothing refaults.
 * - The same with a flush after the first pass (bound 1024 pages, 128 nodes): the second pass
 *   trims once, at age 19456 + 13311 + 1 - 8192 = 64 x 384, freeing the shadows below 16384:
 *   pages 8192-13310 refault (5119), then 16384-19455 (3072) and the 1024 the second pass
 *   evicted itself: 9215.
 */
static uint64_t reread(uint64_t file_pages, bool memcg, bool flush)
{
	struct model_config c;
	const char *why = NULL;
	struct model *m;
	uint64_t ts = 0, r;

	model_config_defaults(&c);
	c.memory_bytes = 1024 * PAGE;
	c.readahead = false;
	c.memcg = memcg;
	m = model_new(&c, &why);
	for (unsigned pass = 0; pass < 2; pass++) {
		for (uint64_t p = 0; p < file_pages; p++)
			op(m, ts += 10000, MODEL_READ, 0, p * PAGE, PAGE, file_pages * PAGE);
		if (!pass && flush) {
			struct model_access a = { .ts = ts, .op = MODEL_STATS_FLUSH };

			model_access(m, &a);
		}
	}
	r = metrics(m).refaults;
	model_free(m);
	return r;
}

static void test_shadow_shrinker(void)
{
	is_u64(reread(2048, false, false), 2048, "no cgroup: every page of the reread refaults");
	is_u64(reread(20480, true, false), 0,
	       "a cgroup never flushed: its shadows are gone, nothing refaults");
	is_u64(reread(20480, true, true), 9215,
	       "a flush after the first pass: the shadows the shrinker left refault");
}

/*
 * mm/workingset.c workingset_test_recent() (6.1, 6.12, 6.18): for a file refault the workingset
 * size is NR_ACTIVE_FILE, plus NR_ACTIVE_ANON + NR_INACTIVE_ANON while swap is free
 * (mem_cgroup_get_nr_swap_pages() > 0). Eight pages of memory: file 0's eight pages fill it,
 * inactive; file 1's four evict pages 0-3 of file 0 (workingset_eviction() packs the age
 * before adding the page: 0, 1, 2, 3; the age is then 4). Reading page 0 back first reclaims
 * page 4 (filemap_add_folio() charges, and reclaims, before workingset_refault()): age 5,
 * distance 5 - 0 = 5. The active file list is empty: with no anon counted (no swap) the refault
 * stays inactive; with 4 anon pages 0 + 4 < 5, still inactive; with 5, 5 <= 5: activated.
 */
struct anon_case {
	uint64_t anon;		/* at the start (workingset_anon_pages) */
	enum swap_use swap;
	bool later;		/* a MODEL_ANON sample before the refault */
	uint64_t later_anon, later_swap;
};

static uint64_t anon_refault_activations(struct anon_case k)
{
	struct model_config c;
	struct model *m;
	uint64_t got;

	model_config_defaults(&c);
	c.order = 0;
	c.policy = FOLIO_POLICY_FIXED;
	c.memory_bytes = 8 * PAGE;
	c.readahead = false;
	c.lru = LRU_TWO_LIST;
	c.workingset_anon_pages = k.anon;
	c.swap = k.swap;
	c.swap_sampled = k.later;	/* as replay sets it: the samples say whether swap is free */
	m = checked_model(&c);
	for (uint64_t p = 0; p < 8; p++)
		rd(m, 0, p);
	for (uint64_t p = 0; p < 4; p++)
		rd(m, 1, p);
	if (k.later)
		op(m, 0, MODEL_ANON, 0, k.later_anon, k.later_swap, 0);
	rd(m, 0, 0);
	got = metrics(m).refault_activations;
	is_u64(metrics(m).refaults, 1, "page 0 refaults");
	model_free(m);
	return got;
}

static void test_refault_counts_anon_with_swap(void)
{
	is_u64(anon_refault_activations((struct anon_case){ 5, SWAP_OFF, false, 0, 0 }), 0,
	       "no swap: active file 0 < distance 5, inactive");
	is_u64(anon_refault_activations((struct anon_case){ 4, SWAP_ON, false, 0, 0 }), 0,
	       "swap, 4 anon pages: 0 + 4 < 5, inactive");
	is_u64(anon_refault_activations((struct anon_case){ 5, SWAP_ON, false, 0, 0 }), 1,
	       "swap, 5 anon pages: 0 + 5 >= 5, activated");
	is_u64(anon_refault_activations((struct anon_case){ 0, SWAP_OFF, true, 5, 1 }), 1,
	       "a later sample: 5 anon pages, swap free: activated");
	is_u64(anon_refault_activations((struct anon_case){ 5, SWAP_ON, true, 5, 0 }), 0,
	       "a later sample: no swap free any more: inactive");
}

static void start_shadow(struct model *m, uint32_t file, uint64_t first, uint64_t n, bool recent)
{
	struct model_access a = { .op = MODEL_START_SHADOW, .file_id = file, .pos = first,
				  .len = n, .isize = 64 * PAGE, .device = MODEL_DEVICE_NONE,
				  .advice = recent };

	model_access(m, &a);
}

/*
 * Shadows of before the trace (MODEL_START_SHADOW, --start-cache=recorded): pages [0, 4)
 * evicted long ago, [4, 8) recently. With nothing evicted since the start a recent one's
 * distance is 0: its read refaults and comes back active; an old one's refaults, inactive.
 * An order-2 folio over [8, 12) whose only shadow is at page 10, not its first index,
 * refaults as __filemap_add_folio() has it: one folio, four pages. --start-cache=empty: none.
 */
static void test_start_shadows(void)
{
	for (int recorded = 1; recorded >= 0; recorded--) {
		struct model_config c;
		struct model *m, *big;
		struct model_metrics x;

		diag("--start-cache=%s", recorded ? "recorded" : "empty");
		model_config_defaults(&c);
		c.policy = FOLIO_POLICY_FIXED;
		c.memory_bytes = 64 * PAGE;
		c.readahead = false;
		c.start_cache = recorded ? START_CACHE_RECORDED : START_CACHE_EMPTY;
		c.order = 0;
		m = checked_model(&c);
		c.order = 2;
		big = checked_model(&c);
		if (!m || !big)
			return;
		start_shadow(m, 0, 0, 4, false);
		start_shadow(m, 0, 4, 4, true);
		rd(m, 0, 1);
		rd(m, 0, 5);
		rd(m, 0, 9);
		x = metrics(m);
		is_u64(x.refaults, recorded ? 2 : 0, "pages 1 and 5 refault, 9 (no shadow) not");
		is_u64(x.refault_activations, recorded ? 1 : 0, "the recent one comes back active");
		start_shadow(big, 0, 10, 1, false);
		rd(big, 0, 8);
		x = metrics(big);
		is_u64(x.refault_folios, recorded ? 1 : 0, "the order-2 folio over page 10 refaults");
		is_u64(x.refaults, recorded ? 4 : 0, "its four pages");
		model_free(m);
		model_free(big);
	}
}

/*
 * __filemap_add_folio() replaces every entry of the new folio's range and hands the last one
 * to workingset_refault(): base pages written at pages 1 and 3 of a file and evicted, then an
 * order-2 read folio over [0, 4) refaults although page 0 had no shadow, and takes both
 * shadows: dropped without a shadow (FADV_DONTNEED) and read again, it is a plain miss.
 */
static void test_refault_inside_folio(void)
{
	struct model *m = make(2, FOLIO_POLICY_FIXED, 8);
	struct model_access dontneed = {
		.op = MODEL_FADVISE, .file_id = 0, .pos = 0, .len = 4 * PAGE, .isize = 4 * PAGE,
		.advice = 4 /* POSIX_FADV_DONTNEED */, .device = MODEL_DEVICE_NONE,
	};
	struct model_metrics x;

	if (!m)
		return;
	op(m, 0, MODEL_WRITE, 0, 1 * PAGE, PAGE, 4 * PAGE);
	op(m, 0, MODEL_WRITE, 0, 3 * PAGE, PAGE, 4 * PAGE);
	op(m, 0, MODEL_FSYNC, 0, 0, 4 * PAGE, 4 * PAGE);
	rd(m, 1, 0);		/* file 1 [0, 4): two pages left free */
	rd(m, 1, 4);		/* [4, 8): evicts pages 1 and 3, the inactive tail */
	x = metrics(m);
	is_u64(x.insertions_by_order[0], 2, "two 4 KiB writes made two base pages");
	is_u64(x.evicted_pages, 2, "both evicted");
	rd(m, 0, 0);		/* an order-2 folio over [0, 4) */
	x = metrics(m);
	is_u64(x.insertions_by_order[2], 3, "the read made an order-2 folio over pages 1 and 3");
	is_u64(x.refault_folios, 1, "it refaults: the shadows inside count, not its first page's");
	is_u64(x.refaults, 4, "its four pages");
	model_access(m, &dontneed);
	rd(m, 0, 0);
	x = metrics(m);
	is_u64(x.insertions_by_order[2], 4, "dropped and read again");
	is_u64(x.refault_folios, 1, "no second refault: the folio took every shadow of its range");
	model_free(m);
}

int main(void)
{
	test_refault_counts_pages();
	test_refault_shadow_covers_folio();
	test_lru_pages();
	test_shadow_shrinker();
	test_refault_counts_anon_with_swap();
	test_start_shadows();
	test_refault_inside_folio();
	return done_testing();
}
