// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The start state of each file as it was before its first event (record.h struct
 * ft_start_hold). The probe runs when the consumer meets the file, a moment after the tasks
 * did: by then their first reads may have inserted pages. The ring buffer is one queue, so
 * every event the kernel made before the probe is read before those it made after: until a
 * drain of the buffer begun after the probe, the records are held here, the file's
 * FT_PAGECACHE_ADD events (and writes, which tmpfs makes without one) before the probe take
 * their pages out of its start state and its FT_PAGECACHE_DELETE events put back those the
 * trace had not inserted; then the start state goes into the trace in the place of its file's
 * first event, and the held records after it. A file born after the recording began has no
 * start state at all.
 */
#define _GNU_SOURCE		/* statx() */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record.h"

#define HOLD_BYTES_MAX	(8u << 20)	/* held records beyond this settle the probes early */
#define HOLD_PROBES_MAX	4096u

/* A held placeholder for a probe's FT_START_CACHE records: never written as such. */
struct slot_rec {
	struct ft_hdr hdr;
	__u64 index;
};

#define FT_PRIV_START_SLOT 0x8003

static void probe_free(struct ft_start_probe *p)
{
	ft_pageset_free(&p->start);
	ft_pageset_free(&p->added);
	ft_pageset_free(&p->readded);
	ft_pageset_free(&p->refaulted);
	ft_pageset_free(&p->activated);
	ft_pageset_free(&p->shadows.old);
	ft_pageset_free(&p->shadows.recent);
}

void ft_start_hold_free(struct ft_start_hold *h)
{
	for (size_t i = 0; i < h->np; i++)
		probe_free(&h->p[i]);
	free(h->p);
	free(h->buf);
	memset(h, 0, sizeof(*h));
}

static int hold_copy(struct ft_start_hold *h, const struct ft_hdr *rec)
{
	if (h->len + rec->size > h->cap) {
		size_t cap = h->cap ? h->cap * 2 : 65536;
		unsigned char *b;

		while (cap < h->len + rec->size)
			cap *= 2;
		b = realloc(h->buf, cap);
		if (!b)
			return -1;
		h->buf = b;
		h->cap = cap;
	}
	memcpy(h->buf + h->len, rec, rec->size);
	h->len += rec->size;
	return 0;
}

/*
 * Was the file created after the recording began (statx(2) birth time, which ext4, xfs,
 * btrfs and tmpfs keep)? Then every page it has is the trace's: writes still running while
 * the probe looked (recorded when they return) filled some it saw.
 */
static bool born_during(const char *path, __u64 since_realtime_ns)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, 0, STATX_BTIME, &stx) || !(stx.stx_mask & STATX_BTIME))
		return false;
	return (__u64)stx.stx_btime.tv_sec * 1000000000ull + stx.stx_btime.tv_nsec >
	       since_realtime_ns;
}

/* The probe found the trace's own pages and shadows alone: no start state. */
static void forget_start(struct ft_start_probe *p)
{
	p->corrected += ft_pageset_pages(&p->start);
	ft_pageset_free(&p->start);
	ft_pageset_free(&p->shadows.old);
	ft_pageset_free(&p->shadows.recent);
}

int ft_start_hold_probe(struct ft_start_hold *h, const char *path, __u32 dev, __u64 ino,
			__u64 dirty)
{
	struct ft_start_probe *p;
	struct slot_rec slot = { .hdr = { .type = FT_PRIV_START_SLOT, .size = sizeof(slot) } };

	if (h->np == h->cap_p) {
		size_t cap = h->cap_p ? h->cap_p * 2 : 16;

		p = realloc(h->p, cap * sizeof(*p));
		if (!p)
			return -1;
		h->p = p;
		h->cap_p = cap;
	}
	p = &h->p[h->np];
	memset(p, 0, sizeof(*p));
	if (ft_start_cache_probe(path, dev, ino, &p->sc, &p->start, &p->shadows) < 0) {
		probe_free(p);
		return 0;	/* not probed: readers take the file's start as unknown */
	}
	if (born_during(path, h->since_realtime_ns))
		forget_start(p);
	if (p->sc.flags & FT_SC_CACHESTAT) {
		p->sc.nr_dirty += dirty;
		if (p->sc.nr_dirty > p->sc.nr_cache)
			p->sc.nr_dirty = p->sc.nr_cache;
	}
	slot.index = h->np++;
	h->probed++;
	h->probe_ns += p->sc.probe_ns;
	return hold_copy(h, &slot.hdr);
}

static struct ft_start_probe *probe_of(struct ft_start_hold *h, __u32 dev, __u64 ino)
{
	for (size_t i = h->np; i-- > 0;)
		if (h->p[i].sc.ino == ino && h->p[i].sc.dev == dev)
			return &h->p[i];
	return NULL;
}

/*
 * A write before the probe put its pages in the cache itself: taken out of the start state.
 * tmpfs inserts without the insertion event, so a file the trace wrote before the probe saw
 * it would otherwise look cached from the start; elsewhere its insertions say the same. So
 * does a tmpfs fault (FT_MMAP_SHMEM), which allocates the folio over its page when none is
 * cached: a PMD folio where the mount and the mapping allow one (shmem_get_folio_gfp()), so
 * the aligned PMD block around the page goes when the probe found all of it cached. (A
 * write still running while the probe ran, recorded when it returns, may have filled pages the
 * probe saw: of a file the trace created, born_during() drops them all.)
 */
static int correct_write(struct ft_start_hold *h, const struct ft_access *a)
{
	__u64 page = (__u64)sysconf(_SC_PAGESIZE), pmd = page / 8, first, n;
	bool shmem_fault = (a->op == FT_OP_MMAP_READ || a->op == FT_OP_MMAP_WRITE) &&
			   a->arg == FT_MMAP_SHMEM;
	struct ft_start_probe *p;

	if ((a->op != FT_OP_WRITE && a->op != FT_OP_MMAP_WRITE && !shmem_fault) || !a->len)
		return 0;
	p = probe_of(h, a->dev, a->ino);
	if (!p || a->hdr.ts >= p->sc.hdr.ts)
		return 0;
	first = a->pos / page;
	n = (a->pos + a->len + page - 1) / page - first;
	if (shmem_fault && ft_pageset_covers(&p->start, first & ~(pmd - 1), pmd)) {
		first &= ~(pmd - 1);
		n = pmd;
	}
	p->corrected += n;
	if (ft_pageset_remove(&p->start, first, n) < 0)
		return -1;
	return ft_pageset_add(&p->added, first, n);
}

/* A folio event before the probe, of a file probed: what it says of the start state. */
static int correct(struct ft_start_hold *h, const struct ft_hdr *rec)
{
	const struct ft_folio_event *e = (const void *)rec;
	struct ft_start_probe *p;
	__u64 n;

	if (rec->type == FT_ACCESS)
		return correct_write(h, (const struct ft_access *)rec);
	if (rec->type != FT_PAGECACHE_ADD && rec->type != FT_PAGECACHE_DELETE &&
	    rec->type != FT_PAGECACHE_REFAULT && rec->type != FT_PAGECACHE_ACTIVATE)
		return 0;
	p = probe_of(h, e->dev, e->ino);
	if (!p || rec->ts >= p->sc.hdr.ts)
		return 0;
	n = e->order < 32 ? 1ull << e->order : 1;
	/* its insertion came just before: whether that was the trace's first is known there */
	if (rec->type == FT_PAGECACHE_REFAULT)
		return ft_pageset_add(&p->refaulted, e->index, n);
	if (rec->type == FT_PAGECACHE_ACTIVATE)
		return ft_pageset_add(&p->activated, e->index, n);
	if (rec->type == FT_PAGECACHE_ADD) {
		p->corrected += n;
		if (ft_pageset_overlaps(&p->added, e->index, n) &&
		    ft_pageset_add(&p->readded, e->index, n) < 0)
			return -1;
		if (ft_pageset_remove(&p->start, e->index, n) < 0)
			return -1;
		return ft_pageset_add(&p->added, e->index, n);
	}
	/* deleted before the probe saw it: cached at the start unless the trace inserted it */
	if (ft_pageset_overlaps(&p->added, e->index, n))
		return 0;
	p->corrected += n;
	return ft_pageset_add(&p->start, e->index, n);
}

int ft_start_hold_record(struct ft_start_hold *h, const struct ft_hdr *rec)
{
	if (correct(h, rec) < 0)
		return -1;
	return hold_copy(h, rec);
}

bool ft_start_hold_full(const struct ft_start_hold *h)
{
	return h->len >= HOLD_BYTES_MAX || h->np >= HOLD_PROBES_MAX;
}

/* Takes the pages of b out of a. */
static int pageset_subtract(struct ft_pageset *a, const struct ft_pageset *b)
{
	for (size_t i = 0; i < b->n; i++)
		if (ft_pageset_remove(a, b->r[i].start, b->r[i].len) < 0)
			return -1;
	return 0;
}

/* Adds the pages of b to a. */
static int pageset_unite(struct ft_pageset *a, const struct ft_pageset *b)
{
	for (size_t i = 0; i < b->n; i++)
		if (ft_pageset_add(a, b->r[i].start, b->r[i].len) < 0)
			return -1;
	return 0;
}

/*
 * The pages whose shadows the trace's first insertions before the probe took, as the
 * kernel's refault counts (FT_PAGECACHE_REFAULT, 6.14 on) name them: in old the not recent,
 * in recent those the refault found recent. A page the trace had inserted before has a
 * shadow of its own making.
 */
static int shadows_taken(struct ft_start_probe *p, struct ft_pageset *old,
			 struct ft_pageset *recent)
{
	if (pageset_subtract(&p->refaulted, &p->readded) < 0 ||
	    pageset_subtract(&p->activated, &p->readded) < 0 ||
	    pageset_subtract(&p->refaulted, &p->activated) < 0)
		return -1;
	return pageset_unite(old, &p->refaulted) < 0 ? -1 : pageset_unite(recent, &p->activated);
}

/*
 * The shadows the probe found, less the pages the trace had moved before it: the pages of the
 * start state (evicted by the trace before the probe saw them, so cached at the start) and
 * those the trace inserted (and then evicted, or refaulted): their shadows are the trace's own.
 * Then the shadows the trace's insertions took before the probe could see them.
 */
static int write_shadows(struct ft_start_probe *p, struct ft_writer *w, struct ft_error *err)
{
	struct ft_start_shadow_sets *s = &p->shadows;
	struct ft_pageset *sets[2] = { &s->old, &s->recent };

	for (unsigned k = 0; k < 2; k++)
		if (pageset_subtract(sets[k], &p->start) < 0 ||
		    pageset_subtract(sets[k], &p->added) < 0)
			return ft_error_set(err, "record", "out of memory for the start state");
	if (shadows_taken(p, sets[0], sets[1]) < 0)
		return ft_error_set(err, "record", "out of memory for the start state");
	for (unsigned k = 0; k < 2; k++) {
		struct ft_start_shadows ss = s->ss;

		if (!sets[k]->n)
			continue;
		ss.hdr.ts = p->sc.hdr.ts;
		ss.flags = (__u16)(ss.flags | (k ? FT_SS_RECENT : 0));
		if (ft_writer_start_shadows(w, &ss, sets[k]->r, sets[k]->n, err))
			return -1;
	}
	return 0;
}

static int write_probe(struct ft_start_probe *p, struct ft_writer *w, struct ft_error *err)
{
	p->sc.nr_cache = ft_pageset_pages(&p->start);
	/* cachestat counted the trace's own pages too, and which were dirty is not known */
	if (p->corrected) {
		p->sc.nr_dirty = p->sc.nr_writeback = 0;
		p->sc.flags |= FT_SC_NO_DIRTY;
	}
	if (ft_writer_start_cache(w, &p->sc, p->start.r, p->start.n, err))
		return -1;
	return write_shadows(p, w, err);
}

int ft_start_hold_flush(struct ft_start_hold *h, struct ft_writer *w, struct ft_error *err)
{
	int rc = 0;

	for (size_t off = 0; off < h->len && !rc;) {
		const struct ft_hdr *rec = (const void *)(h->buf + off);

		if (rec->type == FT_PRIV_START_SLOT)
			rc = write_probe(&h->p[((const struct slot_rec *)rec)->index], w, err);
		else
			rc = ft_writer_append(w, rec, err);
		off += rec->size;
	}
	for (size_t i = 0; i < h->np; i++) {
		h->corrected += h->p[i].corrected;
		probe_free(&h->p[i]);
	}
	h->np = 0;
	h->len = 0;
	return rc;
}
