// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What an application's advice does to the page cache: posix_fadvise(2) as mm/fadvise.c
 * generic_fadvise() does it, and the madvise(2) advice of a file mapping that mm/madvise.c
 * turns into VMA flags the fault path reads (mm/filemap.c do_sync_mmap_readahead(),
 * do_async_mmap_readahead()) or into an fadvise. The kernel keeps FMODE_RANDOM, FMODE_NOREUSE
 * and the readahead window per open file and the VM_* flags per mapping; the model keeps them
 * per file, so one descriptor's or one mapping's advice holds for all of the file's accesses.
 * Checked on 6.18 (xfs, read_ahead_kb 128, max_sectors_kb 1280): FADV_RANDOM reads the
 * request alone in base pages; FADV_WILLNEED of 8 MiB reads 320 pages (io_pages); a 4 KiB
 * FADV_DONTNEED inside a cached 16 KiB folio drops nothing, of all of it drops it, and of
 * the whole file leaves a page just written (under writeback); a fault on an MADV_HUGEPAGE
 * mapping reads two PMD folios, the second marked; MADV_RANDOM reads the faulting page alone;
 * MADV_SEQUENTIAL reads ra_pages from the fault.
 */
#include "model/filemap/cache.h"

/* Linux's advice numbers (uapi linux/fadvise.h, asm-generic/mman-common.h): a trace's ABI */
enum {
	FADV_NORMAL = 0, FADV_RANDOM = 1, FADV_SEQUENTIAL = 2, FADV_WILLNEED = 3,
	FADV_DONTNEED = 4, FADV_NOREUSE = 5,
};
enum {
	MADV_NORMAL_ = 0, MADV_RANDOM_ = 1, MADV_SEQUENTIAL_ = 2, MADV_WILLNEED_ = 3,
	MADV_DONTNEED_ = 4, MADV_HUGEPAGE_ = 14, MADV_NOHUGEPAGE_ = 15,
};

/*
 * force_page_cache_ra() for pages [first, first + nr): at most max(io_pages, ra_pages) of
 * them, in 2 MiB chunks of minimum-order folios, up to EOF; read as one batch of I/O that
 * later reads may wait for.
 */
static void advise_willneed(struct model *m, uint32_t file, struct mfile *mf, uint64_t first,
			    uint64_t nr)
{
	uint64_t max = mf->io_pages > mf->ra_pages ? mf->io_pages : mf->ra_pages;
	uint64_t chunk = (2ull << 20) >> m->page_shift, before = m->mx.inserted_pages;

	if (nr > max)
		nr = max;
	read_batch_begin(m, file);
	while (nr) {
		uint64_t n = nr < chunk ? nr : chunk;

		ra_read_unbounded(m, file, first, n, 0);
		first += n;
		nr -= n;
	}
	read_batch_end(m);
	m->mx.willneed_pages += m->mx.inserted_pages - before;
}

/* generic_fadvise()'s endbyte: the last byte of the range, len 0 (or past 2^64) to any end. */
static uint64_t advice_end_byte(const struct model_access *a)
{
	uint64_t end = a->pos + a->len;

	return !a->len || end < a->len ? INT64_MAX : end - 1;
}

/* Is the folio's every page in [first, last]? find_lock_entries() skips it otherwise. */
static bool folio_within(const struct folio *f, uint64_t first, uint64_t last)
{
	return f->index >= first && folio_end(f) - 1 <= last;
}

/* mapping_evict_folio() keeps dirty folios and folios under writeback. */
static bool folio_invalidatable(const struct folio *f)
{
	return !folio_test(f, FOLIO_DIRTY) && !folio_test(f, FOLIO_WRITEBACK);
}

/*
 * mapping_try_invalidate() of [first, last]: clean folios wholly in the range leave the cache,
 * without a shadow entry (not reclaim). A dirty one is being written back (the fdatawrite
 * before it) and stays; a large folio across either end stays whole.
 */
static void invalidate_range(struct model *m, uint32_t file, struct mfile *mf, uint64_t first,
			     uint64_t last)
{
	uint64_t cached = 0;
	uint32_t id;

	for (unsigned o = 0; o <= MODEL_MAX_ORDER; o++)
		cached += mf->nr_by_order[o];
	if (last - first + 1 > cached) {	/* few folios: walk the file's list */
		id = mf->folios;
		while (id != FOLIO_NIL) {
			struct folio *f = folio_at(&m->pool, id);
			uint32_t next = f->file_next;

			if (folio_within(f, first, last) && folio_invalidatable(f)) {
				m->mx.dontneed_pages += folio_nr_pages(f);
				m->mx.dontneed_folios++;
				cache_remove(m, id, false);
			}
			id = next;
		}
		return;
	}
	for (uint64_t idx = first; idx <= last;) {
		struct folio *f;

		id = cache_lookup(m, file, idx);
		if (id == FOLIO_NIL) {
			idx++;
			continue;
		}
		f = folio_at(&m->pool, id);
		idx = folio_end(f);
		if (folio_within(f, first, last) && folio_invalidatable(f)) {
			m->mx.dontneed_pages += folio_nr_pages(f);
			m->mx.dontneed_folios++;
			cache_remove(m, id, false);
		}
	}
}

/* POSIX_FADV_DONTNEED: write the range's dirty data, then drop its clean whole pages. */
static void fadvise_dontneed(struct model *m, const struct model_access *a, struct mfile *mf)
{
	uint64_t end = advice_end_byte(a), page = model_page_size(m);
	uint64_t first = (a->pos + page - 1) >> m->page_shift, last = end >> m->page_shift;

	/* a partial last page stays, unless it is the file's last */
	if ((end & (page - 1)) != page - 1 && end != mf->isize - 1) {
		if (!last)
			return;
		last--;
	}
	if (last < first)
		return;
	invalidate_range(m, a->file_id, mf, first, last);
	wb_write_range(m, a->file_id, page_of(m, a->pos), end >> m->page_shift, WB_FSYNC);
}

static void willneed_range(struct model *m, const struct model_access *a, struct mfile *mf)
{
	uint64_t first = page_of(m, a->pos), last = advice_end_byte(a) >> m->page_shift;

	advise_willneed(m, a->file_id, mf, first, last - first + 1);
}

void advice_fadvise(struct model *m, const struct model_access *a, struct mfile *mf)
{
	m->mx.advice_calls++;
	/* shmem's noop_backing_dev_info: generic_fadvise() accepts and ignores every advice */
	if (mf->shmem) {
		m->mx.advice_ignored++;
		return;
	}
	switch (a->advice) {
	case FADV_NORMAL:
		mf->ra_pages = mf->dev_ra_pages;
		mf->ra_random = mf->noreuse = false;
		break;
	case FADV_RANDOM:
		mf->ra_random = true;
		break;
	case FADV_SEQUENTIAL:
		mf->ra_pages = mf->dev_ra_pages * 2;
		mf->ra_random = false;
		break;
	case FADV_WILLNEED:
		willneed_range(m, a, mf);
		break;
	case FADV_DONTNEED:
		fadvise_dontneed(m, a, mf);
		break;
	case FADV_NOREUSE:
		mf->noreuse = true;
		break;
	default:
		m->mx.advice_ignored++;
	}
}

void advice_madvise(struct model *m, const struct model_access *a, struct mfile *mf)
{
	m->mx.advice_calls++;
	switch (a->advice) {
	case MADV_NORMAL_:
		mf->vm_rand_read = mf->vm_seq_read = false;
		break;
	case MADV_RANDOM_:
		mf->vm_rand_read = true;
		mf->vm_seq_read = false;
		break;
	case MADV_SEQUENTIAL_:
		mf->vm_seq_read = true;
		mf->vm_rand_read = false;
		break;
	case MADV_WILLNEED_:
		/* madvise_willneed(): vfs_fadvise(WILLNEED); shmem only swaps in */
		if (mf->shmem)
			break;
		willneed_range(m, a, mf);
		break;
	case MADV_DONTNEED_:
		/* zaps the process's page tables; the page cache keeps the folios */
		break;
	case MADV_HUGEPAGE_:
		mf->vm_hugepage = true;
		break;
	case MADV_NOHUGEPAGE_:
		mf->vm_hugepage = false;
		break;
	default:
		m->mx.advice_ignored++;
	}
}

/* vma_has_recency(): PTE young bits of such a mapping or file do not count at reclaim. */
bool advice_mapping_has_recency(const struct mfile *mf)
{
	return !mf->vm_rand_read && !mf->vm_seq_read && !mf->noreuse;
}
