/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record -- COMMAND: the traced command's process. It is forked first and held before exec
 * until the BPF programs trace its pid, so its very first access is in the trace.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "record/record.h"
#include "util/msg.h"

/*
 * Forks the command, held before exec until ft_child_release(). When the trace goes to
 * standard output, the command's standard output is our standard error instead.
 */
int ft_child_fork(struct ft_child *c, char **cmd, const sigset_t *orig_mask, bool trace_stdout)
{
	int go[2], ex[2];

	if (pipe2(go, O_CLOEXEC) < 0 || pipe2(ex, O_CLOEXEC) < 0) {
		ft_warn("record: pipe: %s", strerror(errno));
		return -1;
	}
	c->pid = fork();
	if (c->pid < 0) {
		ft_warn("record: fork: %s", strerror(errno));
		return -1;
	}
	if (c->pid == 0) {
		char b;
		int e;

		close(go[1]);
		close(ex[0]);
		sigprocmask(SIG_SETMASK, orig_mask, NULL);
		if (trace_stdout && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		if (read(go[0], &b, 1) != 1)
			_exit(127);
		execvp(cmd[0], cmd);
		e = errno;
		if (write(ex[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ex[1]);
	c->go_fd = go[1];
	c->exec_fd = ex[0];
	c->exited = false;
	return 0;
}

bool ft_child_release(struct ft_child *c, const char *name)
{
	int e = 0;
	ssize_t n;

	if (write(c->go_fd, "g", 1) != 1) {
		ft_warn("record: cannot start %s: %s", name, strerror(errno));
		return false;
	}
	close(c->go_fd);
	c->go_fd = -1;
	do
		n = read(c->exec_fd, &e, sizeof(e));
	while (n < 0 && errno == EINTR);
	close(c->exec_fd);
	c->exec_fd = -1;
	if (n == sizeof(e)) {
		ft_warn("%s: cannot run: %s", name, strerror(e));
		return false;
	}
	return true;
}

void ft_child_reap(struct ft_child *c)
{
	if (!c->exited && waitpid(c->pid, &c->status, WNOHANG) == c->pid)
		c->exited = true;
}

void ft_child_wait(struct ft_child *c)
{
	if (!c->exited && waitpid(c->pid, &c->status, 0) == c->pid)
		c->exited = true;
}

/*
 * Still held: closing its pipe makes it exit without running anything. Released: it is ours
 * to stop, since the recording it ran for has failed.
 */
void ft_child_stop(struct ft_child *c)
{
	if (c->exited)
		return;
	if (c->go_fd >= 0) {
		close(c->go_fd);
		if (c->exec_fd >= 0)
			close(c->exec_fd);
	} else {
		kill(c->pid, SIGTERM);
	}
	waitpid(c->pid, NULL, 0);
}

void ft_child_report(const struct ft_child *c, const char *name)
{
	if (WIFEXITED(c->status) && WEXITSTATUS(c->status))
		ft_warn("record: %s exited with status %d", name, WEXITSTATUS(c->status));
	else if (WIFSIGNALED(c->status))
		ft_warn("record: %s killed by signal %d", name, WTERMSIG(c->status));
}
