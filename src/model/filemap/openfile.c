// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The open files of a file (filemap.h): readahead state is per struct file in the kernel
 * (file->f_ra, set up fresh by file_ra_state_init() at open; FMODE_RANDOM and FMODE_NOREUSE
 * in file->f_mode, from posix_fadvise(2)), not per inode. Two readers of one file, one reading
 * sequentially, the other at random, each keep their own window (mm/readahead.c
 * page_cache_sync_ra(), page_cache_async_ra(); ra->prev_pos), where one state for both would
 * take the sequential reader for a random one. A mapping's faults read ahead with its
 * vm_file's state (do_sync_mmap_readahead()).
 *
 * The file's own fields hold the state of the open file that used it last (mfile.ofile);
 * another open file's access puts them away and takes its own, fresh at its first access.
 * An access that names no open file (0: older traces, imports, synthetic ones) uses the
 * fields as they are, as before open files were recorded.
 */
#include <stdlib.h>

#include "model/instance.h"

struct open_file_state {
	struct ra_state ra;
	uint64_t prev_read_end;
	uint32_t gen;		/* mfile.gen it belongs to: an unlinked file's are stale */
	uint32_t ra_pages;
	uint16_t mmap_miss;
	bool ra_random, noreuse;
};

static void state_save(struct open_file_state *s, const struct mfile *mf)
{
	*s = (struct open_file_state){
		.ra = mf->ra, .prev_read_end = mf->prev_read_end, .gen = mf->gen,
		.ra_pages = mf->ra_pages, .mmap_miss = mf->mmap_miss,
		.ra_random = mf->ra_random, .noreuse = mf->noreuse,
	};
}

static void state_load(struct mfile *mf, const struct open_file_state *s)
{
	mf->ra = s->ra;
	mf->prev_read_end = s->prev_read_end;
	mf->ra_pages = s->ra_pages;
	mf->mmap_miss = s->mmap_miss;
	mf->ra_random = s->ra_random;
	mf->noreuse = s->noreuse;
}

/* file_ra_state_init(): the device's window (none on tmpfs), no history, no advice. */
static void state_fresh(struct mfile *mf)
{
	const struct open_file_state fresh = { .ra_pages = mf->shmem ? 0 : mf->dev_ra_pages };

	state_load(mf, &fresh);
}

/* The slot of (file, ofile), made when absent (*made); NULL out of memory. */
static struct open_file_state *state_slot(struct open_files *of, uint32_t file, uint32_t ofile,
					  bool *made)
{
	uint64_t *v;

	if (!of->slot.keys && u64map_init(&of->slot, 16) < 0)
		return NULL;
	if (of->nr == of->cap) {
		uint32_t cap = of->cap ? 2 * of->cap : 16;
		struct open_file_state *s = realloc(of->state, cap * sizeof(*s));

		if (!s)
			return NULL;
		of->state = s;
		of->cap = cap;
	}
	v = u64map_get_or_add(&of->slot, (uint64_t)file << 32 | ofile, of->nr, made);
	if (!v)
		return NULL;
	if (*made)
		of->nr++;
	return &of->state[*v];
}

void openfile_switch(struct model *m, struct mfile *mf, uint32_t file, uint32_t ofile)
{
	struct open_files *of = &m->open_files;
	struct open_file_state *s;
	bool made;

	/* the first open file takes the state the file has: fresh, or the unnamed ones' */
	if (mf->ofile) {
		s = state_slot(of, file, mf->ofile, &made);
		if (!s)
			return;		/* out of memory: the open files share the state */
		state_save(s, mf);
		s = state_slot(of, file, ofile, &made);
		if (!s)
			return;
		if (made || s->gen != mf->gen)
			state_fresh(mf);
		else
			state_load(mf, s);
	}
	mf->ofile = ofile;
}

void openfile_unlink(struct mfile *mf)
{
	state_fresh(mf);
	mf->ofile = 0;
}

void openfile_release(struct model *m)
{
	struct open_files *of = &m->open_files;

	if (of->slot.keys)
		u64map_free(&of->slot);
	free(of->state);
	*of = (struct open_files){ 0 };
}
