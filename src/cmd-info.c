/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace info: what a trace holds, in one screen: format and completeness, host, time span,
 * records per type, accesses per operation, files, samples and lost events; then the files
 * written with the bytes the kernel wrote back for each, and the block devices' requests.
 * --format=json: the same in one document, keys in folio-trace-info(1).
 */
#include <argp.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "top/tally.h"
#include "top/view.h"
#include "trace/filewb.h"
#include "trace/trace.h"
#include "util/args.h"
#include "util/escape.h"
#include "util/grow.h"
#include "util/json.h"
#include "util/msg.h"
#include "util/parse.h"

#define INFO_DEVS	16
#define INFO_VIAS	(FT_VIA_SPLICE + 1)
#define INFO_WB_FILES	20	/* files listed under writeback; the others are summed */
#define INFO_TOP	20	/* --by's rows, by default */

/* Requests one block device completed, by enum ft_block_op. */
struct block_totals {
	__u32 dev;
	uint64_t count[FT_BLK_OTHER + 1], bytes[FT_BLK_OTHER + 1];
};

/* A memory cgroup of the trace: its path as its cgroup record names it, its latest limits. */
struct info_cgroup {
	__u64 id;
	char *path;
	struct ft_cgroup_limits limits;
	unsigned nlimits;		/* limits records: the first, then one per change */
};

struct info_totals {
	uint64_t per_type[FT_TYPE_MAX];
	uint64_t files_named;	/* FT_FILE_NAMED records: a name for a file counted before */
	uint64_t unknown_types;
	uint64_t op_count[FT_OP_MAX], op_bytes[FT_OP_MAX];
	uint64_t via_count[2][INFO_VIAS], via_bytes[2][INFO_VIAS];	/* [write][via] */
	uint64_t direct_bytes;
	uint64_t lost_per_type[FT_TYPE_MAX];
	uint64_t lost;
	uint64_t first_ts, last_ts, events, records;
	uint64_t samples[FT_SRC_LRU_GEN + 1];
	/* MGLRU's switches as first sampled: where in the samples, and the values */
	int lru_gen_idx[2];
	__u64 lru_gen[2];		/* enabled, min_ttl_ms */
	bool have_lru_gen;
	struct ft_host host;
	struct ft_host_dev devs[INFO_DEVS];
	struct ft_device devinfo[INFO_DEVS];	/* FT_DEVICE of devs[i], type 0 when none */
	bool have_host;
	struct block_totals block[INFO_DEVS];
	size_t nblock;
	struct ft_filewb wb;
	/* FT_START_CACHE: the files probed and their pages cached before the trace */
	uint64_t sc_files, sc_pages, sc_dirty, sc_writeback, sc_ranges, sc_probe_ns;
	bool sc_no_dirty;		/* some file's dirty pages not known (no cachestat) */
	__u32 sc_last_dev;
	__u64 sc_last_ino;
	/* FT_START_SHADOWS: pages evicted before the trace whose shadows remained, located */
	uint64_t ss_records, ss_pages, ss_recent;
	struct info_cgroup *cgroups;	/* memory cgroups named, in trace order */
	size_t ncgroups, cgroups_cap;
};

/* A file's records follow one another and repeat its counts: the first counts them. */
static void count_start_cache(struct info_totals *t, const struct ft_start_cache *sc)
{
	t->sc_ranges += sc->nranges;
	if (t->sc_files && sc->dev == t->sc_last_dev && sc->ino == t->sc_last_ino)
		return;
	t->sc_last_dev = sc->dev;
	t->sc_last_ino = sc->ino;
	t->sc_files++;
	t->sc_pages += sc->nr_cache;
	t->sc_dirty += sc->nr_dirty;
	t->sc_writeback += sc->nr_writeback;
	t->sc_probe_ns += sc->probe_ns;
	if (sc->flags & FT_SC_NO_DIRTY)
		t->sc_no_dirty = true;
}

static void count_start_shadows(struct info_totals *t, const struct ft_start_shadows *ss)
{
	const struct ft_page_range *r = ft_start_shadows_ranges(ss);
	uint64_t pages = 0;

	for (unsigned i = 0; i < ss->nranges; i++)
		pages += r[i].len;
	t->ss_records++;
	t->ss_pages += pages;
	if (ss->flags & FT_SS_RECENT)
		t->ss_recent += pages;
}

static void count_access(struct info_totals *t, const struct ft_access *a)
{
	if (a->op < FT_OP_MAX) {
		t->op_count[a->op]++;
		t->op_bytes[a->op] += a->len;
	}
	if (a->flags & FT_AF_DIRECT)
		t->direct_bytes += a->len;
	if ((a->op == FT_OP_READ || a->op == FT_OP_WRITE) && a->arg < INFO_VIAS) {
		t->via_count[a->op == FT_OP_WRITE][a->arg]++;
		t->via_bytes[a->op == FT_OP_WRITE][a->arg] += a->len;
	}
}

/* The first lru_gen sample: what the recording kernel's reclaim ran. */
static void note_lru_gen(struct info_totals *t, const struct ft_counters *c)
{
	const __u64 *v = ft_counters_values(c);

	for (int i = 0; i < 2; i++)
		if (t->lru_gen_idx[i] >= 0 && t->lru_gen_idx[i] < c->count)
			t->lru_gen[i] = v[t->lru_gen_idx[i]];
	t->have_lru_gen = t->lru_gen_idx[0] >= 0 && t->lru_gen_idx[0] < c->count;
}

static struct info_cgroup *cgroup_of(struct info_totals *t, __u64 id)
{
	for (size_t i = 0; i < t->ncgroups; i++)
		if (t->cgroups[i].id == id)
			return &t->cgroups[i];
	return NULL;
}

/* A cgroup record: a new cgroup, or a new path for an id known (a later record wins). */
static int note_cgroup(struct info_totals *t, const struct ft_cgroup *c)
{
	struct info_cgroup *g = cgroup_of(t, c->id);
	char *path = strndup(ft_cgroup_path(c), c->path_len);

	if (!path)
		return -1;
	if (!g) {
		struct info_cgroup *v = ft_grow(t->cgroups, &t->cgroups_cap, t->ncgroups,
						sizeof(*v), 16);

		if (!v) {
			free(path);
			return -1;
		}
		t->cgroups = v;
		g = &t->cgroups[t->ncgroups++];
		memset(g, 0, sizeof(*g));
		g->id = c->id;
	}
	free(g->path);
	g->path = path;
	return 0;
}

static void note_cgroup_limits(struct info_totals *t, const struct ft_cgroup_limits *l)
{
	struct info_cgroup *g = cgroup_of(t, l->id);

	if (g) {
		g->limits = *l;
		g->nlimits++;
	}
}

static void count_device(struct info_totals *t, const struct ft_device *d)
{
	for (__u32 i = 0; i < t->host.ndevs; i++)
		if (t->devs[i].dev == d->dev && !t->devinfo[i].hdr.type)
			t->devinfo[i] = *d;
}

static void count_block(struct info_totals *t, const struct ft_block *b)
{
	size_t i;

	for (i = 0; i < t->nblock && t->block[i].dev != b->dev; i++)
		;
	if (i == t->nblock) {
		if (t->nblock == INFO_DEVS)
			return;
		t->block[t->nblock++].dev = b->dev;
	}
	t->block[i].count[b->op <= FT_BLK_OTHER ? b->op : 0]++;
	t->block[i].bytes[b->op <= FT_BLK_OTHER ? b->op : 0] += b->bytes;
}

static int count_record(struct info_totals *t, const struct ft_hdr *h)
{
	if (h->type >= FT_TYPE_MAX || !ft_record_min_size(h->type)) {
		t->unknown_types++;
		t->records++;
		return 0;
	}
	t->records++;
	t->per_type[h->type]++;
	if (h->type == FT_FILE && (((const struct ft_file *)h)->flags & FT_FILE_NAMED))
		t->files_named++;
	if (!ft_is_metadata(h->type)) {
		if (!t->events || h->ts < t->first_ts)
			t->first_ts = h->ts;
		if (h->ts > t->last_ts)
			t->last_ts = h->ts;
		t->events++;
	}
	switch (h->type) {
	case FT_ACCESS:
		count_access(t, (const void *)h);
		break;
	case FT_DEVICE:
		count_device(t, (const void *)h);
		break;
	case FT_BLOCK:
		count_block(t, (const void *)h);
		break;
	case FT_CGROUP:
		if (note_cgroup(t, (const void *)h))
			return -1;
		break;
	case FT_CGROUP_LIMITS:
		note_cgroup_limits(t, (const void *)h);
		break;
	case FT_START_CACHE:
		count_start_cache(t, (const void *)h);
		break;
	case FT_START_SHADOWS:
		count_start_shadows(t, (const void *)h);
		break;
	case FT_HOST:
		if (!t->have_host) {
			const struct ft_host *ho = (const void *)h;
			__u32 n = ho->ndevs < INFO_DEVS ? ho->ndevs : INFO_DEVS;

			t->host = *ho;
			t->host.ndevs = n;
			memcpy(t->devs, ft_host_devs(ho), n * sizeof(t->devs[0]));
			t->have_host = true;
		}
		break;
	case FT_LOST: {
		const struct ft_lost *l = (const void *)h;

		t->lost += l->count;
		t->lost_per_type[l->type < FT_TYPE_MAX ? l->type : 0] += l->count;
		break;
	}
	case FT_COUNTER_NAMES: {
		const struct ft_counter_names *n = (const void *)h;

		if (n->source == FT_SRC_LRU_GEN) {
			t->lru_gen_idx[0] = ft_counter_index(n, "enabled");
			t->lru_gen_idx[1] = ft_counter_index(n, "min_ttl_ms");
		}
		break;
	}
	case FT_COUNTERS: {
		const struct ft_counters *c = (const void *)h;

		if (c->source <= FT_SRC_LRU_GEN)
			t->samples[c->source]++;
		if (c->source == FT_SRC_LRU_GEN && !t->have_lru_gen)
			note_lru_gen(t, c);
		break;
	}
	}
	return ft_filewb_note(&t->wb, h);
}

static void print_host(const struct info_totals *t)
{
	const struct ft_host *h = &t->host;
	char mem[32], lim[32], name[4 * FT_RELEASE_LEN], rel[4 * FT_RELEASE_LEN];

	if (!t->have_host) {
		printf("host:       (no host record)\n");
		return;
	}
	/* the trace's strings are only the recorder's word: escaped, they drive no terminal */
	ft_escape(name, sizeof(name), h->hostname, sizeof(h->hostname));
	ft_escape(rel, sizeof(rel), h->release, sizeof(h->release));
	printf("host:       %s, Linux %s, %u-byte pages, %s memory, %u CPUs%s\n",
	       name[0] ? name : "?", rel[0] ? rel : "?",
	       h->page_size, format_bytes(h->mem_bytes, mem, sizeof(mem)), h->ncpus,
	       h->flags & FT_HOST_SYNTHETIC ? " (synthetic)" : "");
	if (h->memory_limit)
		printf("limit:      %s memory cgroup limit\n",
		       format_bytes(h->memory_limit, lim, sizeof(lim)));
	printf("sysctls:    dirty_background_ratio=%u dirty_ratio=%u dirty_background_bytes=%" PRIu64
	       " dirty_bytes=%" PRIu64 " dirty_expire_centisecs=%u dirty_writeback_centisecs=%u\n",
	       h->dirty_background_ratio, h->dirty_ratio, (uint64_t)h->dirty_background_bytes,
	       (uint64_t)h->dirty_bytes, h->dirty_expire_centisecs, h->dirty_writeback_centisecs);
	for (__u32 i = 0; i < h->ndevs; i++) {
		const struct ft_host_dev *hd = &t->devs[i];
		const struct ft_device *d = &t->devinfo[i];
		char fs[4 * FT_FSTYPE_LEN], dev[4 * FT_DEVNAME_LEN];

		printf("device:     %u:%u %s block=%u %s", hd->dev >> 20, hd->dev & 0xfffff,
		       ft_escape(fs, sizeof(fs), hd->fstype, sizeof(hd->fstype)), hd->block_size,
		       ft_escape(dev, sizeof(dev), hd->name, sizeof(hd->name)));
		if (d->hdr.type)
			printf(" ra_pages=%u io_pages=%u huge=%u flags=%u", d->ra_pages, d->io_pages,
			       d->huge, d->flags);
		printf("\n");
	}
	if (h->flags & FT_HOST_NO_PATHS)
		printf("paths:      not recorded (--no-paths)\n");
	if (t->have_lru_gen)
		printf("lru_gen:    enabled 0x%04" PRIx64 " (%s), min_ttl_ms %" PRIu64 "\n",
		       (uint64_t)t->lru_gen[0], t->lru_gen[0] & 1 ? "MGLRU" :
		       "off: the two-list LRU", (uint64_t)t->lru_gen[1]);
	if (h->unrecorded) {
		printf("not recorded on this kernel (no tracepoint): ");
		ft_print_unrecorded(stdout, h->unrecorded, false);
		printf("\n");
	}
}

/* "max 64.0 MiB": one limit into buf at *used, when it is set (none: nothing). */
static void limit_words(char *buf, size_t len, size_t *used, const char *name, __u64 v,
			__u64 unset)
{
	char b[32];

	if (v == unset || *used >= len)
		return;
	*used += (size_t)snprintf(buf + *used, len - *used, "%s%s %s", *used ? ", " : "", name,
				  format_bytes(v, b, sizeof(b)));
}

#define INFO_CGROUP_LINES	16	/* a whole system's trace names many: JSON lists all */

/* The memory cgroups whose limits the trace holds, with the limits set, as last recorded. */
static void print_cgroups(const struct info_totals *t)
{
	size_t shown = 0, more = 0;

	for (size_t i = 0; i < t->ncgroups; i++) {
		const struct info_cgroup *g = &t->cgroups[i];
		const struct ft_cgroup_limits *l = &g->limits;
		char words[256], path[1024];
		size_t used = 0;

		if (!g->nlimits)
			continue;
		if (shown++ == INFO_CGROUP_LINES) {
			more = 1;
			continue;
		}
		if (more)
			continue;
		words[0] = '\0';
		limit_words(words, sizeof(words), &used, "max", l->max, FT_LIMIT_NONE);
		limit_words(words, sizeof(words), &used, "high", l->high, FT_LIMIT_NONE);
		limit_words(words, sizeof(words), &used, "low", l->low, 0);
		limit_words(words, sizeof(words), &used, "min", l->min, 0);
		limit_words(words, sizeof(words), &used, "soft", l->soft, FT_LIMIT_NONE);
		printf("cgroup:     %s: %s%s\n",
		       ft_escape(path, sizeof(path), g->path[0] ? g->path : "(removed)",
				 strlen(g->path[0] ? g->path : "(removed)")),
		       used ? words : "no limit",
		       g->nlimits > 1 ? " (last of its changes)" : "");
	}
	if (more)
		printf("cgroup:     %zu more (info --format=json lists them)\n",
		       shown - INFO_CGROUP_LINES);
}

/* When recording started, into when; false when the trace does not say. */
static bool recorded_at(const struct info_totals *t, char *when, size_t len)
{
	if (t->have_host && t->host.start_realtime_ns) {
		time_t s = (time_t)(t->host.start_realtime_ns / 1000000000ull);
		struct tm tm;

		if (gmtime_r(&s, &tm) && strftime(when, len, "%Y-%m-%d %H:%M:%S UTC", &tm))
			return true;
	}
	snprintf(when, len, "?");
	return false;
}

static void print_time(const struct info_totals *t)
{
	char when[64];

	recorded_at(t, when, sizeof(when));
	printf("recorded:   %s\n", when);
	printf("duration:   %.6f s (first to last event)\n",
	       t->events ? (double)(t->last_ts - t->first_ts) / 1e9 : 0.0);
}

static const char *const via_names[INFO_VIAS] = {
	"syscalls", "io_uring", "AIO", "copy_file_range", "sendfile", "splice"
};

/* Reads and writes by interface, when some went through another than read/write(2). */
static void print_vias(const struct info_totals *t)
{
		char label[40];

	for (int w = 0; w < 2; w++) {
		for (unsigned v = 1; v < INFO_VIAS; v++) {
			if (!t->via_count[w][v])
				continue;
			snprintf(label, sizeof(label), "%s via %s", w ? "write" : "read", via_names[v]);
			printf("  %-24s %6" PRIu64 " %20" PRIu64 " bytes\n", label, t->via_count[w][v],
			       t->via_bytes[w][v]);
		}
	}
}

static void print_counts(const struct info_totals *t)
{
	char b[32];

	printf("records:    %" PRIu64 " (%" PRIu64 " events)\n", t->records, t->events);
	for (unsigned ty = 1; ty < FT_TYPE_MAX; ty++)
		if (t->per_type[ty])
			printf("  %-18s %12" PRIu64 "\n", ft_type_name((__u16)ty), t->per_type[ty]);
	if (t->unknown_types)
		printf("  %-18s %12" PRIu64 " (newer record types, skipped)\n", "unknown",
		       t->unknown_types);
	printf("accesses:\n");
	for (unsigned op = 1; op < FT_OP_MAX; op++)
		if (t->op_count[op])
			printf("  %-18s %12" PRIu64 " %20" PRIu64 " bytes (%s)\n",
			       ft_op_name((__u16)op), t->op_count[op], t->op_bytes[op],
			       format_bytes(t->op_bytes[op], b, sizeof(b)));
	if (t->direct_bytes)
		printf("  %-18s %12s %20" PRIu64 " bytes\n", "of which O_DIRECT", "",
		       t->direct_bytes);
	print_vias(t);
	printf("files:      %" PRIu64 "\n", t->per_type[FT_FILE] - t->files_named);
	if (t->sc_files)
		printf("start:      %" PRIu64 " files probed: %" PRIu64 " pages cached before the "
		       "trace in %" PRIu64 " ranges, %" PRIu64 " dirty, %" PRIu64 " under writeback%s"
		       " (probes %.3f ms)\n", t->sc_files, t->sc_pages, t->sc_ranges, t->sc_dirty,
		       t->sc_writeback, t->sc_no_dirty ? " (not known for some)" : "",
		       (double)t->sc_probe_ns / 1e6);
	if (t->ss_records)
		printf("            %" PRIu64 " pages evicted before the trace with their shadow "
		       "entries left, %" PRIu64 " of them recently\n", t->ss_pages, t->ss_recent);
	printf("samples:    vmstat=%" PRIu64 " meminfo=%" PRIu64 " buddyinfo=%" PRIu64
	       " cgroup=%" PRIu64 "\n", t->samples[FT_SRC_VMSTAT], t->samples[FT_SRC_MEMINFO],
	       t->samples[FT_SRC_BUDDYINFO], t->samples[FT_SRC_CGROUP]);
	/* the memory's layout, in traces recorded since they were sampled */
	if (t->samples[FT_SRC_PAGETYPEINFO] || t->samples[FT_SRC_EXTFRAG_UNUSABLE])
		printf("            pagetypeinfo=%" PRIu64 " extfrag=%" PRIu64 "\n",
		       t->samples[FT_SRC_PAGETYPEINFO], t->samples[FT_SRC_EXTFRAG_UNUSABLE]);
	printf("lost:       %" PRIu64 "\n", t->lost);
	for (unsigned ty = 0; ty < FT_TYPE_MAX; ty++)
		if (t->lost_per_type[ty])
			printf("  %-18s %12" PRIu64 "\n", ty ? ft_type_name((__u16)ty) : "any",
			       t->lost_per_type[ty]);
}

static const char *file_name(const struct ft_file_wb *f, char *buf, size_t len)
{
	if (f->path)
		return f->path;
	snprintf(buf, len, "(dev %u:%u ino %llu)", f->dev >> 20, f->dev & 0xfffff,
		 (unsigned long long)f->ino);
	return buf;
}

/* Larger written-back volume first, then larger written volume. */
static int by_volume(const void *a, const void *b)
{
	const struct ft_file_wb *x = *(const struct ft_file_wb *const *)a;
	const struct ft_file_wb *y = *(const struct ft_file_wb *const *)b;

	if (x->written_back != y->written_back)
		return x->written_back < y->written_back ? 1 : -1;
	if (x->written != y->written)
		return x->written < y->written ? 1 : -1;
	return 0;
}

static void print_wb_row(const struct ft_filewb *wb, const struct ft_file_wb *f, const char *name)
{
	enum ft_wb_count c = ft_filewb_count(wb, f->dev);
	char back[24] = "-", ratio[16] = "-";

	if (c != FT_WB_COUNT_UNKNOWN)
		snprintf(back, sizeof(back), "%llu", (unsigned long long)f->written_back);
	if (c != FT_WB_COUNT_UNKNOWN && f->written)
		snprintf(ratio, sizeof(ratio), "%.3f", (double)f->written_back / (double)f->written);
	printf("  %16llu %16s %7s  ", (unsigned long long)f->written, back, ratio);
	/* a path from the trace: escaped, it drives no terminal */
	ft_fputs_escaped(stdout, name, (size_t)-1);
	putchar('\n');
}

/*
 * Per file written: the bytes written, the bytes of its data the file system wrote back ("-"
 * where it keeps no count), and their ratio.
 */
static void print_writeback(const struct ft_filewb *wb)
{
	const struct ft_file_wb **v = calloc(wb->n ? wb->n : 1, sizeof(*v));
	struct ft_file_wb all = { .path = NULL };
	size_t n = 0;
	char buf[80];

	if (!v)
		return;
	for (size_t i = 0; i < wb->n; i++)
		if (wb->files[i].written || wb->files[i].written_back)
			v[n++] = &wb->files[i];
	if (n) {
		qsort(v, n, sizeof(*v), by_volume);
		printf("writeback:  bytes written to each file, of its data written back by the kernel\n");
		printf("  %16s %16s %7s  %s\n", "written", "written back", "ratio", "file");
	}
	for (size_t i = 0; i < n; i++) {
		if (i < INFO_WB_FILES)
			print_wb_row(wb, v[i], file_name(v[i], buf, sizeof(buf)));
		all.written += v[i]->written;
		all.written_back += v[i]->written_back;
		all.dev = v[i]->dev;
	}
	if (n > INFO_WB_FILES)
		printf("  (%zu more files)\n", n - INFO_WB_FILES);
	if (n > 1)
		printf("  %16llu %16llu %7s  all files\n", (unsigned long long)all.written,
		       (unsigned long long)all.written_back, "");
	free(v);
}

static void print_block(const struct info_totals *t)
{
	char r[32], w[32];

	for (size_t i = 0; i < t->nblock; i++) {
		const struct block_totals *b = &t->block[i];

		printf("block:      %u:%u read %s (%llu requests), write %s (%llu), flush %llu, "
		       "discard %llu\n", b->dev >> 20, b->dev & 0xfffff,
		       format_bytes(b->bytes[FT_BLK_READ], r, sizeof(r)),
		       (unsigned long long)b->count[FT_BLK_READ],
		       format_bytes(b->bytes[FT_BLK_WRITE], w, sizeof(w)),
		       (unsigned long long)b->count[FT_BLK_WRITE],
		       (unsigned long long)b->count[FT_BLK_FLUSH],
		       (unsigned long long)b->count[FT_BLK_DISCARD]);
	}
}

static void print_format(const char *file, const struct ft_reader_status *st)
{
	char b[32];

	printf("file:       ");
	ft_fputs_escaped(stdout, file, (size_t)-1);
	putchar('\n');
	printf("format:     version %u.%u, %" PRIu64 " chunks, %s\n", st->version_major,
	       st->version_minor, (uint64_t)st->chunks, format_bytes(st->bytes, b, sizeof(b)));
	if (st->truncated)
		printf("complete:   no: %s (readable up to byte %" PRIu64 ")\n", st->why,
		       (uint64_t)st->good_bytes);
	else
		printf("complete:   yes\n");
}

/* --format=json: one document with what the text shows, keys in folio-trace-info(1). */
#define INFO_JSON_VERSION 1

static void json_key(FILE *f, const char *indent, const char *key, bool *first)
{
	fprintf(f, "%s\n%s\"%s\": ", *first ? "" : ",", indent, key);
	*first = false;
}

/* A string of the trace: bytes above 0x7f as \u00XX, so the document is ASCII whatever it holds. */
static void json_trace_string(FILE *f, const char *s, size_t max)
{
	ft_json_string_n(f, s, max, FT_JSON_ASCII);
}

static void json_u64(FILE *f, const char *indent, const char *key, uint64_t v, bool *first)
{
	json_key(f, indent, key, first);
	fprintf(f, "%" PRIu64, v);
}

static void json_dev(FILE *f, const char *indent, const char *key, __u32 dev, bool *first)
{
	json_key(f, indent, key, first);
	fprintf(f, "\"%u:%u\"", dev >> 20, dev & 0xfffff);
}

static void json_format(FILE *f, const char *file, const struct ft_reader_status *st)
{
	bool first = true;

	json_key(f, "  ", "file", &first);
	json_trace_string(f, file, (size_t)-1);
	fputs(",\n  \"trace\": {", f);
	first = true;
	json_u64(f, "    ", "version_major", st->version_major, &first);
	json_u64(f, "    ", "version_minor", st->version_minor, &first);
	json_u64(f, "    ", "chunks", st->chunks, &first);
	json_u64(f, "    ", "bytes", st->bytes, &first);
	json_key(f, "    ", "complete", &first);
	fputs(st->truncated ? "false" : "true", f);
	json_key(f, "    ", "incomplete_why", &first);
	if (st->truncated)
		ft_json_string(f, st->why);
	else
		fputs("null", f);
	json_key(f, "    ", "readable_bytes", &first);
	if (st->truncated)
		fprintf(f, "%" PRIu64, (uint64_t)st->good_bytes);
	else
		fputs("null", f);
	fputs("\n  }", f);
}

static void json_host_devs(FILE *f, const struct info_totals *t)
{
	fputs("[", f);
	for (__u32 i = 0; i < t->host.ndevs; i++) {
		const struct ft_host_dev *hd = &t->devs[i];
		const struct ft_device *d = &t->devinfo[i];
		bool first = true;

		fprintf(f, "%s\n      {", i ? "," : "");
		json_dev(f, "        ", "dev", hd->dev, &first);
		json_key(f, "        ", "fstype", &first);
		json_trace_string(f, hd->fstype, sizeof(hd->fstype));
		json_u64(f, "        ", "block_size", hd->block_size, &first);
		json_key(f, "        ", "name", &first);
		json_trace_string(f, hd->name, sizeof(hd->name));
		/* from the device record, null without one */
		json_key(f, "        ", "device", &first);
		if (d->hdr.type) {
			fprintf(f, "{\"ra_pages\": %u, \"io_pages\": %u, \"huge\": %u, \"flags\": %u}",
				d->ra_pages, d->io_pages, d->huge, d->flags);
		} else {
			fputs("null", f);
		}
		fputs("\n      }", f);
	}
	fputs(t->host.ndevs ? "\n    ]" : "]", f);
}

static void json_host(FILE *f, const struct info_totals *t)
{
	const struct ft_host *h = &t->host;
	bool first = true;

	fputs(",\n  \"host\": ", f);
	if (!t->have_host) {
		fputs("null", f);
		return;
	}
	fputs("{", f);
	json_key(f, "    ", "hostname", &first);
	json_trace_string(f, h->hostname, sizeof(h->hostname));
	json_key(f, "    ", "release", &first);
	json_trace_string(f, h->release, sizeof(h->release));
	json_u64(f, "    ", "page_size", h->page_size, &first);
	json_u64(f, "    ", "memory_bytes", h->mem_bytes, &first);
	json_u64(f, "    ", "cpus", h->ncpus, &first);
	json_key(f, "    ", "synthetic", &first);
	fputs(h->flags & FT_HOST_SYNTHETIC ? "true" : "false", f);
	json_u64(f, "    ", "memory_limit", h->memory_limit, &first);
	json_key(f, "    ", "paths_recorded", &first);
	fputs(h->flags & FT_HOST_NO_PATHS ? "false" : "true", f);
	json_key(f, "    ", "lru_gen", &first);
	if (t->have_lru_gen)
		fprintf(f, "{\"enabled\": %" PRIu64 ", \"min_ttl_ms\": %" PRIu64 "}",
			(uint64_t)t->lru_gen[0], (uint64_t)t->lru_gen[1]);
	else
		fputs("null", f);
	json_key(f, "    ", "not_recorded", &first);
	fputs("[", f);
	ft_print_unrecorded(f, h->unrecorded, true);
	fputs("]", f);
	json_u64(f, "    ", "start_realtime_ns", h->start_realtime_ns, &first);
	json_key(f, "    ", "sysctls", &first);
	fprintf(f, "{\"dirty_background_ratio\": %u, \"dirty_ratio\": %u, "
		"\"dirty_background_bytes\": %" PRIu64 ", \"dirty_bytes\": %" PRIu64 ", "
		"\"dirty_expire_centisecs\": %u, \"dirty_writeback_centisecs\": %u}",
		h->dirty_background_ratio, h->dirty_ratio, (uint64_t)h->dirty_background_bytes,
		(uint64_t)h->dirty_bytes, h->dirty_expire_centisecs, h->dirty_writeback_centisecs);
	json_key(f, "    ", "devices", &first);
	json_host_devs(f, t);
	fputs("\n  }", f);
}

/* {"name": {"count": N, "bytes": N}, ...} of the non-zero ones. */
static void json_count_bytes(FILE *f, const char *indent, const char *name, uint64_t count,
			     uint64_t bytes, bool *first)
{
	json_key(f, indent, name, first);
	fprintf(f, "{\"count\": %" PRIu64 ", \"bytes\": %" PRIu64 "}", count, bytes);
}

static void json_counts(FILE *f, const struct info_totals *t)
{
	bool first = true;
	char when[64];

	fputs(",\n  \"recorded\": ", f);
	if (recorded_at(t, when, sizeof(when)))
		ft_json_string(f, when);
	else
		fputs("null", f);
	fprintf(f, ",\n  \"duration_s\": %.9f", t->events ? (double)(t->last_ts - t->first_ts) / 1e9 :
		0.0);
	fprintf(f, ",\n  \"records\": %" PRIu64 ",\n  \"events\": %" PRIu64, t->records, t->events);
	fputs(",\n  \"records_per_type\": {", f);
	for (unsigned ty = 1; ty < FT_TYPE_MAX; ty++)
		if (t->per_type[ty])
			json_u64(f, "    ", ft_type_name((__u16)ty), t->per_type[ty], &first);
	fputs(first ? "}" : "\n  }", f);
	fprintf(f, ",\n  \"unknown_records\": %" PRIu64, t->unknown_types);
	fputs(",\n  \"accesses\": {", f);
	first = true;
	for (unsigned op = 1; op < FT_OP_MAX; op++)
		if (t->op_count[op])
			json_count_bytes(f, "    ", ft_op_name((__u16)op), t->op_count[op],
					 t->op_bytes[op], &first);
	fputs(first ? "}" : "\n  }", f);
	fprintf(f, ",\n  \"direct_bytes\": %" PRIu64, t->direct_bytes);
	fputs(",\n  \"interfaces\": {", f);
	for (int w = 0; w < 2; w++) {
		bool in = true, no_comma = w == 0;

		json_key(f, "    ", w ? "write" : "read", &no_comma);
		fputs("{", f);
		for (unsigned v = 1; v < INFO_VIAS; v++)
			if (t->via_count[w][v])
				json_count_bytes(f, "      ", via_names[v], t->via_count[w][v],
						 t->via_bytes[w][v], &in);
		fputs(in ? "}" : "\n    }", f);
	}
	fputs("\n  }", f);
	fprintf(f, ",\n  \"files\": %" PRIu64, t->per_type[FT_FILE] - t->files_named);
	fprintf(f, ",\n  \"start_cache\": {\"files\": %" PRIu64 ", \"pages\": %" PRIu64
		", \"ranges\": %" PRIu64 ", \"dirty\": %" PRIu64 ", \"writeback\": %" PRIu64
		", \"probe_ns\": %" PRIu64 "}", t->sc_files, t->sc_pages, t->sc_ranges, t->sc_dirty,
		t->sc_writeback, t->sc_probe_ns);
	fprintf(f, ",\n  \"start_shadows\": {\"pages\": %" PRIu64 ", \"recent\": %" PRIu64 "}",
		t->ss_pages, t->ss_recent);
	fprintf(f, ",\n  \"samples\": {\"vmstat\": %" PRIu64 ", \"meminfo\": %" PRIu64
		", \"buddyinfo\": %" PRIu64 ", \"cgroup\": %" PRIu64 "}",
		t->samples[FT_SRC_VMSTAT], t->samples[FT_SRC_MEMINFO],
		t->samples[FT_SRC_BUDDYINFO], t->samples[FT_SRC_CGROUP]);
	fprintf(f, ",\n  \"lost_events\": %" PRIu64, t->lost);
	fputs(",\n  \"lost_per_type\": {", f);
	first = true;
	for (unsigned ty = 0; ty < FT_TYPE_MAX; ty++)
		if (t->lost_per_type[ty])
			json_u64(f, "    ", ty ? ft_type_name((__u16)ty) : "any", t->lost_per_type[ty],
				 &first);
	fputs(first ? "}" : "\n  }", f);
}

/* The files written, sorted as the text shows them; NULL when out of memory. */
static const struct ft_file_wb **written_files(const struct ft_filewb *wb, size_t *n)
{
	const struct ft_file_wb **v = calloc(wb->n ? wb->n : 1, sizeof(*v));

	*n = 0;
	if (!v)
		return NULL;
	for (size_t i = 0; i < wb->n; i++)
		if (wb->files[i].written || wb->files[i].written_back)
			v[(*n)++] = &wb->files[i];
	qsort(v, *n, sizeof(*v), by_volume);
	return v;
}

/* Every file written (not only the first 20), then the sums. -1: out of memory. */
static int json_writeback(FILE *f, const struct ft_filewb *wb)
{
	size_t n;
	const struct ft_file_wb **v = written_files(wb, &n);
	uint64_t written = 0, back = 0;

	if (!v)
		return -1;
	fputs(",\n  \"writeback\": [", f);
	for (size_t i = 0; i < n; i++) {
		enum ft_wb_count c = ft_filewb_count(wb, v[i]->dev);
		bool first = true;

		fprintf(f, "%s\n    {", i ? "," : "");
		json_key(f, "      ", "path", &first);
		if (v[i]->path)
			json_trace_string(f, v[i]->path, (size_t)-1);
		else
			fputs("null", f);
		json_dev(f, "      ", "dev", v[i]->dev, &first);
		json_u64(f, "      ", "ino", v[i]->ino, &first);
		json_u64(f, "      ", "written", v[i]->written, &first);
		json_key(f, "      ", "written_back", &first);
		if (c == FT_WB_COUNT_UNKNOWN)
			fputs("null", f);
		else
			fprintf(f, "%llu", (unsigned long long)v[i]->written_back);
		json_key(f, "      ", "ratio", &first);
		if (c != FT_WB_COUNT_UNKNOWN && v[i]->written)
			fprintf(f, "%.10g", (double)v[i]->written_back / (double)v[i]->written);
		else
			fputs("null", f);
		fputs("\n    }", f);
		written += v[i]->written;
		back += v[i]->written_back;
	}
	fputs(n ? "\n  ]" : "]", f);
	fprintf(f, ",\n  \"writeback_all\": {\"files\": %zu, \"written\": %" PRIu64
		", \"written_back\": %" PRIu64 "}", n, written, back);
	free(v);
	return 0;
}

static void json_block(FILE *f, const struct info_totals *t)
{
	fputs(",\n  \"block\": [", f);
	for (size_t i = 0; i < t->nblock; i++) {
		const struct block_totals *b = &t->block[i];
		bool first = true;

		fprintf(f, "%s\n    {", i ? "," : "");
		json_dev(f, "      ", "dev", b->dev, &first);
		json_u64(f, "      ", "read_bytes", b->bytes[FT_BLK_READ], &first);
		json_u64(f, "      ", "read_requests", b->count[FT_BLK_READ], &first);
		json_u64(f, "      ", "write_bytes", b->bytes[FT_BLK_WRITE], &first);
		json_u64(f, "      ", "write_requests", b->count[FT_BLK_WRITE], &first);
		json_u64(f, "      ", "flushes", b->count[FT_BLK_FLUSH], &first);
		json_u64(f, "      ", "discards", b->count[FT_BLK_DISCARD], &first);
		fputs("\n    }", f);
	}
	fputs(t->nblock ? "\n  ]" : "]", f);
}

static void json_limit(FILE *f, const char *key, __u64 v)
{
	if (v == FT_LIMIT_NONE)
		fprintf(f, ", \"%s\": null", key);
	else
		fprintf(f, ", \"%s\": %" PRIu64, key, (uint64_t)v);
}

/* Every memory cgroup the trace names; limits null where the trace has none for it. */
static void json_cgroups(FILE *f, const struct info_totals *t)
{
	fputs(",\n  \"cgroups\": [", f);
	for (size_t i = 0; i < t->ncgroups; i++) {
		const struct info_cgroup *g = &t->cgroups[i];

		fprintf(f, "%s\n    {\"id\": %" PRIu64 ", \"path\": ", i ? "," : "",
			(uint64_t)g->id);
		json_trace_string(f, g->path, strlen(g->path));
		if (!g->nlimits) {
			fputs(", \"limits\": null}", f);
			continue;
		}
		fputs(", \"limits\": {\"changes\": ", f);
		fprintf(f, "%u", g->nlimits - 1);
		json_limit(f, "max", g->limits.max);
		json_limit(f, "high", g->limits.high);
		fprintf(f, ", \"low\": %" PRIu64 ", \"min\": %" PRIu64, (uint64_t)g->limits.low,
			(uint64_t)g->limits.min);
		json_limit(f, "soft", g->limits.soft);
		fputs("}}", f);
	}
	fputs(t->ncgroups ? "\n  ]" : "]", f);
}

static int write_json(FILE *f, const char *file, const struct ft_reader_status *st,
		      const struct info_totals *t)
{
	fprintf(f, "{\n  \"format\": \"folio-trace-info\",\n  \"version\": %d,", INFO_JSON_VERSION);
	json_format(f, file, st);
	json_host(f, t);
	json_cgroups(f, t);
	json_counts(f, t);
	if (json_writeback(f, &t->wb) < 0)
		return -1;
	json_block(f, t);
	fputs("\n}\n", f);
	return 0;
}

enum { OPT_FORMAT = 256, OPT_BY, OPT_TOP, OPT_SORT };

struct info_args {
	const char *file;
	bool json;
	bool by;		/* --by given: a row per unit of by_kind */
	enum top_by by_kind;
	uint64_t top;
	int sort;
	bool top_given, sort_given;
	struct ft_seen seen;
};

static error_t info_parse(int key, char *arg, struct argp_state *state)
{
	struct info_args *a = state->input;

	if (ft_option_once(&a->seen, state, key))
		return EINVAL;
	switch (key) {
	case OPT_FORMAT:
		if (strcmp(arg, "text") == 0)
			a->json = false;
		else if (strcmp(arg, "json") == 0)
			a->json = true;
		else
			return ft_usage_error(NULL, "format", arg, "expected text or json");
		return 0;
	case OPT_BY:
		if (!top_by_parse(arg, &a->by_kind))
			return ft_usage_error(NULL, "by", arg, "expected file, process or cgroup");
		a->by = true;
		return 0;
	case OPT_TOP:
		if (ft_parse_u64_arg(NULL, "top", arg, 1, UINT32_MAX - 6, &a->top))
			return EINVAL;
		a->top_given = true;
		return 0;
	case OPT_SORT:
		a->sort = top_column_parse(arg);
		if (a->sort < 0)
			return ft_usage_error(NULL, "sort", arg, TOP_COLUMN_CHOICES);
		a->sort_given = true;
		return 0;
	}
	return argp_one_operand(key, arg, state, &a->file, "trace file");
}

/*
 * --by: the trace's own figures per file, process or memory cgroup, as `top --from` counts
 * them over the whole trace (top/tally.h): read and written, dirtied, written back by the file
 * system, folios the kernel inserted by order, evicted, the hit ratio as cachestat estimates
 * it, readahead.
 */
static void print_by_unit(const struct info_args *a, const struct top_tally *tally,
			  const struct info_totals *t)
{
	struct top_view v = { .sort = (enum top_column)a->sort,
			      .max_rows = (unsigned)a->top,
			      .heading = "folio-trace info: the whole trace" };

	putchar('\n');
	top_view_text(stdout, &v, tally, 1,
		      t->events ? (double)(t->last_ts - t->first_ts) / 1e9 : 0.0);
}

int cmd_info(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{ "format", OPT_FORMAT, "FMT", 0, "text (default) or json (one document)", 0 },
		{ "by", OPT_BY, "UNIT", 0, "file, process or cgroup: also the trace's figures per "
		  "unit, as top counts them: bytes read, written, dirtied and written back, folios "
		  "inserted by order, pages evicted", 0 },
		{ "top", OPT_TOP, "N", 0, "with --by: the first N rows (default 20)", 0 },
		{ "sort", OPT_SORT, "COLUMN", 0, "with --by: sort by this column of top's (default "
		  "INSERTED)", 0 },
		{ 0 }
	};
	static const struct argp argp = {
		options, info_parse, "FILE",
		"Summarise the trace FILE (- for stdin): format and completeness, host, duration, "
		"records per type, accesses per operation, files, samples and lost events; the "
		"bytes written to each file and written back by the kernel; block requests.",
		0, 0, 0
	};
	struct info_args args = { .top = INFO_TOP, .sort = TOP_COL_INSERTED };
	struct top_tally tally;
	struct info_totals *t;
	struct ft_reader_status st;
	const struct ft_hdr *h;
	struct ft_reader *r;
	struct ft_error err;
	uint64_t damaged = 0;
	int ret;

	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	if (args.by && args.json) {
		ft_warn("--by: text only; folio-trace top --from=FILE --format=json gives the "
			"same figures as JSON");
		return EXIT_USAGE;
	}
	if ((args.top_given || args.sort_given) && !args.by) {
		ft_warn("--%s: only with --by", args.top_given ? "top" : "sort");
		return EXIT_USAGE;
	}
	if (args.by && top_tally_init(&tally, args.by_kind)) {
		ft_warn("out of memory");
		return EXIT_RUNTIME;
	}
	r = ft_reader_open(args.file, &err);
	if (!r) {
		ft_warn("%s", err.msg);
		if (args.by)
			top_tally_release(&tally);
		return EXIT_RUNTIME;
	}
	t = calloc(1, sizeof(*t));
	if (!t || ft_filewb_init(&t->wb)) {
		ft_warn("out of memory");
		free(t);
		ft_reader_close(r);
		if (args.by)
			top_tally_release(&tally);
		return EXIT_RUNTIME;
	}
	t->lru_gen_idx[0] = t->lru_gen_idx[1] = -1;
	while ((ret = ft_reader_next(r, &h, &err)) == FT_READ_MORE) {
		/* an access replay and export skip as damaged counts for nothing here either */
		if (ft_damaged_access(r, args.file, h, &damaged))
			continue;
		if (count_record(t, h) || (args.by && top_tally_add(&tally, h))) {
			snprintf(err.msg, sizeof(err.msg), "info: out of memory");
			ret = FT_READ_ERROR;
			break;
		}
	}
	if (ret == FT_READ_ERROR) {
		ft_warn("%s", err.msg);
		ret = EXIT_RUNTIME;
	} else {
		ft_reader_status(r, &st);
		if (args.json) {
			if (write_json(stdout, args.file, &st, t) < 0)
				ft_warn("out of memory");	/* the document is cut: not valid */
		} else {
			print_format(args.file, &st);
			print_host(t);
			print_cgroups(t);
			print_time(t);
			print_counts(t);
			print_writeback(&t->wb);
			print_block(t);
			if (args.by)
				print_by_unit(&args, &tally, t);
		}
		/* what was read goes out before the line saying where the trace ends */
		if (fflush(stdout)) {
			ft_warn("standard output: write failed: %s", strerror(errno));
			ft_reader_report_end(r);
			ret = EXIT_RUNTIME;
		} else {
			ret = ft_reader_report_end(r) ? EXIT_RUNTIME : EXIT_OK;
		}
		ft_damaged_summary(args.file, damaged);
		if (damaged)
			ret = EXIT_RUNTIME;
	}
	ft_filewb_free(&t->wb);
	for (size_t i = 0; i < t->ncgroups; i++)
		free(t->cgroups[i].path);
	free(t->cgroups);
	free(t);
	ft_reader_close(r);
	if (args.by)
		top_tally_release(&tally);
	return ret;
}
