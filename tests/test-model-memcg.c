// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model unit tests: several memory cgroups in one model. Each folio is charged to the cgroup
 * of the access that inserted it; a cgroup over its limit (memory.max, memory.high) reclaims
 * its own folios only; global reclaim takes from every cgroup in proportion to its size; a
 * refault is judged on the lruvec of the cgroup that evicted the folio.
 */
#include <stddef.h>
#include <stdint.h>

#include "model/instance.h"
#include "model-harness.h"
#include "tap.h"

#define PAGE	4096ull
#define NONE	UINT64_MAX

static struct model *make(uint64_t pages, const struct model_memcg *memcgs, uint32_t n,
			  enum lru_kind lru)
{
	struct model_config c;

	model_config_defaults(&c);
	c.order = 0;
	c.policy = FOLIO_POLICY_FIXED;
	c.memory_bytes = pages * PAGE;
	c.readahead = false;
	c.lru = lru;
	c.memcgs = memcgs;
	c.nr_memcgs = n;
	return checked_model(&c);
}

/* A one-page read of file's page by an access of cgroup memcg (0: the first). */
static void rd_in(struct model *m, uint8_t memcg, uint32_t file, uint64_t page)
{
	struct model_access a = {
		.ts = 0, .file_id = file, .op = MODEL_READ, .pos = page * PAGE, .len = PAGE,
		.isize = 1024 * PAGE, .device = MODEL_DEVICE_NONE, .memcg = memcg,
	};

	model_access(m, &a);
}

static void rd_range(struct model *m, uint8_t memcg, uint32_t file, uint64_t first,
		     uint64_t n)
{
	for (uint64_t p = first; p < first + n; p++)
		rd_in(m, memcg, file, p);
}

static uint64_t memcg_pages(const struct model *m, unsigned id)
{
	return lru_pages(&m->memcgs[id].lruvec.lru);
}

/* memory.max: the limited cgroup reclaims its own folios, the other keeps its own. */
static void test_limit_reclaims_own(void)
{
	static const struct model_memcg cgs[] = { { 8 * PAGE, NONE }, { NONE, NONE } };
	struct model *m = make(64, cgs, 2, LRU_TWO_LIST);
	struct model_metrics x;

	rd_range(m, 2, 1, 0, 16);	/* cgroup 2: file 1, 16 pages */
	rd_range(m, 1, 0, 0, 16);	/* cgroup 1 (8 pages): file 0, 16 pages */
	x = metrics(m);
	is_u64(x.evicted_pages, 8, "cgroup 1 evicted 8 of its 16 pages to stay at 8");
	is_u64(memcg_pages(m, 1), 8, "cgroup 1 holds its limit");
	is_u64(memcg_pages(m, 2), 16, "cgroup 2 keeps all 16 of its pages");
	rd_range(m, 1, 1, 0, 16);	/* cgroup 1 reads cgroup 2's file: hits, no charge */
	x = metrics(m);
	is_u64(x.read_hit_requests, 16, "cgroup 2's pages are hits for cgroup 1");
	is_u64(memcg_pages(m, 1), 8, "a hit charges nobody new");
	is_u64(x.evicted_pages, 8, "and evicts nothing");
	model_free(m);
}

/* memory.high: reclaimed back down after each access, without a hard limit. */
static void test_high_reclaims_back(void)
{
	static const struct model_memcg cgs[] = { { NONE, 8 * PAGE } };
	struct model *m = make(64, cgs, 1, LRU_TWO_LIST);
	struct model_metrics x;

	rd_range(m, 1, 0, 0, 16);
	x = metrics(m);
	is_u64(x.evicted_pages, 8, "memory.high: 8 of 16 pages reclaimed");
	is_u64(memcg_pages(m, 1), 8, "the cgroup is back at its high");
	model_free(m);
}

/*
 * Global reclaim by share: a zone of 12288 pages filled 2:1 by two cgroups; others taking
 * 768 pages make reclaim take 512 and 256 (to the page the shares' rounding allows).
 */
static void test_global_reclaim_by_size(void)
{
	static const struct model_memcg cgs[] = { { NONE, NONE }, { NONE, NONE } };
	struct model *m = make(12288, cgs, 2, LRU_TWO_LIST);
	struct model_access others = { .op = MODEL_OTHERS, .pos = 768 };
	uint64_t lost1, lost2;

	rd_range(m, 1, 0, 0, 8192);
	rd_range(m, 2, 1, 0, 4096);
	model_access(m, &others);
	lost1 = 8192 - memcg_pages(m, 1);
	lost2 = 4096 - memcg_pages(m, 2);
	is_u64(lost1 + lost2, 768, "768 pages reclaimed for the others");
	ok(lost1 >= 511 && lost1 <= 513, "the larger cgroup lost 512 (+-1): %llu",
	   (unsigned long long)lost1);
	ok(lost2 >= 255 && lost2 <= 257, "the smaller cgroup lost 256 (+-1): %llu",
	   (unsigned long long)lost2);
	model_free(m);
}

/*
 * A refault is judged on the evicting cgroup's lruvec: cgroup 1 (16 pages, 8 of them active)
 * evicts file 0's first 8 pages; memory.stat read flushes the statistics; cgroup 2, with no
 * active list, reads back the last evicted: its distance (1) is within cgroup 1's active list
 * as flushed (8), so it comes back active.
 */
static void test_refault_on_evicting_lruvec(void)
{
	static const struct model_memcg cgs[] = { { 16 * PAGE, NONE }, { NONE, NONE } };
	struct model *m = make(256, cgs, 2, LRU_TWO_LIST);
	struct model_metrics x;

	rd_range(m, 1, 2, 0, 8);
	rd_range(m, 1, 2, 0, 8);	/* read again: activated */
	rd_range(m, 1, 0, 0, 16);
	x = metrics(m);
	is_u64(x.evicted_pages, 8, "cgroup 1 evicted 8 pages of file 0");
	is_u64(m->memcgs[1].lruvec.lru.active.pages, 8, "and keeps 8 active");
	model_access(m, &(struct model_access){ .op = MODEL_STATS_FLUSH });
	rd_in(m, 2, 0, 7);
	x = metrics(m);
	is_u64(x.refaults, 1, "cgroup 2's read of an evicted page is a refault");
	is_u64(x.refault_activations, 1, "activated: within the evicting cgroup's active list");
	is_u64(memcg_pages(m, 2), 1, "charged to cgroup 2, which read it back");
	model_free(m);
}

/* MGLRU: a folio another cgroup evicted is no refault of the reader's (lru_gen_refault()). */
static void test_mglru_refault_across_cgroups(void)
{
	static const struct model_memcg cgs[] = { { 8 * PAGE, NONE }, { NONE, NONE } };
	struct model *m = make(256, cgs, 2, LRU_MGLRU);
	struct model_metrics x;

	rd_range(m, 1, 0, 0, 16);
	x = metrics(m);
	is_u64(x.evicted_pages, 8, "MGLRU: cgroup 1 evicted 8 pages");
	rd_in(m, 2, 0, 0);
	x = metrics(m);
	is_u64(x.refaults, 0, "read back by cgroup 2: not a refault");
	rd_in(m, 1, 0, 1);
	x = metrics(m);
	is_u64(x.refaults, 1, "read back by cgroup 1: a refault");
	model_free(m);
}

/*
 * MGLRU: a limit reclaim takes evict_folios()'s whole batch, MIN_LRU_BATCH pages isolated,
 * though the charge wants one page (6.12's memcg events show 64 reclaimed each time).
 */
static void test_mglru_limit_batch(void)
{
	static const struct model_memcg cgs[] = { { 128 * PAGE, NONE } };
	struct model *m = make(1024, cgs, 1, LRU_MGLRU);
	struct model_metrics x;

	rd_range(m, 1, 0, 0, 129);
	x = metrics(m);
	is_u64(x.evicted_pages, 64, "MGLRU: the 129th page's charge evicts a batch of 64");
	is_u64(memcg_pages(m, 1), 65, "MGLRU: 65 pages left");
	rd_range(m, 1, 0, 129, 63);
	x = metrics(m);
	is_u64(x.evicted_pages, 64, "MGLRU: 63 more fit without reclaim");
	rd_in(m, 1, 0, 192);
	x = metrics(m);
	is_u64(x.evicted_pages, 128, "MGLRU: the next charge over the limit evicts 64 more");
	model_free(m);
}

/* The two lists reclaim what the charge needs: a page at a time. */
static void test_two_list_limit_no_batch(void)
{
	static const struct model_memcg cgs[] = { { 128 * PAGE, NONE } };
	struct model *m = make(1024, cgs, 1, LRU_TWO_LIST);

	rd_range(m, 1, 0, 0, 129);
	is_u64(metrics(m).evicted_pages, 1, "two lists: the 129th page's charge evicts one");
	model_free(m);
}

/* What a cgroup holds besides its page cache is charged to its limit (MODEL_OTHERS). */
static void test_others_in_limit(void)
{
	static const struct model_memcg cgs[] = { { 16 * PAGE, NONE } };
	struct model *m = make(1024, cgs, 1, LRU_TWO_LIST);
	struct model_access a = { .op = MODEL_OTHERS, .pos = 4, .memcg = 1,
				  .device = MODEL_DEVICE_NONE };

	rd_range(m, 1, 0, 0, 16);
	model_access(m, &a);
	is_u64(metrics(m).evicted_pages, 4, "4 pages of others in a full cgroup evict 4");
	is_u64(memcg_pages(m, 1), 12, "its cache keeps the 12 pages left");
	rd_in(m, 1, 0, 16);
	is_u64(memcg_pages(m, 1), 12, "a new page evicts another: 12 still");
	a.pos = 0;
	model_access(m, &a);
	rd_range(m, 1, 0, 17, 4);
	is_u64(memcg_pages(m, 1), 16, "others gone: the cache grows back to 16");
	model_free(m);
}

int main(void)
{
	test_mglru_limit_batch();
	test_two_list_limit_no_batch();
	test_others_in_limit();
	test_limit_reclaims_own();
	test_high_reclaims_back();
	test_global_reclaim_by_size();
	test_refault_on_evicting_lruvec();
	test_mglru_refault_across_cgroups();
	return tap_done();
}
