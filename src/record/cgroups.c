/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory cgroups named in the trace. The BPF programs give a task's memory cgroup by id (its
 * kernfs node, which is the inode number of the cgroup's directory); the first time an id is
 * met, its directory is looked up under the hierarchy the memory controller is mounted on and
 * an FT_CGROUP record names it, before the FT_TASK that refers to it.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record.h"

#define CGROUP_DEPTH_MAX	64	/* directories walked down at most */

/* "rw,memory" holds the token "memory". */
static bool has_option(const char *options, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = options; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (!strncmp(p, name, n) && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

void ft_cgroups_init(struct ft_cgroups *c, const struct ft_mounts *ms)
{
	const char *v2 = NULL;

	memset(c, 0, sizeof(*c));
	ft_idset_init(&c->named);
	for (size_t i = 0; ms && i < ms->n; i++) {
		const struct ft_mount *m = &ms->m[i];

		if (!strcmp(m->fstype, "cgroup") && has_option(m->options, "memory")) {
			c->root = m->dir;
			c->v1 = true;
			return;
		}
		if (!strcmp(m->fstype, "cgroup2") && !v2)
			v2 = m->dir;
	}
	c->root = v2;
}

void ft_cgroups_free(struct ft_cgroups *c)
{
	ft_idset_free(&c->named);
}

/* Walks down from the open directory fd (path[0..used) names it) for the one whose inode is id. */
static bool find_below(int fd, __u64 id, char *path, size_t used, size_t len, unsigned depth)
{
	DIR *d = fdopendir(fd);
	struct dirent *e;
	bool found = false;

	if (!d) {
		close(fd);
		return false;
	}
	while (!found && (e = readdir(d))) {
		size_t n = strlen(e->d_name);
		int sub;

		if (e->d_type != DT_DIR || !strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		if (used + 1 + n + 1 > len)
			continue;	/* too long to name: as if gone */
		path[used] = '/';
		memcpy(path + used + 1, e->d_name, n + 1);
		if (e->d_ino == id) {
			found = true;
			break;
		}
		if (depth + 1 >= CGROUP_DEPTH_MAX)
			continue;
		sub = openat(dirfd(d), e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0)
			found = find_below(sub, id, path, used + 1 + n, len, depth + 1);
	}
	closedir(d);
	return found;
}

bool ft_cgroup_find(const char *root, __u64 id, char *path, size_t len)
{
	struct stat st;
	int fd;

	if (!root || len < 2 || !id)
		return false;
	fd = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) == 0 && st.st_ino == id) {
		close(fd);
		snprintf(path, len, "/");
		return true;
	}
	if (find_below(fd, id, path, 0, len, 0))
		return true;
	path[0] = '\0';	/* what a walk that found nothing left there */
	return false;
}

int ft_cgroups_name(struct ft_cgroups *c, struct ft_writer *w, __u64 ts, __u64 id,
		    struct ft_error *err)
{
	char path[4096];
	int added;

	if (!id)
		return 0;
	added = ft_idset_add(&c->named, 0, id);
	if (added <= 0)
		return added;
	if (!ft_cgroup_find(c->root, id, path, sizeof(path)))
		path[0] = '\0';	/* removed since: the id alone */
	return ft_writer_cgroup(w, ts, id, c->v1 ? FT_CG_V1 : 0, path, err);
}
