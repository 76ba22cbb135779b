/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --memory-limit: the recorded command runs in its own memory cgroup (v1 hierarchy), so its
 * page cache is reclaimed at the limit the way it would be on a smaller machine.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record.h"

#define MEMCG_ROOT "/sys/fs/cgroup/memory"

static int write_file(const char *dir, const char *name, const char *value, struct ft_error *err)
{
	char path[256];
	int fd, saved;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err->msg, sizeof(err->msg), "%.256s: %s", path, strerror(errno));
		return -1;
	}
	n = write(fd, value, strlen(value));
	saved = errno;
	close(fd);
	if (n != (ssize_t)strlen(value)) {
		snprintf(err->msg, sizeof(err->msg), "%.256s: cannot write '%.32s': %s", path, value,
			 n < 0 ? strerror(saved) : "short write");
		return -1;
	}
	return 0;
}

int ft_memcg_create(__u64 limit, char **dir, struct ft_error *err)
{
	char value[32];

	if (access(MEMCG_ROOT "/memory.limit_in_bytes", W_OK) != 0) {
		snprintf(err->msg, sizeof(err->msg), "record: --memory-limit needs the cgroup v1 "
			 "memory controller at %s: %s", MEMCG_ROOT, strerror(errno));
		return -1;
	}
	if (asprintf(dir, MEMCG_ROOT "/folio-trace.%d", (int)getpid()) < 0) {
		snprintf(err->msg, sizeof(err->msg), "out of memory");
		return -1;
	}
	if (mkdir(*dir, 0755) < 0 && errno != EEXIST) {
		snprintf(err->msg, sizeof(err->msg), "%s: cannot create cgroup: %s", *dir,
			 strerror(errno));
		free(*dir);
		*dir = NULL;
		return -1;
	}
	snprintf(value, sizeof(value), "%llu", (unsigned long long)limit);
	if (write_file(*dir, "memory.limit_in_bytes", value, err)) {
		ft_memcg_remove(*dir);
		free(*dir);
		*dir = NULL;
		return -1;
	}
	return 0;
}

int ft_memcg_add(const char *dir, int pid, struct ft_error *err)
{
	char value[32];

	snprintf(value, sizeof(value), "%d", pid);
	return write_file(dir, "cgroup.procs", value, err);
}

void ft_memcg_remove(const char *dir)
{
	/* The last task may still be exiting: give it a moment. */
	for (int i = 0; i < 50 && rmdir(dir) < 0 && errno == EBUSY; i++)
		usleep(20000);
}
