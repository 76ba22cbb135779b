// SPDX-License-Identifier: GPL-2.0-or-later
/* The configuration table of params.h: its rows, and reading, checking and printing them. */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/params.h"
#include "util/parse.h"

#define FIELD(name)	offsetof(struct model_config, name)
_Static_assert(sizeof(enum folio_policy) == sizeof(unsigned) &&
	       sizeof(enum lru_kind) == sizeof(unsigned) &&
	       sizeof(enum dirty_granularity) == sizeof(unsigned) &&
	       sizeof(enum start_state) == sizeof(unsigned) &&
	       sizeof(enum start_cache) == sizeof(unsigned) &&
	       sizeof(enum proactive_reclaim) == sizeof(unsigned) &&
	       sizeof(enum start_folios) == sizeof(unsigned) &&
	       sizeof(enum swap_use) == sizeof(unsigned) &&
	       sizeof(enum reclaim_writeback) == sizeof(unsigned),
	       "choices are stored as unsigned");

static void describe_readahead(const struct model_config *c, char *buf, size_t len)
{
	if (c->readahead)
		snprintf(buf, len, "%u pages (%s rule)", c->ra_pages, model_ra_rules[c->ra_rule]->name);
	else
		snprintf(buf, len, "off");
}

/* In the order of the JSON configuration object. */
const struct model_param model_params[] = {
	{ .key = "order", .syntax = PARAM_NUMBER, .store = PARAM_U32, .offset = FIELD(order),
	  .max = MODEL_MAX_ORDER, .def = "0", .group = PARAM_GROUP_FOLIOS,
	  .help = "largest folio order",
	  .invalid = "folio order above " MODEL_TEXT(MODEL_MAX_ORDER) },
	{ .key = "min_order", .option = "min-order", .arg = "N", .syntax = PARAM_NUMBER,
	  .store = PARAM_U32, .offset = FIELD(min_order), .max = MODEL_MAX_ORDER, .def = "0",
	  .group = PARAM_GROUP_FOLIOS, .help = "smallest folio order",
	  .invalid = "minimum folio order above " MODEL_TEXT(MODEL_MAX_ORDER) },
	{ .key = "policy", .option = "policy", .arg = "POLICY", .syntax = PARAM_CHOICE,
	  .store = PARAM_U32, .offset = FIELD(policy), .choices = model_folio_policies,
	  .def = "readahead", .group = PARAM_GROUP_FOLIOS, .brief = "policy", .summary = 3,
	  .help = "folios of read misses", .invalid = "unknown folio policy" },
	{ .key = "write_policy", .option = "write-policy", .arg = "POLICY",
	  .syntax = PARAM_CHOICE, .store = PARAM_U32, .offset = FIELD(write_policy),
	  .choices = model_write_policies, .def = "sized", .group = PARAM_GROUP_FOLIOS,
	  .brief = "write", .summary = 4, .help = "folios of buffered writes", .invalid = "unknown write policy" },
	{ .key = "lru", .option = "lru", .arg = "KIND", .syntax = PARAM_CHOICE,
	  .store = PARAM_U32, .offset = FIELD(lru), .choices = model_lru_kinds,
	  .def = "two-list", .recorded = MODEL_REC_LRU,
	  .recorded_text = "mglru where the recorded kernel ran it (lru_gen/enabled)",
	  .group = PARAM_GROUP_MEMORY, .brief = "lru", .summary = 5,
	  .help = "the LRU lists", .invalid = "unknown LRU kind" },
	{ .key = "readahead", .option = "no-readahead", .syntax = PARAM_OFF, .store = PARAM_BOOL,
	  .offset = FIELD(readahead), .group = PARAM_GROUP_FOLIOS, .brief = "readahead", .summary = 6,
	  .describe = describe_readahead, .help = "do not model readahead on read misses" },
	{ .key = "ra_pages", .option = "ra-pages", .arg = "N", .syntax = PARAM_NUMBER,
	  .store = PARAM_U32, .offset = FIELD(ra_pages), .max = 1u << 20,
	  .def = "32", .unit = "pages", .recorded = MODEL_REC_RA_PAGES,
	  .recorded_text = "each device's recorded", .group = PARAM_GROUP_FOLIOS,
	  .help = "readahead window, read_ahead_kb / 4 (0: no readahead)",
	  .invalid = "readahead window must be 0 to 1048576 pages" },
	{ .key = "io_pages", .option = "io-pages", .arg = "N", .syntax = PARAM_NUMBER,
	  .store = PARAM_U32, .offset = FIELD(io_pages), .min = 1, .max = 1u << 20,
	  .def = "320", .unit = "pages", .recorded = MODEL_REC_IO_PAGES,
	  .recorded_text = "each device's recorded", .group = PARAM_GROUP_FOLIOS,
	  .help = "largest readahead of a request above the window, max_sectors_kb / 4 "
		  "(320: the kernel's default 1280 KiB)",
	  .invalid = "device I/O size must be 1 to 1048576 pages" },
	{ .key = "ra_rule", .option = "ra-rule", .arg = "RULE", .syntax = PARAM_CHOICE,
	  .store = PARAM_U32, .offset = FIELD(ra_rule),
	  .choices = model_ra_rules, .def = "6.17", .recorded = MODEL_REC_RA_RULE,
	  .recorded_text = "the rule of the recorded kernel release",
	  .group = PARAM_GROUP_FOLIOS, .help = "readahead order rule",
	  .invalid = "unknown readahead rule" },
	{ .key = "large_folios", .option = "large-folios", .arg = "WHICH", .syntax = PARAM_CHOICE,
	  .store = PARAM_U32, .offset = FIELD(large_folios), .choices = model_large_folios,
	  .def = "auto", .group = PARAM_GROUP_FOLIOS, .brief = "large folios", .summary = 7,
	  .help = "which files get folios above order 0",
	  .invalid = "unknown large-folio choice" },
	{ .key = "memcg", .syntax = PARAM_ON, .store = PARAM_BOOL, .offset = FIELD(memcg),
	  .recorded = MODEL_REC_MEMORY, .group = PARAM_GROUP_MEMORY,
	  .help = "the memory is a memory cgroup's limit (from the trace)" },
	{ .key = "max_pagecache_order", .option = "max-pagecache-order", .arg = "N",
	  .syntax = PARAM_NUMBER, .store = PARAM_U32, .offset = FIELD(max_pagecache_order),
	  .max = MODEL_MAX_ORDER, .def = MODEL_TEXT(MODEL_PAGECACHE_ORDER),
	  .group = PARAM_GROUP_FOLIOS,
	  .help = "the page cache's largest order, the kernel's MAX_PAGECACHE_ORDER on x86-64 "
		  "with 4 KiB pages; above 9 is a what-if",
	  .invalid = "page-cache order limit above " MODEL_TEXT(MODEL_MAX_ORDER) },
	{ .key = "memory_bytes", .option = "memory", .arg = "SIZE", .syntax = PARAM_SIZE,
	  .store = PARAM_U64, .offset = FIELD(memory_bytes), .min = 1, .def = "1G",
	  .def_text = "the recorded cgroup limit or host memory", .recorded = MODEL_REC_MEMORY,
	  .group = PARAM_GROUP_MEMORY, .brief = "memory", .summary = 1, .help = "page-cache memory", .invalid = "memory size is 0" },
	{ .key = "page_size", .syntax = PARAM_NUMBER, .store = PARAM_U32,
	  .offset = FIELD(page_size), .min = 512, .max = 65536, .pow2 = true, .def = "4096",
	  .unit = "B", .recorded = MODEL_REC_PAGE_SIZE,
	  .recorded_text = "the recorded page size", .group = PARAM_GROUP_MEMORY,
	  .brief = "page", .summary = 2, .help = "page size",
	  .invalid = "page size must be a power of two from 512 to 65536" },
	{ .key = "dirty_granularity", .option = "dirty-granularity", .arg = "G",
	  .syntax = PARAM_CHOICE, .store = PARAM_U32, .offset = FIELD(dirty),
	  .choices = model_dirty_kinds, .def = "auto", .group = PARAM_GROUP_DIRTY,
	  .brief = "dirty per", .summary = 8, .help = "dirty tracking",
	  .invalid = "unknown dirty granularity" },
	{ .key = "block_size", .option = "block-size", .arg = "SIZE", .syntax = PARAM_SIZE,
	  .store = PARAM_U32, .offset = FIELD(block_size), .min = 512,
	  .max = MODEL_BLOCK_SIZE_MAX, .pow2 = true, .def = "4K", .unit = "B",
	  .recorded = MODEL_REC_BLOCK_SIZE, .recorded_text = "the recorded device's",
	  .group = PARAM_GROUP_DIRTY, .brief = "block", .summary = 9, .help = "filesystem block size",
	  .invalid = "block size must be a power of two from 512 to "
		     MODEL_TEXT(MODEL_BLOCK_SIZE_MAX) },
	{ .key = "reclaim_writeback", .option = "reclaim-writeback", .arg = "HOW",
	  .syntax = PARAM_CHOICE, .store = PARAM_U32, .offset = FIELD(reclaim_wb),
	  .choices = model_reclaim_kinds, .def = "auto", .group = PARAM_GROUP_DIRTY,
	  .brief = "reclaim", .summary = 10, .help = "a dirty folio at the inactive tail",
	  .invalid = "unknown reclaim writeback" },
	{ .key = "dirty_expire_ns", .option = "dirty-expire", .arg = "T",
	  .syntax = PARAM_CENTISECS, .store = PARAM_U64, .offset = FIELD(dirty_expire_ns),
	  .def = "3000", .recorded = MODEL_REC_DIRTY_EXPIRE, .recorded_text = "recorded",
	  .group = PARAM_GROUP_DIRTY,
	  .help = "age at which dirty data is written: centisecs or a duration" },
	{ .key = "dirty_writeback_ns", .option = "dirty-writeback", .arg = "T",
	  .syntax = PARAM_CENTISECS, .store = PARAM_U64, .offset = FIELD(writeback_period_ns),
	  .def = "500", .recorded = MODEL_REC_DIRTY_WRITEBACK, .recorded_text = "recorded",
	  .group = PARAM_GROUP_DIRTY,
	  .help = "flusher period: centisecs or a duration, 0 = off" },
	{ .key = "dirty_background_ratio", .option = "dirty-background-ratio", .arg = "PCT",
	  .syntax = PARAM_NUMBER, .store = PARAM_U32, .offset = FIELD(dirty_background_ratio),
	  .max = 100, .def = "10", .recorded = MODEL_REC_DIRTY_BACKGROUND,
	  .recorded_text = "recorded", .clears = "dirty_background_bytes",
	  .group = PARAM_GROUP_DIRTY, .help = "background writeback starts above this",
	  .invalid = "dirty ratios are percentages (0-100)" },
	{ .key = "dirty_ratio", .option = "dirty-ratio", .arg = "PCT", .syntax = PARAM_NUMBER,
	  .store = PARAM_U32, .offset = FIELD(dirty_ratio), .max = 100, .def = "20",
	  .recorded = MODEL_REC_DIRTY_RATIO, .recorded_text = "recorded",
	  .clears = "dirty_bytes", .group = PARAM_GROUP_DIRTY,
	  .help = "writers are throttled above this",
	  .invalid = "dirty ratios are percentages (0-100)" },
	{ .key = "dirty_background_bytes", .option = "dirty-background-bytes", .arg = "SIZE",
	  .syntax = PARAM_SIZE, .store = PARAM_U64, .offset = FIELD(dirty_background_bytes),
	  .min = 1, .zero_unset = true, .recorded = MODEL_REC_DIRTY_BACKGROUND,
	  .def_text = "recorded, else unset", .group = PARAM_GROUP_DIRTY,
	  .help = "like --dirty-background-ratio, in bytes" },
	{ .key = "dirty_bytes", .option = "dirty-bytes", .arg = "SIZE", .syntax = PARAM_SIZE,
	  .store = PARAM_U64, .offset = FIELD(dirty_bytes), .min = 1, .zero_unset = true,
	  .recorded = MODEL_REC_DIRTY_RATIO, .def_text = "recorded, else unset",
	  .group = PARAM_GROUP_DIRTY, .help = "like --dirty-ratio, in bytes" },
	{ .key = "dirtyable_bytes", .option = "dirtyable", .arg = "SIZE", .syntax = PARAM_SIZE,
	  .store = PARAM_U64, .offset = FIELD(dirtyable_bytes), .min = 1, .zero_unset = true,
	  .recorded = MODEL_REC_MEMORY, .def_text = "the recorded host's, else the model's",
	  .group = PARAM_GROUP_DIRTY,
	  .help = "free and file-cache memory the dirty ratios are of" },
	{ .key = "device_latency_us", .option = "device", .arg = "DEV", .syntax = PARAM_DEVICE,
	  .store = PARAM_DOUBLE, .offset = FIELD(device_latency_us), .max = 1000000000,
	  .def = "nvme", .group = PARAM_GROUP_DIRTY,
	  .help = "write device model: nvme, sata-ssd, hdd, nfs or lat=US,bw=MBPS",
	  .invalid = "device latency must be 0 to 10^9 us" },
	{ .key = "device_bandwidth_mbps", .syntax = PARAM_PERCENT, .store = PARAM_DOUBLE,
	  .offset = FIELD(device_bandwidth_mbps), .max = 1000000000, .group = PARAM_GROUP_DIRTY,
	  .help = "write device bandwidth, MB/s (set by --device)",
	  .invalid = "device bandwidth must be 0 to 10^9 MB/s" },
	{ .key = "pinned_pct", .option = "pinned", .arg = "PCT", .syntax = PARAM_PERCENT,
	  .store = PARAM_DOUBLE, .offset = FIELD(pinned_pct), .max = 99, .def = "0",
	  .group = PARAM_GROUP_MEMORY, .help = "percent of memory pinned by others",
	  .invalid = "pinned memory must be 0 to 99 percent" },
	{ .key = "seed", .option = "seed", .arg = "N", .syntax = PARAM_NUMBER, .store = PARAM_U64,
	  .offset = FIELD(seed), .max = UINT64_MAX, .def = "1", .group = PARAM_GROUP_MEMORY,
	  .help = "seed for where pinned pages lie" },
	{ .key = "fallback", .option = "fallback", .arg = "HOW", .syntax = PARAM_CHOICE,
	  .store = PARAM_U32, .offset = FIELD(fallback), .choices = model_fallbacks,
	  .def = "smaller", .group = PARAM_GROUP_MEMORY,
	  .help = "no free block of the order", .invalid = "unknown allocation fallback" },
	{ .key = "start_state", .option = "start-state", .arg = "FROM", .syntax = PARAM_CHOICE,
	  .store = PARAM_U32, .offset = FIELD(start_state), .choices = model_start_states,
	  .def = "empty", .recorded = MODEL_REC_START_STATE,
	  .recorded_text = "recorded when the trace has a /proc/pagetypeinfo sample and the "
			   "memory is the recorded one", .group = PARAM_GROUP_MEMORY,
	  .help = "what the memory holds when the replay starts",
	  .invalid = "unknown start state" },
	{ .key = "start_cache", .option = "start-cache", .arg = "FROM", .syntax = PARAM_CHOICE,
	  .store = PARAM_U32, .offset = FIELD(start_cache), .choices = model_start_caches,
	  .def = "empty", .recorded = MODEL_REC_START_CACHE,
	  .recorded_text = "recorded when the trace says which pages were cached (1.3 on)",
	  .group = PARAM_GROUP_MEMORY,
	  .help = "what the page cache holds when the replay starts",
	  .invalid = "unknown start cache" },
	{ .key = "start_folios", .option = "start-folios", .arg = "HOW", .syntax = PARAM_CHOICE,
	  .store = PARAM_U32, .offset = FIELD(start_folios), .choices = model_start_folios,
	  .def = "deleted", .group = PARAM_GROUP_MEMORY,
	  .help = "the folio orders of the page cache at the start",
	  .invalid = "unknown start folios" },
	{ .key = "proactive_reclaim", .option = "proactive-reclaim", .arg = "HOW",
	  .syntax = PARAM_CHOICE, .store = PARAM_U32, .offset = FIELD(proactive_reclaim),
	  .choices = model_proactive_reclaims, .def = "recorded", .group = PARAM_GROUP_MEMORY,
	  .help = "whether the pages the recording kernel's DAMON pageout evicted leave the cache",
	  .invalid = "unknown proactive reclaim" },
	{ .key = "swap", .option = "swap", .arg = "USE", .syntax = PARAM_CHOICE,
	  .store = PARAM_U32, .offset = FIELD(swap), .choices = model_swap_uses,
	  .def = "off", .recorded = MODEL_REC_SWAP,
	  .recorded_text = "on while the trace's samples show swap space free",
	  .group = PARAM_GROUP_MEMORY,
	  .help = "whether file refault distances count the anonymous memory (swap free)",
	  .invalid = "unknown swap use" },
	{ .key = "unmovable_blocks_pct", .option = "unmovable-blocks", .arg = "PCT",
	  .syntax = PARAM_PERCENT, .store = PARAM_DOUBLE, .offset = FIELD(unmovable_blocks_pct),
	  .max = 100, .def = "0", .group = PARAM_GROUP_MEMORY,
	  .help = "percent of the pageblocks others hold unmovable pages in (kernel memory, page "
		  "tables): they become UNMOVABLE, --block-fill of their pages in use",
	  .invalid = "unmovable pageblocks must be 0 to 100 percent" },
	{ .key = "reclaimable_blocks_pct", .option = "reclaimable-blocks", .arg = "PCT",
	  .syntax = PARAM_PERCENT, .store = PARAM_DOUBLE, .offset = FIELD(reclaimable_blocks_pct),
	  .max = 100, .def = "0", .group = PARAM_GROUP_MEMORY,
	  .help = "percent of the pageblocks others hold reclaimable pages in (dentries, "
		  "inodes): they become RECLAIMABLE, --block-fill of their pages in use",
	  .invalid = "reclaimable pageblocks must be 0 to 100 percent" },
	{ .key = "block_fill_pct", .option = "block-fill", .arg = "PCT", .syntax = PARAM_PERCENT,
	  .store = PARAM_DOUBLE, .offset = FIELD(block_fill_pct), .max = 100, .def = "50",
	  .group = PARAM_GROUP_MEMORY,
	  .help = "percent of the pages of each unmovable or reclaimable pageblock in use, "
		  "at random pages",
	  .invalid = "pageblock fill must be 0 to 100 percent" },
	{ .key = "extfrag_threshold", .option = "extfrag-threshold", .arg = "N",
	  .syntax = PARAM_NUMBER, .store = PARAM_U32, .offset = FIELD(extfrag_threshold),
	  .max = 1000, .def = "500", .group = PARAM_GROUP_MEMORY,
	  .help = "vm.extfrag_threshold: orders above 3 are compacted only when their "
		  "fragmentation index is above it (failures for lack of memory are reclaim's)",
	  .invalid = "extfrag threshold must be 0 to 1000" },
	{ .key = "compaction_proactiveness", .option = "compaction-proactiveness", .arg = "N",
	  .syntax = PARAM_NUMBER, .store = PARAM_U32, .offset = FIELD(compaction_proactiveness),
	  .max = 100, .def = "20", .group = PARAM_GROUP_MEMORY,
	  .help = "vm.compaction_proactiveness: kcompactd compacts when the order-9 "
		  "fragmentation score is above 110 minus it; 0: never",
	  .invalid = "compaction proactiveness must be 0 to 100" },
	{ .key = "interval_ns", .option = "interval", .arg = "T", .syntax = PARAM_DURATION,
	  .store = PARAM_U64, .offset = FIELD(interval_ns), .min = 1, .zero_unset = true,
	  .def_text = "1s", .group = PARAM_GROUP_OUTPUT,
	  .help = "time-series interval (replay --plot or --timeseries of a file: one that "
	  "gives 200 to 500 samples)" },
};

const unsigned model_nr_params = sizeof(model_params) / sizeof(model_params[0]);

const struct model_param *model_param_by_option(const char *option)
{
	for (unsigned i = 0; i < model_nr_params; i++)
		if (model_params[i].option && strcmp(model_params[i].option, option) == 0)
			return &model_params[i];
	return NULL;
}

const struct model_param *model_param_by_key(const char *key)
{
	for (unsigned i = 0; i < model_nr_params; i++)
		if (strcmp(model_params[i].key, key) == 0)
			return &model_params[i];
	return NULL;
}

/* ---- the field's storage ------------------------------------------------------------------ */

static void *field_of(const struct model_param *p, struct model_config *c)
{
	return (char *)c + p->offset;
}

static const void *field_of_const(const struct model_param *p, const struct model_config *c)
{
	return (const char *)c + p->offset;
}

static uint64_t get_u64(const struct model_param *p, const struct model_config *c)
{
	const void *f = field_of_const(p, c);

	switch (p->store) {
	case PARAM_U32:
		return *(const unsigned *)f;
	case PARAM_U64:
		return *(const uint64_t *)f;
	case PARAM_BOOL:
		return *(const bool *)f;
	case PARAM_DOUBLE:
		break;
	}
	return (uint64_t)*(const double *)f;
}

static void put_u64(const struct model_param *p, struct model_config *c, uint64_t v)
{
	void *f = field_of(p, c);

	switch (p->store) {
	case PARAM_U32:
		*(unsigned *)f = (unsigned)v;
		break;
	case PARAM_U64:
		*(uint64_t *)f = v;
		break;
	case PARAM_BOOL:
		*(bool *)f = v != 0;
		break;
	case PARAM_DOUBLE:
		*(double *)f = (double)v;
		break;
	}
}

/* ---- bounds --------------------------------------------------------------------------------- */

static bool is_pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static const char *number_problem(const struct model_param *p, uint64_t v)
{
	if (p->zero_unset && v == 0)
		return NULL;
	if (v < p->min)
		return p->min == 1 ? "must be above 0" : "below the smallest value allowed";
	if (p->max && v > p->max)
		return "above the largest value allowed";
	if (p->pow2 && !is_pow2(v))
		return "must be a power of two";
	return NULL;
}

static bool field_in_bounds(const struct model_param *p, const struct model_config *c)
{
	if (p->store == PARAM_DOUBLE) {
		double d = *(const double *)field_of_const(p, c);

		return d >= (double)p->min && (!p->max || d <= (double)p->max);
	}
	if (p->syntax == PARAM_CHOICE)
		return get_u64(p, c) < model_variant_count(p->choices);
	return !number_problem(p, get_u64(p, c));
}

const char *model_param_check(const struct model_param *p, const struct model_config *c)
{
	if (field_in_bounds(p, c))
		return NULL;
	return p->invalid ? p->invalid : "a configuration value is out of range";
}

/* ---- reading option values ------------------------------------------------------------------ */

bool parse_centisecs(const char *s, uint64_t *ns, const char **why)
{
	uint64_t cs;
	const char *p;

	for (p = s; p && isdigit((unsigned char)*p); p++)
		;
	if (s && *s && !*p) {
		if (!parse_u64_range(s, 0, UINT64_MAX / 10000000, &cs, why))
			return false;
		*ns = cs * 10000000;
		return true;
	}
	return parse_duration_ns(s, ns, why);
}

/* "KEY=NUMBER" at s (up to a comma): the number into *v. */
static bool parse_device_pair(const char *s, size_t len, const char *key, double max, double *v,
			      const char **why)
{
	size_t klen = strlen(key);
	char num[32];

	if (len <= klen + 1 || strncmp(s, key, klen) != 0 || s[klen] != '=' ||
	    len - klen - 1 >= sizeof(num))
		return false;
	memcpy(num, s + klen + 1, len - klen - 1);
	num[len - klen - 1] = '\0';
	return parse_double_range(num, 0, max, v, why);
}

bool parse_device(const char *s, double *latency_us, double *bandwidth_mbps, const char **why)
{
	const char *comma;
	double lat = -1, bw = -1;

	if (s && model_device_preset(s, latency_us, bandwidth_mbps))
		return true;
	*why = "expected nvme, sata-ssd, hdd, nfs or lat=US,bw=MBPS";
	if (!s || !(comma = strchr(s, ',')))
		return false;
	if (!parse_device_pair(s, (size_t)(comma - s), "lat", 1e9, &lat, why) ||
	    !parse_device_pair(comma + 1, strlen(comma + 1), "bw", 1e9, &bw, why)) {
		*why = "expected nvme, sata-ssd, hdd, nfs or lat=US,bw=MBPS";
		return false;
	}
	if (bw <= 0) {
		*why = "bandwidth must be above 0 MB/s";
		return false;
	}
	*latency_us = lat;
	*bandwidth_mbps = bw;
	return true;
}

bool parse_block_size(const char *s, unsigned *out, const char **why)
{
	struct model_config c = { 0 };

	*why = model_param_set(model_param_by_key("block_size"), s, &c);
	if (*why)
		return false;
	*out = c.block_size;
	return true;
}

static const char *set_choice(const struct model_param *p, const char *arg,
			      struct model_config *c)
{
	unsigned v;

	if (!arg || !model_variant_lookup(p->choices, arg, &v))
		return "unknown name";
	put_u64(p, c, v);
	return NULL;
}

static const char *set_device(const struct model_param *p, const char *arg,
			      struct model_config *c)
{
	const char *why = NULL;

	if (!parse_device(arg, &c->device_latency_us, &c->device_bandwidth_mbps, &why))
		return why;
	return NULL;
}

/* An integer in the option's syntax. */
static const char *read_integer(const struct model_param *p, const char *arg, uint64_t *v)
{
	const char *why = "bad value";
	bool ok = false;

	switch (p->syntax) {
	case PARAM_NUMBER:
		ok = parse_u64_range(arg, 0, UINT64_MAX, v, &why);
		break;
	case PARAM_SIZE:
		ok = parse_size(arg, v, &why);
		break;
	case PARAM_CENTISECS:
		ok = parse_centisecs(arg, v, &why);
		break;
	case PARAM_DURATION:
		ok = parse_duration_ns(arg, v, &why);
		break;
	default:
		break;
	}
	return ok ? NULL : why;
}

const char *model_param_set(const struct model_param *p, const char *arg,
			    struct model_config *c)
{
	const char *why;
	uint64_t v;
	double d;

	switch (p->syntax) {
	case PARAM_CHOICE:
		return set_choice(p, arg, c);
	case PARAM_OFF:
	case PARAM_ON:
		put_u64(p, c, p->syntax == PARAM_ON);
		return NULL;
	case PARAM_DEVICE:
		return set_device(p, arg, c);
	case PARAM_PERCENT:
		if (!parse_double_range(arg, (double)p->min, (double)p->max, &d, &why))
			return why;
		*(double *)field_of(p, c) = d;
		return NULL;
	default:
		break;
	}
	why = read_integer(p, arg, &v);
	if (!why && p->zero_unset && v == 0)
		why = "must be above 0";
	if (!why)
		why = number_problem(p, v);
	if (why)
		return why;
	put_u64(p, c, v);
	if (p->clears)
		put_u64(model_param_by_key(p->clears), c, 0);
	return NULL;
}

void model_config_defaults(struct model_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	for (unsigned i = 0; i < model_nr_params; i++) {
		const struct model_param *p = &model_params[i];

		if (p->syntax == PARAM_OFF)
			put_u64(p, cfg, 1);	/* on unless the option turns it off */
		else if (p->def)
			model_param_set(p, p->def, cfg);
	}
}

/* ---- printing -------------------------------------------------------------------------------- */

struct model_param_value model_param_get(const struct model_param *p,
					 const struct model_config *c)
{
	struct model_param_value v = { .kind = PV_NUMBER };

	if (p->store == PARAM_DOUBLE) {
		v.kind = PV_REAL;
		v.d = *(const double *)field_of_const(p, c);
	} else if (p->store == PARAM_BOOL) {
		v.kind = PV_BOOL;
		v.b = get_u64(p, c) != 0;
	} else if (p->syntax == PARAM_CHOICE) {
		uint64_t i = get_u64(p, c);

		v.kind = PV_NAME;
		v.name = i < model_variant_count(p->choices) ? p->choices[i]->name : "?";
	} else {
		v.u = get_u64(p, c);
	}
	return v;
}

void model_param_brief(const struct model_param *p, const struct model_config *c, char *buf,
		       size_t len)
{
	struct model_param_value v = model_param_get(p, c);
	char val[64];

	if (p->describe)
		p->describe(c, val, sizeof(val));
	else if (v.kind == PV_NAME)
		snprintf(val, sizeof(val), "%s", v.name);
	else if (p->syntax == PARAM_SIZE && !p->unit)
		format_bytes(v.u, val, sizeof(val));
	else
		snprintf(val, sizeof(val), "%" PRIu64 "%s%s", v.u, p->unit ? " " : "",
			 p->unit ? p->unit : "");
	snprintf(buf, len, "%s %s", p->brief ? p->brief : p->key, val);
}

/* Appends to buf at *used; output past len is cut, never overrun. */
static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void append(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used += (size_t)n;
}

void model_param_help(const struct model_param *p, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	append(buf, len, &used, "%s", p->help);
	if (p->unit && p->syntax == PARAM_NUMBER)
		append(buf, len, &used, ", %s", p->unit);
	for (unsigned i = 0; p->syntax == PARAM_CHOICE && p->choices[i]; i++)
		append(buf, len, &used, "%s %s: %s", i ? ";" : ":", p->choices[i]->name,
		       p->choices[i]->help);
	if (p->syntax == PARAM_OFF || p->syntax == PARAM_ON)
		return;
	if (p->def_text)
		append(buf, len, &used, " (default: %s)", p->def_text);
	else if (p->recorded_text)
		append(buf, len, &used, " (default: %s, else %s)", p->recorded_text,
		       p->def ? p->def : "0");
	else
		append(buf, len, &used, " (default %s)", p->def ? p->def : "0");
}

void model_config_what_ifs(const struct model_config *c, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned i = 0; i < model_nr_params; i++) {
		const struct model_param *p = &model_params[i];
		uint64_t v;

		if (p->syntax != PARAM_CHOICE)
			continue;
		v = get_u64(p, c);
		if (v < model_variant_count(p->choices) && p->choices[v]->what_if)
			append(buf, len, &used, "%s%s %s", used ? ", " : "",
			       p->brief ? p->brief : p->key, p->choices[v]->name);
	}
	if (c->max_pagecache_order > MODEL_PAGECACHE_ORDER)
		append(buf, len, &used, "%spage-cache orders up to %u", used ? ", " : "",
		       c->max_pagecache_order);
}

const char *model_param_group_title(enum param_group g)
{
	switch (g) {
	case PARAM_GROUP_FOLIOS:
		return "Folios:";
	case PARAM_GROUP_MEMORY:
		return "Memory and LRU:";
	case PARAM_GROUP_DIRTY:
		return "Dirty data and writeback:";
	case PARAM_GROUP_OUTPUT:
		return "Output:";
	}
	return NULL;
}
