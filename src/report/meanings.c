// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * One line per metric key for --metrics=help: what it counts, in at most 49 characters so that
 * "  KEY  MEANING" fits 80 columns. The distributions (_mean, _p99, _max) share their base's.
 */
#include <stdio.h>
#include <string.h>

#include "report/metrics.h"

static const struct {
	const char *key, *meaning;
} meanings[] = {
	{ "accesses", "accesses of the trace the models replayed" },
	{ "duration_s", "seconds from the first access to the last" },
	{ "read_requests", "read calls and read faults" },
	{ "read_hit_requests", "reads whose every page was cached, uptodate" },
	{ "read_waited_requests", "reads cached but waiting on readahead I/O" },
	{ "hit_ratio", "read_hit_requests / read_requests" },
	{ "device_read_bytes", "bytes read from the device" },
	{ "read_bytes", "bytes the application read" },
	{ "read_hit_bytes", "bytes read found in the cache" },
	{ "read_waited_bytes", "bytes of the reads waiting on readahead" },
	{ "hit_ratio_bytes", "read_hit_bytes / read_bytes" },
	{ "read_ios", "read I/Os sent to the device" },
	{ "read_amplification", "device_read_bytes / read_bytes" },
	{ "write_read_bytes", "bytes read to complete partial writes" },
	{ "direct_read_bytes", "O_DIRECT bytes read, past the cache" },
	{ "faultaround_pages", "pages mapped around faults (fault-around)" },
	{ "advice_calls", "fadvise and madvise calls" },
	{ "advice_ignored", "of them, advice the model does not follow" },
	{ "willneed_pages", "pages read for WILLNEED advice" },
	{ "dontneed_pages", "pages dropped for DONTNEED advice" },
	{ "dontneed_folios", "folios dropped for DONTNEED advice" },
	{ "dropbehind_pages", "pages RWF_DONTCACHE I/O dropped once used" },
	{ "write_requests", "write calls and write faults" },
	{ "write_bytes", "bytes the application wrote" },
	{ "direct_write_bytes", "O_DIRECT bytes written, past the cache" },
	{ "writeback_bytes", "bytes written back to the device" },
	{ "write_amplification", "writeback_bytes / write_bytes" },
	{ "writeback_ios", "write-back I/Os sent to the device" },
	{ "writeback_io_mean_bytes", "writeback_bytes / writeback_ios" },
	{ "wb_fsync_bytes", "written back by fsync, sync_file_range, O_SYNC" },
	{ "wb_sync_bytes", "written back by sync(2) and syncfs(2)" },
	{ "wb_dontcache_bytes", "written back at once for RWF_DONTCACHE writes" },
	{ "wb_flush_bytes", "written back by NFS writes flushing a folio first" },
	{ "wb_expire_bytes", "written back for age (dirty_expire)" },
	{ "wb_background_bytes", "written back above the background limit" },
	{ "wb_vmscan_bytes", "written back by the flusher woken by reclaim" },
	{ "wb_reclaim_bytes", "written back by reclaim itself (pageout)" },
	{ "wb_truncated_bytes", "dirty bytes dropped by truncate or unlink" },
	{ "dirtied_pages", "pages of folios dirtied (nr_dirtied)" },
	{ "written_pages", "pages of folios written back (nr_written)" },
	{ "reclaim_dirty_folios", "dirty folios reclaim met at the LRU tail" },
	{ "reclaim_writeback_folios", "folios in writeback reclaim met at the tail" },
	{ "reclaim_immediate_pages", "pages marked to free once written back" },
	{ "rotated_pages", "pages rotated to the tail after writeback" },
	{ "flusher_wakeups", "times reclaim woke the flusher" },
	{ "reclaim_stalls", "times reclaim waited on writeback" },
	{ "reclaim_stall_time_s", "seconds reclaim waited on writeback" },
	{ "extents", "contiguous ranges written back" },
	{ "extent_mean_bytes", "writeback_bytes / extents" },
	{ "throttled", "times a writer was paused (dirty limits)" },
	{ "throttle_time_s", "seconds writers were paused" },
	{ "sync_wait_time_s", "seconds fsync and syncs waited" },
	{ "range_flushes", "NFS writes that flushed a folio's range first" },
	{ "range_flush_wait_s", "seconds writers waited for those flushes" },
	{ "dirty_bytes", "dirty bytes left at the end" },
	{ "writeback_time_s", "seconds the device spent writing" },
	{ "write_bandwidth", "writeback_bytes per second of the trace" },
	{ "insertions", "folios added to the page cache" },
	{ "inserted_pages", "pages of the folios added" },
	{ "evictions", "folios reclaimed" },
	{ "evicted_pages", "pages of the folios reclaimed" },
	{ "untouched_evicted_bytes", "bytes reclaimed that nobody ever accessed" },
	{ "refaults", "reclaimed pages read again (shadow entries)" },
	{ "refault_activations", "refaulted pages activated at once" },
	{ "refault_folios", "refaults counted in folios" },
	{ "activations", "folios moved to the active list" },
	{ "deactivations", "folios moved back to the inactive list" },
	{ "touched_bytes", "distinct bytes ever accessed" },
	{ "cached_bytes", "bytes in the page cache" },
	{ "untouched_cached_bytes", "cached bytes nobody accessed yet" },
	{ "lru_entries", "LRU entries: folios on the lists" },
	{ "lru_inactive", "folios on the inactive list" },
	{ "lru_active", "folios on the active list" },
	{ "lru_pages", "pages on the LRU lists" },
	{ "lru_inactive_pages", "pages on the inactive list" },
	{ "lru_active_pages", "pages on the active list" },
	{ "lru_gen0_pages", "MGLRU youngest gen. (max_seq)" },
	{ "lru_gen1_pages", "MGLRU 2nd youngest gen." },
	{ "lru_gen2_pages", "MGLRU 3rd youngest gen." },
	{ "lru_gen3_pages", "MGLRU 4th (oldest) gen." },
	{ "alloc_fallbacks", "folios allocated at a smaller order" },
	{ "alloc_failures", "folio allocations that failed" },
	{ "compaction_demand", "fallbacks with enough memory free in total" },
	{ "compact_stall", "direct compactions (compact_stall)" },
	{ "compact_success", "direct compactions that freed the order" },
	{ "compact_fail", "direct compactions that did not" },
	{ "compact_daemon_wake", "kcompactd wakeups" },
	{ "compact_proactive", "proactive compaction runs of kcompactd" },
	{ "compact_migrate_scanned", "pages compaction scanned to migrate" },
	{ "compact_free_scanned", "pages compaction scanned for free targets" },
	{ "compact_migrated", "pages compaction migrated" },
	{ "compact_daemon_migrated", "of them, pages kcompactd migrated" },
	{ "extfrag_claims", "fallbacks that claimed a pageblock" },
	{ "pageblocks_claimed", "pageblocks the fallbacks claimed" },
	{ "extfrag_steals", "fallbacks that stole from another type" },
	{ "free_pageblocks", "free 2 MiB blocks at the end" },
	{ "unusable_index_9", "unusable free space index at order 9, end" },
	{ "unusable_index", "unusable free space index, model's order, end" },
	{ "fragmentation_index", "fragmentation index, model's order, end" },
	{ "unusable_index_mean", "unusable index, model's order, mean" },
	{ "unusable_index_max", "unusable index, model's order, maximum" },
	{ "metadata_bytes_page", "struct page of all memory, 64 B a page" },
	{ "metadata_bytes_folio", "what-if: 96 B a folio of the order, all memory" },
};
#define NR_MEANINGS (sizeof(meanings) / sizeof(meanings[0]))

static const char *find(const char *key, size_t len)
{
	for (unsigned i = 0; i < NR_MEANINGS; i++)
		if (strlen(meanings[i].key) == len && memcmp(meanings[i].key, key, len) == 0)
			return meanings[i].meaning;
	return NULL;
}

bool report_metric_meaning(const char *key, char *buf, size_t len)
{
	static const char *const stats[][2] = {
		{ "_mean", "mean" }, { "_p99", "99th percentile" }, { "_max", "maximum" },
	};
	size_t klen = strlen(key);
	const char *m = find(key, klen);

	if (m) {
		snprintf(buf, len, "%s", m);
		return true;
	}
	/* a distribution of sampled values: its base's meaning and which statistic */
	for (unsigned i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
		size_t slen = strlen(stats[i][0]);

		if (klen > slen && strcmp(key + klen - slen, stats[i][0]) == 0 &&
		    (m = find(key, klen - slen))) {
			snprintf(buf, len, "%s, %s", m, stats[i][1]);
			return true;
		}
	}
	return false;
}
