/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A trace as a cache-simulator request stream: every buffered read/write/mmap access becomes
 * one request per folio it touches (folios of 2^order pages, naturally aligned), in trace
 * order. Object ids keep the file and the position (codec/libcachesim.h): files are numbered
 * in order of first access, the index is the page index of the folio's first page.
 */
#ifndef FT_EXPORT_REQUESTS_H
#define FT_EXPORT_REQUESTS_H

#include <stdbool.h>
#include <stdint.h>

#include "trace/trace.h"
#include "util/u64map.h"

#define EXPORT_MAX_ORDER	20
#define EXPORT_SHOW_DAMAGED	5	/* damaged access records named one by one */

struct export_req {
	uint64_t time_s;	/* whole seconds since the first access */
	uint64_t obj_id;
	uint32_t obj_size;	/* page size << order */
	bool write;
};

struct req_stream {
	struct ft_reader *reader;
	const char *path;
	struct u64map files;	/* file_key(dev, ino) -> file number */
	struct u64map uncached;	/* file_key(dev, ino) of the files on procfs or sysfs */
	__u32 host_flags;
	unsigned order;
	uint32_t page_size;
	uint64_t first_ts;
	bool started;
	/* the access being expanded */
	uint64_t file_no, next_index, last_index, time_s;
	bool write, pending;
	/* what was turned into requests and what was not */
	uint64_t accesses, direct_skipped, uncached_skipped, other_skipped, requests;
	uint64_t damaged;	/* accesses no kernel makes (ft_access_problem), skipped */
};

int req_stream_open(struct req_stream *s, const char *path, unsigned order, struct ft_error *err);
/* 1: *req filled; 0: end of trace; -1: error (err set). */
int req_stream_next(struct req_stream *s, struct export_req *req, struct ft_error *err);
/* After the end: a warning line when the trace was cut short (false when it ended cleanly). */
bool req_stream_truncated(const struct req_stream *s, char *why, size_t len);
void req_stream_close(struct req_stream *s);

#endif
