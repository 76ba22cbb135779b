/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/files.h"
#include "replay/survey.h"
#include "trace/trace.h"

bool survey_parse_target(const char *arg, struct survey_target *t, const char **why)
{
	unsigned maj, min;
	uint64_t ino;
	int end = 0;

	memset(t, 0, sizeof(*t));
	if (!*arg) {
		*why = "expected a path or MAJOR:MINOR:INODE";
		return false;
	}
	if (!strchr(arg, '/') &&
	    sscanf(arg, "%u:%u:%" SCNu64 "%n", &maj, &min, &ino, &end) == 3 && !arg[end]) {
		if (maj >= 1u << 12 || min >= 1u << 20) {
			*why = "device numbers out of range (major below 4096, minor below 2^20)";
			return false;
		}
		t->kind = TARGET_DEVINO;
		t->dev = maj << 20 | min;
		t->ino = ino;
		return true;
	}
	t->kind = TARGET_PATH;
	t->path = arg;
	return true;
}

/* Data accesses, as the heatmap counts them. */
static bool data_access(const struct ft_access *a)
{
	switch (a->op) {
	case FT_OP_READ:
	case FT_OP_WRITE:
	case FT_OP_MMAP_READ:
	case FT_OP_MMAP_WRITE:
		return true;
	default:
		return false;
	}
}

struct per_file {
	uint64_t accesses, extent;
	char *path;		/* as the file's first FT_FILE record names it; NULL: none */
};

static int grow(struct per_file **v, size_t *cap, size_t need)
{
	size_t n = *cap ? *cap : 64;
	struct per_file *p;

	if (need < *cap)
		return 0;
	while (n <= need)
		n *= 2;
	p = realloc(*v, n * sizeof(*p));
	if (!p)
		return -1;
	memset(p + *cap, 0, (n - *cap) * sizeof(*p));
	*v = p;
	*cap = n;
	return 0;
}

int replay_survey(const char *path, const struct survey_target *t, struct survey *out,
		  struct ft_error *err)
{
	struct ft_reader *r = ft_reader_open(path, err);
	struct file_table files;
	struct per_file *pf = NULL;
	size_t cap = 0;
	uint32_t want = FILE_ID_NONE, best = FILE_ID_NONE;
	const struct ft_hdr *h;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!r)
		return -1;
	file_table_init(&files);
	while ((ret = ft_reader_next(r, &h, err)) == FT_READ_MORE) {
		const struct ft_access *a = (const struct ft_access *)h;
		uint32_t id;

		if (h->type == FT_FILE && t->kind != TARGET_NONE) {
			const struct ft_file *f = (const struct ft_file *)h;

			id = file_table_id(&files, f->dev, f->ino);
			if (id == FILE_ID_NONE || grow(&pf, &cap, id) < 0)
				goto oom;
			if (f->path_len && !pf[id].path &&
			    !(pf[id].path = strndup(ft_file_path(f), f->path_len)))
				goto oom;
			if (t->kind == TARGET_PATH && want == FILE_ID_NONE && pf[id].path &&
			    strcmp(pf[id].path, t->path) == 0)
				want = id;
			continue;
		}
		if (ft_is_metadata(h->type))
			continue;
		if (out->any_access && h->ts > out->last_ts)
			out->last_ts = h->ts;
		if (h->type != FT_ACCESS)
			continue;
		if (!out->any_access) {
			out->any_access = true;
			out->first_ts = out->last_ts = h->ts;
		}
		if (t->kind == TARGET_NONE || !data_access(a))
			continue;
		id = file_table_id(&files, a->dev, a->ino);
		if (id == FILE_ID_NONE || grow(&pf, &cap, id) < 0)
			goto oom;
		pf[id].accesses++;
		if (a->pos + a->len > pf[id].extent && a->pos + a->len >= a->pos)
			pf[id].extent = a->pos + a->len;
		if (t->kind == TARGET_DEVINO && a->dev == t->dev && a->ino == t->ino)
			want = id;
		if (best == FILE_ID_NONE || pf[id].accesses > pf[best].accesses)
			best = id;
	}
	if (ret == FT_READ_ERROR)
		goto fail;
	if (t->kind == TARGET_BUSIEST)
		want = best;
	if (want != FILE_ID_NONE && want < cap && pf[want].accesses) {
		out->found = true;
		out->dev = file_table_get(&files, want)->dev;
		out->ino = file_table_get(&files, want)->ino;
		out->accesses = pf[want].accesses;
		out->extent = pf[want].extent;
		if (pf[want].path)
			snprintf(out->path, sizeof(out->path), "%s", pf[want].path);
	}
	ret = 0;
	goto done;
oom:
	ft_error_set(err, path, "out of memory for the file table");
fail:
	ret = -1;
done:
	for (size_t i = 0; i < cap; i++)
		free(pf[i].path);
	free(pf);
	file_table_release(&files);
	ft_reader_close(r);
	return ret;
}

uint64_t survey_interval(uint64_t span_ns)
{
	/* 1, 2 or 5 times a power of ten, at least span/500: 200 to 500 samples */
	uint64_t want = span_ns / 500, step = 1;

	if (want < 1000)
		return 1000;	/* 1 us: below it a trace's timestamps say little */
	while (step < want) {
		if (step * 2 >= want)
			return step * 2;
		if (step * 5 >= want)
			return step * 5;
		step *= 10;
	}
	return step;
}
