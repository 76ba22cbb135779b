/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What `folio-trace top` counts: the records of a trace, live or read back, summed per file,
 * process or cgroup for the current interval and over the whole run.
 */
#ifndef FT_TOP_TALLY_H
#define FT_TOP_TALLY_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace.h"
#include "util/u64map.h"

#define TOP_ORDERS	12	/* orders 0..10 and "11 or more / unknown" */
#define TOP_NAME_LEN	256

enum top_by { TOP_BY_FILE, TOP_BY_PROCESS, TOP_BY_CGROUP };

/* The figures of one row (or of the whole system) over one interval or the whole run. */
struct top_counts {
	uint64_t read_bytes, write_bytes;	/* by system calls, io_uring, AIO, copies */
	uint64_t mmap_pages;			/* pages mapped by faults */
	uint64_t accessed_pages;		/* pages read or mapped: the hit ratio's base */
	uint64_t inserted_pages, inserted[TOP_ORDERS];	/* folios inserted, by order */
	uint64_t evicted_pages;
	uint64_t refaulted_pages;		/* pages of the folios that refaulted (6.14 on) */
	uint64_t dirtied_bytes;			/* folios the kernel marked dirty, whole */
	uint64_t written_back_bytes;		/* by the file system's own count */
	uint64_t readaheads;			/* sync and async readahead decisions */
	uint64_t readahead_windows, readahead_pages;	/* windows read, their pages */
};

struct top_row {
	char name[TOP_NAME_LEN];
	uint64_t key;
	struct top_counts now, total;
};

/* System-wide figures that belong to no row. */
struct top_system {
	uint64_t reclaim_scanned, reclaim_reclaimed, kswapd_wakes, direct_reclaims;
	uint64_t refaults;		/* workingset_refault_file, from the vmstat samples */
	uint64_t lost;
};

/*
 * The key of a file's row: file_key(dev, ino) for the first file of the number, another for
 * each that took it after (gen: the FT_FILE_REUSED records of the number before it).
 */
static inline uint64_t tally_file_key(uint32_t dev, uint64_t ino, uint64_t gen)
{
	return file_key(dev, ino) + gen * 0x9e3779b97f4a7c15ull;
}

struct top_tally {
	enum top_by by;
	uint32_t page_size;
	struct top_row *rows;
	uint32_t nrows;
	size_t cap;
	struct u64map row_of;		/* key -> row index + 1 */
	struct u64map file_name;	/* file key -> index + 1 in names */
	struct u64map file_gen;		/* file_key(dev, ino) -> FT_FILE_REUSED records of it */
	char (*names)[TOP_NAME_LEN];
	uint32_t nnames;
	size_t cap_names;
	struct u64map task_pid;		/* tid -> pid */
	struct u64map pid_comm;		/* pid -> index + 1 in names (its comm) */
	struct u64map task_cgroup;	/* tid -> memory cgroup id (FT_TASK since 1.1) */
	struct u64map cgroup_name;	/* memory cgroup id -> index + 1 in names (its path) */
	/* the vmstat names of the trace and the last sample, for refault deltas */
	int refault_index;
	uint64_t last_refaults;
	bool have_refaults;
	struct top_system sys_now, sys_total;
	struct top_counts all_now, all_total;
	uint64_t records;
	/* Where a process's cgroup comes from when the trace does not say (live: /proc);
	 * NULL: "?". */
	void (*cgroup_of)(uint32_t pid, char *out, unsigned len);
};

/* The names of enum top_by, as --by takes them and the views print them. */
extern const char *const top_by_names[3];
/* --by's value: "file", "process" or "cgroup"; false for anything else. */
bool top_by_parse(const char *s, enum top_by *out);

int top_tally_init(struct top_tally *t, enum top_by by);
void top_tally_release(struct top_tally *t);
/* Counts one record the reader returned; -1 only when out of memory. */
int top_tally_add(struct top_tally *t, const struct ft_hdr *h);
/* The memory cgroup id of thread tid as its FT_TASK gave it; 0 when the trace does not say. */
uint64_t top_tally_cgroup_of(const struct top_tally *t, uint32_t tid);
/*
 * The row key and name of memory cgroup id (of process pid): the trace's FT_CGROUP for it,
 * else cgroup_of's answer, else "?".
 */
uint64_t top_tally_cgroup_key(const struct top_tally *t, uint64_t id, uint32_t pid, char *name,
			      unsigned len);
/* Ends an interval: the "now" figures are zeroed (the caller printed them). */
void top_tally_next_interval(struct top_tally *t);

#endif
