/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --memory-limit: the recorded command runs in its own memory cgroup (the v1 memory hierarchy,
 * or cgroup v2 where the memory controller is on the unified hierarchy), so its page cache is
 * reclaimed at the limit the way it would be on a smaller machine.
 *
 * The cgroup can only go once the command has exited, and record may be killed before that
 * (SIGKILL leaves no chance to clean up): a keeper process, forked when the cgroup is made,
 * waits for record to go away however it goes and then removes the cgroup as soon as it is
 * empty. It runs in a session of its own, so that killing record's whole process group
 * (timeout -s KILL, a shell's job control) leaves it to clean up. Should the keeper be killed
 * too, the next record --memory-limit removes cgroups of recorders that no longer run.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/record.h"

#define MEMCG_ROOT "/sys/fs/cgroup/memory"
#define CGROUP2_ROOT "/sys/fs/cgroup"
#define MEMCG_PREFIX "folio-trace."	/* + the recorder's pid */
#define RMDIR_RETRY_US	100000

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

/* Cgroups of recorders that no longer run, and whose commands are gone too (rmdir fails else). */
static void remove_stale(const char *root)
{
	DIR *d = opendir(root);
	struct dirent *e;
	char path[512];

	while (d && (e = readdir(d))) {
		char *end;
		long pid;

		if (strncmp(e->d_name, MEMCG_PREFIX, strlen(MEMCG_PREFIX)) != 0)
			continue;
		pid = strtol(e->d_name + strlen(MEMCG_PREFIX), &end, 10);
		if (*end || pid <= 0 || kill((pid_t)pid, 0) == 0 || errno != ESRCH)
			continue;
		snprintf(path, sizeof(path), "%s/%s", root, e->d_name);
		rmdir(path);
	}
	if (d)
		closedir(d);
}

/*
 * The keeper: blocks until record closes its end of the pipe or dies, then removes dir. It
 * holds none of record's files: a trace written to a pipe must end when record ends.
 */
static void keeper_main(int fd, const char *dir)
{
	int null;
	char b;

	/* out of record's process group: a signal to the group is not for the keeper */
	setsid();
	null = open("/dev/null", O_RDWR);
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 || dup2(null, 2) < 0 ||
	    dup2(fd, 3) < 0)
		_exit(1);
	close_range(4, ~0u, 0);
	while (read(3, &b, 1) < 0 && errno == EINTR)
		;
	while (rmdir(dir) < 0 && errno == EBUSY)
		usleep(RMDIR_RETRY_US);
	_exit(0);
}

/*
 * Forks the keeper. It keeps record's blocked signals (Ctrl-C stops record, not the keeper) and
 * nothing else of it matters: it only reads a pipe and removes a directory.
 */
static int start_keeper(struct ft_memcg *m, struct ft_error *err)
{
	int p[2];

	if (pipe2(p, O_CLOEXEC) < 0)
		return ft_error_set(err, NULL, "record: pipe: %s", strerror(errno));
	m->keeper = fork();
	if (m->keeper < 0) {
		close(p[0]);
		close(p[1]);
		return ft_error_set(err, NULL, "record: fork: %s", strerror(errno));
	}
	if (m->keeper == 0) {
		keeper_main(p[0], m->dir);
	}
	close(p[0]);
	m->keeper_fd = p[1];
	return 0;
}

int ft_memcg_create(struct ft_memcg *m, __u64 limit, struct ft_error *err)
{
	char value[32];
	bool v2;

	m->dir = NULL;
	m->keeper = -1;
	m->keeper_fd = -1;
	if (memcg_pick(&v2, err))
		return -1;
	remove_stale(v2 ? CGROUP2_ROOT : MEMCG_ROOT);
	if (asprintf(&m->dir, "%s/" MEMCG_PREFIX "%d", v2 ? CGROUP2_ROOT : MEMCG_ROOT,
		     (int)getpid()) < 0) {
		m->dir = NULL;
		return ft_error_set(err, NULL, "out of memory");
	}
	if (mkdir(m->dir, 0755) < 0 && errno != EEXIST) {
		ft_error_set(err, NULL, "%s: cannot create cgroup: %s", m->dir, strerror(errno));
		free(m->dir);
		m->dir = NULL;
		return -1;
	}
	snprintf(value, sizeof(value), "%llu", (unsigned long long)limit);
	if (write_file(m->dir, v2 ? "memory.max" : "memory.limit_in_bytes", value, err) ||
	    start_keeper(m, err)) {
		ft_memcg_remove(m);
		return -1;
	}
	return 0;
}

int ft_memcg_add(const struct ft_memcg *m, int pid, struct ft_error *err)
{
	char value[32];

	snprintf(value, sizeof(value), "%d", pid);
	return write_file(m->dir, "cgroup.procs", value, err);
}

void ft_memcg_remove(struct ft_memcg *m)
{
	if (!m->dir)
		return;
	/* The last task may still be exiting: give it a moment. */
	for (int i = 0; i < 50 && rmdir(m->dir) < 0 && errno == EBUSY; i++)
		usleep(20000);
	if (m->keeper_fd >= 0) {
		/* the keeper removes what is left once the command has gone */
		close(m->keeper_fd);
		waitpid(m->keeper, NULL, WNOHANG);
	}
	free(m->dir);
	m->dir = NULL;
	m->keeper_fd = -1;
}
