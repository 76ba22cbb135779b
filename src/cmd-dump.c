/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace dump: one line per record. Text lines are "TS TYPE key=value ...", stable and
 * awk-friendly (strings escaped so a field never holds a space); --format=json gives JSON lines
 * with the same keys.
 */
#include <argp.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "trace/trace.h"
#include "util/args.h"
#include "util/json.h"
#include "util/msg.h"

struct dump_out {
	FILE *f;
	bool json;
};

static void put_key(const struct dump_out *o, const char *key)
{
	if (o->json)
		fprintf(o->f, ",\"%s\":", key);
	else
		fprintf(o->f, " %s=", key);
}

static void put_u64(const struct dump_out *o, const char *key, uint64_t v)
{
	put_key(o, key);
	fprintf(o->f, "%" PRIu64, v);
}

/* A limit: "max" (text) or null (JSON) for FT_LIMIT_NONE, as cgroup v2 prints none. */
static void put_limit(const struct dump_out *o, const char *key, uint64_t v)
{
	if (v != FT_LIMIT_NONE) {
		put_u64(o, key, v);
		return;
	}
	put_key(o, key);
	fputs(o->json ? "null" : "max", o->f);
}

static void put_i64(const struct dump_out *o, const char *key, int64_t v)
{
	put_key(o, key);
	fprintf(o->f, "%" PRId64, v);
}

/*
 * Text: bytes outside printable ASCII, space, '\\', '"' and '=' become \xHH. JSON: escaped,
 * bytes above 0x7e too, so both forms are ASCII (names are bytes, not necessarily UTF-8).
 */
static void put_str_value(const struct dump_out *o, const char *s, size_t len)
{
	if (o->json) {
		ft_json_string_n(o->f, s, len, FT_JSON_ASCII);
		return;
	}
	for (size_t i = 0; i < len && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c <= ' ' || c >= 0x7f || c == '\\' || c == '"' || c == '=')
			fprintf(o->f, "\\x%02x", c);
		else
			fputc(c, o->f);
	}
}

static void put_str(const struct dump_out *o, const char *key, const char *s, size_t len)
{
	put_key(o, key);
	put_str_value(o, s, len);
}

static void put_name(const struct dump_out *o, const char *key, const char *name)
{
	put_str(o, key, name, strlen(name));
}

static void put_dev(const struct dump_out *o, const char *key, __u32 dev)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%u:%u", dev >> 20, dev & 0xfffff);
	put_name(o, key, buf);
}

/* Flag bits as their names joined by commas, bit 0 first; "-" for none. */
static void put_flag_names(const struct dump_out *o, unsigned flags, const char *const *names,
			   unsigned n)
{
	char buf[64] = "";

	for (unsigned i = 0; i < n; i++) {
		if (flags & (1u << i)) {
			if (buf[0])
				strcat(buf, ",");
			strcat(buf, names[i]);
		}
	}
	put_name(o, "flags", buf[0] ? buf : "-");
}

static void put_access_flags(const struct dump_out *o, __u16 flags)
{
	static const char *const names[] = { "direct", "append", "vector", "positional", "sync",
						     "dontcache", "exec" };

	put_flag_names(o, flags, names, sizeof(names) / sizeof(names[0]));
}

/* ranges as "START+LEN,..." pages; the record's own, not the file's */
/* The ranges key of a start record: first+pages,... or - for none */
static void put_page_ranges(const struct dump_out *o, const struct ft_page_range *r, unsigned n)
{
	char buf[48];

	put_key(o, "ranges");
	if (o->json)
		fputc('"', o->f);
	for (unsigned i = 0; i < n; i++) {
		snprintf(buf, sizeof(buf), "%s%llu+%llu", i ? "," : "",
			 (unsigned long long)r[i].start, (unsigned long long)r[i].len);
		fputs(buf, o->f);
	}
	if (!n)
		fputc('-', o->f);
	if (o->json)
		fputc('"', o->f);
}

static void dump_start_cache(const struct dump_out *o, const struct ft_start_cache *sc)
{
	static const char *const names[] = { "cachestat", "mincore", "no_dirty", "cut" };

	put_dev(o, "dev", sc->dev);
	put_u64(o, "ino", sc->ino);
	put_u64(o, "nr_cache", sc->nr_cache);
	put_u64(o, "nr_dirty", sc->nr_dirty);
	put_u64(o, "nr_writeback", sc->nr_writeback);
	put_u64(o, "probe_ns", sc->probe_ns);
	put_flag_names(o, sc->flags, names, sizeof(names) / sizeof(names[0]));
	put_page_ranges(o, ft_start_cache_ranges(sc), sc->nranges);
}

static void dump_start_shadows(const struct dump_out *o, const struct ft_start_shadows *ss)
{
	static const char *const names[] = { "recent", "cut" };

	put_dev(o, "dev", ss->dev);
	put_u64(o, "ino", ss->ino);
	put_u64(o, "nr_evicted", ss->nr_evicted);
	put_u64(o, "nr_recent", ss->nr_recent);
	put_u64(o, "probe_ns", ss->probe_ns);
	put_flag_names(o, ss->flags, names, sizeof(names) / sizeof(names[0]));
	put_page_ranges(o, ft_start_shadows_ranges(ss), ss->nranges);
}

static void dump_device(const struct dump_out *o, const struct ft_device *d)
{
	static const char *const names[] = { "data_journal", "dax", "sync" };

	put_dev(o, "dev", d->dev);
	put_u64(o, "ra_pages", d->ra_pages);
	put_u64(o, "io_pages", d->io_pages);
	put_u64(o, "huge", d->huge);
	put_flag_names(o, d->flags, names, sizeof(names) / sizeof(names[0]));
}

static void dump_block(const struct dump_out *o, const struct ft_block *b)
{
	static const char *const ops[] = { "unknown", "read", "write", "flush", "discard", "other" };
	static const char *const names[] = { "sync", "meta", "fua", "preflush" };

	put_dev(o, "dev", b->dev);
	put_name(o, "op", ops[b->op < sizeof(ops) / sizeof(ops[0]) ? b->op : 0]);
	put_u64(o, "sector", b->sector);
	put_u64(o, "bytes", b->bytes);
	put_flag_names(o, b->flags, names, sizeof(names) / sizeof(names[0]));
	put_u64(o, "error", b->error);
	put_u64(o, "start_ns", b->start_ns);
	put_u64(o, "issue_ns", b->issue_ns);
}

static void dump_host(const struct dump_out *o, const struct ft_host *h)
{
	put_name(o, "release", h->release);
	put_name(o, "hostname", h->hostname);
	put_u64(o, "mem_bytes", h->mem_bytes);
	put_u64(o, "memory_limit", h->memory_limit);
	put_u64(o, "page_size", h->page_size);
	put_u64(o, "ncpus", h->ncpus);
	put_u64(o, "start_realtime_ns", h->start_realtime_ns);
	put_u64(o, "start_mono_ns", h->start_mono_ns);
	put_u64(o, "dirty_background_ratio", h->dirty_background_ratio);
	put_u64(o, "dirty_ratio", h->dirty_ratio);
	put_u64(o, "dirty_background_bytes", h->dirty_background_bytes);
	put_u64(o, "dirty_bytes", h->dirty_bytes);
	put_u64(o, "dirty_expire_centisecs", h->dirty_expire_centisecs);
	put_u64(o, "dirty_writeback_centisecs", h->dirty_writeback_centisecs);
	put_u64(o, "flags", h->flags);
	put_u64(o, "ndevs", h->ndevs);
	for (__u32 i = 0; i < h->ndevs; i++) {
		const struct ft_host_dev *d = &ft_host_devs(h)[i];
		char key[32], val[96];

		snprintf(key, sizeof(key), "dev%u", i);
		snprintf(val, sizeof(val), "%u:%u,%s,%u,%s", d->dev >> 20, d->dev & 0xfffff,
			 d->fstype, d->block_size, d->name);
		put_name(o, key, val);
	}
}

static void dump_counter_names(const struct dump_out *o, const struct ft_counter_names *n)
{
	const char *p = ft_counter_names_first(n);

	put_u64(o, "source", n->source);
	put_u64(o, "count", n->count);
	put_key(o, "names");
	fputs(o->json ? "[" : "", o->f);
	for (unsigned i = 0; i < n->count; i++) {
		size_t len = strlen(p);

		/* names come from the trace: escaped like every string */
		fputs(i ? "," : "", o->f);
		put_str_value(o, p, len);
		p += len + 1;
	}
	fputs(o->json ? "]" : "", o->f);
}

static void dump_counters(const struct dump_out *o, const struct ft_counters *c)
{
	const __u64 *v = ft_counters_values(c);

	put_u64(o, "source", c->source);
	put_u64(o, "count", c->count);
	put_key(o, "values");
	fputs(o->json ? "[" : "", o->f);
	for (unsigned i = 0; i < c->count; i++)
		fprintf(o->f, "%s%" PRIu64, i ? "," : "", (uint64_t)v[i]);
	fputs(o->json ? "]" : "", o->f);
}

static void dump_fields(const struct dump_out *o, const struct ft_hdr *h)
{
	switch (h->type) {
	case FT_HOST:
		dump_host(o, (const void *)h);
		break;
	case FT_FILE: {
		const struct ft_file *f = (const void *)h;

		put_dev(o, "dev", f->dev);
		put_u64(o, "ino", f->ino);
		put_u64(o, "size", f->size);
		if (f->flags & FT_FILE_REUSED)	/* only then: older dumps stay as they were */
			put_u64(o, "reused", 1);
		if (f->flags & FT_FILE_NAMED)
			put_u64(o, "named", 1);
		put_str(o, "path", ft_file_path(f), f->path_len);
		break;
	}
	case FT_TASK: {
		const struct ft_task *t = (const void *)h;

		put_u64(o, "pid", t->pid);
		put_str(o, "comm", t->comm, sizeof(t->comm));
		if (h->size >= sizeof(*t))	/* 1.1 */
			put_u64(o, "cgroup", t->cgroup);
		break;
	}
	case FT_CGROUP: {
		const struct ft_cgroup *c = (const void *)h;

		put_u64(o, "id", c->id);
		put_str(o, "hierarchy", c->flags & FT_CG_V1 ? "v1" : "v2", 2);
		put_str(o, "path", ft_cgroup_path(c), c->path_len);
		break;
	}
	case FT_CGROUP_LIMITS: {
		const struct ft_cgroup_limits *l = (const void *)h;

		put_u64(o, "id", l->id);
		put_limit(o, "max", l->max);
		put_limit(o, "high", l->high);
		put_u64(o, "low", l->low);
		put_u64(o, "min", l->min);
		put_limit(o, "soft", l->soft);
		break;
	}
	case FT_START_CACHE:
		dump_start_cache(o, (const void *)h);
		break;
	case FT_START_SHADOWS:
		dump_start_shadows(o, (const void *)h);
		break;
	case FT_COUNTER_NAMES:
		dump_counter_names(o, (const void *)h);
		break;
	case FT_COUNTERS:
		dump_counters(o, (const void *)h);
		break;
	case FT_LOST: {
		const struct ft_lost *l = (const void *)h;

		put_u64(o, "cpu", l->cpu);
		put_name(o, "lost_type", ft_type_name(l->type));
		put_u64(o, "count", l->count);
		break;
	}
	case FT_END: {
		const struct ft_end *e = (const void *)h;

		put_u64(o, "events", e->events);
		put_u64(o, "lost", e->lost);
		break;
	}
	case FT_DEVICE:
		dump_device(o, (const void *)h);
		break;
	case FT_BLOCK:
		dump_block(o, (const void *)h);
		break;
	case FT_ACCESS: {
		const struct ft_access *a = (const void *)h;

		put_name(o, "op", ft_op_name(a->op));
		put_dev(o, "dev", a->dev);
		put_u64(o, "ino", a->ino);
		put_u64(o, "pos", a->pos);
		put_u64(o, "len", a->len);
		put_u64(o, "isize", a->isize);
		put_access_flags(o, a->flags);
		put_u64(o, "arg", a->arg);
		if (a->ofile)	/* only then: older dumps keep their lines */
			put_u64(o, "ofile", a->ofile);
		break;
	}
	case FT_PAGECACHE_ADD:
	case FT_PAGECACHE_DELETE:
	case FT_PAGECACHE_REFAULT:
	case FT_PAGECACHE_ACTIVATE:
	case FT_FOLIO_DIRTY: {
		const struct ft_folio_event *e = (const void *)h;

		put_dev(o, "dev", e->dev);
		put_u64(o, "ino", e->ino);
		put_u64(o, "index", e->index);
		put_i64(o, "order", e->order == FT_ORDER_UNKNOWN ? -1 : e->order);
		put_u64(o, "pfn", e->pfn);
		if (e->flags & FT_FE_PROACTIVE)
			put_name(o, "by", "damon");	/* only then: older dumps keep their lines */
		break;
	}
	case FT_WRITEBACK: {
		const struct ft_writeback *w = (const void *)h;

		put_u64(o, "kind", w->kind);
		put_dev(o, "dev", w->dev);
		put_u64(o, "ino", w->ino);
		put_u64(o, "index", w->index);
		put_u64(o, "nr_pages", w->nr_pages);
		put_u64(o, "reason", w->reason);
		break;
	}
	case FT_VMSCAN: {
		const struct ft_vmscan *v = (const void *)h;

		put_u64(o, "kind", v->kind);
		put_u64(o, "nid", v->nid);
		put_i64(o, "priority", v->priority);
		put_u64(o, "nr_scanned", v->nr_scanned);
		put_u64(o, "nr_reclaimed", v->nr_reclaimed);
		put_u64(o, "nr_dirty", v->nr_dirty);
		put_u64(o, "nr_writeback", v->nr_writeback);
		put_u64(o, "nr_immediate", v->nr_immediate);
		put_u64(o, "nr_activate", v->nr_activate);
		put_u64(o, "a", v->a);
		break;
	}
	case FT_READAHEAD: {
		const struct ft_readahead *r = (const void *)h;

		put_u64(o, "kind", r->kind);
		put_dev(o, "dev", r->dev);
		put_u64(o, "ino", r->ino);
		put_u64(o, "index", r->index);
		put_u64(o, "size", r->size);
		put_u64(o, "async_size", r->async_size);
		put_u64(o, "order", r->order);
		break;
	}
	default:
		put_u64(o, "type_id", h->type);
		put_u64(o, "size", h->size);
		break;
	}
}

static void dump_record(const struct dump_out *o, const struct ft_hdr *h)
{
	if (o->json)
		fprintf(o->f, "{\"ts\":%" PRIu64 ",\"type\":\"%s\",\"tid\":%u", (uint64_t)h->ts,
			ft_type_name(h->type), h->tid);
	else
		fprintf(o->f, "%" PRIu64 " %s tid=%u", (uint64_t)h->ts, ft_type_name(h->type),
			h->tid);
	dump_fields(o, h);
	fputs(o->json ? "}\n" : "\n", o->f);
}

struct dump_args {
	const char *file;
	bool json;
	long type_filter;	/* -1: all */
	struct ft_seen seen;
};

static error_t dump_parse(int key, char *arg, struct argp_state *state)
{
	struct dump_args *a = state->input;

	if (ft_option_once(&a->seen, state, key))
		return EINVAL;
	switch (key) {
	case 'f':
		if (strcmp(arg, "json") == 0)
			a->json = true;
		else if (strcmp(arg, "text") == 0)
			a->json = false;
		else
			argp_error(state, "unknown format '%s' (text or json)", arg);
		break;
	case 't':
		a->type_filter = -1;
		for (unsigned t = 1; t < FT_TYPE_MAX; t++)
			if (ft_record_min_size((__u16)t) && strcmp(ft_type_name((__u16)t), arg) == 0)
				a->type_filter = t;
		if (a->type_filter < 0)
			argp_error(state, "unknown record type '%s'", arg);
		break;
	default:
		return argp_one_operand(key, arg, state, &a->file, "trace file");
	}
	return 0;
}

int cmd_dump(int argc, char **argv)
{
	static const struct argp_option options[] = {
		{ "format", 'f', "FORMAT", 0, "text (default) or json (one JSON object a line)", 0 },
		{ "type", 't', "TYPE", 0, "only records of TYPE (access, pagecache_add, ...)", 0 },
		{ 0 }
	};
	static const struct argp argp = {
		options, dump_parse, "FILE",
		"Print every record of the trace FILE (- for stdin), one line each.", 0, 0, 0
	};
	struct dump_args args = { .type_filter = 0 };
	struct dump_out out = { .f = stdout };
	const struct ft_hdr *h;
	struct ft_reader *r;
	struct ft_error err;
	int ret;

	if (argp_parse(&argp, argc, argv, 0, NULL, &args))
		return EXIT_USAGE;
	out.json = args.json;
	r = ft_reader_open(args.file, &err);
	if (!r) {
		ft_warn("%s", err.msg);
		return EXIT_RUNTIME;
	}
	while ((ret = ft_reader_next(r, &h, &err)) == FT_READ_MORE)
		if (!args.type_filter || h->type == args.type_filter)
			dump_record(&out, h);
	if (ret == FT_READ_ERROR) {
		ft_warn("%s", err.msg);
		ret = EXIT_RUNTIME;
	} else {
		ret = ft_reader_report_end(r) ? EXIT_RUNTIME : EXIT_OK;
	}
	ft_reader_close(r);
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		ft_warn("standard output: write failed: %s", strerror(errno ? errno : EIO));
		ret = EXIT_RUNTIME;
	}
	return ret;
}
