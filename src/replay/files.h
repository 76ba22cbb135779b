/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * (dev, ino) -> dense file id, and what the driver knows of each file (its size). Models index
 * their per-file state by these small ids, so they never hash inode numbers themselves.
 */
#ifndef FT_REPLAY_FILES_H
#define FT_REPLAY_FILES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define FILE_ID_NONE	UINT32_MAX

struct file_info {
	uint32_t dev;
	uint64_t ino;
	uint64_t size;		/* i_size as last seen */
	bool retired;		/* its inode number is another file's now (FT_FILE_REUSED) */
	bool start_cached;	/* has pages cached before the trace (FT_START_CACHE) */
	bool no_page_cache;	/* on procfs, sysfs...: its accesses are left out */
	uint32_t gen;		/* files that had its number before it in the trace */
	/* the pages the kernel deleted in the trace lie in [del_lo, del_end); none: del_end 0 */
	uint64_t del_lo, del_end;
};

struct file_table {
	uint32_t *slots;	/* open addressing: file id + 1, 0 = empty */
	size_t nslots;		/* power of two */
	struct file_info *files;
	size_t nfiles, cap;
	/* consecutive accesses mostly hit the same file: skip the hash then */
	uint32_t last_dev, last_id;
	uint64_t last_ino;
};

void file_table_init(struct file_table *t);
void file_table_release(struct file_table *t);
/* file_table_id() when (dev, ino) is not the last file asked for. */
uint32_t file_table_find_or_add(struct file_table *t, uint32_t dev, uint64_t ino);

/*
 * A new id for (dev, ino): its number names a new file now (FT_FILE_REUSED); the old id keeps
 * what it had. FILE_ID_NONE on ENOMEM.
 */
uint32_t file_table_renew(struct file_table *t, uint32_t dev, uint64_t ino);
/* The id of (dev, ino), added (size 0) if new; FILE_ID_NONE on ENOMEM. */
static inline uint32_t file_table_id(struct file_table *t, uint32_t dev, uint64_t ino)
{
	if (t->last_id != FILE_ID_NONE && t->last_ino == ino && t->last_dev == dev)
		return t->last_id;
	return file_table_find_or_add(t, dev, ino);
}

/* The id of (dev, ino) if the table has it, else FILE_ID_NONE: nothing added. */
uint32_t file_table_find(const struct file_table *t, uint32_t dev, uint64_t ino);

static inline struct file_info *file_table_get(struct file_table *t, uint32_t id)
{
	return &t->files[id];
}

#endif /* FT_REPLAY_FILES_H */
