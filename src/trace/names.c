/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Names and fixed sizes of record types: the reader validates against these. */
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "trace/trace.h"

static const struct {
	const char *name;
	size_t size;
} record_types[FT_TYPE_MAX] = {
	[FT_HOST] = { "host", sizeof(struct ft_host) },
	[FT_FILE] = { "file", sizeof(struct ft_file) },
	[FT_TASK] = { "task", FT_TASK_SIZE_1_0 },
	[FT_COUNTER_NAMES] = { "counter_names", sizeof(struct ft_counter_names) },
	[FT_COUNTERS] = { "counters", sizeof(struct ft_counters) },
	[FT_LOST] = { "lost", sizeof(struct ft_lost) },
	[FT_END] = { "end", sizeof(struct ft_end) },
	[FT_DEVICE] = { "device", sizeof(struct ft_device) },
	[FT_CGROUP] = { "cgroup", sizeof(struct ft_cgroup) },
	[FT_CGROUP_LIMITS] = { "cgroup_limits", sizeof(struct ft_cgroup_limits) },
	[FT_START_CACHE] = { "start_cache", sizeof(struct ft_start_cache) },
	[FT_START_SHADOWS] = { "start_shadows", sizeof(struct ft_start_shadows) },
	[FT_ACCESS] = { "access", sizeof(struct ft_access) },
	[FT_PAGECACHE_ADD] = { "pagecache_add", sizeof(struct ft_folio_event) },
	[FT_PAGECACHE_DELETE] = { "pagecache_delete", sizeof(struct ft_folio_event) },
	[FT_FOLIO_DIRTY] = { "folio_dirty", sizeof(struct ft_folio_event) },
	[FT_WRITEBACK] = { "writeback", sizeof(struct ft_writeback) },
	[FT_VMSCAN] = { "vmscan", sizeof(struct ft_vmscan) },
	[FT_READAHEAD] = { "readahead", sizeof(struct ft_readahead) },
	[FT_BLOCK] = { "block", sizeof(struct ft_block) },
	[FT_PAGECACHE_REFAULT] = { "pagecache_refault", sizeof(struct ft_folio_event) },
	[FT_PAGECACHE_ACTIVATE] = { "pagecache_activate", sizeof(struct ft_folio_event) },
};

static const char *const op_names[FT_OP_MAX] = {
	[FT_OP_READ] = "read",
	[FT_OP_WRITE] = "write",
	[FT_OP_MMAP_READ] = "mmap_read",
	[FT_OP_MMAP_WRITE] = "mmap_write",
	[FT_OP_FSYNC] = "fsync",
	[FT_OP_FDATASYNC] = "fdatasync",
	[FT_OP_SYNC_RANGE] = "sync_range",
	[FT_OP_TRUNCATE] = "truncate",
	[FT_OP_FALLOCATE] = "fallocate",
	[FT_OP_UNLINK] = "unlink",
	[FT_OP_FADVISE] = "fadvise",
	[FT_OP_MADVISE] = "madvise",
	[FT_OP_SYNC] = "sync",
	[FT_OP_SYNCFS] = "syncfs",
};

size_t ft_record_min_size(__u16 type)
{
	return type < FT_TYPE_MAX ? record_types[type].size : 0;
}

const char *ft_type_name(__u16 type)
{
	if (type < FT_TYPE_MAX && record_types[type].name)
		return record_types[type].name;
	return "unknown";
}

const char *ft_op_name(__u16 op)
{
	if (op < FT_OP_MAX && op_names[op])
		return op_names[op];
	return "unknown";
}

/* The byte layout documented in folio-trace(5): any change here is a format change. */
_Static_assert(sizeof(struct ft_file_header) == 32, "file header layout");
_Static_assert(sizeof(struct ft_chunk_header) == 24, "chunk header layout");
_Static_assert(sizeof(struct ft_hdr) == 16, "record header layout");
_Static_assert(sizeof(struct ft_host) == 232, "host layout");
_Static_assert(sizeof(struct ft_host_dev) == 56, "host device layout");
_Static_assert(sizeof(struct ft_file) == 40, "file layout");
_Static_assert(sizeof(struct ft_task) == 48, "task layout");
_Static_assert(offsetof(struct ft_task, cgroup) == FT_TASK_SIZE_1_0, "task 1.0 layout");
_Static_assert(sizeof(struct ft_cgroup) == 32, "cgroup layout");
_Static_assert(sizeof(struct ft_counter_names) == 24, "counter names layout");
_Static_assert(sizeof(struct ft_counters) == 24, "counters layout");
_Static_assert(sizeof(struct ft_lost) == 32, "lost layout");
_Static_assert(sizeof(struct ft_end) == 32, "end layout");
_Static_assert(sizeof(struct ft_access) == 64, "access layout");
_Static_assert(sizeof(struct ft_folio_event) == 48, "folio event layout");
_Static_assert(sizeof(struct ft_writeback) == 48, "writeback layout");
_Static_assert(sizeof(struct ft_vmscan) == 80, "vmscan layout");
_Static_assert(sizeof(struct ft_readahead) == 56, "readahead layout");
_Static_assert(sizeof(struct ft_device) == 32, "device layout");
_Static_assert(sizeof(struct ft_block) == 56, "block layout");
_Static_assert(sizeof(struct ft_cgroup_limits) == 64, "cgroup limits layout");
_Static_assert(sizeof(struct ft_start_cache) == 64, "start cache layout");
_Static_assert(sizeof(struct ft_page_range) == 16, "page range layout");

int ft_counter_index(const struct ft_counter_names *n, const char *name)
{
	const char *p = ft_counter_names_first(n), *end = p + n->names_len;

	for (int i = 0; i < n->count && p < end; i++) {
		if (strcmp(p, name) == 0)
			return i;
		p += strlen(p) + 1;
	}
	return -1;
}

static const char *const unrecorded_names[FT_UNREC_KINDS] = {
	"mmap reads", "readahead windows", "iomap writeback", "ext4 writeback",
	"btrfs writeback", "io_uring completions", "reclaim", "block requests",
	"page-cache insertions and deletions", "dirtied folios", "per-inode writeback",
	"process forks, execs and cgroup moves", "memory cgroup statistics flushes",
	"refaults per folio",
};

bool ft_has_refault_events(const struct ft_reader_status *st, const struct ft_host *host)
{
	return (st->version_major > 1 || st->version_minor >= 5) && host &&
	       !(host->unrecorded & FT_UNREC_REFAULTS) && !(host->flags & FT_HOST_SYNTHETIC);
}

void ft_print_unrecorded(FILE *f, __u16 kinds, bool json)
{
	const char *sep = "";

	for (unsigned int bit = 0; bit < FT_UNREC_KINDS; bit++) {
		if (kinds & (1u << bit)) {
			fprintf(f, json ? "%s\"%s\"" : "%s%s", sep, unrecorded_names[bit]);
			sep = ", ";
		}
	}
}

static bool path_under(const char *path, size_t len, const char *dir)
{
	size_t n = strlen(dir);

	return len > n && !memcmp(path, dir, n) && path[n] == '/';
}

bool ft_file_without_page_cache(__u32 host_flags, const struct ft_file *f)
{
	const char *path = ft_file_path(f);

	return !(host_flags & FT_HOST_PAGECACHE_FS) &&
	       (path_under(path, f->path_len, "/proc") || path_under(path, f->path_len, "/sys"));
}
