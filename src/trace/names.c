/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Names and fixed sizes of record types: the reader validates against these. */
#include <linux/types.h>
#include <stddef.h>

#include "trace/trace.h"

static const struct {
	const char *name;
	size_t size;
} record_types[FT_TYPE_MAX] = {
	[FT_HOST] = { "host", sizeof(struct ft_host) },
	[FT_FILE] = { "file", sizeof(struct ft_file) },
	[FT_TASK] = { "task", sizeof(struct ft_task) },
	[FT_COUNTER_NAMES] = { "counter_names", sizeof(struct ft_counter_names) },
	[FT_COUNTERS] = { "counters", sizeof(struct ft_counters) },
	[FT_LOST] = { "lost", sizeof(struct ft_lost) },
	[FT_END] = { "end", sizeof(struct ft_end) },
	[FT_ACCESS] = { "access", sizeof(struct ft_access) },
	[FT_PAGECACHE_ADD] = { "pagecache_add", sizeof(struct ft_folio_event) },
	[FT_PAGECACHE_DELETE] = { "pagecache_delete", sizeof(struct ft_folio_event) },
	[FT_FOLIO_DIRTY] = { "folio_dirty", sizeof(struct ft_folio_event) },
	[FT_WRITEBACK] = { "writeback", sizeof(struct ft_writeback) },
	[FT_VMSCAN] = { "vmscan", sizeof(struct ft_vmscan) },
	[FT_READAHEAD] = { "readahead", sizeof(struct ft_readahead) },
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
