/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Ring buffer -> trace. BPF records are already in their trace layout and go through as they
 * are; the private path record becomes FT_FILE. Every event naming a file is preceded, once,
 * by an FT_FILE for its (dev, ino), and every task by an FT_CGROUP for its memory cgroup, so
 * readers always know a file or cgroup before its first mention.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "record/record.h"
#include "util/hash.h"
#include "../../bpf/record.h"

void ft_consumer_init(struct ft_consumer *c, struct ft_writer *w, const struct ft_mounts *ms,
		      bool no_paths)
{
	memset(c, 0, sizeof(*c));
	c->w = w;
	c->mounts = ms;
	c->no_paths = no_paths;
	ft_idset_init(&c->files);
	u64map_init(&c->gens, 64);	/* ENOMEM here: the first file's lookup fails */
	u64map_init(&c->unnamed, 16);
	u64map_init(&c->opens, 64);
	ft_start_late_init(&c->late);
	c->hold.since_realtime_ns = ft_realtime_ns();
	ft_cgroups_init(&c->cgroups, ms);
}

void ft_consumer_fini(struct ft_consumer *c)
{
	ft_start_hold_free(&c->hold);
	ft_start_late_free(&c->late);
	ft_idset_free(&c->files);
	u64map_free(&c->gens);
	u64map_free(&c->unnamed);
	u64map_free(&c->opens);
	ft_cgroups_free(&c->cgroups);
}

/*
 * The components come leaf first; the path is the mount point followed by them in reverse.
 * A walk that did not reach the filesystem root is marked with a leading "...".
 */
static void build_path(const struct ft_consumer *c, const struct ft_priv_path *p, char *out,
		       size_t len)
{
	const struct ft_mount *m = ft_mounts_find(c->mounts, p->dev);
	const char *comp[FT_PATH_DEPTH];
	const char *names = p->names, *end = p->names + sizeof(p->names);
	size_t n = 0, o;

	for (unsigned i = 0; i < p->depth && i < FT_PATH_DEPTH && names < end; i++) {
		comp[n++] = names;
		names += strnlen(names, (size_t)(end - names)) + 1;
	}
	if (p->truncated)
		o = (size_t)snprintf(out, len, "...");
	else if (m && strcmp(m->dir, "/") != 0)
		o = (size_t)snprintf(out, len, "%s", m->dir);
	else if (m)
		o = (size_t)snprintf(out, len, "%s", "");
	else
		o = (size_t)snprintf(out, len, "dev%u:%u:", p->dev >> 20, p->dev & 0xfffff);
	while (n-- > 0 && o < len)
		o += (size_t)snprintf(out + o, len - o, "/%.*s", FT_NAME_MAX, comp[n]);
}

/*
 * Its pages cached before the trace, when the file can be opened by its path; dirty: pages the
 * trace wrote back of it before.
 */
static int probe_start(struct ft_consumer *c, const char *path, __u32 dev, __u64 ino,
		       __u64 dirty)
{
	if (c->no_start_cache || path[0] != '/')
		return 0;	/* "..." or dev0:0: a walk that did not reach a mount point */
	return ft_start_hold_probe(&c->hold, path, dev, ino, dirty);
}


/*
 * The generation of (dev, ino) as its latest name had it: 1 when it is another's now (the
 * number was reused), 0 when the same or first met, -1 on ENOMEM.
 */
static int generation_changed(struct ft_consumer *c, const struct ft_priv_path *p)
{
	bool added;
	uint64_t *gen = u64map_get_or_add(&c->gens, file_key(p->dev, p->ino),
					  (uint64_t)p->gen + 1, &added);

	if (!gen)
		return -1;
	if (added || *gen == (uint64_t)p->gen + 1)
		return 0;
	*gen = (uint64_t)p->gen + 1;
	return 1;
}

static int write_record(struct ft_consumer *c, const struct ft_hdr *h);

/*
 * A file met before in an event without a path, named now: FT_FILE again with the path
 * (FT_FILE_NAMED), and probed if the trace has not changed its pages. The path is built once,
 * only when either needs it.
 */
static int file_named_late(struct ft_consumer *c, const struct ft_priv_path *p)
{
	uint64_t *unnamed = u64map_find(&c->unnamed, file_key(p->dev, p->ino));
	char path[FT_PATH_NAMES + 512];
	union ft_file_buf buf;
	__u64 dirty = 0;
	bool probe = ft_start_late_named(&c->late, p->dev, p->ino, &dirty);
	bool name = unnamed && *unnamed && !c->no_paths;

	if (!p->depth || (!probe && !name))
		return 0;
	build_path(c, p, path, sizeof(path));
	/* a walk that did not reach a mount point names nothing: wait for a better one */
	if (name && path[0] == '/') {
		*unnamed = 0;
		if (write_record(c, ft_file_build(&buf, p->hdr.ts, p->dev, p->ino, p->size, path,
						  FT_FILE_NAMED)))
			return -1;
	}
	return probe ? probe_start(c, path, p->dev, p->ino, dirty) : 0;
}

static int file_named(struct ft_consumer *c, const struct ft_priv_path *p)
{
	char path[FT_PATH_NAMES + 512];
	union ft_file_buf buf;
	int added = ft_idset_add(&c->files, p->dev, p->ino);
	int reused = added >= 0 ? generation_changed(c, p) : 0;

	if (added < 0 || reused < 0)
		return -1;
	if (!added && !reused)
		return file_named_late(c, p);
	path[0] = '\0';
	if (!c->no_paths && p->depth)
		build_path(c, p, path, sizeof(path));
	/* in its place among held records: before the new file's events, after the old one's */
	if (write_record(c, ft_file_build(&buf, p->hdr.ts, p->dev, p->ino, p->size,
					  path[0] ? path : NULL, reused ? FT_FILE_REUSED : 0)))
		return -1;
	return probe_start(c, path, p->dev, p->ino, 0);
}

int ft_consumer_file_at_start(struct ft_consumer *c, const char *path, __u32 dev, __u64 ino,
			      __u64 size, __u64 ts)
{
	union ft_file_buf buf;
	int added = ft_idset_add(&c->files, dev, ino);

	if (added <= 0)
		return added;
	if (write_record(c, ft_file_build(&buf, ts, dev, ino, size, c->no_paths ? NULL : path, 0)))
		return -1;
	return probe_start(c, path, dev, ino, 0);
}

/* A record for the trace: held while a probe waits for the events before it. */
static int write_record(struct ft_consumer *c, const struct ft_hdr *h)
{
	if (!ft_start_hold_active(&c->hold))
		return ft_writer_append(c->w, h, &c->err);
	if (ft_start_hold_record(&c->hold, h) < 0)
		return -1;
	if (ft_start_hold_full(&c->hold))
		return ft_start_hold_flush(&c->hold, c->w, &c->err);
	return 0;
}

int ft_consumer_settle(struct ft_consumer *c, __u64 drain_start)
{
	struct ft_start_hold *h = &c->hold;

	for (size_t i = 0; i < h->np; i++)
		if (h->p[i].sc.hdr.ts >= drain_start)
			return 0;
	if (!ft_start_hold_active(h))
		return 0;
	if (ft_start_hold_flush(h, c->w, &c->err) < 0) {
		c->failed = true;
		return -1;
	}
	return 0;
}

/* A file first met in an event rather than at open: FT_FILE without a path. */
static int file_seen(struct ft_consumer *c, __u64 ts, __u32 dev, __u64 ino, __u64 size)
{
	union ft_file_buf buf;
	int added;

	if (ino == c->last_ino && dev == c->last_dev && ino)
		return 0;
	added = ft_idset_add(&c->files, dev, ino);
	if (added < 0)
		return added;
	c->last_dev = dev;
	c->last_ino = ino;
	if (!added)
		return 0;
	if (!c->no_start_cache && ft_start_late_met(&c->late, dev, ino) < 0)
		return -1;
	if (!c->no_paths && !u64map_get_or_add(&c->unnamed, file_key(dev, ino), 1, &(bool){ 0 }))
		return -1;
	return write_record(c, ft_file_build(&buf, ts, dev, ino, size, NULL, 0));
}

/* The file an event names, if any. */
static int describe_file(struct ft_consumer *c, const struct ft_hdr *h)
{
	switch (h->type) {
	case FT_ACCESS: {
		const struct ft_access *a = (const void *)h;

		if (a->op == FT_OP_SYNC || a->op == FT_OP_SYNCFS)
			return 0;	/* no file: a file system, or all of them */
		return file_seen(c, h->ts, a->dev, a->ino, a->isize);
	}
	case FT_PAGECACHE_ADD:
	case FT_PAGECACHE_DELETE:
	case FT_PAGECACHE_REFAULT:
	case FT_PAGECACHE_ACTIVATE:
	case FT_FOLIO_DIRTY: {
		const struct ft_folio_event *e = (const void *)h;

		return file_seen(c, h->ts, e->dev, e->ino, 0);
	}
	case FT_WRITEBACK: {
		const struct ft_writeback *w = (const void *)h;

		return w->ino ? file_seen(c, h->ts, w->dev, w->ino, 0) : 0;
	}
	case FT_READAHEAD: {
		const struct ft_readahead *r = (const void *)h;

		return file_seen(c, h->ts, r->dev, r->ino, 0);
	}
	default:
		return 0;
	}
}

/* The memory cgroup a task record names, if it is new. */
static int describe_cgroup(struct ft_consumer *c, const struct ft_hdr *h)
{
	if (h->type != FT_TASK)
		return 0;
	return ft_cgroups_name(&c->cgroups, c->w, h->ts, ft_task_cgroup((const void *)h),
			       &c->err);
}

/*
 * truncate(2) by path: stat it now (relative paths from the process's cwd). A file renamed or
 * removed in between is lost to the trace, like a lost event, but silently: rare enough.
 */
static int truncate_resolved(struct ft_consumer *c, const struct ft_priv_truncate *t)
{
	char path[FT_TRUNC_PATH + 64];
	struct ft_access a;
	struct stat st;
	int rc;

	if (t->path[0] == '/')
		snprintf(path, sizeof(path), "%.*s", FT_TRUNC_PATH, t->path);
	else
		snprintf(path, sizeof(path), "/proc/%u/cwd/%.*s", t->pid, FT_TRUNC_PATH, t->path);
	if (stat(path, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	memset(&a, 0, sizeof(a));
	a.hdr = t->hdr;
	a.hdr.type = FT_ACCESS;
	a.hdr.size = sizeof(a);
	a.dev = ft_kdev(st.st_dev);
	a.ino = st.st_ino;
	if (c->dev_set && a.dev != c->dev)
		return 0;
	a.op = FT_OP_TRUNCATE;
	a.pos = t->length;
	a.isize = (__u64)st.st_size;
	rc = ft_idset_add(&c->files, a.dev, a.ino);
	if (rc > 0)
		rc = ft_writer_file(c->w, a.hdr.ts, a.dev, a.ino, a.isize,
				    c->no_paths || t->path[0] != '/' ? NULL : path, &c->err);
	if (rc < 0)
		return rc;
	c->events++;
	return write_record(c, &a.hdr);
}

/* A traced task opened a file: the accesses through its number from now on are a new open's. */
static int file_opened(struct ft_consumer *c, const struct ft_priv_open *o)
{
	bool added;
	uint64_t *opens = u64map_get_or_add(&c->opens, o->ofile, 0, &added);

	if (!opens)
		return -1;
	++*opens;
	return 0;
}

/*
 * An access through a struct file opened during the recording, in *copy with the number of
 * its open (BPF numbers a struct file by its address alone, which the next open after a close
 * often gets again): false when the access keeps its number, an open file's before any open
 * was seen at its address.
 */
static bool numbered_by_open(const struct ft_consumer *c, const struct ft_hdr *h,
			     struct ft_access *copy)
{
	const uint64_t *opens;
	uint32_t ofile;

	if (h->type != FT_ACCESS || !c->opens.count || h->size != sizeof(*copy))
		return false;
	ofile = ((const struct ft_access *)h)->ofile;
	if (!ofile || !(opens = u64map_find(&c->opens, ofile)))
		return false;
	memcpy(copy, h, sizeof(*copy));
	ofile = (uint32_t)(ft_hash64((uint64_t)ofile << 32 | *opens) >> 32);
	copy->ofile = ofile ? ofile : 1;
	return true;
}

int ft_consumer_handle(void *ctx, void *data, size_t size)
{
	struct ft_consumer *c = ctx;
	const struct ft_hdr *h = data;
	struct ft_access renumbered;	/* an access with its open's number: the ring is read-only */
	int rc;

	if (c->failed)
		return -1;
	if (size < sizeof(*h) || h->size > size)
		return 0;	/* cannot happen: BPF always fills whole records */
	if (h->type == FT_PRIV_PATH)
		rc = file_named(c, data);
	else if (h->type == FT_PRIV_TRUNCATE)
		rc = truncate_resolved(c, data);
	else if (h->type == FT_PRIV_OPEN)
		rc = file_opened(c, data);
	else if ((rc = describe_cgroup(c, h)) >= 0 && (rc = describe_file(c, h)) >= 0) {
		if (numbered_by_open(c, h, &renumbered))
			h = &renumbered.hdr;
		ft_start_late_event(&c->late, h);
		rc = write_record(c, h);
	}
	if (rc < 0) {
		if (!c->err.msg[0])
			snprintf(c->err.msg, sizeof(c->err.msg), "record: out of memory");
		c->failed = true;
		return -1;
	}
	if (h->type < FT_TYPE_MAX && !ft_is_metadata(h->type))
		c->events++;
	return 0;
}
