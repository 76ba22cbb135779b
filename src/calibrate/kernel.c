// SPDX-License-Identifier: GPL-2.0-or-later
/* What the kernel did, from a trace's kernel events and counter samples: see kernel.h. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/kernel.h"
#include "trace/filewb.h"
#include "util/grow.h"

static const char *const vmstat_names[KC_NR] = {
	[KC_REFAULT_FILE] = "workingset_refault_file",
	[KC_DIRTIED] = "nr_dirtied",
	[KC_WRITTEN] = "nr_written",
	[KC_PGSTEAL_FILE] = "pgsteal_file",
	[KC_INACTIVE_FILE] = "nr_inactive_file",
	[KC_ACTIVE_FILE] = "nr_active_file",
	[KC_COMPACT_STALL] = "compact_stall",
	[KC_COMPACT_SUCCESS] = "compact_success",
	[KC_COMPACT_MIGRATE_SCANNED] = "compact_migrate_scanned",
	[KC_COMPACT_DAEMON_WAKE] = "compact_daemon_wake",
};

/* memory.stat names (v1 and v2); v1's hierarchical "total_" form is preferred when present */
static const char *const cgroup_names[KC_NR] = {
	[KC_REFAULT_FILE] = "workingset_refault_file",
	[KC_INACTIVE_FILE] = "inactive_file",
	[KC_ACTIVE_FILE] = "active_file",
};

void kernel_facts_init(struct kernel_facts *k)
{
	bool skip = k->skip_mmapped;

	memset(k, 0, sizeof(*k));
	k->skip_mmapped = skip;
	file_table_init(&k->replay_ids);
	file_table_init(&k->kids);
	for (int i = 0; i < KC_NR; i++)
		k->vm_idx[i] = k->cg_idx[i] = -1;
	k->lru_gen_idx = -1;
}

void kernel_facts_release(struct kernel_facts *k)
{
	first_pass_free(&k->first);
	replay_cgroups_release(&k->cgroups);
	start_folios_release(&k->start_folios);
	k->first_done = false;
	file_table_release(&k->replay_ids);
	file_table_release(&k->kids);
	free(k->kf);
	k->kf = NULL;
	free(k->buddy_order);
	free(k->buddy);
	k->buddy_order = NULL;
	k->buddy = NULL;
}

/* Buddyinfo names are "NODE/ZONE/ORDER": each counter's order. */
static void note_buddy_names(struct kernel_facts *k, const struct ft_counter_names *n)
{
	const char *p = ft_counter_names_first(n);
	int8_t *o = malloc(n->count ? n->count : 1);

	if (!o)
		return;
	for (unsigned i = 0; i < n->count; i++) {
		const char *slash = strrchr(p, '/');
		char *end;
		unsigned long order = slash ? strtoul(slash + 1, &end, 10) : 0;

		o[i] = slash && *end == '\0' && end != slash + 1 && order <= MODEL_MAX_ORDER ?
		       (int8_t)order : -1;
		p += strlen(p) + 1;
	}
	free(k->buddy_order);
	k->buddy_order = o;
	k->nbuddy_names = n->count;
}

static void note_buddy_sample(struct kernel_facts *k, const struct ft_counters *c)
{
	const __u64 *v = ft_counters_values(c);
	struct kbuddy_sample *s;

	if (!k->buddy_order || c->count != k->nbuddy_names)
		return;
	s = ft_grow(k->buddy, &k->buddy_cap, k->nbuddy, sizeof(*s), 64);
	if (!s)
		return;		/* the comparison over time gets fewer points */
	k->buddy = s;
	s = &k->buddy[k->nbuddy++];
	memset(s, 0, sizeof(*s));
	s->ts = c->hdr.ts;
	for (unsigned i = 0; i < c->count; i++)
		if (k->buddy_order[i] >= 0)
			s->nr_free[k->buddy_order[i]] += v[i];
}

/* The kfile of (dev, ino), created zeroed; NULL on ENOMEM. */
static struct kfile *kfile_get(struct kernel_facts *k, __u32 dev, __u64 ino)
{
	uint32_t id = file_table_id(&k->kids, dev, ino);

	if (id == FILE_ID_NONE)
		return NULL;
	if (id >= k->kfcap) {
		size_t cap = k->kfcap ? k->kfcap * 2 : 64;
		struct kfile *kf;

		while (cap <= id)
			cap *= 2;
		kf = realloc(k->kf, cap * sizeof(*kf));
		if (!kf)
			return NULL;
		memset(kf + k->kfcap, 0, (cap - k->kfcap) * sizeof(*kf));
		k->kf = kf;
		k->kfcap = cap;
	}
	while (k->nkf <= id)
		k->kf[k->nkf++].max_order = MODEL_ORDER_DEFAULT;
	return &k->kf[id];
}

static void note_counter_names(struct kernel_facts *k, const struct ft_counter_names *n)
{
	char total[80];

	if (n->source == FT_SRC_LRU_GEN)
		k->lru_gen_idx = ft_counter_index(n, "enabled");
	for (int i = 0; i < KC_NR; i++) {
		if (n->source == FT_SRC_VMSTAT) {
			k->vm_idx[i] = ft_counter_index(n, vmstat_names[i]);
		} else if (n->source == FT_SRC_CGROUP && cgroup_names[i]) {
			snprintf(total, sizeof(total), "total_%s", cgroup_names[i]);
			k->cg_idx[i] = ft_counter_index(n, total);
			if (k->cg_idx[i] < 0)
				k->cg_idx[i] = ft_counter_index(n, cgroup_names[i]);
		}
	}
}

static void note_span(struct kcounter_span *s, uint64_t v)
{
	if (!s->seen)
		s->first = v;
	s->last = v;
	s->seen = true;
}

static void note_counters(struct kernel_facts *k, const struct ft_counters *c)
{
	const __u64 *v = ft_counters_values(c);
	const int *idx = c->source == FT_SRC_VMSTAT ? k->vm_idx :
			 c->source == FT_SRC_CGROUP ? k->cg_idx : NULL;
	struct kcounter_span *span = c->source == FT_SRC_VMSTAT ? k->vm : k->cg;

	if (c->source == FT_SRC_LRU_GEN && !k->have_lru_gen && k->lru_gen_idx >= 0 &&
	    k->lru_gen_idx < c->count) {
		k->lru_gen_enabled = v[k->lru_gen_idx];
		k->have_lru_gen = true;
	}
	if (!idx)
		return;
	if (c->source == FT_SRC_CGROUP)
		k->have_cgroup = true;
	for (int i = 0; i < KC_NR; i++)
		if (idx[i] >= 0 && idx[i] < c->count)
			note_span(&span[i], v[idx[i]]);
}

static int note_folio(struct kernel_facts *k, const struct ft_folio_event *e)
{
	struct kfile *f = kfile_get(k, e->dev, e->ino);
	uint64_t pages = e->order <= MODEL_MAX_ORDER ? 1ull << e->order : 1;

	if (!f)
		return -1;
	switch (e->hdr.type) {
	case FT_PAGECACHE_ADD:
		f->add_folios++;
		f->add_pages += pages;
		if (e->order <= MODEL_MAX_ORDER) {
			f->add_by_order[e->order]++;
			if (f->max_order == MODEL_ORDER_DEFAULT || e->order > f->max_order)
				f->max_order = e->order;
		}
		break;
	case FT_PAGECACHE_REFAULT:
		f->refault_pages += pages;
		break;
	case FT_PAGECACHE_ACTIVATE:
		f->activate_pages += pages;
		break;
	case FT_PAGECACHE_DELETE:
		f->del_folios++;
		f->del_pages += pages;
		if (f->call_tid != e->hdr.tid)
			f->call_del_folios = f->call_del_pages = 0;
		f->call_tid = e->hdr.tid;
		f->call_del_folios++;
		f->call_del_pages += pages;
		if (e->order <= MODEL_MAX_ORDER)
			f->del_by_order[e->order]++;
		break;
	default:
		f->dirty_folios++;
	}
	return 0;
}

/*
 * The deletes a task made of a file since its last access of it, when the access is
 * posix_fadvise(POSIX_FADV_DONTNEED): they were the call's (mm/fadvise.c, generic_fadvise()
 * invalidating the range, 6.18), whose access record comes when it returns. They are
 * invalidations, not reclaim: the model counts them as its DONTNEED drops.
 */
static void note_call_deletes(struct kernel_facts *k, struct kfile *f, const struct ft_access *a)
{
	if (a->op == FT_OP_FADVISE && a->arg == POSIX_FADV_DONTNEED) {
		k->have_dontneed = true;
		if (f->call_tid == a->hdr.tid) {
			f->del_folios -= f->call_del_folios;
			f->del_pages -= f->call_del_pages;
			f->dontneed_folios += f->call_del_folios;
			f->dontneed_pages += f->call_del_pages;
		}
	}
	if (f->call_tid == a->hdr.tid)
		f->call_del_folios = f->call_del_pages = 0;
}

static int note_access(struct kernel_facts *k, const struct ft_access *a)
{
	struct kfile *f = kfile_get(k, a->dev, a->ino);

	/* the same calls in the same order as the replay driver: the same file ids */
	if (!f || file_table_id(&k->replay_ids, a->dev, a->ino) == FILE_ID_NONE)
		return -1;
	f->accessed = true;
	if (a->op == FT_OP_MMAP_READ || a->op == FT_OP_MMAP_WRITE)
		f->mmapped = true;
	if (a->op == FT_OP_UNLINK || a->op == FT_OP_TRUNCATE)
		f->dropped = true;
	if (a->flags & FT_AF_DONTCACHE)
		f->dontcache = k->have_dontcache = true;
	note_call_deletes(k, f, a);
	return 0;
}

static int note_writeback(struct kernel_facts *k, const struct ft_writeback *w)
{
	uint64_t fs_bytes = ft_writeback_file_bytes(w, k->have_host ? k->host.page_size : 4096);
	struct kfile *f;

	k->wb_events++;
	if (w->kind != FT_WB_SINGLE_INODE && !fs_bytes)
		return 0;
	f = kfile_get(k, w->dev, w->ino);
	if (!f)
		return -1;
	if (w->kind == FT_WB_SINGLE_INODE)
		f->wb_inode_pages += w->nr_pages;
	f->wb_fs_bytes += fs_bytes;
	k->have_wb_fs |= fs_bytes != 0;
	return 0;
}

/*
 * The largest folio order a file's mapping allows shows in its readahead state, where the
 * folios added may not: page_cache_ra_order() stores the order it read at in ra->order,
 * capped by mapping_max_folio_order() (mm/readahead.c, 6.17 on; the page_cache_sync_ra and
 * page_cache_async_ra tracepoints show it as stored), while a window's folios stay smaller
 * where they meet pages another reader cached. A model capped at the orders added alone
 * grows its windows otherwise (6.18, two readers of one ext4 file: folios added up to order
 * 6, ra->order up to 9; the replay at 6 was 1-57% off the kernel's folios by order, at 9
 * exactly the kernel's, 4 runs of 4). Only for a file that got large folios: a mapping
 * without them leaves ra->order raised by each async window, uncapped (6.18, 47 windows of
 * order 2 and a file of base pages alone, traces/randread-64M-limit.ftr).
 */
static void note_ra_order(struct kfile *f, const struct ft_readahead *r)
{
	if ((r->kind == FT_RA_SYNC || r->kind == FT_RA_ASYNC) && r->order <= MODEL_MAX_ORDER &&
	    r->order > f->ra_max_order)
		f->ra_max_order = r->order;
}

/* A file's largest order: as added, raised to its readahead state's where it was large. */
static void settle_max_order(struct kfile *f)
{
	if (f->max_order != MODEL_ORDER_DEFAULT && f->max_order > 0 &&
	    f->ra_max_order > f->max_order)
		f->max_order = f->ra_max_order;
}

static int note_readahead(struct kernel_facts *k, const struct ft_readahead *r)
{
	struct kfile *f = kfile_get(k, r->dev, r->ino);

	if (!f)
		return -1;
	note_ra_order(f, r);
	if (r->kind == FT_RA_SYNC)
		f->ra_sync++;
	else if (r->kind == FT_RA_ORDER || r->kind == FT_RA_ASYNC)
		f->ra_windows++;
	/* page_cache_ra_order's size is the window: its largest is the device's ra_pages */
	if (r->kind == FT_RA_ORDER && r->size > k->ra_pages && r->size <= (1u << 20))
		k->ra_pages = (unsigned)r->size;
	return 0;
}

/* The host's tmpfs devices (the reader checked ndevs against the record's size). */
static void note_shmem_devs(struct kernel_facts *k, const struct ft_host *h)
{
	const struct ft_host_dev *d = ft_host_devs(h);

	for (__u32 i = 0; i < h->ndevs && k->nshmem_devs < 32; i++)
		if (strncmp(d[i].fstype, "tmpfs", sizeof(d[i].fstype)) == 0)
			k->shmem_devs[k->nshmem_devs++] = d[i].dev;
}

static bool on_shmem(const struct kernel_facts *k, __u32 dev)
{
	for (unsigned i = 0; i < k->nshmem_devs; i++)
		if (k->shmem_devs[i] == dev)
			return true;
	return false;
}

/*
 * shmem_add_to_page_cache() fires no mm_filemap_add_to_page_cache, but truncation and
 * unlink remove a tmpfs file's folios through filemap_remove_folio() (shmem_undo_range()),
 * which fires mm_filemap_delete_from_page_cache with each folio's order: a tmpfs file
 * dropped in the trace shows its folios there. Others are counted as unseen.
 */
static void shmem_inserts_from_deletes(struct kernel_facts *k, struct kfile *f)
{
	if (f->add_folios)
		return;
	if (!f->dropped || !f->del_folios) {
		k->shmem_unseen += f->accessed;
		return;
	}
	f->add_folios = f->del_folios;
	f->add_pages = f->del_pages;
	for (int o = 0; o <= MODEL_MAX_ORDER; o++) {
		f->add_by_order[o] = f->del_by_order[o];
		if (f->del_by_order[o])
			f->max_order = (uint8_t)o;
	}
}

static int note_record(struct kernel_facts *k, const struct ft_hdr *h)
{
	if (h->type >= FT_PAGECACHE_ADD && h->type <= FT_READAHEAD)
		k->kernel_events++;
	switch (h->type) {
	case FT_HOST:
		if (!k->have_host) {
			k->host = *(const struct ft_host *)h;
			note_shmem_devs(k, (const struct ft_host *)h);
		}
		k->have_host = true;
		return 0;
	case FT_FILE: {
		const struct ft_file *f = (const struct ft_file *)h;

		/*
		 * a reused inode number names a new file from here on, in both tables as in the
		 * replay's (replay.c note_file()): its counts are not the old file's
		 */
		if (f->flags & FT_FILE_REUSED) {
			if (file_table_renew(&k->replay_ids, f->dev, f->ino) == FILE_ID_NONE ||
			    file_table_renew(&k->kids, f->dev, f->ino) == FILE_ID_NONE)
				return -1;
		} else if (file_table_id(&k->replay_ids, f->dev, f->ino) == FILE_ID_NONE) {
			return -1;
		}
		return kfile_get(k, f->dev, f->ino) ? 0 : -1;
	}
	case FT_ACCESS:
		return note_access(k, (const struct ft_access *)h);
	case FT_COUNTER_NAMES:
		note_counter_names(k, (const struct ft_counter_names *)h);
		if (((const struct ft_counter_names *)h)->source == FT_SRC_BUDDYINFO)
			note_buddy_names(k, (const struct ft_counter_names *)h);
		return 0;
	case FT_COUNTERS:
		note_counters(k, (const struct ft_counters *)h);
		if (((const struct ft_counters *)h)->source == FT_SRC_BUDDYINFO)
			note_buddy_sample(k, (const struct ft_counters *)h);
		if (((const struct ft_counters *)h)->source == FT_SRC_PAGETYPEINFO)
			k->have_pagetypeinfo = true;
		return 0;
	case FT_LOST:
		k->lost += ((const struct ft_lost *)h)->count;
		return 0;
	case FT_PAGECACHE_ADD:
	case FT_PAGECACHE_DELETE:
	case FT_PAGECACHE_REFAULT:
	case FT_PAGECACHE_ACTIVATE:
	case FT_FOLIO_DIRTY:
		return note_folio(k, (const struct ft_folio_event *)h);
	case FT_WRITEBACK:
		return note_writeback(k, (const struct ft_writeback *)h);
	case FT_READAHEAD:
		return note_readahead(k, (const struct ft_readahead *)h);
	}
	return 0;
}

/* kfile of (dev, ino) for the filter (kfile_get may grow the table, so no pointer kept) */
struct kfile *kernel_kfile(struct kernel_facts *k, __u32 dev, __u64 ino)
{
	return kfile_get(k, dev, ino);
}

/* Totals over the files the model sees: other files' cache is not in the replay. */
static void sum_accessed_files(struct kernel_facts *k)
{
	for (size_t i = 0; i < k->nkf; i++) {
		struct kfile *f = &k->kf[i];

		if (k->nshmem_devs && on_shmem(k, file_table_get(&k->kids, (uint32_t)i)->dev))
			shmem_inserts_from_deletes(k, f);
		settle_max_order(f);
		if (f->accessed && !kfile_modelled(k, f))
			k->skipped_files++;
		if (!kfile_modelled(k, f)) {
			k->other_refault_pages += f->refault_pages;
			continue;
		}
		k->add_folios += f->add_folios;
		k->add_pages += f->add_pages;
		for (int o = 0; o <= MODEL_MAX_ORDER; o++)
			k->add_by_order[o] += f->add_by_order[o];
		if (f->max_order != MODEL_ORDER_DEFAULT && f->max_order > k->max_order)
			k->max_order = f->max_order;
		if (!f->dropped && f->dontcache) {
			k->dontcache_del_pages += f->del_pages;
		} else if (!f->dropped) {
			k->del_folios += f->del_folios;
			k->del_pages += f->del_pages;
		}
		if (!f->dropped) {
			k->dontneed_folios += f->dontneed_folios;
			k->dontneed_pages += f->dontneed_pages;
		}
		k->dirty_folios += f->dirty_folios;
		k->refault_pages += f->refault_pages;
		k->activate_pages += f->activate_pages;
		k->wb_inode_pages += f->wb_inode_pages;
		k->wb_fs_bytes += f->wb_fs_bytes;
	}
}

/* The first pass of the calibration that follows, along this read (want_first_pass). */
static void first_pass_along(struct kernel_facts *k, const struct ft_reader *r,
			     const struct ft_hdr *h)
{
	if (!k->first_begun) {
		struct ft_reader_status st;

		k->first_begun = true;
		ft_reader_status(r, &st);
		if (first_pass_begin(&k->first, &st, &k->cgroups, &k->start_folios) < 0)
			k->first_failed = true;
	}
	if (!k->first_failed && first_pass_wants(&k->first) && first_pass_note(&k->first, h) < 0)
		k->first_failed = true;
}

int kernel_facts_note(struct kernel_facts *k, const struct ft_reader *r, const struct ft_hdr *h)
{
	if (k->oom)
		return -1;
	if (k->want_first_pass)
		first_pass_along(k, r, h);
	if (note_record(k, h) < 0)
		k->oom = true;
	return k->oom ? -1 : 0;
}

int kernel_facts_end(struct kernel_facts *k, const char *path, const struct ft_reader_status *st,
		     struct ft_error *err)
{
	k->have_refault_events = ft_has_refault_events(st, k->have_host ? &k->host : NULL);
	if (k->oom)
		return ft_error_set(err, path, "out of memory for the file table");
	k->read_whole = true;
	/* a trace of no records has nothing to survey: calibrate makes its own first pass */
	if (k->first_begun && !k->first_failed && first_pass_finish(&k->first) == 0)
		k->first_done = true;
	first_pass_free(&k->first);
	/* a synthetic or imported trace has only accesses: nothing to hold the model against */
	if (!k->kernel_events)
		return ft_error_set(err, path, "no kernel events to calibrate against (%s)",
				    k->have_host && (k->host.flags & FT_HOST_SYNTHETIC) ?
				    "a synthetic or imported trace" : "not recorded live");
	sum_accessed_files(k);
	return 0;
}

int kernel_facts_read(struct kernel_facts *k, const char *path, struct ft_error *err)
{
	struct ft_reader_status st;
	struct ft_reader *r;
	const struct ft_hdr *h;
	int ret;

	r = ft_reader_open(path, err);
	if (!r)
		return -1;
	/* memory running out ends the read early: kernel_facts_end() says so */
	while ((ret = ft_reader_next(r, &h, err)) == FT_READ_MORE && kernel_facts_note(k, r, h) == 0)
		;
	ft_reader_status(r, &st);
	ft_reader_close(r);
	if (ret == FT_READ_ERROR) {
		k->have_refault_events = ft_has_refault_events(&st, k->have_host ? &k->host : NULL);
		return -1;
	}
	return kernel_facts_end(k, path, &st, err);
}

/*
 * The kfile of a file of the replay's table: a retired one (its inode number reused since) is
 * the kernel table's entry of the same generation, renewed in step.
 */
static struct kfile *kfile_of_replay(struct kernel_facts *k, const struct file_info *fi)
{
	if (!fi->retired)
		return kfile_get(k, fi->dev, fi->ino);
	for (size_t i = 0; i < k->kids.nfiles && i < k->nkf; i++) {
		const struct file_info *ki = file_table_get(&k->kids, (uint32_t)i);

		if (ki->dev == fi->dev && ki->ino == fi->ino && ki->gen == fi->gen)
			return &k->kf[i];
	}
	return NULL;
}

uint8_t *kernel_file_orders(struct kernel_facts *k, uint32_t *n)
{
	size_t nf = k->replay_ids.nfiles;
	uint8_t *o = nf ? malloc(nf) : NULL;

	*n = 0;
	if (!o)
		return NULL;
	for (size_t id = 0; id < nf; id++) {
		const struct file_info *fi = file_table_get(&k->replay_ids, (uint32_t)id);
		struct kfile *f = kfile_of_replay(k, fi);

		o[id] = f ? f->max_order : MODEL_ORDER_DEFAULT;
	}
	*n = (uint32_t)nf;
	return o;
}

uint8_t *kernel_file_ra_off(struct kernel_facts *k, uint32_t n, unsigned *nset)
{
	uint8_t *off = n ? calloc(n, 1) : NULL;

	*nset = 0;
	if (!off)
		return NULL;
	for (uint32_t id = 0; id < n && id < k->replay_ids.nfiles; id++) {
		const struct file_info *fi = file_table_get(&k->replay_ids, id);
		const struct kfile *f = kfile_of_replay(k, fi);

		if (f && f->ra_sync >= KFILE_RA_OFF_MIN_SYNC && !f->ra_windows) {
			off[id] = 1;
			(*nset)++;
		}
	}
	return off;
}
