/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --memory-limit: the recorded command runs in its own memory cgroup (the v1 memory hierarchy,
 * or cgroup v2 where the memory controller is on the unified hierarchy), so its page cache is
 * reclaimed at the limit the way it would be on a smaller machine.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record.h"

#define MEMCG_ROOT "/sys/fs/cgroup/memory"
#define CGROUP2_ROOT "/sys/fs/cgroup"

static int write_file(const char *dir, const char *name, const char *value, struct ft_error *err)
{
	char path[256];
	int fd, saved;
	ssize_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		ft_error_set(err, NULL, "%.256s: %s", path, strerror(errno));
		return -1;
	}
	n = write(fd, value, strlen(value));
	saved = errno;
	close(fd);
	if (n != (ssize_t)strlen(value)) {
		ft_error_set(err, NULL, "%.256s: cannot write '%.32s': %s", path, value,
			 n < 0 ? strerror(saved) : "short write");
		return -1;
	}
	return 0;
}

/* cgroup v2 with the memory controller available at the root of the unified hierarchy. */
static bool memcg_v2(void)
{
	char buf[512];
	ssize_t n;
	int fd = open(CGROUP2_ROOT "/cgroup.controllers", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	for (char *tok = strtok(buf, " \n"); tok; tok = strtok(NULL, " \n"))
		if (strcmp(tok, "memory") == 0)
			return true;
	return false;
}

/* The hierarchy to use and its limit file; -1 with err set when there is none. */
static int memcg_pick(bool *v2, struct ft_error *err)
{
	if (access(MEMCG_ROOT "/memory.limit_in_bytes", W_OK) == 0) {
		*v2 = false;
		return 0;
	}
	if (memcg_v2()) {
		*v2 = true;
		/* children of the root get the controller only once it is enabled there */
		return write_file(CGROUP2_ROOT, "cgroup.subtree_control", "+memory", err);
	}
	ft_error_set(err, NULL, "record: --memory-limit needs a memory cgroup "
		 "controller (v1 at %s or v2 at %s)", MEMCG_ROOT, CGROUP2_ROOT);
	return -1;
}

int ft_memcg_create(__u64 limit, char **dir, struct ft_error *err)
{
	char value[32];
	bool v2;

	if (memcg_pick(&v2, err))
		return -1;
	if (asprintf(dir, "%s/folio-trace.%d", v2 ? CGROUP2_ROOT : MEMCG_ROOT, (int)getpid()) < 0) {
		ft_error_set(err, NULL, "out of memory");
		return -1;
	}
	if (mkdir(*dir, 0755) < 0 && errno != EEXIST) {
		ft_error_set(err, NULL, "%s: cannot create cgroup: %s", *dir,
			 strerror(errno));
		free(*dir);
		*dir = NULL;
		return -1;
	}
	snprintf(value, sizeof(value), "%llu", (unsigned long long)limit);
	if (write_file(*dir, v2 ? "memory.max" : "memory.limit_in_bytes", value, err)) {
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
