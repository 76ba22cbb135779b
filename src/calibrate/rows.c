// SPDX-License-Identifier: GPL-2.0-or-later
/* The model-versus-kernel rows of a calibration. */
#include <stdarg.h>
#include <stdio.h>

#include "calibrate/calibrate.h"

bool calib_rel_error(const struct calib_row *r, double *err)
{
	if (!r->kernel) {
		*err = 0;
		return r->model == 0;
	}
	*err = ((double)r->model - (double)r->kernel) / (double)r->kernel;
	return true;
}

const char *calib_scope_name(enum calib_scope s)
{
	switch (s) {
	case CALIB_TRACE: return "traced files";
	case CALIB_CGROUP: return "cgroup";
	case CALIB_MEMORY: return "the memory, others too";
	case CALIB_CGROUP_BOUND: return "cgroup (upper bound)";
	default: return "system-wide (upper bound)";
	}
}

void calib_add_row(struct calibration *c, const char *source, uint64_t model, uint64_t kernel,
		   enum calib_scope scope, const char *fmt, ...)
{
	struct calib_row *r;
	va_list ap;

	if (c->nrows >= CALIB_MAX_ROWS)
		return;
	r = &c->rows[c->nrows++];
	va_start(ap, fmt);
	vsnprintf(r->metric, sizeof(r->metric), fmt, ap);
	va_end(ap);
	r->source = source;
	r->model = model;
	r->kernel = kernel;
	r->scope = scope;
	r->by_rule = false;
}

/*
 * Whether the recording kernel gave the events of kind (FT_UNREC_*); a row built on events it
 * could not give would compare the model with nothing, so it is left out and said to be.
 */
static bool recorded(struct calibration *c, const struct kernel_facts *k, __u16 kind)
{
	if (!k->have_host || !(k->host.unrecorded & kind))
		return true;
	c->left_out |= kind;
	return false;
}

static void insertion_rows(struct calibration *c, const struct model_metrics *m,
			   const struct kernel_facts *k)
{
	if (!recorded(c, k, FT_UNREC_PAGECACHE))
		return;
	calib_add_row(c, "mm_filemap_add_to_page_cache", m->insertions, k->add_folios, CALIB_TRACE,
		"insertions, folios");
	calib_add_row(c, "mm_filemap_add_to_page_cache", m->inserted_pages, k->add_pages, CALIB_TRACE,
		"insertions, pages");
	for (unsigned o = 0; o <= MODEL_MAX_ORDER; o++)
		if (m->insertions_by_order[o] || k->add_by_order[o])
			calib_add_row(c, "mm_filemap_add_to_page_cache", m->insertions_by_order[o],
				k->add_by_order[o], CALIB_TRACE, "insertions at order %u, folios", o);
}

/*
 * A counter's delta from the cgroup's samples when it has them (cg_scope: CALIB_CGROUP, or
 * CALIB_CGROUP_BOUND where it counts files the model leaves out), else system-wide.
 */
static void counter_row(struct calibration *c, const struct kernel_facts *k, enum kcounter kc,
			uint64_t model, const char *what, const char *vm_name,
			const char *cg_name, enum calib_scope cg_scope)
{
	if (k->have_cgroup && k->cg[kc].seen)
		calib_add_row(c, cg_name, model, kcounter_delta(&k->cg[kc]), cg_scope, "%s", what);
	else if (k->vm[kc].seen)
		calib_add_row(c, vm_name, model, kcounter_delta(&k->vm[kc]), CALIB_SYSTEM, "%s", what);
}

static void reclaim_rows(struct calibration *c, const struct model_metrics *m,
			 const struct kernel_facts *k)
{
	if (recorded(c, k, FT_UNREC_PAGECACHE)) {
		calib_add_row(c, "mm_filemap_delete_from_page_cache", m->evictions, k->del_folios,
			CALIB_TRACE, "evictions, folios");
		calib_add_row(c, "mm_filemap_delete_from_page_cache", m->evicted_pages, k->del_pages,
			CALIB_TRACE, "evictions, pages");
		/*
		 * the deletes of files with RWF_DONTCACHE I/O, left out above: folios dropped
		 * once used (filemap/dontcache.c), taken as all of them (their evictions under a
		 * limit are counted in the model's evictions, the kernel's here)
		 */
		if (k->have_dontcache)
			calib_add_row(c, "mm_filemap_delete_from_page_cache", m->dropbehind_pages,
				k->dontcache_del_pages, CALIB_TRACE, "RWF_DONTCACHE drops, pages");
		/*
		 * the deletes of POSIX_FADV_DONTNEED calls, left out of the evictions likewise;
		 * in folios they show the orders of pages cached before the trace, which the
		 * model's start state takes from these very deletes (or by a rule, with
		 * --start-folios=rule): that row is not in the trust
		 */
		if (k->have_dontneed) {
			unsigned n = c->nrows;

			calib_add_row(c, "mm_filemap_delete_from_page_cache", m->dontneed_folios,
				k->dontneed_folios, CALIB_TRACE, "POSIX_FADV_DONTNEED drops, folios");
			if (c->nrows > n)
				c->rows[n].by_rule = true;
			calib_add_row(c, "mm_filemap_delete_from_page_cache", m->dontneed_pages,
				k->dontneed_pages, CALIB_TRACE, "POSIX_FADV_DONTNEED drops, pages");
		}
	}
	if (k->vm[KC_PGSTEAL_FILE].seen)
		calib_add_row(c, "pgsteal_file", m->evicted_pages, kcounter_delta(&k->vm[KC_PGSTEAL_FILE]),
			CALIB_SYSTEM, "evictions, pages");
	/*
	 * pages of the refaulting folios, as workingset_refault_file counts them: of every file,
	 * so with files left out (--files=syscalls), or refaults the events show of files the
	 * model has no access to (a file system's metadata in its block device's cache), the
	 * kernel's count bounds the model's only
	 */
	counter_row(c, k, KC_REFAULT_FILE, m->refaults, "refaults", "workingset_refault_file",
		    "memory.stat workingset_refault_file",
		    (c->skip_mmapped && k->skipped_files) || k->other_refault_pages ?
		    CALIB_CGROUP_BOUND : CALIB_CGROUP);
	/*
	 * the same counts per folio of the traced files (FT_PAGECACHE_REFAULT, 6.14 on), and of
	 * them the recent refaults workingset_activate_file counts
	 */
	if (!k->have_refault_events)
		return;
	calib_add_row(c, "workingset_refault_file events", m->refaults, k->refault_pages,
		CALIB_TRACE, "refaults");
	calib_add_row(c, "workingset_activate_file events", m->refault_activations,
		k->activate_pages, CALIB_TRACE, "refaults activated");
}

static void dirty_rows(struct calibration *c, const struct model_metrics *m,
		       const struct kernel_facts *k)
{
	/*
	 * Both counters are in whole folios' pages, whatever was written of them:
	 * folio_account_dirtied() adds folio_nr_pages() to nr_dirtied, __folio_end_writeback()
	 * to nr_written (one byte written back out of an order-9 folio counts 512).
	 */
	if (k->vm[KC_DIRTIED].seen)
		calib_add_row(c, "nr_dirtied", m->dirtied_pages, kcounter_delta(&k->vm[KC_DIRTIED]),
			CALIB_SYSTEM, "pages dirtied");
	/* the event fires once per folio going dirty; the model counts buffered writes' */
	if (recorded(c, k, FT_UNREC_DIRTY))
		calib_add_row(c, "writeback_dirty_folio", m->write_dirtied_folios, k->dirty_folios,
			CALIB_TRACE, "folios dirtied");
	if (k->vm[KC_WRITTEN].seen)
		calib_add_row(c, "nr_written", m->written_pages, kcounter_delta(&k->vm[KC_WRITTEN]),
			CALIB_SYSTEM, "pages written back");
	/*
	 * writeback_single_inode's wrote: nr_to_write spent, folio_nr_pages() per folio, in the
	 * flusher's works (__writeback_single_inode()); fsync writes without it: the model's
	 * flusher pages only
	 */
	if (k->wb_events)
		calib_add_row(c, "writeback_single_inode", m->flusher_written_pages,
			k->wb_inode_pages, CALIB_TRACE, "pages written back by the flusher");
	/*
	 * what the file systems wrote back, whoever started it: fsync's too. ext4 and iomap are
	 * built into every kernel recorded, so a missing tracepoint of theirs is a missing count;
	 * btrfs is often a module not loaded, with no files to count then.
	 */
	if (k->have_wb_fs && recorded(c, k, FT_UNREC_EXT4_WB) && recorded(c, k, FT_UNREC_IOMAP_WB))
		calib_add_row(c, "ext4/iomap/btrfs writeback", m->writeback_bytes, k->wb_fs_bytes,
			CALIB_TRACE, "bytes written back");
}

static uint64_t lru_kernel(const struct kernel_facts *k, enum kcounter kc, bool cgroup,
			   unsigned page)
{
	/* memory.stat counts bytes, vmstat pages */
	return cgroup ? k->cg[kc].last / page : k->vm[kc].last;
}

static void lru_rows(struct calibration *c, const struct model_sample *last,
		     const struct kernel_facts *k)
{
	bool cg = k->have_cgroup && k->cg[KC_INACTIVE_FILE].seen && k->cg[KC_ACTIVE_FILE].seen;
	enum calib_scope scope = cg ? CALIB_CGROUP : CALIB_SYSTEM;
	unsigned page = c->cfg.page_size;
	uint64_t ia, ac, mia, mac;

	if (!last || (!cg && !(k->vm[KC_INACTIVE_FILE].seen && k->vm[KC_ACTIVE_FILE].seen)))
		return;
	ia = lru_kernel(k, KC_INACTIVE_FILE, cg, page);
	ac = lru_kernel(k, KC_ACTIVE_FILE, cg, page);
	/* the cgroup's own lists: not the pages cached before the trace, charged to the root */
	mia = cg ? last->memcg_inactive_pages : last->lru_inactive_pages;
	mac = cg ? last->memcg_active_pages : last->lru_active_pages;
	calib_add_row(c, cg ? "memory.stat inactive_file + active_file" :
		"nr_inactive_file + nr_active_file", mia + mac, ia + ac, scope,
		"LRU pages at the end");
	/* nr_inactive_file and nr_active_file count pages, whatever the folio orders */
	calib_add_row(c, cg ? "memory.stat inactive_file" : "nr_inactive_file", mia, ia, scope,
		"LRU inactive pages");
	calib_add_row(c, cg ? "memory.stat active_file" : "nr_active_file", mac, ac, scope,
		"LRU active pages");
}

void calib_build_rows(struct calibration *c, const struct model_metrics *m,
		      const struct model_sample *last, const struct kernel_facts *k)
{
	c->nrows = 0;
	c->left_out = 0;
	insertion_rows(c, m, k);
	reclaim_rows(c, m, k);
	dirty_rows(c, m, k);
	lru_rows(c, last, k);
}
