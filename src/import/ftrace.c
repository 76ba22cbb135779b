/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ftrace text: trace_pipe / tracefs "trace", trace-cmd report and perf script lines of the
 * filemap, writeback and vmscan tracepoints. The three differ only before the event name:
 *   trace_pipe   "  dd-5704    [000] d..1.  1028.564426: writeback_dirty_folio: bdi ..."
 *   trace-cmd    "  dd-5704  [000]  1028.564426: writeback_dirty_folio: bdi ..."
 *   perf script  "  dd  5704 [000]  1028.564426: writeback:writeback_dirty_folio: bdi ..."
 * so one prefix parser finds thread, time and event, and one handler per event reads the
 * fields of its TP_printk format.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "import/textline.h"

struct ft_event_line {
	__u32 tid;
	__u64 ts;
	char event[64];
	const char *args;
};

/* "[003]": the CPU field that separates the thread from the rest. */
static const char *find_cpu_field(const char *s)
{
	for (const char *p = strchr(s, '['); p; p = strchr(p + 1, '[')) {
		const char *q = p + 1;

		while (isdigit((unsigned char)*q))
			q++;
		if (q > p + 1 && *q == ']' && (q[1] == ' ' || q[1] == '\t'))
			return p;
	}
	return NULL;
}

static const char *trim_back(const char *line, const char *end)
{
	while (end > line && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	return end;
}

/*
 * The thread id: digits ending the text before the CPU field ("comm-123" or "comm 123"), past
 * the "(  456)" thread-group column that the record-tgid option adds.
 */
static bool parse_tid(const char *line, const char *cpu, __u32 *tid)
{
	const char *end = trim_back(line, cpu), *p;
	__u64 v;

	if (end > line && end[-1] == ')') {
		while (end > line && end[-1] != '(')
			end--;
		if (end == line)
			return false;
		end = trim_back(line, end - 1);
	}
	p = end;
	while (p > line && isdigit((unsigned char)p[-1]))
		p--;
	if (p == end || p == line || (p[-1] != '-' && p[-1] != ' ' && p[-1] != '\t'))
		return false;
	if (!parse_u64_at(p, 10, &v, &end) || v > UINT32_MAX)
		return false;
	*tid = (__u32)v;
	return true;
}

/* "1028.564426:" possibly after a flags column ("d..1."); sets *after past the colon. */
static bool parse_time_column(const char *s, __u64 *ts, const char **after)
{
	const char *p = skip_spaces(s), *end;

	if (!(parse_seconds_ns(p, ts, &end) && *end == ':')) {
		while (*p && *p != ' ' && *p != '\t')	/* the irq/preempt flags */
			p++;
		p = skip_spaces(p);
		if (!(parse_seconds_ns(p, ts, &end) && *end == ':'))
			return false;
	}
	*after = end + 1;
	return true;
}

/* "system:event:" or "event:" up to the colon that ends the name. */
static bool parse_event_name(const char *s, struct ft_event_line *l)
{
	const char *p = skip_spaces(s), *start = p, *colon = NULL;
	size_t len;

	while (*p && *p != ' ' && *p != '\t') {
		if (*p == ':')
			colon = p;
		p++;
	}
	if (!colon || colon + 1 != p)
		return false;	/* the name token ends with ':' */
	for (const char *q = start; q < colon; q++)
		if (*q == ':')
			start = q + 1;	/* drop perf's "system:" */
	len = (size_t)(colon - start);
	if (!len || len >= sizeof(l->event))
		return false;
	memcpy(l->event, start, len);
	l->event[len] = '\0';
	l->args = skip_spaces(p);
	return true;
}

static const char *parse_event_line(const char *line, struct ft_event_line *l)
{
	const char *cpu = find_cpu_field(line), *rest;

	if (!cpu)
		return "no [CPU] column: not a trace_pipe, trace-cmd or perf script line";
	if (!parse_tid(line, cpu, &l->tid))
		return "no thread id before the [CPU] column";
	if (!parse_time_column(strchr(cpu, ']') + 1, &l->ts, &rest))
		return "no timestamp after the [CPU] column";
	if (!parse_event_name(rest, l))
		return "no event name after the timestamp";
	return NULL;
}

/* ---- events ---------------------------------------------------------------------------------- */

/* "dev 254:0 ino a740a1 ..." (add/delete) or "dev=254:0 ino=a740a1 ..." (get_pages, ...). */
static bool parse_dev_ino(const char *args, __u32 *dev, __u64 *ino)
{
	const char *p = args, *end;

	if (strncmp(p, "dev", 3) || (p[3] != ' ' && p[3] != '='))
		return false;
	if (!parse_devno(p + 4, dev, &end))
		return false;
	p = skip_spaces(end);
	if (strncmp(p, "ino", 3) || (p[3] != ' ' && p[3] != '='))
		return false;
	return parse_u64_at(p + 4, 16, ino, &end);
}

/* "bdi 254:0: ..." names the backing device; other bdi names (e.g. "btrfs-1") give dev 0. */
static __u32 bdi_dev(const char *args)
{
	const char *end;
	__u32 dev;

	if (strncmp(args, "bdi ", 4) == 0 && parse_devno(args + 4, &dev, &end) && *end == ':')
		return dev;
	return 0;
}

/* "key 0x1f" (iomap's layout) or "key=0x1f": a hex value after a named word. */
static bool field_hex_or_named(const char *args, const char *key, __u64 *v)
{
	size_t n = strlen(key);
	const char *end;

	for (const char *p = strstr(args, key); p; p = strstr(p + n, key)) {
		if ((p == args || p[-1] == ' ') && (p[n] == ' ' || p[n] == '='))
			return parse_u64_at(p + n + 1, 16, v, &end);
	}
	return false;
}

typedef int (*event_fn)(struct import_ctx *c, const struct ft_event_line *l);

static int folio_event(struct import_ctx *c, const struct ft_event_line *l, __u16 type)
{
	struct ft_folio_event f = { .hdr = { .type = type, .size = sizeof(f), .tid = l->tid,
					     .ts = l->ts } };
	__u64 ofs, pfn, order = 0;

	if (!parse_dev_ino(l->args, &f.dev, &f.ino) || !field_u64(l->args, "pfn", 16, &pfn) ||
	    !field_u64(l->args, "ofs", 10, &ofs))
		return import_bad(c, "%s: expected dev, ino, pfn and ofs", l->event);
	/* order= is there since about 5.17; before, the page cache held single pages. */
	if (find_field(l->args, "order") && !field_u64(l->args, "order", 10, &order))
		return import_bad(c, "%s: bad order", l->event);
	f.pfn = pfn;
	f.index = ofs / c->page_size;
	f.order = order < FT_ORDER_UNKNOWN ? (__u8)order : FT_ORDER_UNKNOWN;
	if (import_file_seen(c, l->ts, f.dev, f.ino, NULL, 0, NULL))
		return -1;
	return import_emit(c, &f);
}

static int ev_add(struct import_ctx *c, const struct ft_event_line *l)
{
	return folio_event(c, l, FT_PAGECACHE_ADD);
}

static int ev_delete(struct import_ctx *c, const struct ft_event_line *l)
{
	return folio_event(c, l, FT_PAGECACHE_DELETE);
}

/* get_pages / map_pages "ofs=START-END" and fault "ofs=START": bytes of whole pages. */
static int mapped_range_event(struct import_ctx *c, const struct ft_event_line *l, __u16 op,
			      bool range)
{
	const char *p = find_field(l->args, "ofs"), *end;
	__u64 start, last;
	__u32 dev;
	__u64 ino;

	if (!parse_dev_ino(l->args, &dev, &ino) || !p || !parse_u64_at(p, 10, &start, &end))
		return import_bad(c, "%s: expected dev, ino and ofs", l->event);
	if (range) {
		if (*end != '-' || !parse_u64_at(end + 1, 10, &last, &end) || last < start)
			return import_bad(c, "%s: expected ofs=START-END", l->event);
	} else {
		if (start > UINT64_MAX - (c->page_size - 1))
			return import_bad(c, "%s: ofs=%llu: past the largest offset", l->event,
					  (unsigned long long)start);
		last = start + c->page_size - 1;
	}
	/* the range's byte count must be a number: END + 1 past 2^64 - 1 is none */
	if (last == UINT64_MAX)
		return import_bad(c, "%s: ofs=%llu-%llu: past the largest offset", l->event,
				  (unsigned long long)start, (unsigned long long)last);
	return import_access(c, l->ts, l->tid, dev, ino, op, 0, start, last + 1 - start, 0);
}

static int ev_get_pages(struct import_ctx *c, const struct ft_event_line *l)
{
	return mapped_range_event(c, l, FT_OP_READ, true);
}

static int ev_map_pages(struct import_ctx *c, const struct ft_event_line *l)
{
	return mapped_range_event(c, l, FT_OP_MMAP_READ, true);
}

static int ev_fault(struct import_ctx *c, const struct ft_event_line *l)
{
	return mapped_range_event(c, l, FT_OP_MMAP_READ, false);
}

static int ev_dirty(struct import_ctx *c, const struct ft_event_line *l)
{
	struct ft_folio_event f = { .hdr = { .type = FT_FOLIO_DIRTY, .size = sizeof(f),
					     .tid = l->tid, .ts = l->ts },
				    .order = FT_ORDER_UNKNOWN };
	__u64 ino, index;

	/* writeback_dirty_folio prints the inode in decimal, unlike filemap's hex. */
	if (!field_u64(l->args, "ino", 10, &ino) || !field_u64(l->args, "index", 10, &index))
		return import_bad(c, "%s: expected ino and index", l->event);
	f.dev = bdi_dev(l->args);
	f.ino = ino;
	f.index = index;
	if (import_file_seen(c, l->ts, f.dev, f.ino, NULL, 0, NULL))
		return -1;
	return import_emit(c, &f);
}

static const char *const wb_reasons[] = {
	"background", "vmscan", "sync", "periodic", "laptop_timer", "fs_free_space",
	"forker_thread", "foreign_flush",
};

static __u16 wb_reason(const char *args)
{
	const char *p = find_field(args, "reason");
	__u64 v;
	const char *end;

	if (!p)
		return 0;
	if (parse_u64_at(p, 10, &v, &end))
		return (__u16)v;
	for (unsigned i = 0; i < sizeof(wb_reasons) / sizeof(wb_reasons[0]); i++) {
		size_t n = strlen(wb_reasons[i]);

		if (strncmp(p, wb_reasons[i], n) == 0 && (p[n] == '\0' || p[n] == ' '))
			return (__u16)i;
	}
	return 0;
}

static int writeback_event(struct import_ctx *c, const struct ft_event_line *l,
			   struct ft_writeback *w)
{
	w->hdr.type = FT_WRITEBACK;
	w->hdr.size = sizeof(*w);
	w->hdr.tid = l->tid;
	w->hdr.ts = l->ts;
	if (w->ino && import_file_seen(c, l->ts, w->dev, w->ino, NULL, 0, NULL))
		return -1;
	return import_emit(c, w);
}

static int ev_written(struct import_ctx *c, const struct ft_event_line *l)
{
	struct ft_writeback w = { .kind = FT_WB_WRITTEN };
	const char *p = strstr(l->args, "sb_dev "), *end;
	__u64 nr;
	__u32 dev = 0;

	if (!field_u64(l->args, "nr_pages", 10, &nr))
		return import_bad(c, "%s: expected nr_pages", l->event);
	if (!p || !parse_devno(p + 7, &dev, &end) || !dev)
		dev = bdi_dev(l->args);
	w.dev = dev;
	w.nr_pages = nr;
	w.reason = wb_reason(l->args);
	return writeback_event(c, l, &w);
}

static int ev_single_inode(struct import_ctx *c, const struct ft_event_line *l)
{
	struct ft_writeback w = { .kind = FT_WB_SINGLE_INODE };
	__u64 ino, index, wrote;

	if (!field_u64(l->args, "ino", 10, &ino) || !field_u64(l->args, "index", 10, &index) ||
	    !field_u64(l->args, "wrote", 10, &wrote))
		return import_bad(c, "%s: expected ino, index and wrote", l->event);
	w.dev = bdi_dev(l->args);
	w.ino = ino;
	w.index = index;
	w.nr_pages = wrote;
	return writeback_event(c, l, &w);
}

static int ev_wbc_writepage(struct import_ctx *c, const struct ft_event_line *l)
{
	struct ft_writeback w = { .kind = FT_WB_WRITEPAGE };

	if (strncmp(l->args, "bdi ", 4))
		return import_bad(c, "%s: expected bdi", l->event);
	w.dev = bdi_dev(l->args);
	return writeback_event(c, l, &w);
}

/*
 * iomap_writeback_folio (7.2) / iomap_writepage_map (6.12): bytes of one folio queued for
 * writeback, dirty_len where the event has it, else length; the offset as pos or offset.
 */
static int ev_iomap_writeback(struct import_ctx *c, const struct ft_event_line *l)
{
	struct ft_writeback w = { .kind = FT_WB_IOMAP };
	__u64 ino, off, bytes;

	if (!parse_dev_ino(l->args, &w.dev, &ino) ||
	    !(field_hex_or_named(l->args, "offset", &off) ||
	      field_hex_or_named(l->args, "pos", &off)) ||
	    !(field_hex_or_named(l->args, "dirty_len", &bytes) ||
	      field_hex_or_named(l->args, "length", &bytes)))
		return import_bad(c, "%s: expected dev, ino, offset and length", l->event);
	w.ino = ino;
	w.index = off / c->page_size;
	w.nr_pages = bytes;	/* bytes, as FT_WB_IOMAP defines */
	return writeback_event(c, l, &w);
}

/*
 * readahead:page_cache_* (6.18): stored as the live recorder stores them: window or request
 * start, size (nr_to_read, the window size for ra_order, req_count for sync/async), async size
 * and order.
 */
static int readahead_event(struct import_ctx *c, const struct ft_event_line *l, __u16 kind,
			   const char *size_key, const char *async_key)
{
	struct ft_readahead r = { .hdr = { .type = FT_READAHEAD, .size = sizeof(r), .tid = l->tid,
					   .ts = l->ts }, .kind = kind };
	__u64 order = 0;

	if (!parse_dev_ino(l->args, &r.dev, &r.ino) || !field_u64(l->args, "index", 10, &r.index) ||
	    !field_u64(l->args, size_key, 10, &r.size) ||
	    !field_u64(l->args, async_key, 10, &r.async_size) ||
	    (find_field(l->args, "order") && !field_u64(l->args, "order", 10, &order)))
		return import_bad(c, "%s: expected dev, ino, index, %s and %s", l->event, size_key,
				  async_key);
	r.order = order < 256 ? (__u8)order : FT_ORDER_UNKNOWN;
	if (import_file_seen(c, l->ts, r.dev, r.ino, NULL, 0, NULL))
		return -1;
	return import_emit(c, &r);
}

static int ev_ra_unbounded(struct import_ctx *c, const struct ft_event_line *l)
{
	return readahead_event(c, l, FT_RA_UNBOUNDED, "nr_to_read", "lookahead_size");
}

static int ev_ra_order(struct import_ctx *c, const struct ft_event_line *l)
{
	return readahead_event(c, l, FT_RA_ORDER, "size", "async_size");
}

static int ev_ra_sync(struct import_ctx *c, const struct ft_event_line *l)
{
	return readahead_event(c, l, FT_RA_SYNC, "req_count", "async_size");
}

static int ev_ra_async(struct import_ctx *c, const struct ft_event_line *l)
{
	return readahead_event(c, l, FT_RA_ASYNC, "req_count", "async_size");
}

/* Reclaim flags as printed ("RECLAIM_WB_FILE|RECLAIM_WB_ASYNC") or as a number. */
static __u64 reclaim_flags(const char *args)
{
	static const struct { const char *name; __u64 bit; } names[] = {
		{ "RECLAIM_WB_ANON", 0x1 }, { "RECLAIM_WB_FILE", 0x2 }, { "RECLAIM_WB_SYNC", 0x4 },
		{ "RECLAIM_WB_ASYNC", 0x8 }, { "RECLAIM_WB_MIXED", 0x10 },
	};
	const char *p = find_field(args, "flags"), *end;
	__u64 v = 0;

	if (!p)
		return 0;
	if (parse_u64_at(p, 16, &v, &end) && (p[1] == 'x' || isdigit((unsigned char)*p)))
		return v;
	v = 0;
	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const char *q = strstr(p, names[i].name);
		size_t n = strlen(names[i].name);

		if (q && (q[n] == '|' || q[n] == ' ' || q[n] == '\0'))
			v |= names[i].bit;
	}
	return v;
}

static int vmscan_event(struct import_ctx *c, const struct ft_event_line *l, struct ft_vmscan *v)
{
	v->hdr.type = FT_VMSCAN;
	v->hdr.size = sizeof(*v);
	v->hdr.tid = l->tid;
	v->hdr.ts = l->ts;
	return import_emit(c, v);
}

static const char *const lru_names[] = {
	"inactive_anon", "active_anon", "inactive_file", "active_file", "unevictable",
};

static int ev_lru_isolate(struct import_ctx *c, const struct ft_event_line *l)
{
	struct ft_vmscan v = { .kind = FT_VM_LRU_ISOLATE, .priority = -1 };
	const char *p = find_field(l->args, "lru"), *end;
	__u64 taken;

	if (!field_u64(l->args, "nr_taken", 10, &taken) || !p)
		return import_bad(c, "%s: expected nr_taken and lru", l->event);
	v.nr_scanned = taken;	/* as the live recorder stores it */
	if (!parse_u64_at(p, 10, &v.a, &end)) {
		v.a = 0;
		for (unsigned i = 0; i < sizeof(lru_names) / sizeof(lru_names[0]); i++)
			if (strncmp(p, lru_names[i], strlen(lru_names[i])) == 0)
				v.a = i;
	}
	return vmscan_event(c, l, &v);
}

static int ev_shrink_inactive(struct import_ctx *c, const struct ft_event_line *l)
{
	struct ft_vmscan v = { .kind = FT_VM_SHRINK_INACTIVE };
	__u64 nid, activate;
	__s64 prio;

	if (!field_u64(l->args, "nid", 10, &nid) ||
	    !field_u64(l->args, "nr_scanned", 10, &v.nr_scanned) ||
	    !field_u64(l->args, "nr_reclaimed", 10, &v.nr_reclaimed) ||
	    !field_u64(l->args, "nr_dirty", 10, &v.nr_dirty) ||
	    !field_u64(l->args, "nr_writeback", 10, &v.nr_writeback) ||
	    !field_u64(l->args, "nr_immediate", 10, &v.nr_immediate) ||
	    !field_s64(l->args, "priority", &prio))
		return import_bad(c, "%s: expected nid, nr_scanned, nr_reclaimed, nr_dirty, "
				  "nr_writeback, nr_immediate and priority", l->event);
	if (field_u64(l->args, "nr_activate_file", 10, &activate))
		v.nr_activate = activate;
	v.nid = (__u32)nid;
	v.priority = (__s16)prio;
	v.a = reclaim_flags(l->args);
	return vmscan_event(c, l, &v);
}

static int ev_shrink_active(struct import_ctx *c, const struct ft_event_line *l)
{
	struct ft_vmscan v = { .kind = FT_VM_SHRINK_ACTIVE };
	__u64 nid;
	__s64 prio;

	if (!field_u64(l->args, "nid", 10, &nid) ||
	    !field_u64(l->args, "nr_taken", 10, &v.nr_scanned) ||
	    !field_u64(l->args, "nr_active", 10, &v.nr_activate) ||
	    !field_u64(l->args, "nr_deactivated", 10, &v.nr_reclaimed) ||
	    !field_s64(l->args, "priority", &prio))
		return import_bad(c, "%s: expected nid, nr_taken, nr_active, nr_deactivated and "
				  "priority", l->event);
	v.nid = (__u32)nid;
	v.priority = (__s16)prio;
	v.a = reclaim_flags(l->args);
	return vmscan_event(c, l, &v);
}

static int ev_write_folio(struct import_ctx *c, const struct ft_event_line *l)
{
	struct ft_vmscan v = { .kind = FT_VM_WRITE_FOLIO, .priority = -1 };

	if (!field_u64(l->args, "pfn", 16, &v.a))
		return import_bad(c, "%s: expected pfn", l->event);
	return vmscan_event(c, l, &v);
}

static int ev_kswapd_wake(struct import_ctx *c, const struct ft_event_line *l)
{
	struct ft_vmscan v = { .kind = FT_VM_KSWAPD_WAKE, .priority = -1 };
	__u64 nid;

	if (!field_u64(l->args, "nid", 10, &nid) || !field_u64(l->args, "order", 10, &v.a))
		return import_bad(c, "%s: expected nid and order", l->event);
	v.nid = (__u32)nid;
	return vmscan_event(c, l, &v);
}

/* Direct reclaim, global or within a memory cgroup: a = the allocation order. */
static int ev_direct_reclaim(struct import_ctx *c, const struct ft_event_line *l)
{
	struct ft_vmscan v = { .kind = FT_VM_DIRECT_RECLAIM, .priority = -1 };

	if (!field_u64(l->args, "order", 10, &v.a))
		return import_bad(c, "%s: expected order", l->event);
	return vmscan_event(c, l, &v);
}

static const struct {
	const char *name;
	event_fn fn;
} ftrace_events[] = {
	{ "mm_filemap_add_to_page_cache", ev_add },
	{ "mm_filemap_delete_from_page_cache", ev_delete },
	{ "mm_filemap_get_pages", ev_get_pages },
	{ "mm_filemap_map_pages", ev_map_pages },
	{ "mm_filemap_fault", ev_fault },
	{ "writeback_dirty_folio", ev_dirty },
	{ "writeback_dirty_page", ev_dirty },
	{ "writeback_written", ev_written },
	{ "writeback_single_inode", ev_single_inode },
	{ "wbc_writepage", ev_wbc_writepage },
	{ "mm_vmscan_lru_isolate", ev_lru_isolate },
	{ "mm_vmscan_lru_shrink_inactive", ev_shrink_inactive },
	{ "mm_vmscan_lru_shrink_active", ev_shrink_active },
	{ "mm_vmscan_write_folio", ev_write_folio },
	{ "mm_vmscan_kswapd_wake", ev_kswapd_wake },
	{ "mm_vmscan_wakeup_kswapd", ev_kswapd_wake },
	{ "mm_vmscan_direct_reclaim_begin", ev_direct_reclaim },
	{ "mm_vmscan_memcg_reclaim_begin", ev_direct_reclaim },
	{ "iomap_writeback_folio", ev_iomap_writeback },
	{ "iomap_writepage_map", ev_iomap_writeback },
	{ "page_cache_ra_unbounded", ev_ra_unbounded },
	{ "page_cache_ra_order", ev_ra_order },
	{ "page_cache_sync_ra", ev_ra_sync },
	{ "page_cache_async_ra", ev_ra_async },
};

/* "CPU:1 [LOST 123 EVENTS]" (trace_pipe, trace-cmd): the kernel's ring buffer overflowed. */
static bool lost_line(struct import_ctx *c, const char *line, int *ret)
{
	struct ft_lost l = { .hdr = { .type = FT_LOST, .size = sizeof(l) } };
	const char *p = strstr(line, "[LOST "), *end;
	__u64 cpu = 0, n;

	if (strncmp(line, "CPU:", 4) || !p || !parse_u64_at(p + 6, 10, &n, &end))
		return false;
	parse_u64_at(line + 4, 10, &cpu, &end);
	l.cpu = (__u32)cpu;
	l.count = n;
	*ret = import_emit(c, &l);
	return true;
}

/* Lines that carry no event but belong to the formats: headers and comments. */
static bool known_noise(const char *line)
{
	return *line == '\0' || *line == '#' || strncmp(line, "cpus=", 5) == 0 ||
	       (strncmp(line, "CPU ", 4) == 0 && strstr(line, " is empty"));
}

static int ftrace_line(struct import_ctx *c, const char *raw)
{
	const char *line = skip_spaces(raw), *why;
	struct ft_event_line l;
	int ret;

	if (known_noise(line)) {
		c->ignored++;
		return 0;
	}
	if (lost_line(c, line, &ret)) {
		c->used++;
		return ret;
	}
	why = parse_event_line(line, &l);
	if (why)
		return import_bad(c, "%s", why);
	for (unsigned i = 0; i < sizeof(ftrace_events) / sizeof(ftrace_events[0]); i++) {
		if (strcmp(l.event, ftrace_events[i].name) == 0) {
			__u64 bad = c->bad;

			ret = ftrace_events[i].fn(c, &l);
			if (c->bad == bad && ret == 0)
				c->used++;
			return ret;
		}
	}
	return import_bad(c, "unsupported event %s", l.event);
}

static int ftrace_each_line(struct import_ctx *c, void *arg, char *line)
{
	return ftrace_line(c, line);
}

int import_ftrace(struct import_ctx *c, FILE *in)
{
	return import_each_line(c, in, ftrace_each_line, NULL);
}
