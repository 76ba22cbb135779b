/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Output files: see the rules in output.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/hash.h"
#include "util/output.h"

#define TMP_ATTEMPTS	100
#define TMP_BASE_MAX	200	/* of the target's name in the temporary name: < NAME_MAX */

/* Written in place: opening them creates nothing and truncating means nothing. */
static bool is_device_or_fifo(mode_t m)
{
	return S_ISCHR(m) || S_ISFIFO(m) || S_ISSOCK(m);
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

static uint64_t random_u64(unsigned attempt)
{
	struct timespec t;
	uint64_t r;

	if (getrandom(&r, sizeof(r), GRND_NONBLOCK) == (ssize_t)sizeof(r))
		return r;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return ft_hash64((uint64_t)getpid() << 40 ^ (uint64_t)t.tv_sec << 20 ^
			 (uint64_t)t.tv_nsec ^ attempt);
}

/*
 * A new file ".NAME.RANDOM" next to the target, created exclusively: whatever another user
 * planted under a guessed name, open() fails rather than follows it.
 */
static int create_temp(struct ft_output *o, const char *dir, const char *base, unsigned mode,
		       struct ft_error *err)
{
	size_t len = strlen(dir) + TMP_BASE_MAX + 32;
	char *name = malloc(len);
	int e = ENOMEM;

	for (unsigned i = 0; name && i < TMP_ATTEMPTS; i++) {
		snprintf(name, len, "%s/.%.*s.%012llx", dir, TMP_BASE_MAX, base,
			 (unsigned long long)(random_u64(i) & 0xffffffffffffull));
		o->fd = open(name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
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

/* A device, a FIFO or one of our descriptors, opened as it is; fd: that descriptor, or -1. */
static int open_direct(struct ft_output *o, int fd, struct ft_error *err)
{
	struct stat st;

	o->direct = true;
	if (fd >= 0)
		o->fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	else
		o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (o->fd < 0)
		return ft_error_set(err, o->path, "cannot open: %s", strerror(errno));
	/* what was opened is what was checked, even if the path changed in between */
	if (fd < 0 && (fstat(o->fd, &st) < 0 || !is_device_or_fifo(st.st_mode)))
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
	o->fd = open(o->path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, opts->mode);
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
		if (stat(o->path, &st) == 0 && is_device_or_fifo(st.st_mode) &&
		    link_may_be_followed(dir, lst))
			return open_direct(o, -1, err);
		if (!opts->force)
			return ft_error_set(err, o->path, "is a symbolic link: refused (--force "
					    "replaces the link, never what it points to)");
		return create_temp(o, dir, base, opts->mode, err);
	}
	if (is_device_or_fifo(lst->st_mode))
		return open_direct(o, -1, err);
	if (S_ISDIR(lst->st_mode))
		return ft_error_set(err, o->path, "is a directory");
	if (!S_ISREG(lst->st_mode))
		return ft_error_set(err, o->path, "is not a regular file: refused");
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

/* Flushes and closes; 0 or errno of the first failure. */
static int finish_writing(struct ft_output *o)
{
	int e = 0;

	if (o->f) {
		errno = 0;
		if (fflush(o->f) || ferror(o->f))
			e = errno ? errno : EIO;
	}
	if (!e && !o->direct && fsync(o->fd) < 0)
		e = errno;
	if ((o->f ? fclose(o->f) : close(o->fd)) < 0 && !e)
		e = errno;
	o->f = NULL;
	o->fd = -1;
	return e;
}

int ft_output_commit(struct ft_output *o, struct ft_error *err)
{
	int e = finish_writing(o);

	if (e) {
		ft_error_set(err, ft_output_name(o), "write failed: %s%s", strerror(e),
			     o->tmp ? " (nothing replaced)" : "");
		ft_output_abort(o, true);
		return -1;
	}
	if (o->tmp) {
		if (rename(o->tmp, o->path) < 0) {
			ft_error_set(err, o->path, "cannot replace: %s", strerror(errno));
			ft_output_abort(o, false);
			return -1;
		}
		sync_dir(o->path);
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
