/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <string.h>

#include "codec/libcachesim.h"
#include "export/requests.h"
#include "util/error.h"
#include "util/msg.h"

int req_stream_open(struct req_stream *s, const char *path, unsigned order, struct ft_error *err)
{
	memset(s, 0, sizeof(*s));
	s->path = path;
	s->order = order;
	s->page_size = 4096;
	if (u64map_init(&s->files, 1024))
		return ft_error_set(err, path, "out of memory");
	if (u64map_init(&s->uncached, 16)) {
		u64map_free(&s->files);
		return ft_error_set(err, path, "out of memory");
	}
	s->reader = ft_reader_open(path, err);
	if (!s->reader) {
		u64map_free(&s->files);
		u64map_free(&s->uncached);
		return -1;
	}
	return 0;
}

void req_stream_close(struct req_stream *s)
{
	if (s->reader)
		ft_reader_close(s->reader);
	u64map_free(&s->files);
	u64map_free(&s->uncached);
	s->reader = NULL;
}

bool req_stream_truncated(const struct req_stream *s, char *why, size_t len)
{
	struct ft_reader_status st;

	ft_reader_status(s->reader, &st);
	if (!st.truncated)
		return false;
	snprintf(why, len, "%s: trace cut short at byte %llu (%s): exported what was readable",
		 s->path, (unsigned long long)st.good_bytes, st.why);
	return true;
}

/*
 * Starts expanding an access into folio requests; false when it makes none. A damaged access
 * (longer than one system call, past the largest file) makes none: it alone could otherwise
 * ask for 2^52 requests.
 */
static bool start_access(struct req_stream *s, const struct ft_access *a, struct ft_error *err,
			 int *ret)
{
	uint64_t first_page, last_page, *no;
	char why[160], where[128];
	bool added;

	*ret = 0;
	if (ft_access_problem(a, why, sizeof(why))) {
		if (s->damaged++ < EXPORT_SHOW_DAMAGED)
			ft_warn("%s: %s: %s: skipped", s->path,
				ft_reader_where(s->reader, where, sizeof(where)), why);
		return false;
	}
	if (!ft_op_moves_data(a->op) || a->len == 0) {
		s->other_skipped++;
		return false;
	}
	if (a->flags & FT_AF_DIRECT) {
		s->direct_skipped++;	/* O_DIRECT never goes through the page cache */
		return false;
	}
	if (s->uncached.count && u64map_find(&s->uncached, file_key(a->dev, a->ino))) {
		s->uncached_skipped++;	/* nor do the files of procfs and sysfs */
		return false;
	}
	no = u64map_get_or_add(&s->files, file_key(a->dev, a->ino), s->files.count, &added);
	if (!no) {
		*ret = ft_error_set(err, s->path, "out of memory");
		return false;
	}
	if (!s->started) {
		s->started = true;
		s->first_ts = a->hdr.ts;
	}
	first_page = a->pos / s->page_size;
	last_page = (a->pos + a->len - 1) / s->page_size;
	s->file_no = *no;
	s->next_index = first_page >> s->order << s->order;
	s->last_index = last_page >> s->order << s->order;
	s->time_s = a->hdr.ts > s->first_ts ? (a->hdr.ts - s->first_ts) / 1000000000ull : 0;
	s->write = a->op == FT_OP_WRITE || a->op == FT_OP_MMAP_WRITE;
	s->pending = true;
	s->accesses++;
	return true;
}

static void take_host(struct req_stream *s, const struct ft_host *h)
{
	if (h->page_size >= 512 && (h->page_size & (h->page_size - 1)) == 0)
		s->page_size = h->page_size;
	s->host_flags = h->flags;
}

/* A file the replay leaves out (procfs, sysfs) is remembered; false: out of memory. */
static bool note_file(struct req_stream *s, const struct ft_file *f)
{
	bool added;

	return !ft_file_without_page_cache(s->host_flags, f) ||
	       u64map_get_or_add(&s->uncached, file_key(f->dev, f->ino), 1, &added);
}

int req_stream_next(struct req_stream *s, struct export_req *req, struct ft_error *err)
{
	const struct ft_hdr *h;
	int ret;

	while (!s->pending) {
		ret = ft_reader_next(s->reader, &h, err);
		if (ret != FT_READ_MORE)
			return ret == FT_READ_EOF ? 0 : -1;
		if (h->type == FT_HOST)
			take_host(s, (const struct ft_host *)h);
		else if (h->type == FT_FILE && !note_file(s, (const struct ft_file *)h))
			return ft_error_set(err, s->path, "out of memory");
		else if (h->type == FT_ACCESS && !start_access(s, (const void *)h, err, &ret) &&
			 ret < 0)
			return -1;
	}
	req->time_s = s->time_s;
	req->obj_id = lcs_obj_id(s->file_no, s->next_index);
	req->obj_size = s->page_size << s->order;
	req->write = s->write;
	s->next_index += 1ull << s->order;
	if (s->next_index > s->last_index)
		s->pending = false;
	s->requests++;
	return 1;
}
