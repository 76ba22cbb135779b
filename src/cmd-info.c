/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace info: what a trace holds, in one screen: format and completeness, host, time span,
 * records per type, accesses per operation, files, samples and lost events.
 */
#include <argp.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "trace/trace.h"
#include "util/args.h"
#include "util/msg.h"
#include "util/parse.h"

struct info_totals {
	uint64_t per_type[FT_TYPE_MAX];
	uint64_t unknown_types;
	uint64_t op_count[FT_OP_MAX], op_bytes[FT_OP_MAX];
	uint64_t direct_bytes;
	uint64_t lost_per_type[FT_TYPE_MAX];
	uint64_t lost;
	uint64_t first_ts, last_ts, events, records;
	uint64_t samples[FT_SRC_EXTFRAG_INDEX + 1];
	struct ft_host host;
	struct ft_host_dev devs[16];
	bool have_host;
};

static void count_access(struct info_totals *t, const struct ft_access *a)
{
	if (a->op < FT_OP_MAX) {
		t->op_count[a->op]++;
		t->op_bytes[a->op] += a->len;
	}
	if (a->flags & FT_AF_DIRECT)
		t->direct_bytes += a->len;
}

static void count_record(struct info_totals *t, const struct ft_hdr *h)
{
	if (h->type >= FT_TYPE_MAX || !ft_record_min_size(h->type)) {
		t->unknown_types++;
		t->records++;
		return;
	}
	t->records++;
	t->per_type[h->type]++;
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
	case FT_HOST:
		if (!t->have_host) {
			const struct ft_host *ho = (const void *)h;
			__u32 n = ho->ndevs < 16 ? ho->ndevs : 16;

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
	case FT_COUNTERS: {
		const struct ft_counters *c = (const void *)h;

		if (c->source <= FT_SRC_EXTFRAG_INDEX)
			t->samples[c->source]++;
		break;
	}
	}
}

static void print_host(const struct info_totals *t)
{
	const struct ft_host *h = &t->host;
	char mem[32], lim[32];

	if (!t->have_host) {
		printf("host:       (no host record)\n");
		return;
	}
	printf("host:       %s, Linux %s, %u-byte pages, %s memory, %u CPUs%s\n",
	       h->hostname[0] ? h->hostname : "?", h->release[0] ? h->release : "?", h->page_size,
	       format_bytes(h->mem_bytes, mem, sizeof(mem)), h->ncpus,
	       h->flags & FT_HOST_SYNTHETIC ? " (synthetic)" : "");
	if (h->memory_limit)
		printf("limit:      %s memory cgroup limit\n",
		       format_bytes(h->memory_limit, lim, sizeof(lim)));
	printf("sysctls:    dirty_background_ratio=%u dirty_ratio=%u dirty_background_bytes=%" PRIu64
	       " dirty_bytes=%" PRIu64 " dirty_expire_centisecs=%u dirty_writeback_centisecs=%u\n",
	       h->dirty_background_ratio, h->dirty_ratio, (uint64_t)h->dirty_background_bytes,
	       (uint64_t)h->dirty_bytes, h->dirty_expire_centisecs, h->dirty_writeback_centisecs);
	for (__u32 i = 0; i < h->ndevs; i++)
		printf("device:     %u:%u %s block=%u %s\n", t->devs[i].dev >> 20,
		       t->devs[i].dev & 0xfffff, t->devs[i].fstype, t->devs[i].block_size,
		       t->devs[i].name);
	if (h->flags & FT_HOST_NO_PATHS)
		printf("paths:      not recorded (--no-paths)\n");
}

static void print_time(const struct info_totals *t)
{
	char when[64] = "?";

	if (t->have_host && t->host.start_realtime_ns) {
		time_t s = (time_t)(t->host.start_realtime_ns / 1000000000ull);
		struct tm tm;

		if (gmtime_r(&s, &tm))
			strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%S UTC", &tm);
	}
	printf("recorded:   %s\n", when);
	printf("duration:   %.6f s (first to last event)\n",
	       t->events ? (double)(t->last_ts - t->first_ts) / 1e9 : 0.0);
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
	printf("files:      %" PRIu64 "\n", t->per_type[FT_FILE]);
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

static void print_format(const char *file, const struct ft_reader_status *st)
{
	char b[32];

	printf("file:       %s\n", file);
	printf("format:     version %u.%u, %" PRIu64 " chunks, %s\n", st->version_major,
	       st->version_minor, (uint64_t)st->chunks, format_bytes(st->bytes, b, sizeof(b)));
	if (st->truncated)
		printf("complete:   no: %s (readable up to byte %" PRIu64 ")\n", st->why,
		       (uint64_t)st->good_bytes);
	else
		printf("complete:   yes\n");
}

struct info_args {
	const char *file;
};

static error_t info_parse(int key, char *arg, struct argp_state *state)
{
	struct info_args *a = state->input;

	return argp_one_operand(key, arg, state, &a->file, "trace file");
}

int cmd_info(int argc, char **argv)
{
	static const struct argp_option options[] = { { 0 } };
	static const struct argp argp = {
		options, info_parse, "FILE",
		"Summarise the trace FILE (- for stdin): format and completeness, host, duration, "
		"records per type, accesses per operation, files, samples and lost events.",
		0, 0, 0
	};
	struct info_args args = { 0 };
	struct info_totals *t;
	struct ft_reader_status st;
	const struct ft_hdr *h;
	struct ft_reader *r;
	struct ft_error err;
	int ret;

	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	r = ft_reader_open(args.file, &err);
	if (!r) {
		ft_warn("%s", err.msg);
		return EXIT_RUNTIME;
	}
	t = calloc(1, sizeof(*t));
	if (!t) {
		ft_warn("out of memory");
		ft_reader_close(r);
		return EXIT_RUNTIME;
	}
	while ((ret = ft_reader_next(r, &h, &err)) == FT_READ_MORE)
		count_record(t, h);
	if (ret == FT_READ_ERROR) {
		ft_warn("%s", err.msg);
		ret = EXIT_RUNTIME;
	} else {
		ft_reader_status(r, &st);
		print_format(args.file, &st);
		print_host(t);
		print_time(t);
		print_counts(t);
		fflush(stdout);
		ret = ft_reader_report_end(r) ? EXIT_RUNTIME : EXIT_OK;
	}
	free(t);
	ft_reader_close(r);
	return ret;
}
