/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The .ftr trace file: a fixed file header, then independent zlib chunks of records
 * (events.h). A chunk is self-contained, so a file cut anywhere is readable up to its last
 * whole chunk. Layout in folio-trace(5).
 */
#ifndef FT_TRACE_TRACE_H
#define FT_TRACE_TRACE_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "trace/events.h"
#include "util/error.h"
#include "util/output.h"

#define FT_MAGIC		"FOLIOTRC"
#define FT_MAGIC_LEN		8
#define FT_VERSION_MAJOR	1
#define FT_VERSION_MINOR	8	/* 1.1: FT_CGROUP, ft_task.cgroup; 1.2: ft_host.unrecorded;
					 * 1.3: FT_START_CACHE; 1.4: FT_START_SHADOWS;
					 * 1.5: FT_PAGECACHE_REFAULT, _ACTIVATE;
					 * 1.6: packed chunks (FT_FILE_PACKED);
					 * 1.7: ft_access.ofile, the open file;
					 * 1.8: FT_MMAP_SHMEM, tmpfs faults */
#define FT_CHUNK_MAGIC		0x4b435446u	/* "FTCK" little-endian */
#define FT_CHUNK_RAW_MAX	(16u << 20)	/* readers refuse larger chunks */
#define FT_CHUNK_RAW_DEFAULT	(1u << 20)	/* writers flush at this many raw bytes */
#define FT_RECORD_MAX		65528u		/* largest record (size is a __u16, multiple of 8) */

struct ft_file_header {
	char magic[FT_MAGIC_LEN];
	__u16 version_major;
	__u16 version_minor;
	__u32 header_size;	/* bytes of this header; chunks start here */
	__u64 flags;		/* FT_FILE_*; readers refuse flags they do not know */
	__u64 created_realtime_ns;
};

/* Chunks may be packed (trace/pack.h): a reader that cannot expand them must not start. */
#define FT_FILE_PACKED		(1ull << 0)

struct ft_chunk_header {
	__u32 magic;		/* FT_CHUNK_MAGIC */
	__u32 stored_size;	/* bytes of zlib stream following */
	__u32 raw_size;		/* bytes of records once inflated */
	__u32 crc32;		/* crc32 of the stored (compressed) bytes */
	__u32 nrecords;		/* readers check it against the records inflated */
	__u32 flags;		/* FT_CHUNK_*; a chunk with unknown flags ends the data */
};

/* The inflated bytes are packed items (trace/pack.h), raw_size of them (FT_FILE_PACKED). */
#define FT_CHUNK_PACKED		(1u << 0)

/* ---- writer ---------------------------------------------------------------------------------- */

struct ft_writer;

/*
 * Creates path as util/output.h writes outputs ("-" is stdout; mode 0600 unless told
 * otherwise): a trace takes the target's name only once ft_writer_close() succeeds. NULL on
 * error (err set).
 */
struct ft_writer *ft_writer_open(const char *path, unsigned mode, struct ft_error *err);
struct ft_writer_options {
	unsigned mode;		/* 0: 0600 */
	bool no_timestamp;	/* creation time 0: the same records give the same bytes */
	bool force;		/* replace a symbolic link at path (struct ft_output_opts) */
	bool in_place_if_new;	/* record: a new file is made under its name from the start */
	const char *const *inputs;	/* files the command reads: path must be none of them */
	unsigned ninputs;
};
struct ft_writer *ft_writer_open_with(const char *path, const struct ft_writer_options *opts,
				      struct ft_error *err);
/* Also: from an fd the caller opened. The writer owns and closes it. */
struct ft_writer *ft_writer_fdopen(int fd, const char *name, struct ft_error *err);

/* Appends one record (hdr.size bytes, validated). A full chunk is compressed and written. */
int ft_writer_append(struct ft_writer *w, const void *rec, struct ft_error *err);
/* Builders for the variable-length records; ts/tid taken from the arguments. */
/*
 * FT_START_CACHE records for a file: nranges ranges, as many records as they need. The
 * counts and flags of *sc are copied into each.
 */
int ft_writer_start_cache(struct ft_writer *w, const struct ft_start_cache *sc,
			  const struct ft_page_range *ranges, size_t nranges, struct ft_error *err);
/* FT_START_SHADOWS records for a file, likewise (none when nranges is 0). */
int ft_writer_start_shadows(struct ft_writer *w, const struct ft_start_shadows *ss,
			    const struct ft_page_range *ranges, size_t nranges,
			    struct ft_error *err);
int ft_writer_file(struct ft_writer *w, __u64 ts, __u32 dev, __u64 ino, __u64 size,
		   const char *path, struct ft_error *err);
#define FT_FILE_PATH_MAX	4096	/* bytes of path kept in an FT_FILE */

/* Room for any FT_FILE record. */
union ft_file_buf {
	struct ft_file file;
	unsigned char bytes[sizeof(struct ft_file) + FT_FILE_PATH_MAX];
};

/* An FT_FILE record in buf, for a writer or another sink: its header. */
const struct ft_hdr *ft_file_build(union ft_file_buf *buf, __u64 ts, __u32 dev, __u64 ino,
				   __u64 size, const char *path, __u16 flags);
/* The same with FT_FILE_* flags. */
int ft_writer_file_flags(struct ft_writer *w, __u64 ts, __u32 dev, __u64 ino, __u64 size,
			 const char *path, __u16 flags, struct ft_error *err);
/* FT_CGROUP; path "" when the cgroup could not be named. */
int ft_writer_cgroup(struct ft_writer *w, __u64 ts, __u64 id, __u16 flags, const char *path,
		     struct ft_error *err);
int ft_writer_counter_names(struct ft_writer *w, __u64 ts, __u16 source, __u16 count,
			    const char *const *names, struct ft_error *err);
int ft_writer_counters(struct ft_writer *w, __u64 ts, __u16 source, __u16 count,
		       const __u64 *values, struct ft_error *err);
int ft_writer_host(struct ft_writer *w, const struct ft_host *host,
		   const struct ft_host_dev *devs, struct ft_error *err);

/*
 * Writes the pending chunk now (recorders call it periodically so a crash loses little); in
 * the background (below), queues it to be written in order.
 */
int ft_writer_flush(struct ft_writer *w, struct ft_error *err);
/*
 * From now on full chunks are compressed and written by a thread of the writer, so appending
 * never waits for compression (unless four chunks are queued). Errors of the thread are
 * returned by the next flush, drain or close.
 */
int ft_writer_background(struct ft_writer *w, struct ft_error *err);
/* Flushes and waits until every chunk queued is in the file (or failed). */
int ft_writer_drain(struct ft_writer *w, struct ft_error *err);
/*
 * Appends FT_END, flushes, fsyncs a regular file, closes and puts the file in place. Frees w
 * even on error.
 */
int ft_writer_close(struct ft_writer *w, struct ft_error *err);
/*
 * record: the trace takes its name now (util/output.h, ft_output_place), replacing what was
 * there, so that a recorder killed from here on leaves it readable to its last whole chunk.
 */
int ft_writer_place(struct ft_writer *w, struct ft_error *err);
/*
 * Frees without FT_END. An output opened by name is removed, except a file made in place
 * (in_place_if_new) that holds a whole chunk: it stays, read as "not closed cleanly".
 */
void ft_writer_abort(struct ft_writer *w);

struct ft_writer_stats {
	__u64 records;
	__u64 events;		/* records other than metadata */
	__u64 lost;		/* sum of FT_LOST counts appended */
	__u64 raw_bytes;
	__u64 stored_bytes;	/* file bytes so far, header included */
	__u64 chunks;
};
void ft_writer_stats(const struct ft_writer *w, struct ft_writer_stats *st);

/* ---- reader ---------------------------------------------------------------------------------- */

struct ft_reader;

enum ft_read_end {
	FT_READ_MORE = 1,	/* ft_reader_next returned a record */
	FT_READ_EOF = 0,	/* clean end: FT_END seen and nothing after it */
	FT_READ_ERROR = -1,	/* cannot go on: err says why (I/O error, bad header) */
};

/* Opens and checks the file header ("-" is stdin). NULL with err set on a bad/newer file. */
struct ft_reader *ft_reader_open(const char *path, struct ft_error *err);
void ft_reader_close(struct ft_reader *r);

/*
 * Next record, valid until the next call. Returns FT_READ_MORE, FT_READ_EOF (end of the
 * readable data: check ft_reader_status for truncation) or FT_READ_ERROR.
 * Records are checked: size >= the known struct size of their type, variable parts in bounds.
 * Records of unknown types are returned too (callers ignore what they do not know).
 */
int ft_reader_next(struct ft_reader *r, const struct ft_hdr **rec, struct ft_error *err);

struct ft_reader_status {
	__u16 version_major, version_minor;
	__u64 created_realtime_ns;
	__u64 chunks;		/* whole chunks read */
	__u64 records;
	__u64 bytes;		/* file bytes consumed (header and whole chunks) */
	bool clean_end;		/* FT_END record seen */
	bool truncated;		/* data ended inside a chunk, or a chunk was damaged */
	__u64 good_bytes;	/* file offset where the readable data ends */
	char why[160];		/* when truncated: what was wrong at good_bytes */
};
void ft_reader_status(const struct ft_reader *r, struct ft_reader_status *st);

struct ft_progress;
/*
 * Shows on p (util/progress.h) how far through the file the reader is, at each chunk: "what"
 * names the work. The caller ends it with ft_progress_end() before printing results.
 */
void ft_reader_progress(struct ft_reader *r, struct ft_progress *p, const char *what,
			bool quiet);
/*
 * Where the record ft_reader_next() returned last is, for messages about it: its number in
 * the file (1-based) and its byte offset in its chunk, and where that chunk starts. Returns buf.
 */
const char *ft_reader_where(const struct ft_reader *r, char *buf, size_t len);
/*
 * After FT_READ_EOF: when the trace was cut or damaged, prints one line on stderr naming the
 * file, the byte offset and the problem. Returns the exit status to use: 0 complete, 1 not.
 */
int ft_reader_report_end(const struct ft_reader *r);

/*
 * Bounds every real access keeps, from the kernel: one read or write moves at most
 * MAX_RW_COUNT bytes (INT_MAX rounded down to a page; 4 KiB pages give the largest, a mapping
 * fault moves far less), and no file reaches past MAX_LFS_FILESIZE. A record beyond them is
 * damaged, and modelling it page by page would take hours.
 */
#define FT_ACCESS_LEN_MAX	0x7ffff000ull		/* MAX_RW_COUNT with 4 KiB pages */
#define FT_FILE_SIZE_MAX	0x7fffffffffffffffull	/* MAX_LFS_FILESIZE */

/* read, write and the mmap operations: the ones that move bytes through the page cache. */
bool ft_op_moves_data(__u16 op);
/* Why a is not within the bounds above, written into buf; NULL when it is. */
const char *ft_access_describe_problem(const struct ft_access *a, char *buf, size_t len);

/* Within the bounds whatever the op (fadvise's ranges only widen them): every real record. */
static inline bool ft_access_in_bounds(const struct ft_access *a)
{
	return a->len <= FT_ACCESS_LEN_MAX && a->pos <= FT_FILE_SIZE_MAX &&
	       a->isize <= FT_FILE_SIZE_MAX && a->len <= FT_FILE_SIZE_MAX - a->pos;
}

/* NULL when a is within the bounds above, else why not, written into buf. */
static inline const char *ft_access_problem(const struct ft_access *a, char *buf, size_t len)
{
	return ft_access_in_bounds(a) ? NULL : ft_access_describe_problem(a, buf, len);
}

/* Damaged access records named one by one by the readers that skip them. */
#define FT_SHOW_DAMAGED	5

/*
 * For the readers that tally accesses (info, top --from) as replay and export do: when h is
 * an access no kernel makes, it is counted in *n and the first FT_SHOW_DAMAGED are named on
 * stderr with where they are in path; true then, and h counts for nothing else.
 */
bool ft_damaged_access(const struct ft_reader *r, const char *path, const struct ft_hdr *h,
		       uint64_t *n);
/* After the reading: the count of damaged accesses, when more than were named. */
void ft_damaged_summary(const char *path, uint64_t n);

/* Size of the fixed struct for a known type, 0 for unknown types. */
size_t ft_record_min_size(__u16 type);
const char *ft_type_name(__u16 type);
const char *ft_op_name(__u16 op);
/*
 * The kinds of events in kinds (FT_UNREC_*) in words, in bit order, ", " between them ("mmap
 * reads, readahead windows"); json: each a JSON string.
 */
void ft_print_unrecorded(FILE *f, __u16 kinds, bool json);
/*
 * Whether the trace names the folios that refaulted (FT_PAGECACHE_REFAULT): recorded live
 * (host: its FT_HOST, NULL if none) since 1.5 by a kernel with the tracepoint (6.14 on).
 */
bool ft_has_refault_events(const struct ft_reader_status *st, const struct ft_host *host);
/*
 * Whether the file f names lies on a filesystem that caches no pages, so that its accesses
 * are none of the page cache's: procfs and sysfs (with cgroupfs, debugfs and tracefs mounted
 * under it) answer reads from their own text. The recorder leaves such files out since it
 * says so (FT_HOST_PAGECACHE_FS in host_flags, its FT_HOST's); in a trace from before, they
 * are known by where they are mounted, the only thing it says of them.
 */
bool ft_file_without_page_cache(__u32 host_flags, const struct ft_file *f);

/* Accessors for variable-length parts; only valid on records the reader returned. */
static inline const char *ft_file_path(const struct ft_file *f)
{
	return (const char *)(f + 1);
}

static inline const char *ft_cgroup_path(const struct ft_cgroup *c)
{
	return (const char *)(c + 1);
}

/* The task's memory cgroup id; 0 when unknown (a record of a 1.0 trace ends before it). */
static inline __u64 ft_task_cgroup(const struct ft_task *t)
{
	return t->hdr.size >= sizeof(*t) ? t->cgroup : 0;
}

static inline const struct ft_page_range *ft_start_cache_ranges(const struct ft_start_cache *s)
{
	return (const struct ft_page_range *)(s + 1);
}

static inline const struct ft_page_range *
ft_start_shadows_ranges(const struct ft_start_shadows *s)
{
	return (const struct ft_page_range *)(s + 1);
}

static inline const __u64 *ft_counters_values(const struct ft_counters *c)
{
	return (const __u64 *)(c + 1);
}

static inline const char *ft_counter_names_first(const struct ft_counter_names *n)
{
	return (const char *)(n + 1);
}

/* The index of a counter in a names record (NUL-checked by the reader); -1 when absent. */
int ft_counter_index(const struct ft_counter_names *n, const char *name);

static inline const struct ft_host_dev *ft_host_devs(const struct ft_host *h)
{
	return (const struct ft_host_dev *)(h + 1);
}

static inline bool ft_is_metadata(__u16 type)
{
	return type < FT_ACCESS;
}

#endif /* FT_TRACE_TRACE_H */
