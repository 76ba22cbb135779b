// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model unit tests: the two-list LRU's deactivation when the file refault count moved
 * (mm/vmscan.c prepare_scan_control() in 6.12 and 6.18, prepare_scan_count() in 6.1:
 * DEACTIVATE_FILE when lruvec_page_state(WORKINGSET_ACTIVATE_FILE) differs from
 * target_lruvec->refaults[WORKINGSET_FILE], which snapshot_refaults() took at the end of the
 * last reclaim), even with the inactive list not low.
 */
#include <stddef.h>

#include "model/model.h"
#include "model-harness.h"
#include "tap.h"

#define PAGE	4096ull
#define SEC	1000000000ull

static struct model *make(const struct model_device *dev)
{
	struct model_config c;

	model_config_defaults(&c);
	c.policy = FOLIO_POLICY_FIXED;	/* order-0 folios: a page each */
	c.order = 0;
	c.memory_bytes = 16 * PAGE;
	c.lru = LRU_TWO_LIST;
	c.readahead = false;
	if (dev) {
		c.devices = dev;
		c.ndevices = 1;
	}
	return checked_model(&c);
}

static void rd(struct model *m, uint64_t ts, uint32_t file, uint64_t page)
{
	op_on(m, ts, MODEL_READ, file, 0, page * PAGE, PAGE, 64 * PAGE);
}

static uint64_t deactivations(struct model *m)
{
	return metrics(m).deactivations;
}

/*
 * Sixteen pages of memory. A (file 0, pages 0-6) read twice: 7 active. C (file 1, pages 0-8)
 * read once: 9 inactive, memory full. C9 evicts C0, the inactive tail. memory.stat read
 * flushes the statistics (7 active, activations 0). C0 read again evicts C1 and refaults at a
 * distance of two evictions or less, within the 7 active pages the flush counted: activated
 * (WORKINGSET_ACTIVATE_FILE 1, flushed still 0). Now 8 active (A0-A6, C0; A0 the tail) and 8
 * inactive (C2-C9): inactive_is_low() is 8 * 1 < 8, false (ratio 1 below 1 GiB). No
 * deactivation so far. Returns at now + 0.
 */
static void setup(struct model *m)
{
	struct model_access flush = { .op = MODEL_STATS_FLUSH };

	for (int pass = 0; pass < 2; pass++)
		for (uint64_t p = 0; p < 7; p++)
			rd(m, 0, 0, p);
	for (uint64_t p = 0; p < 10; p++)
		rd(m, 0, 1, p);
	model_access(m, &flush);
	rd(m, 0, 1, 0);
}

/*
 * 6.18 (MODEL_UNKNOWN: the newest): the count compared is the flushed one (reclaim flushes
 * only when the periodic flush is a cycle late). Before the first periodic flush (2 s) new
 * pages evict the inactive tail and deactivate nothing; after it, the count (1) differs from
 * the snapshot (0, no reclaim has ended: it ends at SWAP_CLUSTER_MAX pages) and the active
 * list is scanned in step with the inactive, min(active, inactive) / inactive pages per page:
 * C10: 8/8, A0 deactivated (7 active, 9 inactive after C10 is added); C11: 7/9, none;
 * C12: 7/9 + 7/9 = 1.56, A1 deactivated. Two in all.
 */
static void test_after_flush(void)
{
	struct model *m = make(NULL);

	setup(m);
	is_u64(metrics(m).refault_activations, 1, "C0's refault activated");
	is_u64(deactivations(m), 0, "inactive never low: no deactivation yet");
	for (uint64_t p = 10; p < 13; p++)
		rd(m, SEC, 1, p);
	is_u64(deactivations(m), 0, "1 s: not flushed yet, the count is still the snapshot's");
	model_free(m);

	m = make(NULL);
	setup(m);
	rd(m, 3 * SEC, 1, 10);
	is_u64(deactivations(m), 1, "3 s, after the flush: C10's scan deactivates A0 (8/8)");
	rd(m, 3 * SEC, 1, 11);
	is_u64(deactivations(m), 1, "C11: 7/9 of a page owed, none");
	rd(m, 3 * SEC, 1, 12);
	is_u64(deactivations(m), 2, "C12: 14/9 owed, A1 deactivated");
	is_u64(metrics(m).evictions, 5, "C0-C4 evicted");
	model_free(m);
}

/*
 * 6.1 reads the count unflushed (mem_cgroup_flush_stats() at reclaim, over the update
 * threshold a reclaiming workload always passes): the first eviction after C0's activation
 * already deactivates, with no flush: C10 then deactivates A0, as above.
 */
static void test_6_1_fresh(void)
{
	struct model_device dev = test_device("ext4", 6001, 4096);
	struct model *m = make(&dev);

	setup(m);
	is_u64(deactivations(m), 0, "6.1: none before C0's activation is seen");
	rd(m, 0, 1, 10);
	is_u64(deactivations(m), 1, "6.1: C10 at 0 s deactivates A0 already");
	model_free(m);
}

/*
 * The snapshot ends it: once a reclaim has taken SWAP_CLUSTER_MAX pages
 * (do_try_to_free_pages()' nr_to_reclaim), snapshot_refaults() takes the count and later
 * reclaims see no change, so the active list is left alone again while inactive is not low.
 * After C10-C12 (5 evicted), 27 more new pages end the reclaim at 32; the deactivations
 * counted then stay as they are for 20 more.
 */
static void test_snapshot_ends_it(void)
{
	struct model *m = make(NULL);
	uint64_t at_snapshot;

	setup(m);
	for (uint64_t p = 10; p < 40; p++)
		rd(m, 3 * SEC, 1, p);
	is_u64(metrics(m).evictions, 32, "32 pages reclaimed: the reclaim ends");
	at_snapshot = deactivations(m);
	ok(at_snapshot >= 2, "it deactivated while it ran (%llu)",
	   (unsigned long long)at_snapshot);
	for (uint64_t p = 40; p < 60; p++)
		rd(m, 3 * SEC, 1, p);
	is_u64(deactivations(m), at_snapshot, "the next reclaim sees the snapshot: none more");
	model_free(m);
}

/*
 * Flushed while the inactive list was low, every reclaim may deactivate; how much follows the
 * folios it takes, whole and counted in pages (isolate_lru_folios()). 64 MiB of memory in
 * order-9 folios: A (8 folios, 4096 pages) read twice, all active, then flushed (inactive 0
 * < active 4096). B's folios fill the other 12288 pages and evict from then on: each reclaim
 * takes one 512-page folio at DEF_PRIORITY (its scan 12288 >> 12 = 3 pages, filled by the
 * first folio), where the active list gives 4096 >> 12 = 1 page: 8 evictions owe 8 pages, no
 * whole folio of A. Counted in order-0 pages the same lists give 15 active pages per 45 taken
 * (down to priority 9): 170 a folio, two of A's folios in 8 evictions.
 */
static void test_large_folio_batch(void)
{
	struct model_access flush = { .op = MODEL_STATS_FLUSH };
	struct model_config c;
	struct model *m;

	model_config_defaults(&c);
	c.policy = FOLIO_POLICY_FIXED;
	c.order = 9;
	c.memory_bytes = 16384 * PAGE;
	c.lru = LRU_TWO_LIST;
	c.readahead = false;
	m = checked_model(&c);
	for (int pass = 0; pass < 2; pass++)
		for (uint64_t f = 0; f < 8; f++)
			op_on(m, 0, MODEL_READ, 0, 0, f * 512 * PAGE, PAGE, 4096 * PAGE);
	model_access(m, &flush);
	for (uint64_t f = 0; f < 24 + 8; f++)
		op_on(m, 0, MODEL_READ, 1, 0, f * 512 * PAGE, PAGE, 32 * 512 * PAGE);
	is_u64(metrics(m).evictions, 8, "order 9: B's last 8 folios evicted 8");
	is_u64(deactivations(m), 0, "order 9: a reclaim filled by one folio at DEF_PRIORITY "
	       "deactivates 1 page: none of A's folios in 8");
	model_free(m);
}

int main(void)
{
	test_after_flush();
	test_6_1_fresh();
	test_snapshot_ends_it();
	test_large_folio_batch();
	return done_testing();
}
