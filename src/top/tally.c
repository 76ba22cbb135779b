/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Sums the records of a trace per row. A page inserted into the cache counts as a miss, as
 * cachestat counts it: whether a read, readahead or a write of new data put it there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "top/tally.h"
#include "util/grow.h"
#include "trace/filewb.h"
#include "trace/trace.h"

const char *const top_by_names[3] = {
	[TOP_BY_FILE] = "file", [TOP_BY_PROCESS] = "process", [TOP_BY_CGROUP] = "cgroup",
};

bool top_by_parse(const char *s, enum top_by *out)
{
	for (unsigned i = 0; i < sizeof(top_by_names) / sizeof(top_by_names[0]); i++) {
		if (strcmp(s, top_by_names[i]) == 0) {
			*out = (enum top_by)i;
			return true;
		}
	}
	return false;
}

int top_tally_init(struct top_tally *t, enum top_by by)
{
	memset(t, 0, sizeof(*t));
	t->by = by;
	t->page_size = 4096;
	t->refault_index = -1;
	if (u64map_init(&t->row_of, 64) || u64map_init(&t->file_name, 64) ||
	    u64map_init(&t->file_gen, 64) ||
	    u64map_init(&t->task_pid, 64) || u64map_init(&t->pid_comm, 64) ||
	    u64map_init(&t->task_cgroup, 64) || u64map_init(&t->cgroup_name, 16)) {
		top_tally_release(t);
		return -1;
	}
	return 0;
}

void top_tally_release(struct top_tally *t)
{
	u64map_free(&t->row_of);
	u64map_free(&t->file_name);
	u64map_free(&t->file_gen);
	u64map_free(&t->task_pid);
	u64map_free(&t->pid_comm);
	u64map_free(&t->task_cgroup);
	u64map_free(&t->cgroup_name);
	free(t->rows);
	free(t->names);
	t->rows = NULL;
	t->names = NULL;
}

/* A name kept for later rows; its index + 1, or 0 when out of memory. */
static uint64_t keep_name(struct top_tally *t, const char *name, size_t len)
{
	char (*n)[TOP_NAME_LEN] = ft_grow(t->names, &t->cap_names, t->nnames, sizeof(*n), 64);

	if (!n)
		return 0;
	t->names = n;
	if (len >= TOP_NAME_LEN)	/* the end of a path tells files apart best */
		name += len - (TOP_NAME_LEN - 1), len = TOP_NAME_LEN - 1;
	memcpy(t->names[t->nnames], name, len);
	t->names[t->nnames][len] = '\0';
	return ++t->nnames;
}

/* The generation of (dev, ino) now: how many files took the number after its first. */
static uint64_t file_gen(const struct top_tally *t, uint32_t dev, uint64_t ino)
{
	const uint64_t *g = u64map_find(&t->file_gen, file_key(dev, ino));

	return g ? *g : 0;
}

static int remember_file(struct top_tally *t, const struct ft_file *f)
{
	uint64_t *slot, gen = 0;
	bool added;

	if (f->flags & FT_FILE_REUSED) {
		uint64_t *g = u64map_get_or_add(&t->file_gen, file_key(f->dev, f->ino), 0, &added);

		if (!g)
			return -1;
		gen = ++*g;
	} else {
		gen = file_gen(t, f->dev, f->ino);
	}
	if (!f->path_len)
		return 0;
	slot = u64map_get_or_add(&t->file_name, tally_file_key(f->dev, f->ino, gen), 0, &added);
	if (!slot)
		return -1;
	if (!*slot && !(*slot = keep_name(t, ft_file_path(f), f->path_len)))
		return -1;
	/* named after its first events (FT_FILE_NAMED): its row, by file, takes the name */
	if ((f->flags & FT_FILE_NAMED) && t->by == TOP_BY_FILE) {
		const uint64_t *row = u64map_find(&t->row_of, tally_file_key(f->dev, f->ino, gen));

		if (row)
			snprintf(t->rows[*row - 1].name, sizeof(t->rows[*row - 1].name), "%s",
				 t->names[*slot - 1]);
	}
	return 0;
}

static int remember_task(struct top_tally *t, const struct ft_task *k)
{
	uint64_t *pid = u64map_get_or_add(&t->task_pid, k->hdr.tid, k->pid, &(bool){ 0 });
	uint64_t *comm, cgroup = ft_task_cgroup(k);

	if (!pid)
		return -1;
	*pid = k->pid;
	comm = u64map_get_or_add(&t->pid_comm, k->pid, 0, &(bool){ 0 });
	if (!comm)
		return -1;
	if (!*comm && !(*comm = keep_name(t, k->comm, strnlen(k->comm, FT_COMM_LEN))))
		return -1;
	if (cgroup) {
		uint64_t *cg = u64map_get_or_add(&t->task_cgroup, k->hdr.tid, 0, &(bool){ 0 });

		if (!cg)
			return -1;
		*cg = cgroup;
	}
	return 0;
}

/* A cgroup with no path was gone before the recorder could look it up: its id stands in. */
static int remember_cgroup(struct top_tally *t, const struct ft_cgroup *c)
{
	char gone[48];
	const char *name = ft_cgroup_path(c);
	size_t len = c->path_len;
	uint64_t *slot;

	if (!c->id)
		return 0;
	if (!len) {
		snprintf(gone, sizeof(gone), "cgroup id %llu", (unsigned long long)c->id);
		name = gone;
		len = strlen(gone);
	}
	slot = u64map_get_or_add(&t->cgroup_name, c->id, 0, &(bool){ 0 });
	if (!slot || (!*slot && !(*slot = keep_name(t, name, len))))
		return -1;
	return 0;
}

/* FNV-1a: a cgroup path as a row key. */
static uint64_t name_key(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

uint64_t top_tally_cgroup_of(const struct top_tally *t, uint32_t tid)
{
	const uint64_t *id = u64map_find(&t->task_cgroup, tid);

	return id ? *id : 0;
}

uint64_t top_tally_cgroup_key(const struct top_tally *t, uint64_t id, uint32_t pid, char *name,
			      unsigned len)
{
	const uint64_t *nm = id ? u64map_find(&t->cgroup_name, id) : NULL;

	if (nm)
		snprintf(name, len, "%s", t->names[*nm - 1]);
	else if (t->cgroup_of)
		t->cgroup_of(pid, name, len);
	else
		snprintf(name, len, "?");
	return name_key(name);
}

/* The row an event of thread tid on file (dev, ino) counts in; NULL when out of memory. */
static struct top_row *row_for(struct top_tally *t, uint32_t tid, uint32_t dev, uint64_t ino)
{
	char name[TOP_NAME_LEN];
	uint64_t key, *slot, *pid = u64map_find(&t->task_pid, tid), *nm;
	uint32_t p = pid ? (uint32_t)*pid : tid;
	struct top_row *r;
	bool added;

	switch (t->by) {
	case TOP_BY_FILE:
		key = tally_file_key(dev, ino, file_gen(t, dev, ino));
		nm = u64map_find(&t->file_name, key);
		if (nm)
			snprintf(name, sizeof(name), "%s", t->names[*nm - 1]);
		else
			snprintf(name, sizeof(name), "%u:%u ino %llu", dev >> 20, dev & 0xfffff,
				 (unsigned long long)ino);
		break;
	case TOP_BY_PROCESS:
		key = p;
		nm = u64map_find(&t->pid_comm, p);
		snprintf(name, sizeof(name), "%u %s", p, nm ? t->names[*nm - 1] : "?");
		break;
	default:
		key = top_tally_cgroup_key(t, top_tally_cgroup_of(t, tid), p, name,
					   sizeof(name));
		break;
	}
	slot = u64map_get_or_add(&t->row_of, key, 0, &added);
	if (!slot)
		return NULL;
	if (*slot)
		return &t->rows[*slot - 1];
	r = ft_grow(t->rows, &t->cap, t->nrows, sizeof(*r), 64);
	if (!r)
		return NULL;
	t->rows = r;
	r = &t->rows[t->nrows];
	memset(r, 0, sizeof(*r));
	r->key = key;
	memcpy(r->name, name, sizeof(name));
	*slot = ++t->nrows;
	return r;
}

/* Adds one figure to a row, interval and total, and to the system's. */
#define COUNT(t, r, field, n)						\
	do {								\
		uint64_t n_ = (n);					\
		(r)->now.field += n_;					\
		(r)->total.field += n_;					\
		(t)->all_now.field += n_;				\
		(t)->all_total.field += n_;				\
	} while (0)

static uint64_t pages_spanned(uint64_t pos, uint64_t len, uint32_t page_size)
{
	return len ? (pos + len - 1) / page_size - pos / page_size + 1 : 0;
}

static void count_access(struct top_tally *t, struct top_row *r, const struct ft_access *a)
{
	if (a->flags & FT_AF_DIRECT)
		return;		/* the page cache never saw it */
	switch (a->op) {
	case FT_OP_READ:
		COUNT(t, r, read_bytes, a->len);
		COUNT(t, r, accessed_pages, pages_spanned(a->pos, a->len, t->page_size));
		break;
	case FT_OP_WRITE:
		COUNT(t, r, write_bytes, a->len);
		break;
	case FT_OP_MMAP_READ:
		COUNT(t, r, mmap_pages, pages_spanned(a->pos, a->len, t->page_size));
		COUNT(t, r, accessed_pages, pages_spanned(a->pos, a->len, t->page_size));
		break;
	}
}

static void count_folio(struct top_tally *t, struct top_row *r, const struct ft_folio_event *e)
{
	unsigned order = e->order < TOP_ORDERS - 1 ? e->order : TOP_ORDERS - 1;
	uint64_t pages = e->order < TOP_ORDERS - 1 ? 1ull << e->order : 1;

	switch (e->hdr.type) {
	case FT_PAGECACHE_ADD:
		COUNT(t, r, inserted[order], 1);
		COUNT(t, r, inserted_pages, pages);
		break;
	case FT_PAGECACHE_DELETE:
		COUNT(t, r, evicted_pages, pages);
		break;
	case FT_PAGECACHE_REFAULT:
		COUNT(t, r, refaulted_pages, pages);
		break;
	case FT_FOLIO_DIRTY:
		COUNT(t, r, dirtied_bytes, pages * t->page_size);
		break;
	}
}

/*
 * The bytes of a file's data its file system wrote back by its own count (ext4, xfs' iomap,
 * btrfs; fsync's included), as info and calibrate count them; the flusher's per-inode
 * events miss what fsync wrote, so they count nothing here.
 */
static void count_writeback(struct top_tally *t, struct top_row *r, const struct ft_writeback *w)
{
	COUNT(t, r, written_back_bytes, ft_writeback_file_bytes(w, t->page_size));
}

static void count_vmscan(struct top_tally *t, const struct ft_vmscan *v)
{
	struct top_system *s[2] = { &t->sys_now, &t->sys_total };

	for (unsigned i = 0; i < 2; i++) {
		switch (v->kind) {
		case FT_VM_SHRINK_INACTIVE:
			s[i]->reclaim_scanned += v->nr_scanned;
			s[i]->reclaim_reclaimed += v->nr_reclaimed;
			break;
		case FT_VM_KSWAPD_WAKE:
			s[i]->kswapd_wakes++;
			break;
		case FT_VM_DIRECT_RECLAIM:
			s[i]->direct_reclaims++;
			break;
		}
	}
}

/* Refaults between two vmstat samples. */
static void count_counters(struct top_tally *t, const struct ft_hdr *h)
{
	if (h->type == FT_COUNTER_NAMES) {
		const struct ft_counter_names *n = (const void *)h;

		if (n->source == FT_SRC_VMSTAT)
			t->refault_index = ft_counter_index(n, "workingset_refault_file");
		return;
	}
	const struct ft_counters *c = (const void *)h;
	uint64_t v;

	if (c->source != FT_SRC_VMSTAT || t->refault_index < 0 || t->refault_index >= c->count)
		return;
	v = ft_counters_values(c)[t->refault_index];
	if (t->have_refaults && v >= t->last_refaults) {
		t->sys_now.refaults += v - t->last_refaults;
		t->sys_total.refaults += v - t->last_refaults;
	}
	t->last_refaults = v;
	t->have_refaults = true;
}

int top_tally_add(struct top_tally *t, const struct ft_hdr *h)
{
	struct top_row *r;

	t->records++;
	switch (h->type) {
	case FT_HOST:
		if (((const struct ft_host *)h)->page_size)
			t->page_size = ((const struct ft_host *)h)->page_size;
		return 0;
	case FT_FILE:
		return remember_file(t, (const void *)h);
	case FT_TASK:
		return remember_task(t, (const void *)h);
	case FT_CGROUP:
		return remember_cgroup(t, (const void *)h);
	case FT_COUNTER_NAMES:
	case FT_COUNTERS:
		count_counters(t, h);
		return 0;
	case FT_LOST:
		t->sys_now.lost += ((const struct ft_lost *)h)->count;
		t->sys_total.lost += ((const struct ft_lost *)h)->count;
		return 0;
	case FT_VMSCAN:
		count_vmscan(t, (const void *)h);
		return 0;
	case FT_ACCESS: {
		const struct ft_access *a = (const void *)h;

		if (!(r = row_for(t, h->tid, a->dev, a->ino)))
			return -1;
		count_access(t, r, a);
		return 0;
	}
	case FT_PAGECACHE_ADD:
	case FT_PAGECACHE_DELETE:
	case FT_PAGECACHE_REFAULT:
	case FT_FOLIO_DIRTY: {
		const struct ft_folio_event *e = (const void *)h;

		if (!(r = row_for(t, h->tid, e->dev, e->ino)))
			return -1;
		count_folio(t, r, e);
		return 0;
	}
	case FT_WRITEBACK: {
		const struct ft_writeback *w = (const void *)h;

		if (!w->ino || !ft_writeback_file_bytes(w, t->page_size))
			return 0;	/* per device, or not a file system's count */
		if (!(r = row_for(t, h->tid, w->dev, w->ino)))
			return -1;
		count_writeback(t, r, w);
		return 0;
	}
	case FT_READAHEAD: {
		const struct ft_readahead *ra = (const void *)h;

		if (!(r = row_for(t, h->tid, ra->dev, ra->ino)))
			return -1;
		/* sync and async: a readahead decided; ra_order: the window it read */
		if (ra->kind == FT_RA_SYNC || ra->kind == FT_RA_ASYNC)
			COUNT(t, r, readaheads, 1);
		else if (ra->kind == FT_RA_ORDER) {
			COUNT(t, r, readahead_windows, 1);
			COUNT(t, r, readahead_pages, ra->size);
		}
		return 0;
	}
	}
	return 0;
}

void top_tally_next_interval(struct top_tally *t)
{
	for (uint32_t i = 0; i < t->nrows; i++)
		memset(&t->rows[i].now, 0, sizeof(t->rows[i].now));
	memset(&t->all_now, 0, sizeof(t->all_now));
	memset(&t->sys_now, 0, sizeof(t->sys_now));
}
