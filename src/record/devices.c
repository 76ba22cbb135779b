/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FT_DEVICE: what the page cache of a mounted filesystem does that FT_HOST does not say.
 * Readahead (ra_pages) and the largest I/O (io_pages) belong to the filesystem's backing device
 * (bdi), which is not always the device its s_dev names:
 *   - a block filesystem on a partition reads through the whole disk's bdi and queue;
 *   - btrfs has a bdi of its own (btrfs-N) over one or more devices, and an anonymous s_dev;
 *   - tmpfs has none (shmem does no readahead): 0, and its huge= policy instead;
 *   - NFS, FUSE and the like name their bdi by their anonymous s_dev.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/record.h"

static bool read_u32(const char *path, __u32 *v)
{
	unsigned long long x;
	FILE *f = fopen(path, "re");
	bool ok;

	if (!f)
		return false;
	ok = fscanf(f, "%llu", &x) == 1 && x <= 0xffffffffull;
	fclose(f);
	if (ok)
		*v = (__u32)x;
	return ok;
}

static __u32 kb_to_pages(__u32 kb, __u32 page_size)
{
	return page_size >= 1024 ? kb / (page_size / 1024) : 0;
}

/* The whole disk of a block device: itself, or the disk a partition is part of. */
static bool block_disk(const char *sysfs, __u32 dev, char *disk, size_t len)
{
	char path[256], buf[32];
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/partition", sysfs, dev >> 20,
		 dev & 0xfffff);
	if (access(path, F_OK) != 0) {
		snprintf(path, sizeof(path), "%s/dev/block/%u:%u", sysfs, dev >> 20, dev & 0xfffff);
		snprintf(disk, len, "%u:%u", dev >> 20, dev & 0xfffff);
		return access(path, F_OK) == 0;
	}
	snprintf(path, sizeof(path), "%s/dev/block/%u:%u/../dev", sysfs, dev >> 20, dev & 0xfffff);
	f = fopen(path, "re");
	if (!f)
		return false;
	ok = fgets(buf, sizeof(buf), f) != NULL;
	fclose(f);
	if (ok) {
		buf[strcspn(buf, "\n")] = '\0';
		snprintf(disk, len, "%s", buf);
	}
	return ok;
}

/*
 * btrfs: the filesystem in /sys/fs/btrfs that has the mounted device among its devices; its
 * directory in dir.
 */
static bool btrfs_dir(const struct ft_mount *m, const char *sysfs, char *dir, size_t len)
{
	char path[PATH_MAX], *real = realpath(m->source, NULL);
	const char *name = real ? strrchr(real, '/') : NULL;
	struct dirent *e;
	bool found = false;
	DIR *d;

	snprintf(path, sizeof(path), "%s/fs/btrfs", sysfs);
	d = name ? opendir(path) : NULL;
	while (d && !found && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/fs/btrfs/%s/devices%s", sysfs, e->d_name, name);
		if (access(path, F_OK) == 0) {
			snprintf(dir, len, "%s/fs/btrfs/%s", sysfs, e->d_name);
			found = true;
		}
	}
	if (d)
		closedir(d);
	free(real);
	return found;
}

void ft_device_options(const char *fstype, const char *options, __u16 *huge, __u16 *flags)
{
	static const struct { const char *opt; __u16 huge; } huge_opts[] = {
		{ "huge=never", FT_HUGE_NEVER }, { "huge=always", FT_HUGE_ALWAYS },
		{ "huge=within_size", FT_HUGE_WITHIN_SIZE }, { "huge=advise", FT_HUGE_ADVISE },
	};
	char *copy = strdup(options), *save = NULL;

	*flags = 0;
	/* tmpfs shows huge= only when it is not "never" */
	*huge = strcmp(fstype, "tmpfs") == 0 ? FT_HUGE_NEVER : FT_HUGE_UNKNOWN;
	for (char *o = copy ? strtok_r(copy, ",", &save) : NULL; o; o = strtok_r(NULL, ",", &save)) {
		for (size_t i = 0; i < sizeof(huge_opts) / sizeof(huge_opts[0]); i++)
			if (*huge && strcmp(o, huge_opts[i].opt) == 0)
				*huge = huge_opts[i].huge;
		if (strcmp(o, "data=journal") == 0)
			*flags |= FT_DEV_DATA_JOURNAL;
		else if (strcmp(o, "dax") == 0 || strcmp(o, "dax=always") == 0)
			*flags |= FT_DEV_DAX;
		else if (strcmp(o, "sync") == 0)
			*flags |= FT_DEV_SYNC;
	}
	free(copy);
}

void ft_device_describe(const struct ft_mount *m, const char *sysfs, __u32 page_size,
			struct ft_device *d)
{
	char path[PATH_MAX + 64], disk[32], dir[PATH_MAX];
	__u32 kb;

	memset(d, 0, sizeof(*d));
	d->hdr.type = FT_DEVICE;
	d->hdr.size = sizeof(*d);
	d->dev = m->dev;
	ft_device_options(m->fstype, m->options, &d->huge, &d->flags);
	if (block_disk(sysfs, m->dev, disk, sizeof(disk))) {
		snprintf(path, sizeof(path), "%s/class/bdi/%s/read_ahead_kb", sysfs, disk);
		if (read_u32(path, &kb))
			d->ra_pages = kb_to_pages(kb, page_size);
		snprintf(path, sizeof(path), "%s/dev/block/%s/queue/max_sectors_kb", sysfs, disk);
		if (read_u32(path, &kb))
			d->io_pages = kb_to_pages(kb, page_size);
	} else if (strcmp(m->fstype, "btrfs") == 0 && btrfs_dir(m, sysfs, dir, sizeof(dir))) {
		/* its own bdi sets no io_pages: readahead then goes by ra_pages alone */
		snprintf(path, sizeof(path), "%s/bdi/read_ahead_kb", dir);
		if (read_u32(path, &kb))
			d->ra_pages = kb_to_pages(kb, page_size);
	} else {
		snprintf(path, sizeof(path), "%s/class/bdi/%u:%u/read_ahead_kb", sysfs, m->dev >> 20,
			 m->dev & 0xfffff);
		if (read_u32(path, &kb))
			d->ra_pages = kb_to_pages(kb, page_size);
	}
}
