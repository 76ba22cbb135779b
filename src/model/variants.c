// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rows of every variation point (variants.h), in the order of their enum values in
 * model.h: the option that picks one, its --help text and the name in the reports come from
 * here. Choices that are plain switches of the model's code have rows without operations.
 */
#include <stdio.h>
#include <string.h>

#include "model/instance.h"

extern const struct lru_policy lru_two_list, lru_plain, lru_mglru;
extern const struct dirty_tracking dirty_per_folio, dirty_per_block, dirty_auto,
	dirty_per_range;
extern const struct dirty_reclaim dirty_reclaim_flusher, dirty_reclaim_pageout,
	dirty_reclaim_auto;
extern const struct ra_order_rule ra_rule_6_6, ra_rule_6_11, ra_rule_6_17;

static const struct model_variant policy_fixed = {
	.name = "fixed",
	.help = "every miss allocates the order",
	.kernel = "none: the upper bound of what folios of the order could do",
	.what_if = true,
};

static const struct model_variant policy_readahead = {
	.name = "readahead",
	.help = "orders grow with the readahead window",
	.kernel = "mm/readahead.c page_cache_ra_order()",
};

model_variant_list model_folio_policies = {
	[FOLIO_POLICY_FIXED] = &policy_fixed,
	[FOLIO_POLICY_READAHEAD] = &policy_readahead,
	NULL,
};

static const struct model_variant write_sized = {
	.name = "sized",
	.help = "folio order from the write's length, as the kernel does",
	.kernel = "fs/iomap/buffered-io.c iomap_write_begin(), mm/filemap.c fgf_set_order()",
};

static const struct model_variant write_fixed = {
	.name = "fixed",
	.help = "like reads",
	.kernel = "none: writes allocate folios as the read policy does",
	.what_if = true,
};

model_variant_list model_write_policies = {
	[WRITE_POLICY_SIZED] = &write_sized,
	[WRITE_POLICY_FIXED] = &write_fixed,
	NULL,
};

model_variant_list model_lru_kinds = {
	[LRU_TWO_LIST] = &lru_two_list.v,
	[LRU_PLAIN] = &lru_plain.v,
	[LRU_MGLRU] = &lru_mglru.v,
	NULL,
};

model_variant_list model_dirty_kinds = {
	[DIRTY_FOLIO] = &dirty_per_folio.v,
	[DIRTY_BLOCK] = &dirty_per_block.v,
	[DIRTY_AUTO] = &dirty_auto.v,
	[DIRTY_RANGE] = &dirty_per_range.v,
	NULL,
};

model_variant_list model_reclaim_kinds = {
	[RECLAIM_WB_FLUSHER] = &dirty_reclaim_flusher.v,
	[RECLAIM_WB_PAGEOUT] = &dirty_reclaim_pageout.v,
	[RECLAIM_WB_AUTO] = &dirty_reclaim_auto.v,
	NULL,
};

model_variant_list model_ra_rules = {
	[RA_RULE_6_6] = &ra_rule_6_6.v,
	[RA_RULE_6_11] = &ra_rule_6_11.v,
	[RA_RULE_6_17] = &ra_rule_6_17.v,
	NULL,
};

static const struct model_variant fallback_smaller = {
	.name = "smaller",
	.help = "take a smaller order",
	.kernel = "mm/filemap.c __filemap_get_folio(): __GFP_NORETRY, then one order less",
};

static const struct model_variant fallback_compact = {
	.name = "compact",
	.help = "reclaim until a block of the order is free",
	.kernel = "none: as if compaction always succeeded",
	.what_if = true,
};

model_variant_list model_fallbacks = {
	[ALLOC_FALLBACK_SMALLER] = &fallback_smaller,
	[ALLOC_FALLBACK_COMPACT] = &fallback_compact,
	NULL,
};

static const struct model_variant large_folios_auto = {
	.name = "auto",
	.help = "as the recorded kernel's filesystem allows each file",
	.kernel = "mapping_set_folio_order_range() per filesystem (see the filesystem rows)",
};

static const struct model_variant large_folios_all = {
	.name = "all",
	.help = "every filesystem allows the order (what if yours turned them on)",
	.kernel = "none: mapping_set_large_folios() on every file",
	.what_if = true,
};

model_variant_list model_large_folios = {
	[LARGE_FOLIOS_AUTO] = &large_folios_auto,
	[LARGE_FOLIOS_ALL] = &large_folios_all,
	NULL,
};

bool model_ra_rule_for_release(const char *release, enum ra_rule *rule)
{
	unsigned major, minor, found = 0;

	if (!release || sscanf(release, "%u.%u", &major, &minor) != 2)
		return false;
	/* the newest rule the release has; releases older than every rule get the oldest */
	for (unsigned i = 0; model_ra_rules[i]; i++) {
		uint64_t since = ra_order_rule_of(i)->since;

		if (since <= (uint64_t)major * 1000 + minor && since > ra_order_rule_of(found)->since)
			found = i;
	}
	*rule = found;
	return true;
}

static const struct model_variant start_empty = {
	.name = "empty",
	.help = "every page free, every pageblock movable",
	.kernel = "a zone as boot leaves it: memmap_init_range() makes every pageblock MOVABLE",
};

static const struct model_variant start_recorded = {
	.name = "recorded",
	.help = "as the trace's first /proc/pagetypeinfo sample: pageblock types, free blocks "
		"per order and type, the rest used by others",
	.kernel = "the recorded kernel's zones (mm/vmstat.c pagetypeinfo_showfree, "
		  "pagetypeinfo_showblockcount)",
};

static const struct model_variant start_cache_empty = {
	.name = "empty",
	.help = "no file cached: every first access misses",
	.kernel = "a page cache no file has been read into since boot",
};

static const struct model_variant start_cache_recorded = {
	.name = "recorded",
	.help = "each file's pages cached before the trace: hits that occupy memory, charged "
		"to the root cgroup",
	.kernel = "the recorded page cache (cachestat(2), mincore(2)); the folios charged where "
		  "__filemap_add_folio() charged them, before the trace",
};

model_variant_list model_start_caches = {
	[START_CACHE_EMPTY] = &start_cache_empty,
	[START_CACHE_RECORDED] = &start_cache_recorded,
	NULL,
};

static const struct model_variant proactive_recorded = {
	.name = "recorded",
	.help = "the recording kernel's proactive reclaim (DAMON pageout) evicts the same pages",
	.kernel = "the kernel's deletes by a kdamond thread (mm/damon/paddr.c damon_pa_pageout())",
};

static const struct model_variant proactive_none = {
	.name = "none",
	.help = "no proactive reclaim: only memory pressure evicts",
	.kernel = "a host without DAMON's pageout scheme",
	.what_if = true,
};

static const struct model_variant start_folios_deleted = {
	.name = "deleted",
	.help = "start folios the trace's deletes show as the kernel had them, the rest by rule",
	.kernel = "the folio each first delete of a start page removed (mm/filemap.c "
		  "__filemap_remove_folio()); the rule: cat(1)'s readahead from page 0",
};

static const struct model_variant start_folios_rule = {
	.name = "rule",
	.help = "every start folio by the rule: the file read in as cat(1) reads it",
	.kernel = "mm/readahead.c page_cache_sync_ra(), page_cache_async_ra() of a sequential "
		  "reader; what the deletes show left out, to check the rule against them",
	.what_if = true,
};

model_variant_list model_start_folios = {
	[START_FOLIOS_DELETED] = &start_folios_deleted,
	[START_FOLIOS_RULE] = &start_folios_rule,
	NULL,
};

model_variant_list model_proactive_reclaims = {
	[PROACTIVE_RECLAIM_RECORDED] = &proactive_recorded,
	[PROACTIVE_RECLAIM_NONE] = &proactive_none,
	NULL,
};

static const struct model_variant swap_off = {
	.name = "off",
	.help = "file refaults are measured against the active file list only",
	.kernel = "mm/workingset.c workingset_test_recent(), no swap space free",
};

static const struct model_variant swap_on = {
	.name = "on",
	.help = "file refaults also count the anonymous memory the trace sampled",
	.kernel = "mm/workingset.c workingset_test_recent(): NR_ACTIVE_ANON + NR_INACTIVE_ANON",
};

model_variant_list model_swap_uses = {
	[SWAP_OFF] = &swap_off,
	[SWAP_ON] = &swap_on,
	NULL,
};

model_variant_list model_start_states = {
	[START_EMPTY] = &start_empty,
	[START_RECORDED] = &start_recorded,
	NULL,
};
