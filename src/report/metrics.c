/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reported metrics, in report order. Keys are a stable interface: one name per metric in
 * every format and option; a key renamed keeps its old name as an alias (metric_aliases).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "model/memory/buddy.h"
#include "report/metrics.h"
#include "util/escape.h"

static struct report_value rv_u64(uint64_t v)
{
	return (struct report_value){ .valid = true, .integer = true, .u = v, .d = (double)v };
}

static struct report_value rv_dbl(double v)
{
	return (struct report_value){ .valid = true, .d = v };
}

static struct report_value rv_none(void)
{
	return (struct report_value){ .valid = false };
}

/* num / den, none when den is 0. */
static struct report_value rv_div(double num, double den)
{
	return den != 0 ? rv_dbl(num / den) : rv_none();
}

double report_value_double(struct report_value v)
{
	return v.integer ? (double)v.u : v.d;
}

struct report_value report_ratio(struct report_value value, struct report_value base)
{
	if (!value.valid || !base.valid)
		return rv_none();
	return rv_div(report_value_double(value), report_value_double(base));
}

/* Plain integer fields. */
#define FIELD(name) \
static struct report_value get_##name(const struct model_metrics *m, const struct model_config *c) \
{ \
	return rv_u64(m->name); \
}

/* Distributions: mean (none without samples), p99, max. */
#define DIST(name) \
static struct report_value get_##name##_mean(const struct model_metrics *m, \
					     const struct model_config *c) \
{ \
	return rv_div(m->name.sum, (double)m->name.samples); \
} \
static struct report_value get_##name##_p99(const struct model_metrics *m, \
					    const struct model_config *c) \
{ \
	return rv_u64(m->name.p99); \
} \
static struct report_value get_##name##_max(const struct model_metrics *m, \
					    const struct model_config *c) \
{ \
	return rv_u64(m->name.max); \
}

FIELD(accesses)
FIELD(read_requests)
FIELD(read_hit_requests)
FIELD(read_bytes)
FIELD(read_hit_bytes)
FIELD(read_ios)
FIELD(write_read_bytes)
FIELD(direct_read_bytes)
FIELD(direct_write_bytes)
FIELD(write_requests)
FIELD(write_bytes)
FIELD(writeback_bytes)
FIELD(writeback_ios)
FIELD(wb_fsync_bytes)
FIELD(wb_expire_bytes)
FIELD(wb_background_bytes)
FIELD(wb_reclaim_bytes)
FIELD(wb_vmscan_bytes)
FIELD(wb_sync_bytes)
FIELD(wb_dontcache_bytes)
FIELD(wb_flush_bytes)
FIELD(range_flushes)
FIELD(dirtied_pages)
FIELD(written_pages)
FIELD(wb_truncated_bytes)
FIELD(reclaim_dirty_folios)
FIELD(reclaim_writeback_folios)
FIELD(reclaim_immediate_pages)
FIELD(rotated_pages)
FIELD(flusher_wakeups)
FIELD(reclaim_stalls)
FIELD(extents)
FIELD(throttled)
FIELD(insertions)
FIELD(inserted_pages)
FIELD(evictions)
FIELD(evicted_pages)
FIELD(refaults)
FIELD(refault_activations)
FIELD(refault_folios)
FIELD(activations)
FIELD(deactivations)
FIELD(touched_bytes)
FIELD(alloc_fallbacks)
FIELD(alloc_failures)
FIELD(compaction_demand)
FIELD(metadata_bytes_page)
FIELD(metadata_bytes_folio)
FIELD(dirty_bytes)
FIELD(faultaround_pages)
FIELD(read_waited_requests)
FIELD(read_waited_bytes)
FIELD(compact_stall)
FIELD(compact_success)
FIELD(compact_fail)
FIELD(compact_migrate_scanned)
FIELD(compact_free_scanned)
FIELD(compact_migrated)
FIELD(compact_daemon_wake)
FIELD(compact_daemon_migrated)
FIELD(compact_proactive)
FIELD(extfrag_claims)
FIELD(pageblocks_claimed)
FIELD(extfrag_steals)
FIELD(advice_calls)
FIELD(advice_ignored)
FIELD(willneed_pages)
FIELD(dontneed_pages)
FIELD(dontneed_folios)
FIELD(dropbehind_pages)
DIST(lru_entries)
DIST(lru_inactive)
DIST(lru_active)
DIST(lru_pages)
DIST(lru_inactive_pages)
DIST(lru_active_pages)
DIST(lru_gen0_pages)
DIST(lru_gen1_pages)
DIST(lru_gen2_pages)
DIST(lru_gen3_pages)
DIST(cached_bytes)
DIST(untouched_cached_bytes)

static double duration_s(const struct model_metrics *m)
{
	return m->last_ts > m->first_ts ? (double)(m->last_ts - m->first_ts) / 1e9 : 0;
}

static struct report_value get_duration_s(const struct model_metrics *m,
					  const struct model_config *c)
{
	return rv_dbl(duration_s(m));
}

static struct report_value get_hit_ratio(const struct model_metrics *m,
					 const struct model_config *c)
{
	return rv_div((double)m->read_hit_requests, (double)m->read_requests);
}

static struct report_value get_hit_ratio_bytes(const struct model_metrics *m,
					       const struct model_config *c)
{
	return rv_div((double)m->read_hit_bytes, (double)m->read_bytes);
}

static struct report_value get_device_read_bytes(const struct model_metrics *m,
						 const struct model_config *c)
{
	return rv_u64(m->read_io_bytes);
}

/* Device bytes read per byte the application read. */
static struct report_value get_read_amplification(const struct model_metrics *m,
						  const struct model_config *c)
{
	return rv_div((double)m->read_io_bytes, (double)m->read_bytes);
}

/* Bytes written back per byte the application wrote. */
static struct report_value get_write_amplification(const struct model_metrics *m,
						   const struct model_config *c)
{
	return rv_div((double)m->writeback_bytes, (double)m->write_bytes);
}

static struct report_value get_writeback_io_mean_bytes(const struct model_metrics *m,
						       const struct model_config *c)
{
	return rv_div((double)m->writeback_bytes, (double)m->writeback_ios);
}

static struct report_value get_extent_mean_bytes(const struct model_metrics *m,
						 const struct model_config *c)
{
	return rv_div((double)m->extent_bytes, (double)m->extents);
}

/* Seconds kept as doubles in struct model_metrics. */
#define SECONDS(name) \
static struct report_value get_##name(const struct model_metrics *m, const struct model_config *c) \
{ \
	return rv_dbl(m->name); \
}

SECONDS(writeback_time_s)
SECONDS(throttle_time_s)
SECONDS(sync_wait_time_s)
SECONDS(range_flush_wait_s)
SECONDS(reclaim_stall_time_s)

/* Mean over the trace's duration: what the device saw on average. */
static struct report_value get_write_bandwidth(const struct model_metrics *m,
					       const struct model_config *c)
{
	return rv_div((double)m->writeback_bytes, duration_s(m));
}

/* Memory that large folios brought in and nobody ever asked for. */
static struct report_value get_untouched_evicted_bytes(const struct model_metrics *m,
						       const struct model_config *c)
{
	return rv_u64(m->untouched_evicted_pages * c->page_size);
}

/* The unusable index at order 9 at the end, whatever the model's order: comparable across. */
static struct report_value get_unusable_index_9(const struct model_metrics *m,
						const struct model_config *c)
{
	return rv_dbl(buddy_unusable_free_index(m->free_blocks, 9) / 1000.0);
}

/* Free blocks of a pageblock or more at the end, in pageblocks (2 MiB on x86-64). */
static struct report_value get_free_pageblocks(const struct model_metrics *m,
					       const struct model_config *c)
{
	return rv_u64(m->free_blocks[9] + 2 * m->free_blocks[10]);
}

static struct report_value get_unusable_index(const struct model_metrics *m,
					      const struct model_config *c)
{
	return rv_dbl(m->unusable_index);
}

static struct report_value get_fragmentation_index(const struct model_metrics *m,
						   const struct model_config *c)
{
	return rv_dbl(m->fragmentation_index);
}

/* The time distribution is kept in thousandths; report it on the same 0..1 scale. */
static struct report_value get_unusable_index_mean(const struct model_metrics *m,
						   const struct model_config *c)
{
	return rv_div(m->unusable_milli.sum / 1000.0, (double)m->unusable_milli.samples);
}

static struct report_value get_unusable_index_max(const struct model_metrics *m,
						  const struct model_config *c)
{
	return rv_dbl((double)m->unusable_milli.max / 1000.0);
}

#define M(key, label, section, kind) { #key, label, section, kind, get_##key }

const struct report_metric report_metrics[] = {
	M(accesses, "accesses", "trace", RK_COUNT),
	M(duration_s, "duration", "trace", RK_SECONDS),

	M(read_requests, "read requests", "reads", RK_COUNT),
	M(read_hit_requests, "read requests hit", "reads", RK_COUNT),
	M(read_waited_requests, "  waited on readahead", "reads", RK_COUNT),
	M(hit_ratio, "hit ratio (requests)", "reads", RK_FRACTION),
	M(device_read_bytes, "device read bytes", "reads", RK_BYTES),
	M(read_bytes, "bytes read", "reads", RK_BYTES),
	M(read_hit_bytes, "bytes read from cache", "reads", RK_BYTES),
	M(read_waited_bytes, "  waited on readahead", "reads", RK_BYTES),
	M(hit_ratio_bytes, "hit ratio (bytes)", "reads", RK_FRACTION),
	M(read_ios, "device read I/Os", "reads", RK_COUNT),
	M(read_amplification, "read amplification", "reads", RK_FACTOR),
	M(write_read_bytes, "read for partial writes", "reads", RK_BYTES),
	M(direct_read_bytes, "O_DIRECT bytes read", "reads", RK_BYTES),
	M(faultaround_pages, "fault-around pages", "reads", RK_COUNT),
	M(advice_calls, "fadvise/madvise calls", "reads", RK_COUNT),
	M(advice_ignored, "  advice not modelled", "reads", RK_COUNT),
	M(willneed_pages, "WILLNEED pages read", "reads", RK_COUNT),
	M(dontneed_pages, "DONTNEED pages dropped", "reads", RK_COUNT),
	M(dontneed_folios, "DONTNEED folios dropped", "reads", RK_COUNT),
	M(dropbehind_pages, "DONTCACHE pages dropped", "reads", RK_COUNT),

	M(write_requests, "write requests", "writes", RK_COUNT),
	M(write_bytes, "bytes written", "writes", RK_BYTES),
	M(direct_write_bytes, "O_DIRECT bytes written", "writes", RK_BYTES),
	M(writeback_bytes, "writeback bytes", "writes", RK_BYTES),
	M(write_amplification, "write amplification", "writes", RK_FACTOR),
	M(writeback_ios, "writeback I/Os", "writes", RK_COUNT),
	M(writeback_io_mean_bytes, "writeback I/O mean size", "writes", RK_MEAN_BYTES),
	M(wb_fsync_bytes, "  by fsync or O_SYNC", "writes", RK_BYTES),
	M(wb_sync_bytes, "  by sync or syncfs", "writes", RK_BYTES),
	M(wb_dontcache_bytes, "  by RWF_DONTCACHE writes", "writes", RK_BYTES),
	M(wb_flush_bytes, "  by forced flushes (NFS)", "writes", RK_BYTES),
	M(wb_expire_bytes, "  by age (dirty_expire)", "writes", RK_BYTES),
	M(wb_background_bytes, "  by background limit", "writes", RK_BYTES),
	M(wb_vmscan_bytes, "  by flusher for reclaim", "writes", RK_BYTES),
	M(wb_reclaim_bytes, "  by reclaim", "writes", RK_BYTES),
	M(wb_truncated_bytes, "dirty bytes truncated", "writes", RK_BYTES),
	M(dirtied_pages, "folio pages dirtied", "writes", RK_COUNT),
	M(written_pages, "folio pages written back", "writes", RK_COUNT),
	M(reclaim_dirty_folios, "dirty folios at LRU tail", "writes", RK_COUNT),
	M(reclaim_writeback_folios, "in writeback at LRU tail", "writes", RK_COUNT),
	M(reclaim_immediate_pages, "immediate reclaim pages", "writes", RK_COUNT),
	M(rotated_pages, "rotated (pgrotated)", "writes", RK_COUNT),
	M(flusher_wakeups, "flusher woken by reclaim", "writes", RK_COUNT),
	M(reclaim_stalls, "reclaim writeback stalls", "writes", RK_COUNT),
	M(reclaim_stall_time_s, "reclaim stall time", "writes", RK_SECONDS),
	M(extents, "writeback extents", "writes", RK_COUNT),
	M(extent_mean_bytes, "extent mean size", "writes", RK_MEAN_BYTES),
	M(throttled, "writer throttle pauses", "writes", RK_COUNT),
	M(throttle_time_s, "writer throttle time", "writes", RK_SECONDS),
	M(sync_wait_time_s, "fsync wait time", "writes", RK_SECONDS),
	M(range_flushes, "forced flushes (NFS)", "writes", RK_COUNT),
	M(range_flush_wait_s, "  writers' wait for them", "writes", RK_SECONDS),
	M(dirty_bytes, "dirty at the end", "writes", RK_BYTES),
	M(writeback_time_s, "device write time", "writes", RK_SECONDS),
	M(write_bandwidth, "write bandwidth", "writes", RK_BYTES_PER_S),

	M(insertions, "folios inserted", "cache", RK_COUNT),
	M(inserted_pages, "pages inserted", "cache", RK_COUNT),
	M(evictions, "folios evicted", "cache", RK_COUNT),
	M(evicted_pages, "pages evicted", "cache", RK_COUNT),
	M(untouched_evicted_bytes, "evicted, never accessed", "cache", RK_BYTES),
	M(refaults, "refaults", "cache", RK_COUNT),
	M(refault_activations, "refault activations", "cache", RK_COUNT),
	M(refault_folios, "refaulting folios", "cache", RK_COUNT),
	M(activations, "activations", "cache", RK_COUNT),
	M(deactivations, "deactivations", "cache", RK_COUNT),
	M(touched_bytes, "bytes ever touched", "cache", RK_BYTES),
	M(cached_bytes_mean, "cached bytes mean", "cache", RK_MEAN_BYTES),
	M(cached_bytes_p99, "cached bytes p99", "cache", RK_BYTES),
	M(cached_bytes_max, "cached bytes max", "cache", RK_BYTES),
	M(untouched_cached_bytes_mean, "cached unaccessed mean", "cache", RK_MEAN_BYTES),
	M(untouched_cached_bytes_p99, "cached unaccessed p99", "cache", RK_BYTES),
	M(untouched_cached_bytes_max, "cached unaccessed max", "cache", RK_BYTES),

	M(lru_entries_mean, "LRU entries mean", "lru", RK_MEAN),
	M(lru_entries_p99, "LRU entries p99", "lru", RK_COUNT),
	M(lru_entries_max, "LRU entries max", "lru", RK_COUNT),
	M(lru_inactive_mean, "inactive entries mean", "lru", RK_MEAN),
	M(lru_inactive_p99, "inactive entries p99", "lru", RK_COUNT),
	M(lru_inactive_max, "inactive entries max", "lru", RK_COUNT),
	M(lru_active_mean, "active entries mean", "lru", RK_MEAN),
	M(lru_active_p99, "active entries p99", "lru", RK_COUNT),
	M(lru_active_max, "active entries max", "lru", RK_COUNT),
	M(lru_pages_mean, "LRU pages mean", "lru", RK_MEAN),
	M(lru_pages_p99, "LRU pages p99", "lru", RK_COUNT),
	M(lru_pages_max, "LRU pages max", "lru", RK_COUNT),
	M(lru_inactive_pages_mean, "inactive pages mean", "lru", RK_MEAN),
	M(lru_inactive_pages_p99, "inactive pages p99", "lru", RK_COUNT),
	M(lru_inactive_pages_max, "inactive pages max", "lru", RK_COUNT),
	M(lru_active_pages_mean, "active pages mean", "lru", RK_MEAN),
	M(lru_active_pages_p99, "active pages p99", "lru", RK_COUNT),
	M(lru_active_pages_max, "active pages max", "lru", RK_COUNT),
	M(lru_gen0_pages_mean, "MGLRU gen 0 pages mean", "lru", RK_MEAN),
	M(lru_gen0_pages_p99, "MGLRU gen 0 pages p99", "lru", RK_COUNT),
	M(lru_gen0_pages_max, "MGLRU gen 0 pages max", "lru", RK_COUNT),
	M(lru_gen1_pages_mean, "MGLRU gen 1 pages mean", "lru", RK_MEAN),
	M(lru_gen1_pages_p99, "MGLRU gen 1 pages p99", "lru", RK_COUNT),
	M(lru_gen1_pages_max, "MGLRU gen 1 pages max", "lru", RK_COUNT),
	M(lru_gen2_pages_mean, "MGLRU gen 2 pages mean", "lru", RK_MEAN),
	M(lru_gen2_pages_p99, "MGLRU gen 2 pages p99", "lru", RK_COUNT),
	M(lru_gen2_pages_max, "MGLRU gen 2 pages max", "lru", RK_COUNT),
	M(lru_gen3_pages_mean, "MGLRU gen 3 pages mean", "lru", RK_MEAN),
	M(lru_gen3_pages_p99, "MGLRU gen 3 pages p99", "lru", RK_COUNT),
	M(lru_gen3_pages_max, "MGLRU gen 3 pages max", "lru", RK_COUNT),

	M(alloc_fallbacks, "allocation fallbacks", "memory", RK_COUNT),
	M(alloc_failures, "allocation failures", "memory", RK_COUNT),
	M(compaction_demand, "compaction demand", "memory", RK_COUNT),
	M(compact_stall, "direct compactions", "memory", RK_COUNT),
	M(compact_success, "  succeeded", "memory", RK_COUNT),
	M(compact_fail, "  failed", "memory", RK_COUNT),
	M(compact_daemon_wake, "kcompactd wakeups", "memory", RK_COUNT),
	M(compact_proactive, "  proactive runs", "memory", RK_COUNT),
	M(compact_migrate_scanned, "compaction pages scanned", "memory", RK_COUNT),
	M(compact_free_scanned, "  free pages scanned", "memory", RK_COUNT),
	M(compact_migrated, "  pages migrated", "memory", RK_COUNT),
	M(compact_daemon_migrated, "  of which by kcompactd", "memory", RK_COUNT),
	M(extfrag_claims, "fallbacks claiming", "memory", RK_COUNT),
	M(pageblocks_claimed, "  pageblocks claimed", "memory", RK_COUNT),
	M(extfrag_steals, "fallbacks stealing", "memory", RK_COUNT),
	M(free_pageblocks, "free pageblocks (end)", "memory", RK_COUNT),
	M(unusable_index_9, "unusable index o9 (end)", "memory", RK_INDEX),
	M(unusable_index, "unusable index (end)", "memory", RK_INDEX),
	M(fragmentation_index, "frag. index (end)", "memory", RK_INDEX),
	M(unusable_index_mean, "unusable index mean", "memory", RK_INDEX),
	M(unusable_index_max, "unusable index max", "memory", RK_INDEX),
	M(metadata_bytes_page, "struct page, all RAM", "memory", RK_BYTES),
	M(metadata_bytes_folio, "memdesc what-if, all RAM", "memory", RK_BYTES),
};

const unsigned report_nr_metrics = sizeof(report_metrics) / sizeof(report_metrics[0]);

static const uint64_t *arr_insertions_by_order(const struct model_metrics *m)
{
	return m->insertions_by_order;
}

static const uint64_t *arr_alloc_by_order(const struct model_metrics *m)
{
	return m->alloc_by_order;
}

static const uint64_t *arr_free_blocks(const struct model_metrics *m)
{
	return m->free_blocks;
}

static const uint64_t *arr_iosize_hist(const struct model_metrics *m)
{
	return m->iosize_hist;
}

const struct report_array report_arrays[] = {
	{ "insertions_by_order", MODEL_MAX_ORDER + 1, arr_insertions_by_order },
	{ "alloc_by_order", MODEL_MAX_ORDER + 1, arr_alloc_by_order },
	{ "free_blocks", MODEL_MAX_ORDER + 1, arr_free_blocks },
	{ "iosize_hist", MODEL_IOSIZE_BUCKETS, arr_iosize_hist },
};

const unsigned report_nr_arrays = sizeof(report_arrays) / sizeof(report_arrays[0]);

_Static_assert(sizeof(report_metrics) / sizeof(report_metrics[0]) <= REPORT_MAX_METRICS,
	       "raise REPORT_MAX_METRICS");
_Static_assert(sizeof(report_arrays) / sizeof(report_arrays[0]) <= REPORT_MAX_ARRAYS,
	       "raise REPORT_MAX_ARRAYS");

struct report_value report_metric_ratio(const struct report_metric *md, const struct model_metrics *m,
					const struct model_config *c, const struct model_metrics *bm,
					const struct model_config *bc)
{
	/* an index is no quantity: -1 (no fragmentation problem) over 0.125 means nothing */
	if (md->kind == RK_INDEX)
		return rv_none();
	return report_ratio(md->get(m, c), md->get(bm, bc));
}

/* The groups that are not a section: their keys, metrics or arrays, NULL-terminated. */
static const struct {
	const char *name;
	const char *keys[24];
} extra_groups[] = {
	{ "folios", { "insertions", "inserted_pages", "insertions_by_order", "alloc_by_order",
		      NULL } },
	{ "reclaim", { "evictions", "evicted_pages", "untouched_evicted_bytes", "refaults",
		       "refault_activations", "refault_folios", "wb_vmscan_bytes",
		       "wb_reclaim_bytes", "reclaim_dirty_folios", "reclaim_writeback_folios",
		       "reclaim_immediate_pages", "rotated_pages", "flusher_wakeups",
		       "reclaim_stalls", "reclaim_stall_time_s", NULL } },
	{ "fragmentation", { "alloc_fallbacks", "alloc_failures", "compaction_demand",
			     "unusable_index", "fragmentation_index", "unusable_index_mean",
			     "unusable_index_max", "free_blocks", NULL } },
};
#define NR_EXTRA_GROUPS (sizeof(extra_groups) / sizeof(extra_groups[0]))

/* The arrays' sections, as a metric's: where each belongs besides the extra groups. */
static const char *const array_sections[] = { "cache", "memory", "memory", "writes" };
_Static_assert(sizeof(array_sections) / sizeof(array_sections[0]) ==
	       sizeof(report_arrays) / sizeof(report_arrays[0]), "a section per array");

/* Old names of renamed metrics, still taken: the key each stands for. */
static const struct {
	const char *alias, *key;
} metric_aliases[] = {
	{ "read_hit_ratio_requests", "hit_ratio" },
	{ "read_hit_ratio_bytes", "hit_ratio_bytes" },
	{ "read_io_bytes", "device_read_bytes" },
};
#define NR_ALIASES (sizeof(metric_aliases) / sizeof(metric_aliases[0]))

const char *report_metric_canonical(const char *name, size_t len)
{
	for (unsigned i = 0; i < NR_ALIASES; i++)
		if (strlen(metric_aliases[i].alias) == len &&
		    memcmp(metric_aliases[i].alias, name, len) == 0)
			return metric_aliases[i].key;
	return NULL;
}

const struct report_metric *report_metric_find(const char *key)
{
	const char *canon = report_metric_canonical(key, strlen(key));

	if (canon)
		key = canon;
	for (unsigned i = 0; i < report_nr_metrics; i++)
		if (strcmp(report_metrics[i].key, key) == 0)
			return &report_metrics[i];
	return NULL;
}

/* Item i of the selection's order: metric i below REPORT_MAX_METRICS, else an array. */
static void select_item(struct report_select *s, unsigned item)
{
	bool *on = item < REPORT_MAX_METRICS ? &s->metric[item] :
		   &s->array[item - REPORT_MAX_METRICS];

	if (*on)
		return;
	*on = true;
	s->order[s->norder++] = (uint16_t)item;
}

void report_select_all(struct report_select *s)
{
	memset(s, 0, sizeof(*s));
	for (unsigned i = 0; i < report_nr_metrics; i++)
		select_item(s, i);
	for (unsigned i = 0; i < report_nr_arrays; i++)
		select_item(s, REPORT_MAX_METRICS + i);
	s->orders = true;
}

/* A key of a metric or an array, or an old name of one: selects it. */
static bool select_key(const char *name, size_t len, struct report_select *s)
{
	const char *canon = report_metric_canonical(name, len);

	if (canon) {
		name = canon;
		len = strlen(canon);
	}
	for (unsigned i = 0; i < report_nr_metrics; i++) {
		if (strlen(report_metrics[i].key) == len &&
		    memcmp(report_metrics[i].key, name, len) == 0) {
			select_item(s, i);
			return true;
		}
	}
	for (unsigned i = 0; i < report_nr_arrays; i++) {
		if (strlen(report_arrays[i].key) == len &&
		    memcmp(report_arrays[i].key, name, len) == 0) {
			select_item(s, REPORT_MAX_METRICS + i);
			if (strcmp(report_arrays[i].key, "insertions_by_order") == 0)
				s->orders = true;
			return true;
		}
	}
	return false;
}

static bool is_name(const char *name, size_t len, const char *want)
{
	return strlen(want) == len && memcmp(want, name, len) == 0;
}

static bool select_group(const char *name, size_t len, struct report_select *s)
{
	bool found = false;

	for (unsigned i = 0; i < report_nr_metrics; i++) {
		if (is_name(name, len, report_metrics[i].section)) {
			select_item(s, i);
			found = true;
		}
	}
	for (unsigned i = 0; i < report_nr_arrays; i++) {
		if (is_name(name, len, array_sections[i])) {
			select_item(s, REPORT_MAX_METRICS + i);
			found = true;
		}
	}
	for (unsigned g = 0; g < NR_EXTRA_GROUPS; g++) {
		if (!is_name(name, len, extra_groups[g].name))
			continue;
		for (unsigned k = 0; extra_groups[g].keys[k]; k++)
			select_key(extra_groups[g].keys[k], strlen(extra_groups[g].keys[k]), s);
		found = true;
	}
	if (is_name(name, len, "all")) {
		/* what was named before keeps its place; the rest follows in table order */
		for (unsigned i = 0; i < report_nr_metrics; i++)
			select_item(s, i);
		for (unsigned i = 0; i < report_nr_arrays; i++)
			select_item(s, REPORT_MAX_METRICS + i);
		s->orders = true;
		s->all = true;
		found = true;
	}
	return found;
}

const char *report_group_names(void)
{
	static char buf[256];
	size_t n = 0;

	if (buf[0])
		return buf;
	/* the sections in table order, then the other groups */
	for (unsigned i = 0; i < report_nr_metrics; i++) {
		const char *sec = report_metrics[i].section;

		if (i && strcmp(sec, report_metrics[i - 1].section) == 0)
			continue;
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s", n ? ", " : "", sec);
	}
	for (unsigned g = 0; g < NR_EXTRA_GROUPS && n < sizeof(buf); g++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, ", %s", extra_groups[g].name);
	if (n < sizeof(buf))
		snprintf(buf + n, sizeof(buf) - n, ", all");
	return buf;
}

bool report_select_parse(const char *list, struct report_select *s, const char **why)
{
	static char msg[400];
	const char *p = list;

	memset(s, 0, sizeof(*s));
	for (;;) {
		size_t len = strcspn(p, ",");

		if (len == 0) {
			snprintf(msg, sizeof(msg), "expected metric keys or groups, comma-separated: "
				 "%s", report_group_names());
			*why = msg;
			return false;
		}
		if (!select_group(p, len, s) && !select_key(p, len, s)) {
			char name[4 * 40 + 1];

			snprintf(msg, sizeof(msg), "unknown metric or group '%s' (groups: %s; "
				 "--metrics=help lists the metric keys)",
				 ft_escape(name, sizeof(name), p, len > 40 ? 40 : len),
				 report_group_names());
			*why = msg;
			return false;
		}
		if (p[len] == '\0')
			return true;
		p += len + 1;
	}
}

static const char *const array_meanings[] = {
	"folios inserted per order (the table's last rows)",
	"folios allocated per order, readahead's too",
	"free blocks per order at the end (buddyinfo)",
	"write-back I/Os by size: 4K, 8K ... 4M, above",
};
_Static_assert(sizeof(array_meanings) / sizeof(array_meanings[0]) ==
	       sizeof(report_arrays) / sizeof(report_arrays[0]), "a meaning per array");

int report_metrics_help(FILE *f)
{
	char meaning[96];

	fprintf(f, "Metric keys of replay --metrics, JSON and CSV, by table section:\n");
	for (unsigned i = 0; i < report_nr_metrics; i++) {
		if (!i || strcmp(report_metrics[i].section, report_metrics[i - 1].section) != 0)
			fprintf(f, "%s\n", report_metrics[i].section);
		if (!report_metric_meaning(report_metrics[i].key, meaning, sizeof(meaning)))
			snprintf(meaning, sizeof(meaning), "%s", report_metrics[i].label);
		fprintf(f, "  %-28s %s\n", report_metrics[i].key, meaning);
	}
	fprintf(f, "arrays (JSON lists, CSV columns KEY_0, KEY_1...)\n");
	for (unsigned i = 0; i < report_nr_arrays; i++)
		fprintf(f, "  %-28s %s\n", report_arrays[i].key, array_meanings[i]);
	fprintf(f, "groups\n  %s\n", report_group_names());
	fprintf(f, "old names still taken\n");
	for (unsigned i = 0; i < NR_ALIASES; i++)
		fprintf(f, "  %-28s %s\n", metric_aliases[i].alias, metric_aliases[i].key);
	return ferror(f) ? -1 : 0;
}
