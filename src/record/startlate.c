// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Files met in an event before any name (record.h struct ft_start_late). Writeback started
 * by the kernel for a traced task (posix_fadvise(2)'s POSIX_FADV_DONTNEED writes a dirty file
 * through filemap_fdatawrite_range(), mm/fadvise.c, generic_fadvise(), 6.18) names no path:
 * the file is met without one, and its name comes with the access that follows. It is probed
 * then, as a file first met, when nothing of the trace has changed its pages yet; the pages
 * the trace wrote back of it in between were dirty at the start (cachestat(2) counts them
 * clean or under writeback by the probe), so they are counted dirty. A file whose pages the
 * trace inserted, deleted or dirtied first has no start state: readers take it as unknown.
 */
#include <unistd.h>

#include "record/record.h"

#define LATE_DONE	(1ull << 63)	/* named since, or never to be probed */
#define LATE_TOUCHED	(1ull << 62)	/* the trace changed its cache before its name */
#define LATE_PAGES	(LATE_TOUCHED - 1)

void ft_start_late_init(struct ft_start_late *l)
{
	u64map_init(&l->files, 16);	/* ENOMEM here: the first file's insertion fails */
	l->pending = 0;
}

void ft_start_late_free(struct ft_start_late *l)
{
	u64map_free(&l->files);
}

int ft_start_late_met(struct ft_start_late *l, __u32 dev, __u64 ino)
{
	bool added;

	if (!u64map_get_or_add(&l->files, file_key(dev, ino), 0, &added))
		return -1;
	if (added)
		l->pending++;
	return 0;
}

/* Pages of one FT_WRITEBACK record, of the kinds that count each page once. */
static __u64 written_pages(const struct ft_writeback *w)
{
	__u64 page = (__u64)sysconf(_SC_PAGESIZE);

	switch (w->kind) {
	case FT_WB_EXT4:
		return w->nr_pages;
	case FT_WB_IOMAP:
	case FT_WB_BTRFS:
		return (w->nr_pages + page - 1) / page;	/* bytes */
	default:
		return 0;	/* per bdi, or the same pages again (writeback_single_inode) */
	}
}

/* Whether an event changes a file's cache: its key in *key, pages written back in *written. */
static bool event_file(const struct ft_hdr *h, uint64_t *key, __u64 *written)
{
	*written = 0;
	switch (h->type) {
	case FT_PAGECACHE_ADD:
	case FT_PAGECACHE_DELETE:
	case FT_FOLIO_DIRTY: {
		const struct ft_folio_event *e = (const void *)h;

		*key = file_key(e->dev, e->ino);
		return true;
	}
	case FT_ACCESS: {
		const struct ft_access *a = (const void *)h;

		if (a->op != FT_OP_WRITE && a->op != FT_OP_MMAP_WRITE &&
		    a->op != FT_OP_TRUNCATE && a->op != FT_OP_FALLOCATE)
			return false;
		*key = file_key(a->dev, a->ino);
		return true;
	}
	case FT_WRITEBACK: {
		const struct ft_writeback *w = (const void *)h;

		*written = written_pages(w);
		*key = file_key(w->dev, w->ino);
		return w->ino && *written;
	}
	default:
		return false;
	}
}

void ft_start_late_event(struct ft_start_late *l, const struct ft_hdr *h)
{
	__u64 written;
	uint64_t key, *v;

	if (!l->pending || !event_file(h, &key, &written))
		return;
	v = u64map_find(&l->files, key);
	if (!v || (*v & LATE_DONE))
		return;
	if (!written)
		*v |= LATE_TOUCHED;
	else if ((*v & LATE_PAGES) + written <= LATE_PAGES)
		*v += written;
}

bool ft_start_late_named(struct ft_start_late *l, __u32 dev, __u64 ino, __u64 *dirty)
{
	uint64_t *v = l->pending ? u64map_find(&l->files, file_key(dev, ino)) : NULL;
	bool probe;

	if (!v || (*v & LATE_DONE))
		return false;
	probe = !(*v & LATE_TOUCHED);
	*dirty = *v & LATE_PAGES;
	*v = LATE_DONE;
	l->pending--;
	return probe;
}
