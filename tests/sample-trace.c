/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small trace holding one record of every type, with distinct values, in several chunks.
 * The trace tests read it back byte for byte; tests/mktrace writes it for the CLI tests.
 */
#include <string.h>

#include "sample-trace.h"

static int put(struct ft_writer *w, void *rec, size_t size, struct ft_error *err)
{
	((struct ft_hdr *)rec)->size = (__u16)size;
	return ft_writer_append(w, rec, err);
}

int sample_trace_write(struct ft_writer *w, struct ft_error *err)
{
	struct ft_host host = {
		.hdr = { .ts = 1000 }, .mem_bytes = 24ull << 30, .start_realtime_ns =
		1796292000000000000ull, .start_mono_ns = 1000, .page_size = 4096, .ncpus = 2,
		.dirty_background_ratio = 10, .dirty_ratio = 20, .dirty_expire_centisecs = 3000,
		.dirty_writeback_centisecs = 500, .ndevs = 2, .release = "6.18.0-test",
		.hostname = "testhost",
	};
	struct ft_host_dev devs[2] = {
		{ .dev = (254u << 20) | 0, .block_size = 4096, .fstype = "ext4", .name = "/dev/vda" },
		{ .dev = (0u << 20) | 42, .block_size = 4096, .fstype = "tmpfs", .name = "tmpfs" },
	};
	static const char *const names[] = { "nr_dirtied", "nr_written", "nr_file_pages" };
	const __u64 values[] = { 100, 90, 5000 };
	struct ft_task task = { .hdr = { .type = FT_TASK, .tid = 77, .ts = 1500 }, .pid = 70,
				.comm = "dd", .cgroup = 4242 };
	struct ft_access rd = { .hdr = { .type = FT_ACCESS, .tid = 77, .ts = 2000 }, .ino = 12,
				.pos = 0, .len = 65536, .isize = 1048576, .dev = 254u << 20,
				.op = FT_OP_READ };
	struct ft_access wr = { .hdr = { .type = FT_ACCESS, .tid = 77, .ts = 3000 }, .ino = 12,
				.pos = 1048576, .len = 1, .isize = 1048577, .dev = 254u << 20,
				.op = FT_OP_WRITE, .flags = FT_AF_APPEND | FT_AF_POSITIONAL };
	struct ft_access fs = { .hdr = { .type = FT_ACCESS, .tid = 77, .ts = 4000 }, .ino = 12,
				.isize = 1048577, .dev = 254u << 20, .op = FT_OP_FSYNC };
	struct ft_folio_event add = { .hdr = { .type = FT_PAGECACHE_ADD, .tid = 77, .ts = 2100 },
				      .ino = 12, .index = 0, .pfn = 123456, .dev = 254u << 20,
				      .order = 4 };
	struct ft_folio_event del = { .hdr = { .type = FT_PAGECACHE_DELETE, .ts = 5000 },
				      .ino = 12, .index = 16, .pfn = 7, .dev = 254u << 20 };
	struct ft_folio_event dirty = { .hdr = { .type = FT_FOLIO_DIRTY, .tid = 77, .ts = 3100 },
					.ino = 12, .index = 256, .dev = 254u << 20,
					.order = FT_ORDER_UNKNOWN };
	struct ft_writeback wb = { .hdr = { .type = FT_WRITEBACK, .ts = 4100 }, .ino = 12,
				   .index = 256, .nr_pages = 1, .dev = 254u << 20,
				   .kind = FT_WB_SINGLE_INODE, .reason = 7 };
	struct ft_vmscan vm = { .hdr = { .type = FT_VMSCAN, .ts = 4200 }, .nr_scanned = 32,
				.nr_reclaimed = 30, .nr_dirty = 2, .nr_writeback = 1, .nr_immediate = 0,
				.nr_activate = 2, .a = 3, .nid = 0, .kind = FT_VM_SHRINK_INACTIVE,
				.priority = 12 };
	struct ft_readahead ra = { .hdr = { .type = FT_READAHEAD, .tid = 77, .ts = 2050 },
				   .ino = 12, .index = 0, .size = 32, .async_size = 16,
				   .dev = 254u << 20, .kind = FT_RA_SYNC, .order = 2 };
	struct ft_lost lost = { .hdr = { .type = FT_LOST, .ts = 5100 }, .cpu = 1,
				.type = FT_PAGECACHE_ADD, .count = 3 };

	if (ft_writer_host(w, &host, devs, err) ||
	    ft_writer_file(w, 1200, 254u << 20, 12, 1048576, "/tmp/data file", err) ||
	    ft_writer_cgroup(w, 1450, 4242, FT_CG_V1, "/batch/dd", err) ||
	    put(w, &task, sizeof(task), err) ||
	    ft_writer_counter_names(w, 1300, FT_SRC_VMSTAT, 3, names, err) ||
	    ft_writer_counters(w, 1400, FT_SRC_VMSTAT, 3, values, err) ||
	    ft_writer_flush(w, err) ||
	    put(w, &rd, sizeof(rd), err) || put(w, &ra, sizeof(ra), err) ||
	    put(w, &add, sizeof(add), err) || put(w, &wr, sizeof(wr), err) ||
	    put(w, &dirty, sizeof(dirty), err) ||
	    ft_writer_flush(w, err) ||
	    put(w, &fs, sizeof(fs), err) || put(w, &wb, sizeof(wb), err) ||
	    put(w, &vm, sizeof(vm), err) || put(w, &del, sizeof(del), err) ||
	    put(w, &lost, sizeof(lost), err))
		return -1;
	return 0;
}
