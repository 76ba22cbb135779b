/* SPDX-License-Identifier: GPL-2.0-or-later */
/* ftrace line parser: every field of every supported event, in the three line layouts. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "tap.h"

#define MAX_RECS 16

struct rec_sink {
	unsigned n, files;
	unsigned char recs[MAX_RECS][128];
};

static int keep_append(void *ctx, const void *rec, struct ft_error *err)
{
	struct rec_sink *s = ctx;
	const struct ft_hdr *h = rec;

	if (s->n < MAX_RECS && h->size <= sizeof(s->recs[0]))
		memcpy(s->recs[s->n++], rec, h->size);
	return 0;
}

static int keep_file(void *ctx, __u64 ts, __u32 dev, __u64 ino, __u64 size, const char *path,
		     struct ft_error *err)
{
	((struct rec_sink *)ctx)->files++;
	return 0;
}

/* Imports text; returns the bad-line count, records in *s. */
static uint64_t import_text(const char *text, struct rec_sink *s)
{
	struct ft_sink sink = { keep_append, keep_file, NULL, s };
	struct ft_error err = { "" };
	struct import_ctx c;
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	uint64_t bad;

	memset(s, 0, sizeof(*s));
	import_ctx_init(&c, &sink, "test", &err);
	import_ftrace(&c, in);
	bad = c.bad;
	import_ctx_free(&c);
	fclose(in);
	return bad;
}

static const void *only_record(const char *text, __u16 type, struct rec_sink *s)
{
	const struct ft_hdr *h;

	if (import_text(text, s) != 0 || s->n != 1) {
		diag("%u records from: %s", s->n, text);
		return NULL;
	}
	h = (const void *)s->recs[0];
	return h->type == type ? h : NULL;
}

static void test_layouts(void)
{
	static const char *const lines[] = {
		"  dd-5704    [000] d..1.  1028.564426: mm_filemap_add_to_page_cache: dev 254:0 "
		"ino a740a1 pfn=0x115390 ofs=65536 order=4\n",
		"        dd-5704  [000]  1028.564426: mm_filemap_add_to_page_cache: dev 254:0 "
		"ino a740a1 pfn=0x115390 ofs=65536 order=4\n",
		"  dd  5704 [000]  1028.564426:   filemap:mm_filemap_add_to_page_cache: dev 254:0 "
		"ino a740a1 pfn=0x115390 ofs=65536 order=4\n",
		"  kworker/u8:1-5704 [000] 1028.564426001: mm_filemap_add_to_page_cache: dev 254:0 "
		"ino a740a1 pfn=0x115390 ofs=65536 order=4\n",
		"  dd-5704    (   5700) [000] .....  1028.564426: mm_filemap_add_to_page_cache: "
		"dev 254:0 ino a740a1 pfn=0x115390 ofs=65536 order=4\n",
		"inst:   dd-5704  [000]  1028.564426: mm_filemap_add_to_page_cache: dev 254:0 "
		"ino a740a1 pfn=0x115390 ofs=65536 order=4\n",
	};
	static const char *const names[] = { "trace_pipe", "trace-cmd", "perf script",
					     "comm with ':' and ns time", "record-tgid column",
					     "trace-cmd instance prefix" };
	struct rec_sink s;

	for (unsigned i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		const struct ft_folio_event *f = only_record(lines[i], FT_PAGECACHE_ADD, &s);

		ok(f != NULL, "%s: one pagecache_add", names[i]);
		if (!f)
			continue;
		is_u64(f->hdr.tid, 5704, "tid");
		is_u64(f->hdr.ts, i == 3 ? 1028564426001ull : 1028564426000ull, "ts in ns");
		is_u64(f->dev, (254u << 20) | 0, "dev 254:0 in kernel encoding");
		is_u64(f->ino, 0xa740a1, "ino parsed as hex");
		is_u64(f->index, 16, "index = ofs / 4096");
		is_u64(f->pfn, 0x115390, "pfn");
		is_u64(f->order, 4, "order");
		is_u64(s.files, 1, "file record before it");
	}
}

static void test_accesses(void)
{
	struct rec_sink s;
	const struct ft_access *a;

	a = only_record("cat-9 [001] 2.5: mm_filemap_get_pages: dev=8:3 ino=1f ofs=8192-131071\n",
			FT_ACCESS, &s);
	ok(a && a->op == FT_OP_READ && a->pos == 8192 && a->len == 131072 - 8192 &&
	   a->ino == 0x1f && a->dev == ((8u << 20) | 3) && a->isize == 131072,
	   "get_pages: read of pages 2..31, isize estimate 128K");
	a = only_record("py-9 [001] 2.5: mm_filemap_map_pages: dev=8:3 ino=1f ofs=0-65535\n",
			FT_ACCESS, &s);
	ok(a && a->op == FT_OP_MMAP_READ && a->pos == 0 && a->len == 65536,
	   "map_pages: mmap read of 16 pages");
	a = only_record("py-9 [001] 2.5: mm_filemap_fault: dev=8:3 ino=1f ofs=12288\n",
			FT_ACCESS, &s);
	ok(a && a->op == FT_OP_MMAP_READ && a->pos == 12288 && a->len == 4096,
	   "fault: mmap read of one page");
}

static void test_writeback(void)
{
	struct rec_sink s;
	const struct ft_folio_event *f;
	const struct ft_writeback *w;

	f = only_record("dd-1 [000] 1.0: writeback_dirty_folio: bdi 254:0: ino=10961057 index=7\n",
			FT_FOLIO_DIRTY, &s);
	ok(f && f->ino == 10961057 && f->index == 7 && f->dev == (254u << 20) &&
	   f->order == FT_ORDER_UNKNOWN, "dirty: decimal ino, index, bdi dev, order unknown");
	w = only_record("kw-2 [000] 1.0: writeback_written: bdi 254:0: sb_dev 0:0 nr_pages=1231 "
			"sync_mode=0 kupdate=0 range_cyclic=1 background=0 reason=vmscan "
			"cgroup_ino=1\n", FT_WRITEBACK, &s);
	ok(w && w->kind == FT_WB_WRITTEN && w->nr_pages == 1231 && w->reason == 1 &&
	   w->dev == (254u << 20) && w->ino == 0, "written: pages, reason vmscan = 1, bdi dev");
	w = only_record("kw-2 [000] 1.0: writeback_single_inode: bdi 254:0: ino=10961057 "
			"state=I_SYNC dirtied_when=4295149371 age=1 index=112 to_write=1024 "
			"wrote=112 cgroup_ino=1\n", FT_WRITEBACK, &s);
	ok(w && w->kind == FT_WB_SINGLE_INODE && w->nr_pages == 112 && w->index == 112 &&
	   w->ino == 10961057, "single_inode: wrote pages, index, ino");
}

static void test_vmscan(void)
{
	struct rec_sink s;
	const struct ft_vmscan *v;

	v = only_record("dd-1 [000] 1.0: mm_vmscan_lru_shrink_inactive: nid=0 nr_scanned=32 "
			"nr_reclaimed=30 nr_dirty=1 nr_writeback=2 nr_congested=0 nr_immediate=3 "
			"nr_activate_anon=0 nr_activate_file=4 nr_ref_keep=0 nr_unmap_fail=0 "
			"priority=7 flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n", FT_VMSCAN, &s);
	ok(v && v->kind == FT_VM_SHRINK_INACTIVE && v->nr_scanned == 32 &&
	   v->nr_reclaimed == 30 && v->nr_dirty == 1 && v->nr_writeback == 2 &&
	   v->nr_immediate == 3 && v->nr_activate == 4 && v->priority == 7 && v->a == 0xa,
	   "shrink_inactive: all counts, priority, flags FILE|ASYNC = 0xa");
	v = only_record("cat-1 [000] 1.0: mm_vmscan_lru_shrink_active: nid=1 nr_taken=9 "
			"nr_active=2 nr_deactivated=7 nr_referenced=0 priority=5 "
			"flags=RECLAIM_WB_FILE|RECLAIM_WB_ASYNC\n", FT_VMSCAN, &s);
	ok(v && v->kind == FT_VM_SHRINK_ACTIVE && v->nid == 1 && v->nr_scanned == 9 &&
	   v->nr_reclaimed == 7 && v->nr_activate == 2 && v->priority == 5,
	   "shrink_active: taken, deactivated, active as the recorder stores them");
	v = only_record("dd-1 [000] 1.0: mm_vmscan_lru_isolate: classzone=4 order=0 "
			"nr_requested=32 nr_scanned=40 nr_skipped=0 nr_taken=31 lru=active_file\n",
			FT_VMSCAN, &s);
	ok(v && v->kind == FT_VM_LRU_ISOLATE && v->nr_scanned == 31 && v->a == 3,
	   "lru_isolate: nr_taken, lru active_file = 3");
	v = only_record("dd-1 [000] 1.0: mm_vmscan_memcg_reclaim_begin: order=2 "
			"gfp_flags=GFP_NOFS\n", FT_VMSCAN, &s);
	ok(v && v->kind == FT_VM_DIRECT_RECLAIM && v->a == 2, "memcg reclaim begin: order 2");
	v = only_record("k-1 [000] 1.0: mm_vmscan_wakeup_kswapd: nid=0 order=9 gfp_flags=none\n",
			FT_VMSCAN, &s);
	ok(v && v->kind == FT_VM_KSWAPD_WAKE && v->a == 9, "wakeup_kswapd: order 9");
}

static void test_readahead_iomap(void)
{
	struct rec_sink s;
	const struct ft_readahead *r;
	const struct ft_writeback *w;

	r = only_record("cat-2 [001] 6.0: page_cache_sync_ra: dev=8:1 ino=1f index=5 req_count=2 "
			"order=0 size=4 async_size=3 ra_pages=32 mmap_miss=0 prev_pos=-1\n",
			FT_READAHEAD, &s);
	ok(r && r->kind == FT_RA_SYNC && r->ino == 0x1f && r->index == 5 && r->size == 2 &&
	   r->async_size == 3 && r->order == 0, "sync_ra: index, req_count as size, async size");
	r = only_record("cat-2 [001] 6.0: page_cache_ra_order: dev=8:1 ino=1f index=4 order=2 "
			"size=8 async_size=8 ra_pages=32\n", FT_READAHEAD, &s);
	ok(r && r->kind == FT_RA_ORDER && r->size == 8 && r->async_size == 8 && r->order == 2,
	   "ra_order: window size, async size, order");
	r = only_record("cat-2 [001] 6.0: page_cache_ra_unbounded: dev=8:1 ino=1f index=0 "
			"nr_to_read=4 lookahead_size=3\n", FT_READAHEAD, &s);
	ok(r && r->kind == FT_RA_UNBOUNDED && r->size == 4 && r->async_size == 3,
	   "ra_unbounded: nr_to_read, lookahead");
	w = only_record("xfs-1 [000] 5.0: iomap_writeback_folio: dev 253:0 ino 0x83 size 0x100000 "
			"offset 0x2000 length 0x3000\n", FT_WRITEBACK, &s);
	ok(w && w->kind == FT_WB_IOMAP && w->ino == 0x83 && w->index == 2 &&
	   w->nr_pages == 0x3000 && w->dev == (253u << 20), "iomap_writeback_folio: bytes queued");
}

static void test_bad(void)
{
	struct rec_sink s;

	is_u64(import_text("# tracer: nop\ncpus=2\n\n", &s), 0, "comments and headers are not bad");
	is_u64(s.n, 0, "... and make no records");
	is_u64(import_text("garbage\n", &s), 1, "a line without [CPU] is bad");
	is_u64(import_text("a-1 [000] 1.0: sched_switch: x=1\n", &s), 1,
	       "an unsupported event is counted as bad");
	is_u64(import_text("a-1 [000] 1.0: mm_filemap_fault: dev=8:3 ino=zz ofs=1\n", &s), 1,
	       "a supported event with bad fields is bad");
	is_u64(s.n, 0, "... and makes no record");
	is_u64(import_text("CPU:3 [LOST 7 EVENTS]\n", &s), 0, "a LOST line is not bad");
	ok(s.n == 1 && ((struct ft_lost *)s.recs[0])->count == 7 &&
	   ((struct ft_lost *)s.recs[0])->cpu == 3, "LOST line: lost record, cpu 3, 7 events");
}

int main(void)
{
	test_layouts();
	test_accesses();
	test_writeback();
	test_vmscan();
	test_readahead_iomap();
	test_bad();
	return done_testing();
}
