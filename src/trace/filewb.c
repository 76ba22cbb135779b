/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "trace/filewb.h"
#include "trace/trace.h"

int ft_filewb_init(struct ft_filewb *t)
{
	memset(t, 0, sizeof(*t));
	t->page_size = 4096;
	return u64map_init(&t->index, 1024);
}

void ft_filewb_free(struct ft_filewb *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->files[i].path);
	free(t->files);
	free(t->devs);
	u64map_free(&t->index);
}

/* renew: (dev, ino) names a new file from here on (FT_FILE_REUSED): a row of its own. */
static struct ft_file_wb *file_get(struct ft_filewb *t, __u32 dev, __u64 ino, bool renew)
{
	bool added;
	uint64_t *slot = u64map_get_or_add(&t->index, file_key(dev, ino), t->n, &added);

	if (!slot)
		return NULL;
	if (!added && !renew)
		return &t->files[*slot];
	*slot = t->n;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct ft_file_wb *f = realloc(t->files, cap * sizeof(*f));

		if (!f)
			return NULL;
		t->files = f;
		t->cap = cap;
	}
	t->files[t->n] = (struct ft_file_wb){ .dev = dev, .ino = ino };
	return &t->files[t->n++];
}

const struct ft_file_wb *ft_filewb_find(const struct ft_filewb *t, __u32 dev, __u64 ino)
{
	const uint64_t *slot = u64map_find(&t->index, file_key(dev, ino));

	return slot ? &t->files[*slot] : NULL;
}

static bool memory_fs(const char *fstype)
{
	static const char *const memory[] = { "tmpfs", "ramfs", "devtmpfs" };

	for (size_t i = 0; i < sizeof(memory) / sizeof(memory[0]); i++)
		if (strcmp(fstype, memory[i]) == 0)
			return true;
	return false;
}

enum ft_wb_count ft_filewb_count(const struct ft_filewb *t, __u32 dev)
{
	for (size_t i = 0; i < t->ndevs; i++)
		if (t->devs[i].dev == dev && memory_fs(t->devs[i].fstype))
			return FT_WB_COUNT_NONE;
	for (size_t i = 0; i < t->ncounted; i++)
		if (t->counted[i] == dev)
			return FT_WB_COUNT_KERNEL;
	return FT_WB_COUNT_UNKNOWN;
}

static void note_counted(struct ft_filewb *t, __u32 dev)
{
	size_t max = sizeof(t->counted) / sizeof(t->counted[0]);

	for (size_t i = 0; i < t->ncounted; i++)
		if (t->counted[i] == dev)
			return;
	if (t->ncounted < max)
		t->counted[t->ncounted++] = dev;
}

static int note_host(struct ft_filewb *t, const struct ft_host *h)
{
	if (t->devs)
		return 0;	/* the first host record describes the recording */
	t->page_size = h->page_size ? h->page_size : 4096;
	t->devs = calloc(h->ndevs ? h->ndevs : 1, sizeof(*t->devs));
	if (!t->devs)
		return -1;
	memcpy(t->devs, ft_host_devs(h), h->ndevs * sizeof(*t->devs));
	for (size_t i = 0; i < h->ndevs; i++)
		t->devs[i].fstype[FT_FSTYPE_LEN - 1] = '\0';
	t->ndevs = h->ndevs;
	return 0;
}

/*
 * The path kept of a file: at most FILEWB_PATH_KEEP bytes, then "...". No kernel passes a
 * longer one to a system call; a damaged or crafted trace may hold thousands of 64 KiB ones,
 * which kept whole would take gigabytes for a line of the table each.
 */
static char *kept_path(const struct ft_file *r)
{
	size_t len = r->path_len > FILEWB_PATH_KEEP ? FILEWB_PATH_KEEP : r->path_len;
	bool cut = len < r->path_len;
	char *p = malloc(len + (cut ? 4 : 1));

	if (!p)
		return NULL;
	memcpy(p, ft_file_path(r), len);
	p[len] = '\0';
	/* a NUL inside ends the path as strndup() ended it */
	if (cut && strlen(p) == len)
		memcpy(p + len, "...", 4);
	return p;
}

static int note_file(struct ft_filewb *t, const struct ft_file *r)
{
	struct ft_file_wb *f = file_get(t, r->dev, r->ino, r->flags & FT_FILE_REUSED);

	if (!f)
		return -1;
	if (!f->path && r->path_len) {
		f->path = kept_path(r);
		if (!f->path)
			return -1;
	}
	return 0;
}

__u64 ft_writeback_file_bytes(const struct ft_writeback *w, __u32 page_size)
{
	switch (w->kind) {
	case FT_WB_IOMAP:
	case FT_WB_BTRFS:
		return w->nr_pages;
	case FT_WB_EXT4:
		return w->nr_pages * page_size;
	default:
		return 0;	/* the flusher's view: it misses writeback fsync started */
	}
}

int ft_filewb_note(struct ft_filewb *t, const struct ft_hdr *h)
{
	struct ft_file_wb *f;

	switch (h->type) {
	case FT_HOST:
		return note_host(t, (const void *)h);
	case FT_FILE:
		return note_file(t, (const void *)h);
	case FT_ACCESS: {
		const struct ft_access *a = (const void *)h;

		if (a->op != FT_OP_WRITE)
			return 0;
		f = file_get(t, a->dev, a->ino, false);
		if (!f)
			return -1;
		f->written += a->len;
		return 0;
	}
	case FT_WRITEBACK: {
		const struct ft_writeback *w = (const void *)h;
		__u64 bytes = ft_writeback_file_bytes(w, t->page_size);

		if (!bytes || !w->ino)
			return 0;
		note_counted(t, w->dev);
		f = file_get(t, w->dev, w->ino, false);
		if (!f)
			return -1;
		f->written_back += bytes;
		return 0;
	}
	default:
		return 0;
	}
}
