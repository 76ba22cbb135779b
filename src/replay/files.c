/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>
#include <string.h>

#include "replay/files.h"
#include "util/grow.h"
#include "util/hash.h"

void file_table_init(struct file_table *t)
{
	memset(t, 0, sizeof(*t));
	t->last_id = FILE_ID_NONE;
}

void file_table_release(struct file_table *t)
{
	free(t->slots);
	free(t->files);
	file_table_init(t);
}

/* Inode numbers are often sequential: spread them over the slots. */
static uint64_t file_hash(uint32_t dev, uint64_t ino)
{
	return ft_hash64(ino ^ ((uint64_t)dev << 40) ^ ((uint64_t)dev >> 24));
}

static void slot_insert(uint32_t *slots, size_t nslots, const struct file_info *f, uint32_t id)
{
	size_t i = file_hash(f->dev, f->ino) & (nslots - 1);

	while (slots[i])
		i = (i + 1) & (nslots - 1);
	slots[i] = id + 1;
}

/* Keep the load under a half so probe runs stay short. */
static int grow_slots(struct file_table *t)
{
	size_t n = t->nslots ? 2 * t->nslots : 1024;
	uint32_t *slots = calloc(n, sizeof(*slots));

	if (!slots)
		return -1;
	for (size_t id = 0; id < t->nfiles; id++)
		if (!t->files[id].retired)
			slot_insert(slots, n, &t->files[id], (uint32_t)id);
	free(t->slots);
	t->slots = slots;
	t->nslots = n;
	return 0;
}

static uint32_t add_file(struct file_table *t, uint32_t dev, uint64_t ino)
{
	struct file_info *files;
	uint32_t id;

	if (t->nfiles >= FILE_ID_NONE - 1)
		return FILE_ID_NONE;
	files = ft_grow(t->files, &t->cap, t->nfiles, sizeof(*files), 256);
	if (!files)
		return FILE_ID_NONE;
	t->files = files;
	if (2 * (t->nfiles + 1) > t->nslots && grow_slots(t) < 0)
		return FILE_ID_NONE;
	id = (uint32_t)t->nfiles++;
	t->files[id] = (struct file_info){ .dev = dev, .ino = ino };
	slot_insert(t->slots, t->nslots, &t->files[id], id);
	return id;
}

static uint32_t find_file(const struct file_table *t, uint32_t dev, uint64_t ino)
{
	size_t i, mask;

	if (!t->nslots)
		return FILE_ID_NONE;
	mask = t->nslots - 1;
	for (i = file_hash(dev, ino) & mask; t->slots[i]; i = (i + 1) & mask) {
		const struct file_info *f = &t->files[t->slots[i] - 1];

		if (f->ino == ino && f->dev == dev && !f->retired)
			return t->slots[i] - 1;
	}
	return FILE_ID_NONE;
}

uint32_t file_table_find(const struct file_table *t, uint32_t dev, uint64_t ino)
{
	return find_file(t, dev, ino);
}

uint32_t file_table_find_or_add(struct file_table *t, uint32_t dev, uint64_t ino)
{
	uint32_t id = find_file(t, dev, ino);

	if (id == FILE_ID_NONE)
		id = add_file(t, dev, ino);
	if (id != FILE_ID_NONE) {
		t->last_dev = dev;
		t->last_ino = ino;
		t->last_id = id;
	}
	return id;
}

uint32_t file_table_renew(struct file_table *t, uint32_t dev, uint64_t ino)
{
	uint32_t old = find_file(t, dev, ino), id;

	if (old != FILE_ID_NONE)
		t->files[old].retired = true;
	t->last_id = FILE_ID_NONE;
	id = file_table_find_or_add(t, dev, ino);
	if (id != FILE_ID_NONE)
		t->files[id].gen = old != FILE_ID_NONE ? t->files[old].gen + 1 : 0;
	return id;
}
