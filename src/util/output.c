/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output files: see the rules in output.h. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "util/entropy.h"
#include "util/msg.h"
#include "util/output.h"

#define TMP_ATTEMPTS	100
#define TMP_BASE_MAX	200	/* of the target's name in the temporary name: < NAME_MAX */

/*
 * The one device written to: it discards, never blocks, and only root can make one. A FIFO
 * (which anyone can plant, and whose open blocks until a reader comes) or any other device is
 * refused.
 */
static bool is_null_device(const struct stat *st)
{
	return S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 && minor(st->st_rdev) == 3;
}

/* Why a file that is neither a regular file nor the null device is no output. */
static int refuse_special(const char *path, mode_t m, struct ft_error *err)
{
	const char *what = S_ISDIR(m) ? "a directory" : S_ISFIFO(m) ? "a FIFO" :
			   S_ISSOCK(m) ? "a socket" : S_ISCHR(m) ? "a character device" :
			   S_ISBLK(m) ? "a block device" : "not a regular file";

	if (S_ISDIR(m))
		return ft_error_set(err, path, "is a directory");
	return ft_error_set(err, path, "is %s: refused (an output is a regular file, /dev/null "
			    "or standard output)", what);
}

/*
 * The descriptor a path names when it is one of the command's own open files (/dev/stdout,
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N): such a path is that file as the shell set it up,
 * whatever it is. -1 for any other path.
 */
static int own_fd(const char *path)
{
	static const char *const dirs[] = { "/dev/fd/", "/proc/self/fd/" };
	char *end;
	long n;

	if (strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	for (unsigned i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		size_t len = strlen(dirs[i]);

		if (strncmp(path, dirs[i], len) || path[len] < '0' || path[len] > '9')
			continue;
		n = strtol(path + len, &end, 10);
		if (*end == '\0' && n >= 0 && n < 1 << 20)
			return (int)n;
	}
	return -1;
}

/*
 * The kernel's fs.protected_symlinks rule, applied whatever the sysctl says: in a sticky
 * world-writable directory (/tmp) a link is followed only when it is ours or the directory
 * owner's, so a link another user planted there never leads us anywhere.
 */
static bool link_may_be_followed(const char *dir, const struct stat *link)
{
	struct stat d;

	if (stat(dir, &d) < 0)
		return false;
	if (!(d.st_mode & S_ISVTX) || !(d.st_mode & S_IWOTH))
		return true;
	return link->st_uid == geteuid() || link->st_uid == d.st_uid;
}

/* An output that is one of the inputs would destroy what is being read. */
static int check_inputs(const char *path, const struct ft_output_opts *opts,
			struct ft_error *err)
{
	struct stat out, in;

	if (stat(path, &out) < 0 || !S_ISREG(out.st_mode))
		return 0;
	for (unsigned i = 0; i < opts->ninputs; i++) {
		const char *p = opts->inputs[i];
		int r = strcmp(p, "-") == 0 ? fstat(STDIN_FILENO, &in) : stat(p, &in);

		if (r == 0 && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
			return ft_error_set(err, path, "is also the input %s: refused",
					    strcmp(p, "-") ? p : "(standard input)");
	}
	return 0;
}

/* dir and base of path, in one allocation: *dir is "." or "/" where path has no other. */
static char *split_path(const char *path, const char **dir, const char **base)
{
	size_t len = strlen(path);
	char *buf = malloc(len + 3), *slash;

	if (!buf)
		return NULL;
	memcpy(buf, path, len + 1);
	slash = strrchr(buf, '/');
	if (!slash) {
		*dir = ".";
		*base = buf;
	} else if (slash == buf) {
		/* "/name": the directory is "/", kept apart from the name */
		memmove(buf + 2, buf + 1, len);
		buf[1] = '\0';
		*dir = buf;
		*base = buf + 2;
	} else {
		*slash = '\0';
		*dir = buf;
		*base = slash + 1;
	}
	return buf;
}

/* name: "DIR/.BASE.RANDOM", a name for a file of ours next to the target; len >= temp_len. */
static size_t temp_len(const char *dir)
{
	return strlen(dir) + TMP_BASE_MAX + 32;
}

static void temp_name(char *name, size_t len, const char *dir, const char *base,
		      unsigned attempt)
{
	snprintf(name, len, "%s/.%.*s.%012llx", dir, TMP_BASE_MAX, base,
		 (unsigned long long)(ft_random_u64(attempt) & 0xffffffffffffull));
}

/*
 * A new file ".NAME.RANDOM" next to the target, created exclusively: whatever another user
 * planted under a guessed name, open() fails rather than follows it.
 */
static int create_named_temp(struct ft_output *o, const char *dir, const char *base,
			     unsigned mode, struct ft_error *err)
{
	size_t len = temp_len(dir);
	char *name = malloc(len);
	int e = ENOMEM;

	for (unsigned i = 0; name && i < TMP_ATTEMPTS; i++) {
		temp_name(name, len, dir, base, i);
		o->fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
			     mode);
		if (o->fd >= 0) {
			o->tmp = name;
			return 0;
		}
		e = errno;
		if (e != EEXIST)
			break;
	}
	free(name);
	return ft_error_set(err, o->path, "cannot create a file in %s: %s", dir, strerror(e));
}

/* The path through which an unnamed file of ours can be given a name, in buf. */
static void fd_path(char *buf, size_t len, int fd)
{
	snprintf(buf, len, "/proc/self/fd/%d", fd);
}

/*
 * The file written until commit: an unnamed one in the target's directory (O_TMPFILE), so
 * that a run ended by any signal, SIGKILL included, leaves nothing behind. Where the
 * filesystem cannot (or /proc, through which it gets its name, is missing), a named one.
 */
static int create_temp(struct ft_output *o, const char *dir, const char *base, unsigned mode,
		       struct ft_error *err)
{
	char link[64];

	o->fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, mode);
	if (o->fd >= 0) {
		fd_path(link, sizeof(link), o->fd);
		if (access(link, F_OK) == 0) {
			o->anon = true;
			return 0;
		}
		close(o->fd);
		o->fd = -1;
	}
	return create_named_temp(o, dir, base, mode, err);
}

/* Links the unnamed file at name: through /proc, or (privileged) by its descriptor. */
static int link_anon(int fd, const char *name)
{
	char link[64];

	fd_path(link, sizeof(link), fd);
	if (linkat(AT_FDCWD, link, AT_FDCWD, name, AT_SYMLINK_FOLLOW) == 0)
		return 0;
	if (errno == EEXIST)
		return -1;
	return linkat(fd, "", AT_FDCWD, name, AT_EMPTY_PATH);
}

/*
 * Puts the file written onto the target's name. An unnamed file gets a temporary name first
 * (link() cannot replace a name): the signals that end a run are held meanwhile, so it never
 * stays under that name. 0, or -1 with errno set.
 */
static int replace_target(struct ft_output *o)
{
	const char *dir, *base;
	char *parts, *name = NULL;
	sigset_t hold, orig;
	int ret = -1, e = 0;

	if (!o->anon)
		return rename(o->tmp, o->path);
	parts = split_path(o->path, &dir, &base);
	if (parts)
		name = malloc(temp_len(dir));
	if (!name) {
		free(parts);
		errno = ENOMEM;
		return -1;
	}
	sigemptyset(&hold);
	sigaddset(&hold, SIGINT);
	sigaddset(&hold, SIGTERM);
	sigaddset(&hold, SIGHUP);
	sigaddset(&hold, SIGQUIT);
	pthread_sigmask(SIG_BLOCK, &hold, &orig);
	for (unsigned i = 0; ret && i < TMP_ATTEMPTS; i++) {
		temp_name(name, temp_len(dir), dir, base, i);
		ret = link_anon(o->fd, name);
		e = errno;
		if (ret && e != EEXIST)
			break;
	}
	if (!ret && rename(name, o->path) < 0) {
		e = errno;
		unlink(name);
		ret = -1;
	}
	pthread_sigmask(SIG_SETMASK, &orig, NULL);
	free(name);
	free(parts);
	errno = e;
	return ret;
}

/* One of our descriptors (fd), or with fd -1 the null device, written in place. */
static int open_direct(struct ft_output *o, int fd, struct ft_error *err)
{
	struct stat st;

	o->direct = true;
	if (fd >= 0)
		o->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	else	/* O_NONBLOCK: should a FIFO replace it meanwhile, open() does not wait */
		o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (o->fd < 0)
		return ft_error_set(err, o->path, "cannot open: %s", strerror(errno));
	/* what was opened is what was checked, even if the path changed in between */
	if (fd < 0 && (fstat(o->fd, &st) < 0 || !is_null_device(&st)))
		return ft_error_set(err, o->path, "changed while being opened: refused");
	return 0;
}

/* The target does not exist: a temporary file, or (record) the target itself. */
static int open_new(struct ft_output *o, const char *dir, const char *base,
		    const struct ft_output_opts *opts, struct ft_error *err)
{
	struct stat st;

	if (!opts->in_place_if_new)
		return create_temp(o, dir, base, opts->mode, err);
	o->fd = open(o->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
		     opts->mode);
	if (o->fd < 0 || fstat(o->fd, &st) < 0)
		return ft_error_set(err, o->path, "cannot create: %s", strerror(errno));
	o->created = true;
	o->dev = st.st_dev;
	o->ino = st.st_ino;
	return 0;
}

/* What to do with the file at the target, as lstat() found it. */
static int open_existing(struct ft_output *o, const struct stat *lst, const char *dir,
			 const char *base, const struct ft_output_opts *opts, struct ft_error *err)
{
	struct stat st;

	if (S_ISLNK(lst->st_mode)) {
		if (stat(o->path, &st) == 0 && is_null_device(&st) &&
		    link_may_be_followed(dir, lst))
			return open_direct(o, -1, err);
		if (!opts->force)
			return ft_error_set(err, o->path, "is a symbolic link: refused (--force "
					    "replaces the link, never what it points to)");
		return create_temp(o, dir, base, opts->mode, err);
	}
	if (is_null_device(lst))
		return open_direct(o, -1, err);
	if (!S_ISREG(lst->st_mode))
		return refuse_special(o->path, lst->st_mode, err);
	return create_temp(o, dir, base, opts->mode, err);
}

static void release(struct ft_output *o)
{
	free(o->path);
	free(o->tmp);
	o->path = o->tmp = NULL;
	o->f = NULL;
	o->fd = -1;
}

int ft_output_open(struct ft_output *o, const char *path, const struct ft_output_opts *opts,
		   struct ft_error *err)
{
	const char *dir, *base;
	struct stat lst;
	char *parts;
	int ret;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->path = strdup(path);
	if (!o->path)
		return ft_error_set(err, path, "out of memory");
	if (!*path)
		ret = ft_error_set(err, NULL, "an empty output file name");
	else if (opts->dash_is_stdout && strcmp(path, "-") == 0)
		ret = open_direct(o, STDOUT_FILENO, err);
	else if (check_inputs(path, opts, err))
		ret = -1;
	else if (own_fd(path) >= 0)
		ret = open_direct(o, own_fd(path), err);
	else if (!(parts = split_path(path, &dir, &base)))
		ret = ft_error_set(err, path, "out of memory");
	else {
		if (lstat(path, &lst) == 0)
			ret = open_existing(o, &lst, dir, base, opts, err);
		else if (errno == ENOENT)
			ret = open_new(o, dir, base, opts, err);
		else
			ret = ft_error_set(err, path, "cannot create: %s", strerror(errno));
		free(parts);
	}
	if (ret) {
		if (o->fd >= 0)
			close(o->fd);
		o->fd = -1;
		ft_output_abort(o, false);
	}
	return ret;
}

FILE *ft_output_stdio(struct ft_output *o, struct ft_error *err)
{
	if (!o->f) {
		o->f = fdopen(o->fd, "w");
		if (!o->f) {
			ft_error_set(err, ft_output_name(o), "cannot write: %s", strerror(errno));
			return NULL;
		}
		setvbuf(o->f, NULL, _IOFBF, 1 << 16);
	}
	return o->f;
}

const char *ft_output_name(const struct ft_output *o)
{
	return o->path && strcmp(o->path, "-") == 0 ? "standard output" : o->path;
}

/* The rename is on disk once its directory is; a filesystem that cannot say so is fine. */
static void sync_dir(const char *path)
{
	const char *dir, *base;
	char *parts = split_path(path, &dir, &base);
	int fd;

	if (!parts)
		return;
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(parts);
}

/* Flushes and puts a file of ours on disk, still open; 0 or errno of the first failure. */
static int flush_writing(struct ft_output *o)
{
	int e = 0;

	if (o->f) {
		errno = 0;
		if (fflush(o->f) || ferror(o->f))
			e = errno ? errno : EIO;
	}
	if (!e && !o->direct && fsync(o->fd) < 0)
		e = errno;
	return e;
}

static int close_output(struct ft_output *o)
{
	int r = o->f ? fclose(o->f) : close(o->fd);

	o->f = NULL;
	o->fd = -1;
	return r < 0 ? errno : 0;
}

bool ft_output_is_temp(const struct ft_output *o)
{
	return o->tmp || o->anon;
}

/* The file written takes the target's name now; what it was is remembered for abort. */
static int take_name(struct ft_output *o, struct ft_error *err)
{
	struct stat st;

	if (fstat(o->fd, &st) < 0 || replace_target(o) < 0)
		return ft_error_set(err, o->path, "cannot replace: %s", strerror(errno));
	sync_dir(o->path);
	free(o->tmp);
	o->tmp = NULL;
	o->anon = false;
	o->created = true;
	o->dev = st.st_dev;
	o->ino = st.st_ino;
	return 0;
}

int ft_output_place(struct ft_output *o, struct ft_error *err)
{
	if (!ft_output_is_temp(o))
		return 0;
	if (take_name(o, err)) {
		ft_output_abort(o, false);
		return -1;
	}
	return 0;
}

int ft_output_commit(struct ft_output *o, struct ft_error *err)
{
	int e = flush_writing(o);

	if (e) {
		ft_error_set(err, ft_output_name(o), "write failed: %s%s", strerror(e),
			     ft_output_is_temp(o) ? " (nothing replaced)" : "");
		ft_output_abort(o, true);
		return -1;
	}
	if (ft_output_is_temp(o) && take_name(o, err)) {
		ft_output_abort(o, false);
		return -1;
	}
	e = close_output(o);
	if (e) {
		ft_error_set(err, ft_output_name(o), "write failed: %s", strerror(e));
		release(o);
		return -1;
	}
	release(o);
	return 0;
}

void ft_output_abort(struct ft_output *o, bool keep)
{
	struct stat st;

	if (o->f)
		fclose(o->f);
	else if (o->fd >= 0)
		close(o->fd);
	if (o->tmp)
		unlink(o->tmp);
	else if (o->created && !keep && lstat(o->path, &st) == 0 && S_ISREG(st.st_mode) &&
		 st.st_dev == o->dev && st.st_ino == o->ino)
		unlink(o->path);
	release(o);
}

int ft_output_write(const char *path, const struct ft_output_opts *opts,
		    int (*write)(FILE *f, const void *arg), const void *arg)
{
	struct ft_output out;
	struct ft_error err;
	FILE *f;

	if (ft_output_open(&out, path, opts, &err)) {
		ft_warn("%s", err.msg);
		return -1;
	}
	f = ft_output_stdio(&out, &err);
	if (!f || write(f, arg)) {
		if (f)
			ft_error_set(&err, ft_output_name(&out), "write failed: %s",
				     strerror(errno));
		ft_output_abort(&out, false);
		ft_warn("%s", err.msg);
		return -1;
	}
	if (ft_output_commit(&out, &err)) {
		ft_warn("%s", err.msg);
		return -1;
	}
	return 0;
}
