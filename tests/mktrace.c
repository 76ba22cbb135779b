/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mktrace [KIND] FILE: writes a small hand-made trace for the CLI tests.
 *   sample     one record of every type (tests/sample-trace.c), the default
 *   empty      a host record and nothing else
 *   counters   a host record and counter samples, no accesses
 *   truncated  1 MiB written to a file, then the file truncated to zero
 *   units      two files, two processes (one of two threads), the kernel's events for each:
 *              process 100 reads /data/seq (64 MiB) front to back in 128 KiB reads; process
 *              200 reads 64 distinct pages of /data/rand (8 MiB) at random in its last 6 MiB
 *              (thread 201), then writes 4 KiB at every 16th page of its first 1 MiB and
 *              fsyncs it (thread 200)
 *   units-unrecorded  units recorded (the host record says) by a kernel without the
 *              page-cache, dirtying and iomap writeback tracepoints
 *   units-cgroup  units with the tasks' memory cgroups: 100 in /batch (id 3001) for its
 *              first 256 reads, then (after an exec) in cgroup 3003, removed before the
 *              recorder could name it; 200 and 201 in /web (id 3002)
 *   memcgs     two memory cgroups: thread 10 in /ft/a (id 4001, memory.max 32 KiB) reads
 *              pages 0-15 of /data/a one at a time, then thread 20 in /ft/b (id 4002, no
 *              limit) pages 0-15 of /data/b
 *   memcg-charges  memcgs with the kernel's page-cache events of /ft/a: thread 10 caches
 *              each page as it reads it; before it reads page 4, thread 11 (also in /ft/a,
 *              which cached nothing) isolates folios for reclaim, and before page 6 thread 10
 *              does, with 6 pages cached: 2 pages of /ft/a's 8 held by others
 *   memcg-dirty  two memory cgroups (cgroup v2): thread 30 in /ft/w (id 4101, memory.max 4 MiB)
 *              writes /data/w's 768 pages one at a time, 1 ms apart, and fsyncs it at 2 s;
 *              thread 40 in /ft/r (id 4102, no limit) reads a page of /data/a
 *   memcg-dirty-v1  the same in the v1 memory hierarchy
 *   memcg-limits  memcgs (cgroup v2) whose limits are written: /ft/a's memory.max 64 KiB, then 32 KiB
 *              before the first access; after the reads, at 1 s, /ft/a's max 16 KiB, then its
 *              memory.high 8 KiB, then /ft/b's max 8 KiB; a read of /ft/a's at 2 s
 *   nfs        one file on an nfs4 mount, recorded by 6.18: written 2 MiB at once at 1 ms and
 *              fsynced, then 4 KiB at 0, 8 KiB, 12 KiB and 1 MiB 10 ms apart from 100 ms,
 *              fsynced at 140 ms
 * and traces as damaged as an attacker can make them, each a valid container:
 *   ts-max     writes, then an access at the last nanosecond of time (2^64 - 1), then more
 *   ts-random  400 accesses of 4 files and 100 page-cache insertions, at random 64-bit
 *              times (seed fixed): calibrate has kernel events to compare with
 *   ts-back    100 accesses; every tenth 2 s before the one it follows
 *   huge       a 1 TiB read, an access ending past 2^63 and a write of MAX_RW_COUNT + 1
 *              bytes among 8 good accesses, and a file record claiming 2^64 - 1 bytes
 *   escapes    terminal escapes, quotes and a C1 control in every string a trace carries:
 *              hostname, release, fstype, device name, path, counter names, command,
 *              cgroup path; a kernel event
 *              so that calibrate reads it
 */
#include <stdio.h>
#include <string.h>

#include "sample-trace.h"
#include "util/rng.h"

static const struct ft_host host = {
	.hdr = { .ts = 1000 }, .mem_bytes = 1ull << 30, .page_size = 4096, .ncpus = 2,
	.dirty_background_ratio = 10, .dirty_ratio = 20, .dirty_expire_centisecs = 3000,
	.dirty_writeback_centisecs = 500, .release = "6.18.0-test", .hostname = "testhost",
};

static int write_counters(struct ft_writer *w, struct ft_error *err)
{
	static const char *const names[] = { "nr_dirtied", "nr_written" };

	if (ft_writer_host(w, &host, NULL, err) ||
	    ft_writer_counter_names(w, 1000, FT_SRC_VMSTAT, 2, names, err))
		return -1;
	for (__u64 s = 0; s < 5; s++) {
		const __u64 v[2] = { 100 + s, 90 + s };

		if (ft_writer_counters(w, 1000 + s * 1000000000ull, FT_SRC_VMSTAT, 2, v, err))
			return -1;
	}
	return 0;
}

/* 256 writes of 4 KiB (1 MiB) at t = 1 ms.., then truncate to 0 before any writeback. */
static int write_truncated(struct ft_writer *w, struct ft_error *err)
{
	struct ft_access a = { .hdr = { .type = FT_ACCESS, .size = sizeof(a), .tid = 5 },
			       .ino = 7, .dev = 254u << 20, .op = FT_OP_WRITE, .len = 4096 };

	if (ft_writer_host(w, &host, NULL, err) ||
	    ft_writer_file(w, 1000, 254u << 20, 7, 0, "/data/f", err))
		return -1;
	for (unsigned i = 0; i < 256; i++) {
		a.hdr.ts = 1000000ull * (i + 1);
		a.pos = 4096ull * i;
		a.isize = a.pos + 4096;
		if (ft_writer_append(w, &a, err))
			return -1;
	}
	a.hdr.ts = 300000000ull;
	a.op = FT_OP_TRUNCATE;
	a.pos = a.len = a.isize = 0;
	return ft_writer_append(w, &a, err);
}

static int append_access(struct ft_writer *w, __u64 ts, __u64 ino, __u16 op, __u64 pos,
			 __u64 len, struct ft_error *err)
{
	struct ft_access a = { .hdr = { .type = FT_ACCESS, .size = sizeof(a), .tid = 5, .ts = ts },
			       .ino = ino, .dev = 254u << 20, .op = op, .pos = pos, .len = len,
			       .isize = pos + len };

	return ft_writer_append(w, &a, err);
}

static int append_task(struct ft_writer *w, __u32 tid, __u32 pid, const char *comm,
		       __u64 cgroup, struct ft_error *err)
{
	struct ft_task t = { .hdr = { .type = FT_TASK, .size = sizeof(t), .tid = tid, .ts = 1000 },
			     .pid = pid, .cgroup = cgroup };

	snprintf(t.comm, sizeof(t.comm), "%s", comm);
	return ft_writer_append(w, &t, err);
}

static int append_unit_access(struct ft_writer *w, __u32 tid, __u64 ts, __u64 ino, __u16 op,
			      __u64 pos, __u64 len, __u64 isize, struct ft_error *err)
{
	struct ft_access a = { .hdr = { .type = FT_ACCESS, .size = sizeof(a), .tid = tid,
					.ts = ts }, .ino = ino, .dev = 254u << 20, .op = op,
			       .pos = pos, .len = len, .isize = isize };

	return ft_writer_append(w, &a, err);
}

static int append_add(struct ft_writer *w, __u32 tid, __u64 ts, __u64 ino, __u64 index,
		      __u8 order, struct ft_error *err)
{
	struct ft_folio_event fe = { .hdr = { .type = FT_PAGECACHE_ADD, .size = sizeof(fe),
					      .tid = tid, .ts = ts }, .ino = ino, .index = index,
				     .dev = 254u << 20, .order = order };

	return ft_writer_append(w, &fe, err);
}

/*
 * The units trace; with_cgroups: its tasks' memory cgroups too; unrecorded: the host's
 * FT_UNREC_* (its events are written all the same: what reads the trace must leave them out).
 */
static int write_units_trace(struct ft_writer *w, bool with_cgroups, __u16 unrecorded,
			     struct ft_error *err)
{
	const __u64 batch = with_cgroups ? 3001 : 0, web = with_cgroups ? 3002 : 0;
	struct ft_host h = host;
	struct ft_host_dev dev = { .dev = 254u << 20, .block_size = 4096, .fstype = "xfs",
				   .name = "/dev/vdb" };
	struct ft_writeback wb = { .hdr = { .type = FT_WRITEBACK, .size = sizeof(wb), .tid = 200,
					    .ts = 721000000 }, .ino = 11, .nr_pages = 65536,
				   .dev = 254u << 20, .kind = FT_WB_IOMAP };
	__u64 ts;

	h.ndevs = 1;
	h.unrecorded = unrecorded;
	if (ft_writer_host(w, &h, &dev, err) ||
	    (with_cgroups && (ft_writer_cgroup(w, 1000, batch, FT_CG_V1, "/batch", err) ||
			      ft_writer_cgroup(w, 1000, web, FT_CG_V1, "/web", err))) ||
	    append_task(w, 100, 100, "reader", batch, err) ||
	    append_task(w, 200, 200, "writer", web, err) ||
	    append_task(w, 201, 200, "writer", web, err) ||
	    ft_writer_file(w, 1000, 254u << 20, 10, 64u << 20, "/data/seq", err) ||
	    ft_writer_file(w, 1000, 254u << 20, 11, 8u << 20, "/data/rand", err))
		return -1;
	for (__u64 i = 0; i < 512; i++) {
		ts = 1000000 * (i + 1);
		if (with_cgroups && i == 256 &&
		    (ft_writer_cgroup(w, ts, 3003, FT_CG_V1, "", err) ||
		     append_task(w, 100, 100, "reader", 3003, err)))
			return -1;
		if (append_unit_access(w, 100, ts, 10, FT_OP_READ, i << 17, 1u << 17, 64u << 20,
				       err) ||
		    (i % 16 == 0 && append_add(w, 100, ts, 10, i << 5, 9, err)))
			return -1;
	}
	for (__u64 i = 0; i < 64; i++) {
		__u64 page = 512 + i * 37 % 1536;

		ts = 600000000 + 1000000 * i;
		if (append_unit_access(w, 201, ts, 11, FT_OP_READ, page << 12, 4096, 8u << 20,
				       err) ||
		    append_add(w, 201, ts, 11, page, 0, err))
			return -1;
	}
	for (__u64 k = 0; k < 16; k++) {
		ts = 700000000 + 1000000 * k;
		if (append_unit_access(w, 200, ts, 11, FT_OP_WRITE, k << 16, 4096, 8u << 20,
				       err) ||
		    append_add(w, 200, ts, 11, k << 4, 0, err))
			return -1;
	}
	return append_unit_access(w, 200, 720000000, 11, FT_OP_FSYNC, 0, 0, 8u << 20, err) ||
	       ft_writer_append(w, &wb, err);
}

static int append_proactive_deletes(struct ft_writer *w, struct ft_error *err)
{
	for (__u64 page = 0; page < 16; page++) {
		struct ft_folio_event fe = {
			.hdr = { .type = FT_PAGECACHE_DELETE, .size = sizeof(fe), .tid = 0,
				 .ts = 150000000 + page }, .ino = 20, .index = page,
			.dev = 254u << 20, .order = 0, .flags = FT_FE_PROACTIVE };

		if (ft_writer_append(w, &fe, err))
			return -1;
	}
	return 0;
}

/*
 * 64 pages of a file read one by one, 16 of them (0 to 15) then deleted by the kernel's DAMON
 * pageout (FT_FE_PROACTIVE, no traced task), and the 64 read again.
 */
static int write_proactive(struct ft_writer *w, struct ft_error *err)
{
	struct ft_host h = host;
	struct ft_host_dev dev = { .dev = 254u << 20, .block_size = 4096, .fstype = "ext4",
				   .name = "/dev/vda" };

	h.ndevs = 1;
	if (ft_writer_host(w, &h, &dev, err) || append_task(w, 100, 100, "reader", 0, err) ||
	    ft_writer_file(w, 1000, 254u << 20, 20, 1u << 20, "/data/cold", err))
		return -1;
	for (__u64 i = 0; i < 128; i++) {
		__u64 ts = (i < 64 ? 1000000 : 200000000) + 1000000 * i, page = i % 64;

		if (i == 64 && append_proactive_deletes(w, err))
			return -1;
		if (append_unit_access(w, 100, ts, 20, FT_OP_READ, page << 12, 4096, 1u << 20,
				       err) ||
		    (i < 64 && append_add(w, 100, ts, 20, page, 0, err)))
			return -1;
	}
	return 0;
}

static int append_folio_event(struct ft_writer *w, __u16 type, __u64 ts, __u64 index,
			      __u8 order, struct ft_error *err)
{
	struct ft_folio_event fe = { .hdr = { .type = type, .size = sizeof(fe), .tid = 0, .ts = ts },
				     .ino = 30, .index = index, .dev = 254u << 20, .order = order };

	return ft_writer_append(w, &fe, err);
}

/*
 * A 4 MiB file whose pages [0, 256) and [512, 1024) were cached before the trace, clean; the
 * kernel inserts pages 20-23 (an order-2 folio: they were not
 * cached after all), then the trace's POSIX_FADV_DONTNEED of the whole file deletes folios
 * (0, order 4), (16, 2), (20, 2), (240, 4), (512, 9) and (256, 8), of which all but (20, 2)
 * (inserted in the trace) and (256, 8) (no start pages) are start folios; then a page is read.
 * dirty: the last 16 of the cached pages were dirty at the start.
 */
static int write_startfolios_trace(struct ft_writer *w, bool dirty, struct ft_error *err)
{
	static const struct { __u64 index; __u8 order; } deletes[] = {
		{ 0, 4 }, { 16, 2 }, { 20, 2 }, { 240, 4 }, { 512, 9 }, { 256, 8 },
	};
	const struct ft_page_range ranges[] = { { 0, 256 }, { 512, 512 } };
	struct ft_start_cache sc = { .hdr = { .ts = 1000000, .tid = 100 }, .ino = 30,
				     .dev = 254u << 20, .nr_cache = 768,
				     .flags = FT_SC_CACHESTAT | FT_SC_MINCORE };
	struct ft_access advice = { .hdr = { .type = FT_ACCESS, .size = sizeof(advice), .tid = 100,
					     .ts = 3000000 }, .ino = 30, .dev = 254u << 20,
				    .op = FT_OP_FADVISE, .pos = 0, .len = 0, .isize = 4u << 20,
				    .arg = 4 /* POSIX_FADV_DONTNEED */ };
	struct ft_host h = host;
	struct ft_host_dev dev = { .dev = 254u << 20, .block_size = 4096, .fstype = "ext4",
				   .name = "/dev/vda" };

	h.ndevs = 1;
	sc.nr_dirty = dirty ? 16 : 0;
	if (ft_writer_host(w, &h, &dev, err) || append_task(w, 100, 100, "reader", 0, err) ||
	    ft_writer_file(w, 1000, 254u << 20, 30, 4u << 20, "/data/warm", err) ||
	    ft_writer_start_cache(w, &sc, ranges, 2, err) ||
	    append_folio_event(w, FT_PAGECACHE_ADD, 2000000, 20, 2, err) ||
	    ft_writer_append(w, &advice, err))
		return -1;
	for (size_t i = 0; i < sizeof(deletes) / sizeof(deletes[0]); i++)
		if (append_folio_event(w, FT_PAGECACHE_DELETE, 3000000 + i, deletes[i].index,
				       deletes[i].order, err))
			return -1;
	return append_unit_access(w, 100, 4000000, 30, FT_OP_READ, 0, 4096, 4u << 20, err);
}

static int write_startfolios(struct ft_writer *w, struct ft_error *err)
{
	return write_startfolios_trace(w, false, err);
}

static int write_startfolios_dirty(struct ft_writer *w, struct ft_error *err)
{
	return write_startfolios_trace(w, true, err);
}

static int write_units(struct ft_writer *w, struct ft_error *err)
{
	return write_units_trace(w, false, 0, err);
}

static int write_units_unrecorded(struct ft_writer *w, struct ft_error *err)
{
	return write_units_trace(w, false, FT_UNREC_PAGECACHE | FT_UNREC_DIRTY | FT_UNREC_IOMAP_WB,
				 err);
}

static int write_units_cgroup(struct ft_writer *w, struct ft_error *err)
{
	return write_units_trace(w, true, 0, err);
}

static int append_isolate(struct ft_writer *w, __u32 tid, __u64 ts, struct ft_error *err)
{
	struct ft_vmscan v = { .hdr = { .type = FT_VMSCAN, .size = sizeof(v), .tid = tid,
					.ts = ts }, .kind = FT_VM_LRU_ISOLATE, .nr_scanned = 32,
			       .a = 2, .priority = -1 };

	return ft_writer_append(w, &v, err);
}

/*
 * memcgs in hierarchy flags; /ft/a's limit first_max_a before its 32 KiB one when not 0;
 * charges: with the kernel's events of memcg-charges
 */
static int write_memcgs_from(struct ft_writer *w, __u16 flags, __u64 first_max_a, bool charges,
			     struct ft_error *err)
{
	struct ft_cgroup_limits a = { .hdr = { .type = FT_CGROUP_LIMITS, .size = sizeof(a),
					       .ts = 1000 }, .id = 4001, .max = first_max_a,
				      .high = FT_LIMIT_NONE, .soft = FT_LIMIT_NONE };
	struct ft_cgroup_limits b = a;

	b.id = 4002;
	b.max = FT_LIMIT_NONE;
	if (ft_writer_host(w, &host, NULL, err) ||
	    (first_max_a && ft_writer_append(w, &a, err)))
		return -1;
	a.max = 32768;
	if (ft_writer_cgroup(w, 1000, 4001, flags, "/ft/a", err) ||
	    ft_writer_append(w, &a, err) ||
	    ft_writer_cgroup(w, 1000, 4002, flags, "/ft/b", err) ||
	    ft_writer_append(w, &b, err) ||
	    append_task(w, 10, 10, "a", 4001, err) || append_task(w, 20, 20, "b", 4002, err) ||
	    (charges && append_task(w, 11, 10, "a", 4001, err)) ||
	    ft_writer_file(w, 1000, 254u << 20, 1, 1u << 20, "/data/a", err) ||
	    ft_writer_file(w, 1000, 254u << 20, 2, 1u << 20, "/data/b", err))
		return -1;
	for (__u64 i = 0; i < 32; i++) {
		__u64 ts = 1000000 * (i + 1);

		if (charges && ((i == 4 && append_isolate(w, 11, ts - 2, err)) ||
				(i == 6 && append_isolate(w, 10, ts - 2, err)) ||
				(i < 16 && append_add(w, 10, ts - 1, 1, i, 0, err))))
			return -1;
		if (append_unit_access(w, i < 16 ? 10 : 20, ts, i < 16 ? 1 : 2, FT_OP_READ,
				       (i % 16) << 12, 4096, 1u << 20, err))
			return -1;
	}
	return 0;
}

static int write_memcgs(struct ft_writer *w, struct ft_error *err)
{
	return write_memcgs_from(w, FT_CG_V1, 0, false, err);
}

static int write_memcg_charges(struct ft_writer *w, struct ft_error *err)
{
	return write_memcgs_from(w, FT_CG_V1, 0, true, err);
}

static int write_memcg_limits(struct ft_writer *w, struct ft_error *err)
{
	struct ft_cgroup_limits l = { .hdr = { .type = FT_CGROUP_LIMITS, .size = sizeof(l),
					       .ts = 1000 }, .id = 4001, .max = 65536,
				      .high = FT_LIMIT_NONE, .soft = FT_LIMIT_NONE };
	static const struct { __u64 id, max, high; } later[] = {
		{ 4001, 16384, FT_LIMIT_NONE }, { 4001, 16384, 8192 }, { 4002, 8192, FT_LIMIT_NONE },
	};

	/* /ft/a first at 64 KiB: its 32 KiB record is the one the reads see */
	if (write_memcgs_from(w, 0, 65536, false, err))
		return -1;
	l.hdr.ts = 1000000000;
	for (unsigned i = 0; i < sizeof(later) / sizeof(later[0]); i++) {
		l.id = later[i].id;
		l.max = later[i].max;
		l.high = later[i].high;
		if (ft_writer_append(w, &l, err))
			return -1;
	}
	return append_unit_access(w, 10, 2000000000, 1, FT_OP_READ, 15 << 12, 4096, 1u << 20,
				  err);
}

/* A writer in a 4 MiB cgroup beside a reader in an unlimited one, in hierarchy flags. */
static int write_memcg_dirty_in(struct ft_writer *w, __u16 flags, struct ft_error *err)
{
	struct ft_cgroup_limits l = { .hdr = { .type = FT_CGROUP_LIMITS, .size = sizeof(l),
					       .ts = 1000 }, .id = 4101, .max = 4u << 20,
				      .high = FT_LIMIT_NONE, .soft = FT_LIMIT_NONE };
	struct ft_cgroup_limits r = l;

	r.id = 4102;
	r.max = FT_LIMIT_NONE;
	if (ft_writer_host(w, &host, NULL, err) ||
	    ft_writer_cgroup(w, 1000, 4101, flags, "/ft/w", err) || ft_writer_append(w, &l, err) ||
	    ft_writer_cgroup(w, 1000, 4102, flags, "/ft/r", err) || ft_writer_append(w, &r, err) ||
	    append_task(w, 30, 30, "w", 4101, err) || append_task(w, 40, 40, "r", 4102, err) ||
	    ft_writer_file(w, 1000, 254u << 20, 3, 0, "/data/w", err) ||
	    ft_writer_file(w, 1000, 254u << 20, 1, 1u << 20, "/data/a", err) ||
	    append_unit_access(w, 40, 500000, 1, FT_OP_READ, 0, 4096, 1u << 20, err))
		return -1;
	for (__u64 i = 0; i < 768; i++)
		if (append_unit_access(w, 30, 1000000 * (i + 1), 3, FT_OP_WRITE, i << 12, 4096,
				       (i + 1) << 12, err))
			return -1;
	return append_unit_access(w, 30, 2000000000, 3, FT_OP_FSYNC, 0, 0, 768u << 12, err);
}

static int write_memcg_dirty(struct ft_writer *w, struct ft_error *err)
{
	return write_memcg_dirty_in(w, 0, err);
}

static int write_memcg_dirty_v1(struct ft_writer *w, struct ft_error *err)
{
	return write_memcg_dirty_in(w, FT_CG_V1, err);
}

static int write_ts_max(struct ft_writer *w, struct ft_error *err)
{
	if (ft_writer_host(w, &host, NULL, err))
		return -1;
	for (unsigned i = 0; i < 64; i++)
		if (append_access(w, 1000000ull * (i + 1), 7, FT_OP_WRITE, 4096ull * i, 4096, err))
			return -1;
	return append_access(w, UINT64_MAX, 7, FT_OP_READ, 0, 4096, err) ||
	       append_access(w, 2000000000ull, 8, FT_OP_WRITE, 0, 65536, err) ||
	       append_access(w, UINT64_MAX, 8, FT_OP_FSYNC, 0, 0, err) ? -1 : 0;
}

static int write_ts_random(struct ft_writer *w, struct ft_error *err)
{
	static const __u16 ops[] = { FT_OP_READ, FT_OP_WRITE, FT_OP_WRITE, FT_OP_FSYNC,
				     FT_OP_MMAP_READ, FT_OP_TRUNCATE };
	uint64_t x = 19;

	if (ft_writer_host(w, &host, NULL, err))
		return -1;
	for (unsigned i = 0; i < 400; i++) {
		__u64 ts = ft_splitmix64(&x), pos = ft_splitmix64_below(&x, 1024) * 4096;
		__u16 op = ops[ft_splitmix64_below(&x, sizeof(ops) / sizeof(ops[0]))];

		struct ft_folio_event fe = { .hdr = { .type = FT_PAGECACHE_ADD, .size = sizeof(fe),
						      .ts = ft_splitmix64(&x) },
					     .ino = 1, .index = i, .dev = 254u << 20 };

		if (append_access(w, ts, 1 + ft_splitmix64_below(&x, 4), op, pos, 8192, err) ||
		    (i % 4 == 0 && ft_writer_append(w, &fe, err)))
			return -1;
	}
	return 0;
}

static int write_ts_back(struct ft_writer *w, struct ft_error *err)
{
	if (ft_writer_host(w, &host, NULL, err))
		return -1;
	for (unsigned i = 0; i < 100; i++) {
		__u64 ts = 10000000000ull + 1000000ull * i - (i % 10 == 9 ? 2000000000ull : 0);

		if (append_access(w, ts, 7, FT_OP_READ, 4096ull * i, 4096, err))
			return -1;
	}
	return 0;
}

static int write_huge(struct ft_writer *w, struct ft_error *err)
{
	if (ft_writer_host(w, &host, NULL, err) ||
	    ft_writer_file(w, 1000, 254u << 20, 9, UINT64_MAX, "/data/huge", err))
		return -1;
	for (unsigned i = 0; i < 8; i++) {
		if (append_access(w, 1000000ull * (i + 1), 7, FT_OP_READ, 4096ull * i, 4096, err))
			return -1;
		if (i == 2 && append_access(w, 3500000, 7, FT_OP_READ, 0, 1ull << 40, err))
			return -1;
		if (i == 4 && append_access(w, 5500000, 7, FT_OP_WRITE, 1ull << 62, 1ull << 62,
					    err))
			return -1;
		if (i == 6 && append_access(w, 7500000, 9, FT_OP_WRITE, 0,
					    FT_ACCESS_LEN_MAX + 1, err))
			return -1;
	}
	return 0;
}

static int write_escapes(struct ft_writer *w, struct ft_error *err)
{
	static const char *const names[] = { "nr_\033[31mdirty", "a\"b\\c" };
	static const __u64 values[] = { 1, 2 };
	struct ft_host h = host;
	struct ft_host_dev dev = { .dev = 254u << 20, .block_size = 4096, .fstype = "x\033[1m",
				   .name = "/dev/\033]0;owned\007" };
	struct ft_folio_event fe = { .hdr = { .type = FT_PAGECACHE_ADD, .size = sizeof(fe),
					      .ts = 2000000 }, .ino = 7, .dev = 254u << 20 };

	strcpy(h.hostname, "host\033]0;pwned\007");
	strcpy(h.release, "6.18\033[2J\xc2\x9b");
	h.ndevs = 1;
	return ft_writer_host(w, &h, &dev, err) ||
	       ft_writer_cgroup(w, 1000, 77, 0, "/\033[31mred", err) ||
	       append_task(w, 5, 5, "\033[1mbold", 77, err) ||
	       ft_writer_file(w, 1000, 254u << 20, 7, 8192, "/data/\033[8mhidden", err) ||
	       ft_writer_counter_names(w, 1000, FT_SRC_VMSTAT, 2, names, err) ||
	       ft_writer_counters(w, 1000, FT_SRC_VMSTAT, 2, values, err) ||
	       append_access(w, 1000000, 7, FT_OP_READ, 0, 8192, err) ||
	       ft_writer_append(w, &fe, err) ? -1 : 0;
}

static int write_nfs(struct ft_writer *w, struct ft_error *err)
{
	static const __u64 at[] = { 0, 8 << 10, 12 << 10, 1 << 20 };
	struct ft_host h = host;
	/* NFS's statfs block size is its wsize: no filesystem block size (replay/host.c) */
	struct ft_host_dev dev = { .dev = 254u << 20, .block_size = 131072, .fstype = "nfs4",
				   .name = "server:/export" };

	h.ndevs = 1;
	if (ft_writer_host(w, &h, &dev, err) ||
	    ft_writer_file(w, 1000, 254u << 20, 7, 0, "/mnt/nfs/data", err) ||
	    append_access(w, 1000000, 7, FT_OP_WRITE, 0, 2u << 20, err) ||
	    append_unit_access(w, 5, 2000000, 7, FT_OP_FSYNC, 0, 0, 2u << 20, err))
		return -1;
	for (unsigned i = 0; i < 4; i++)
		if (append_unit_access(w, 5, 100000000 + 10000000ull * i, 7, FT_OP_WRITE, at[i],
				       4096, 2u << 20, err))
			return -1;
	return append_unit_access(w, 5, 140000000, 7, FT_OP_FSYNC, 0, 0, 2u << 20, err);
}

static const struct {
	const char *name;
	int (*fn)(struct ft_writer *w, struct ft_error *err);
} damaged[] = {
	{ "ts-max", write_ts_max },
	{ "ts-random", write_ts_random },
	{ "ts-back", write_ts_back },
	{ "huge", write_huge },
	{ "escapes", write_escapes },
	{ "units", write_units },
	{ "units-cgroup", write_units_cgroup },
	{ "memcgs", write_memcgs },
	{ "memcg-limits", write_memcg_limits },
	{ "memcg-charges", write_memcg_charges },
	{ "memcg-dirty", write_memcg_dirty },
	{ "memcg-dirty-v1", write_memcg_dirty_v1 },
	{ "units-unrecorded", write_units_unrecorded },
	{ "nfs", write_nfs },
	{ "proactive", write_proactive },
	{ "startfolios", write_startfolios },
	{ "startfolios-dirty", write_startfolios_dirty },
};

int main(int argc, char **argv)
{
	const char *kind = argc == 3 ? argv[1] : "sample";
	struct ft_writer *w;
	struct ft_error err;
	int ret;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: mktrace [sample|empty|counters|truncated|ts-max|ts-random|"
			"ts-back|huge|escapes|units|units-cgroup|units-unrecorded|memcgs|"
			"memcg-limits|memcg-charges|memcg-dirty|memcg-dirty-v1|nfs|proactive|"
			"startfolios|startfolios-dirty] FILE\n");
		return 2;
	}
	w = ft_writer_open(argv[argc - 1], 0644, &err);
	if (!w) {
		fprintf(stderr, "mktrace: %s\n", err.msg);
		return 1;
	}
	if (strcmp(kind, "sample") == 0) {
		ret = sample_trace_write(w, &err);
	} else if (strcmp(kind, "empty") == 0) {
		ret = ft_writer_host(w, &host, NULL, &err);
	} else if (strcmp(kind, "counters") == 0) {
		ret = write_counters(w, &err);
	} else if (strcmp(kind, "truncated") == 0) {
		ret = write_truncated(w, &err);
	} else {
		ret = -2;
		for (unsigned i = 0; i < sizeof(damaged) / sizeof(damaged[0]); i++)
			if (strcmp(kind, damaged[i].name) == 0)
				ret = damaged[i].fn(w, &err);
	}
	if (ret == -2) {
		fprintf(stderr, "mktrace: unknown kind '%s'\n", kind);
		ft_writer_abort(w);
		return 2;
	}
	if (ret) {
		fprintf(stderr, "mktrace: %s\n", err.msg);
		ft_writer_abort(w);
		return 1;
	}
	if (ft_writer_close(w, &err)) {
		fprintf(stderr, "mktrace: %s\n", err.msg);
		return 1;
	}
	return 0;
}
