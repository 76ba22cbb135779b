/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The page cache's paths (mm/filemap.c, mm/readahead.c, mm/fadvise.c, mm/madvise.c): a folio
 * for a missing page, read I/O, readahead by release, the read, fault and write paths and
 * the advice calls. The folios' index is cache.h's.
 */
#ifndef FT_MODEL_FILEMAP_H
#define FT_MODEL_FILEMAP_H

#include <stdbool.h>
#include <stdint.h>

#include "model/folio.h"
#include "model/model.h"
#include "model/filemap/placement.h"
#include "util/u64map.h"

struct model;
struct mfile;

/*
 * openfile.c: the readahead state of each open file (struct file) a file is read through,
 * by (file, ofile); the state of the one that read last is in the file's own fields.
 */
struct open_file_state;
struct open_files {
	struct u64map slot;		/* file << 32 | ofile -> index in state */
	struct open_file_state *state;
	uint32_t nr, cap;
};

/* The access goes through open file ofile (not 0) of file: its state in mf's fields. */
void openfile_switch(struct model *m, struct mfile *mf, uint32_t file, uint32_t ofile);
/*
 * The file is gone: its open files are closed (their saved states stale by mfile.gen), and a
 * file that comes under its number opens with fresh state, as file_ra_state_init() gives.
 */
void openfile_unlink(struct mfile *mf);
void openfile_release(struct model *m);

/* filemap.c: a folio for a missing page */
uint64_t filemap_read_bytes(const struct model *m, const struct folio *f, uint64_t isize);
/* at_idx: the folio starts at idx (write path, readahead), else it is aligned around it */
uint32_t filemap_create(struct model *m, uint32_t file, uint64_t idx, unsigned order,
			bool at_idx, bool read);
unsigned filemap_read_order(struct model *m, struct mfile *mf, uint64_t idx);
/*
 * A buffered write's new folio on tmpfs (shmem_write_begin()); end: the page after its chunk,
 * size: the file's pages before the chunk.
 */
unsigned filemap_shmem_write_order(struct model *m, struct mfile *mf, uint64_t idx,
				   uint64_t end, uint64_t size);
/* The order a fault on a missing page asks for (shmem: VM_HUGEPAGE with huge=advise). */
unsigned filemap_fault_order(struct model *m, struct mfile *mf, uint64_t idx);
uint32_t filemap_read_in(struct model *m, uint32_t file, uint64_t idx, unsigned order,
			 bool at_idx);

/* readio.c: read I/O batches and whether a read waits for one */
void read_batch_begin(struct model *m, uint32_t file);
void read_batch_add(struct model *m, const struct folio *f);
void read_batch_end(struct model *m);
bool read_waits(const struct model *m, const struct mfile *mf, uint64_t idx);

/* readahead.c: the read and fault paths' calls */
void readahead_sync(struct model *m, uint32_t file, uint64_t idx, uint64_t req);
/* a read of pages below last (exclusive) reached the marked folio id */
void readahead_async(struct model *m, uint32_t file, uint32_t id, uint64_t last);
void readahead_mmap_around(struct model *m, uint32_t file, uint64_t idx);
void readahead_mmap_hit(struct model *m, uint32_t file, uint32_t id, uint64_t idx);
/* readahead.c: the mechanics the rules share (variants.h) */
uint64_t ra_max_pages(const struct model *m, const struct mfile *mf, uint64_t req);
bool ra_sync_window(struct model *m, uint32_t file, uint64_t idx, uint64_t req);
bool ra_async_window(struct model *m, uint32_t file, uint64_t idx, uint64_t folio_pages,
		     uint64_t req);
uint64_t ra_read_folios(struct model *m, uint32_t file, unsigned new_order, bool no_order1,
			bool *stopped);
void ra_read_unbounded(struct model *m, uint32_t file, uint64_t idx, uint64_t nr,
		       uint64_t lookahead);
uint64_t ra_cached_before(struct model *m, uint32_t file, uint64_t idx, uint64_t max);
uint64_t ra_next_miss(struct model *m, uint32_t file, uint64_t idx, uint64_t max);

/* readpath.c, writepath.c */
/*
 * truncate.c: the large folios across bytes lstart and lend (inclusive; UINT64_MAX: the end
 * of the file) split as the release splits them, or dropped whole for a punched hole;
 * truncate_punch_hole() also removes the hole's pages.
 */
void truncate_split_range(struct model *m, uint32_t file, uint64_t lstart, uint64_t lend,
			  bool punch);
void truncate_punch_hole(struct model *m, uint32_t file, uint64_t pos, uint64_t len);
void read_buffered(struct model *m, const struct model_access *a, struct mfile *mf);
void read_mmap(struct model *m, const struct model_access *a, struct mfile *mf, bool write);
void write_buffered(struct model *m, const struct model_access *a, struct mfile *mf);
/* fallocate(2) that allocates (no hole punched) on tmpfs: folios over the range (writepath.c) */
void write_fallocate(struct model *m, const struct model_access *a, struct mfile *mf);

/* dontcache.c: RWF_DONTCACHE's PG_dropbehind (filemap_end_dropbehind_read, folio_end_dropbehind) */
bool dontcache_init(struct model *m);
void dontcache_release(struct model *m);
bool folio_test_dropbehind(const struct model *m, const struct folio *f);
void folio_set_dropbehind(struct model *m, const struct folio *f, bool wb_drops);
void folio_clear_dropbehind(struct model *m, const struct folio *f);
/* its writeback ends where folio_end_dropbehind() can drop it */
bool folio_dropbehind_wb_drops(const struct model *m, const struct folio *f);
/* A read copied from the folio: dropped if dropbehind, clean and not under writeback. */
void dontcache_end_read(struct model *m, uint32_t id);
/* The folio's writeback ended: dropped if dropbehind, clean, and the end in task context. */
void dontcache_end_writeback(struct model *m, uint32_t id);
/* A buffered write used the folio (created: the write made it); old_isize: size before it. */
void dontcache_write(struct model *m, const struct mfile *mf, uint32_t id, bool created,
		     bool dontcache, uint64_t old_isize);

/*
 * startstate.c: pages [first, first + n) of a file cached before the trace, the last dirty of
 * them dirty, put in as the replay starts and charged to the root cgroup; the pages put in.
 */
uint64_t filemap_add_start_state(struct model *m, uint32_t file, uint64_t first, uint64_t n,
				 uint64_t dirty);
/*
 * startstate.c: a folio of pages [idx, idx + n) cached before the trace, as the kernel's delete
 * of it shows it, its last dirty pages dirty, put in before its file's ranges; cut into the
 * largest the file may have where it may not have the order. The pages put in.
 */
uint64_t filemap_add_start_folio(struct model *m, uint32_t file, uint64_t idx, uint64_t n,
				 uint64_t dirty);
/*
 * startstate.c: the reader the start state's rule reads a file's cached runs with, kept from
 * one run of the file to the next (they come in file order, one after the other)
 */
struct start_reader {
	uint32_t file;			/* the file it reads; FOLIO_NIL: none */
	uint32_t memcg;			/* the cgroup its folios are charged to */
	bool reading;			/* readahead's folios are its (filemap_start_folio) */
	uint64_t read_to;		/* the page after the last it read */
	uint64_t settled;		/* its folios before this page are kept or dropped */
	uint64_t tail_lo, tail_hi;	/* a run's last pages, under a folio reaching past it */
	/* the file's own readahead state, given back when it is done */
	struct ra_state ra;
	uint64_t prev_read_end;
	uint32_t ra_pages;
};
/*
 * startstate.c: a start folio of the order at idx, for readahead while the start reader reads
 * (start_reader.reading): FOLIO_NIL when memory has no room for it without reclaim
 */
uint32_t filemap_start_folio(struct model *m, uint32_t file, uint64_t idx, unsigned order);
/* startstate.c: the start reader's last file is done: what it read outside the runs dropped */
void filemap_start_state_done(struct model *m);
/* startstate.c: the start folio over page idx (if it is still one) had PG_readahead */
void filemap_start_mark(struct model *m, uint32_t file, uint64_t idx);

/* advice.c: posix_fadvise(2) and madvise(2) of a file's pages */
void advice_fadvise(struct model *m, const struct model_access *a, struct mfile *mf);
void advice_madvise(struct model *m, const struct model_access *a, struct mfile *mf);
/* vma_has_recency(): do its mappings' PTE young bits count at reclaim? */
bool advice_mapping_has_recency(const struct mfile *mf);

#endif /* FT_MODEL_FILEMAP_H */
