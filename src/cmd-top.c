/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace top: what the page cache does with folios, now. The records come from
 * `folio-trace record -o -` run as a child (the same BPF programs and consumer, the same
 * overhead), or from a trace file; they are summed per file, process or cgroup and shown
 * every interval, full screen on a terminal, as lines or JSON otherwise.
 */
#define _GNU_SOURCE
#include <argp.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "top/cached.h"
#include "top/tally.h"
#include "top/view.h"
#include "trace/trace.h"
#include "util/args.h"
#include "util/msg.h"
#include "util/output.h"
#include "util/parse.h"

#define TOP_MAX_RECORD_ARGS	64
/* --from: empty intervals shown one by one between two events, at most */
#define TOP_EMPTY_SHOWN		1000

enum top_opt {
	OPT_CGROUP = 256, OPT_COMM, OPT_DEV, OPT_BY, OPT_FORMAT, OPT_SORT, OPT_FROM, OPT_FORCE,
	OPT_LINES, OPT_CACHED,
};

static const struct argp_option top_options[] = {
	{ NULL, 0, NULL, 0, "What to watch (as folio-trace record):", 1 },
	{ "pid", 'p', "PID", 0, "only this process (repeatable)", 1 },
	{ "cgroup", OPT_CGROUP, "PATH", 0, "only tasks under this cgroup v2 directory", 1 },
	{ "comm", OPT_COMM, "NAME", 0, "only tasks with this command name", 1 },
	{ "dev", OPT_DEV, "DEV", 0, "only files on this device: MAJ:MIN, a block device or a path",
	  1 },
	{ "from", OPT_FROM, "TRACE", 0,
	  "show a recorded trace instead of the live kernel, its intervals in trace time", 1 },
	{ NULL, 0, NULL, 0, "How to show it:", 2 },
	{ "interval", 'i', "DURATION", 0, "refresh every DURATION (default 2s, at least 1s live)",
	  2 },
	{ "by", OPT_BY, "KIND", 0, "file (default), process or cgroup: a row for each", 2 },
	{ "sort", OPT_SORT, "COLUMN", 0,
	  "sort by this column: read, write, dirtied, wback, waf, inserted (default), o0, o1-3, "
	  "o4-8, o9+, evicted, hit%, ra or name (any case); '<' and '>' change it on the "
	  "screen", 2 },
	{ "batch", 'b', NULL, 0, "lines instead of a screen, even on a terminal", 2 },
	{ "lines", OPT_LINES, NULL, 0,
	  "one line per interval of the figures of the whole system, no rows (as cachestat)",
	  2 },
	{ "cached", OPT_CACHED, NULL, 0,
	  "what the page cache holds now of each file, resident bytes and pages beside the "
	  "file's size (as fincore): live, of the files seen so far, every interval; with "
	  "--from, of the files the trace names, once, without BPF", 2 },
	{ "iterations", 'n', "COUNT", 0, "stop after COUNT intervals", 2 },
	{ "format", OPT_FORMAT, "FORMAT", 0, "text (default) or json: a document per interval", 2 },
	{ "output", 'o', "FILE", 0, "also write the trace to FILE, as record -o does", 2 },
	{ "force", OPT_FORCE, NULL, 0,
	  "replace a symbolic link at -o FILE (never what it points to)", 2 },
	{ 0 }
};

struct top_args {
	const char *record_args[TOP_MAX_RECORD_ARGS];
	unsigned nrecord_args;
	const char *from, *output;
	uint64_t interval_ns, iterations;
	enum top_by by;
	int sort;
	bool batch, json, force, lines, cached, by_given;
	struct ft_seen seen;
};

static error_t pass_to_record(struct top_args *a, const char *opt, const char *arg,
			      struct argp_state *state)
{
	if (a->nrecord_args + 2 > TOP_MAX_RECORD_ARGS)
		return ft_usage_error(state, opt + 2, arg, "too many filters");
	a->record_args[a->nrecord_args++] = opt;
	a->record_args[a->nrecord_args++] = arg;
	return 0;
}

static error_t parse_top_opt(int key, char *arg, struct argp_state *state)
{
	struct top_args *a = state->input;
	const char *why = NULL;
	uint64_t pid;

	/* -p is the one option that may come again, as in record: each names another process */
	if (key != 'p' && ft_option_once(&a->seen, state, key))
		return EINVAL;
	switch (key) {
	case 'p':
		/* checked here too: a usage error, before any recording starts */
		if (ft_parse_u64_arg(state, "pid", arg, 1, FT_PID_MAX, &pid))
			return EINVAL;
		return pass_to_record(a, "--pid", arg, state);
	case OPT_CGROUP:
		return pass_to_record(a, "--cgroup", arg, state);
	case OPT_COMM:
		return pass_to_record(a, "--comm", arg, state);
	case OPT_DEV:
		return pass_to_record(a, "--dev", arg, state);
	case OPT_FROM:
		a->from = arg;
		return 0;
	case 'i':
		if (!parse_duration_ns(arg, &a->interval_ns, &why))
			return ft_usage_error(state, "interval", arg, why);
		if (a->interval_ns < 1000000)
			return ft_usage_error(state, "interval", arg, "at least 1ms");
		return 0;
	case OPT_BY:
		if (!top_by_parse(arg, &a->by))
			return ft_usage_error(state, "by", arg, "file, process or cgroup");
		a->by_given = true;
		return 0;
	case OPT_SORT:
		a->sort = top_column_parse(arg);
		if (a->sort < 0)
			return ft_usage_error(state, "sort", arg, TOP_COLUMN_CHOICES);
		return 0;
	case 'b':
		a->batch = true;
		return 0;
	case OPT_LINES:
		a->lines = true;
		return 0;
	case OPT_CACHED:
		a->cached = true;
		return 0;
	case 'n':
		return ft_parse_u64_arg(state, "iterations", arg, 1, UINT32_MAX, &a->iterations);
		return 0;
	case OPT_FORMAT:
		if (!strcmp(arg, "json"))
			a->json = true;
		else if (strcmp(arg, "text"))
			return ft_usage_error(state, "format", arg, "text or json");
		return 0;
	case 'o':
		a->output = arg;
		return 0;
	case OPT_FORCE:
		a->force = true;
		return 0;
	case ARGP_KEY_ARG:
		argp_error(state, "no operand expected: %s", arg);
		return EINVAL;
	case ARGP_KEY_END:
		if (a->from && (a->nrecord_args || a->output || a->force))
			argp_error(state, "--from shows a trace: the filters, -o and --force are "
				   "record's");
		else if (!a->from && a->interval_ns < 1000000000ull)
			argp_error(state, "--interval: at least 1s live (record writes once a second)");
		else
			return 0;
		return EINVAL;
	}
	return ARGP_ERR_UNKNOWN;
}

/* ---- the screen ------------------------------------------------------------------------- */

struct screen {
	bool full;		/* a terminal, not --batch: redraw in place, read keys */
	struct termios saved;
	struct top_view view;
};

/*
 * The terminal's size: a full screen fits both, lines on a terminal (--batch, --from) its
 * width only, so that no line wraps.
 */
static void screen_size(struct screen *s)
{
	struct winsize ws;

	if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col && ws.ws_row) {
		s->view.width = ws.ws_col;
		s->view.height = s->full ? ws.ws_row : 0;
	}
}

static void screen_open(struct screen *s)
{
	struct termios raw;

	if (!s->full)
		return;
	if (tcgetattr(STDIN_FILENO, &s->saved) == 0) {
		raw = s->saved;
		raw.c_lflag &= ~(ICANON | ECHO);
		raw.c_cc[VMIN] = 0;
		raw.c_cc[VTIME] = 0;
		tcsetattr(STDIN_FILENO, TCSANOW, &raw);
	}
	fputs("\033[?1049h\033[?25l", stdout);	/* the alternate screen, no cursor */
	screen_size(s);
}

static void screen_close(struct screen *s)
{
	if (!s->full)
		return;
	fputs("\033[?25h\033[?1049l", stdout);
	fflush(stdout);
	tcsetattr(STDIN_FILENO, TCSANOW, &s->saved);
}

static void show(struct screen *s, const struct top_args *a, const struct top_tally *t,
		 unsigned interval, double seconds)
{
	if (a->json) {
		top_view_json(stdout, t, interval, seconds);
	} else if (a->lines) {
		top_view_line(stdout, t, interval, seconds);
	} else {
		if (s->full)
			fputs("\033[H\033[J", stdout);
		else if (interval > 1)
			fputc('\n', stdout);
		top_view_text(stdout, &s->view, t, interval, seconds);
	}
	fflush(stdout);
}

/*
 * --cached live: what is cached now of the files seen so far, every interval; on the screen
 * as many as its height leaves room for. -1 when out of memory.
 */
static int show_cached(struct screen *s, char *const *names, uint32_t n, unsigned interval)
{
	unsigned max = s->full && s->view.height > 3 ? s->view.height - 3 : 0;
	int rc;

	if (s->full)
		fputs("\033[H\033[J", stdout);
	else if (interval > 1)
		fputc('\n', stdout);
	fprintf(stdout, "interval %u\n", interval);
	rc = top_cached_print(stdout, names, n, "the ", max);
	fflush(stdout);
	return rc;
}

/* The help at once, over the last interval's figures; the next interval keeps it. */
static void show_help(struct screen *s)
{
	fputs("\033[H\033[J", stdout);
	top_view_help(stdout, &s->view);
	fflush(stdout);
}

/* A key on the screen: false when it quits. Any other key but h and ? leaves the help. */
static bool screen_key(struct screen *s, char c)
{
	bool help = c == 'h' || c == '?';

	if (c == 'q')
		return false;
	if (help || s->view.help) {
		s->view.help = help;
		if (help)
			show_help(s);
		return true;
	}
	switch (c) {
	case 'q':
		return false;
	case '<':
		s->view.sort = s->view.sort ? s->view.sort - 1 : TOP_COLUMNS - 1;
		break;
	case '>':
		s->view.sort = (s->view.sort + 1) % TOP_COLUMNS;
		break;
	case 'R':
		s->view.reverse = !s->view.reverse;
		break;
	}
	return true;
}

/* ---- a trace file, in trace time -------------------------------------------------------- */

static int top_from_trace(const struct top_args *a, struct screen *s, struct top_tally *t)
{
	struct ft_error err = { 0 };
	struct ft_reader *r = ft_reader_open(a->from, &err);
	const struct ft_hdr *h;
	uint64_t start = 0, shown = 0, k, damaged = 0;
	bool started = false;
	int rc;

	if (!r) {
		ft_warn("%s", err.msg);
		return EXIT_RUNTIME;
	}
	while ((rc = ft_reader_next(r, &h, &err)) > 0) {
		if (!ft_is_metadata(h->type)) {
			if (!started) {
				start = h->ts;
				started = true;
			}
			/*
			 * every interval that ended before this event, even empty ones; a longer
			 * run of empty ones (an idle or damaged trace can jump by years) is
			 * skipped, the interval numbers going on from where the event is
			 */
			k = h->ts > start ? (h->ts - start) / a->interval_ns : 0;
			while (shown < k) {
				show(s, a, t, (unsigned)++shown, (double)a->interval_ns / 1e9);
				top_tally_next_interval(t);
				if (a->iterations && shown >= a->iterations)
					goto out;
				if (k - shown > TOP_EMPTY_SHOWN)
					shown = k;
			}
		}
		/* an access replay and export skip as damaged counts for nothing here either */
		if (ft_damaged_access(r, a->from, h, &damaged))
			continue;
		if (top_tally_add(t, h)) {
			ft_warn("%s: out of memory", a->from);
			rc = -1;
			goto out;
		}
	}
	if (rc < 0)
		ft_warn("%s", err.msg);
	else if (started)
		show(s, a, t, (unsigned)++shown, (double)a->interval_ns / 1e9);
	/* a cut or damaged trace: said on stderr after what could be read, exit 1 */
	if (rc == FT_READ_EOF && ft_reader_report_end(r))
		rc = -1;
	ft_damaged_summary(a->from, damaged);
	if (damaged)
		rc = -1;
out:
	ft_reader_close(r);
	return rc < 0 ? EXIT_RUNTIME : EXIT_OK;
}

/* --cached: the trace read whole for its files' names, then each file looked at now. */
static int top_cached(const struct top_args *a, struct top_tally *t)
{
	struct ft_error err = { 0 };
	struct ft_reader *r = ft_reader_open(a->from, &err);
	const struct ft_hdr *h;
	int rc;

	if (!r) {
		ft_warn("%s", err.msg);
		return EXIT_RUNTIME;
	}
	while ((rc = ft_reader_next(r, &h, &err)) > 0)
		if (top_tally_add(t, h)) {
			ft_warn("%s: out of memory", a->from);
			rc = -1;
			break;
		}
	if (rc < 0 && err.msg[0])
		ft_warn("%s", err.msg);
	else if (rc == FT_READ_EOF && ft_reader_report_end(r))
		rc = -1;
	ft_reader_close(r);
	if (top_cached_table(stdout, t, 0) < 0) {
		ft_warn("out of memory");
		return EXIT_RUNTIME;
	}
	return rc < 0 ? EXIT_RUNTIME : EXIT_OK;
}

/* ---- the live kernel -------------------------------------------------------------------- */

struct live {
	pthread_mutex_t lock;
	struct top_tally *tally;
	int trace_fd;		/* the record child's standard output */
	int copy_fd;		/* -o FILE, or -1 */
	bool done;		/* the trace ended (the child stopped) */
	bool failed;
	char error[512];
	pid_t child;
	int err_fd;		/* the child's standard error, kept in memory */
};

/*
 * The reader takes a path: the pipe from the child, or with -o a second pipe that a copy
 * loop fills while it writes the same bytes to the file.
 */
struct copy_job {
	int in, out, file;
	bool failed;
	uint64_t written;		/* bytes in the file */
	char error[256];
};

static void *copy_trace(void *arg)
{
	struct copy_job *j = arg;
	char buf[65536];
	ssize_t n;

	while ((n = read(j->in, buf, sizeof(buf))) > 0 || (n < 0 && errno == EINTR)) {
		if (n < 0)
			continue;
		for (ssize_t off = 0, w; off < n; off += w) {
			w = write(j->file, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR) {
				w = 0;
				continue;
			}
			if (w < 0) {
				snprintf(j->error, sizeof(j->error), "write failed: %s",
					 strerror(errno));
				j->failed = true;
				goto out;
			}
			j->written += (uint64_t)w;
		}
		if (j->out >= 0) {
			for (ssize_t off = 0, w; off < n; off += w) {
				w = write(j->out, buf + off, (size_t)(n - off));
				if (w < 0 && errno == EINTR) {
					w = 0;
					continue;
				}
				if (w < 0)	/* the reader stopped: keep the file going */
					break;
			}
		}
	}
out:
	close(j->out);
	return NULL;
}

static void *read_trace(void *arg)
{
	struct live *l = arg;
	struct ft_error err = { 0 };
	char path[64];
	struct ft_reader *r;
	const struct ft_hdr *h;
	int rc = -1;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", l->trace_fd);
	r = ft_reader_open(path, &err);
	if (r) {
		while ((rc = ft_reader_next(r, &h, &err)) > 0) {
			pthread_mutex_lock(&l->lock);
			rc = top_tally_add(l->tally, h);
			pthread_mutex_unlock(&l->lock);
			if (rc) {
				snprintf(err.msg, sizeof(err.msg), "out of memory");
				rc = -1;
				break;
			}
			rc = 1;
		}
		ft_reader_close(r);
	}
	pthread_mutex_lock(&l->lock);
	if (rc < 0) {
		l->failed = true;
		snprintf(l->error, sizeof(l->error), "%s", err.msg);
	}
	l->done = true;
	pthread_mutex_unlock(&l->lock);
	return NULL;
}

/* record -o - with the filters, its stdout a pipe, its stderr kept in memory. */
static int start_record(struct live *l, const struct top_args *a, const sigset_t *orig)
{
	const char *argv[TOP_MAX_RECORD_ARGS + 8];
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int out[2];
	unsigned k = 0;

	if (n < 0) {
		ft_warn("top: /proc/self/exe: %s", strerror(errno));
		return -1;
	}
	self[n] = '\0';
	argv[k++] = "folio-trace";
	argv[k++] = "record";
	argv[k++] = "-o";
	argv[k++] = "-";
	for (unsigned i = 0; i < a->nrecord_args; i++)
		argv[k++] = a->record_args[i];
	argv[k] = NULL;
	l->err_fd = memfd_create("folio-trace-top-record-stderr", MFD_CLOEXEC);
	if (l->err_fd < 0 || pipe2(out, O_CLOEXEC)) {
		ft_warn("top: %s", strerror(errno));
		return -1;
	}
	l->child = fork();
	if (l->child < 0) {
		ft_warn("top: fork: %s", strerror(errno));
		return -1;
	}
	if (l->child == 0) {
		sigprocmask(SIG_SETMASK, orig, NULL);
		dup2(out[1], STDOUT_FILENO);
		dup2(l->err_fd, STDERR_FILENO);
		execv(self, (char *const *)argv);
		_exit(127);
	}
	close(out[1]);
	l->trace_fd = out[0];
	return 0;
}

/* The child's exit status and what it said, once it is gone. */
static int reap_record(struct live *l, bool show_errors)
{
	char buf[2048];
	ssize_t n;
	int status = 0;

	while (waitpid(l->child, &status, 0) < 0 && errno == EINTR)
		;
	if (show_errors || !WIFEXITED(status) || WEXITSTATUS(status)) {
		n = pread(l->err_fd, buf, sizeof(buf) - 1, 0);
		if (n > 0) {
			buf[n] = '\0';
			fputs(buf, stderr);
		}
	}
	close(l->err_fd);
	return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_RUNTIME;
}

/* The process's cgroup: the memory controller's (v1) or the unified one (v2). */
static void cgroup_of_pid(uint32_t pid, char *out, unsigned len)
{
	char path[64], line[512], unified[512] = "";
	FILE *f;

	snprintf(out, len, "?");
	snprintf(path, sizeof(path), "/proc/%u/cgroup", pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *controllers = strchr(line, ':'), *where;

		if (!controllers || !(where = strchr(controllers + 1, ':')))
			continue;
		where[strcspn(where, "\n")] = '\0';
		if (!strncmp(controllers, ":memory:", 8)) {
			snprintf(out, len, "%s", where + 1);
			fclose(f);
			return;
		}
		if (!strncmp(line, "0::", 3))
			snprintf(unified, sizeof(unified), "%s", where + 1);
	}
	fclose(f);
	if (unified[0])
		snprintf(out, len, "%s", unified);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Waits for the next interval, a key or a signal; false when the user quits. */
static bool wait_interval(struct screen *s, int sigfd, uint64_t until)
{
	for (;;) {
		struct pollfd p[2] = { { .fd = sigfd, .events = POLLIN },
				       { .fd = STDIN_FILENO, .events = POLLIN } };
		uint64_t now = now_ns();
		int timeout = until > now ? (int)((until - now) / 1000000) + 1 : 0;
		struct signalfd_siginfo si;
		char c;

		if (until <= now)
			return true;
		if (poll(p, s->full ? 2 : 1, timeout > 200 ? 200 : timeout) < 0 && errno != EINTR)
			return false;
		if (p[0].revents & POLLIN && read(sigfd, &si, sizeof(si)) == sizeof(si)) {
			if (si.ssi_signo != SIGWINCH)
				return false;
			screen_size(s);
		}
		if (s->full && p[1].revents & POLLIN && read(STDIN_FILENO, &c, 1) == 1 &&
		    !screen_key(s, c))
			return false;
	}
}

static int top_live(const struct top_args *a, struct screen *s, struct top_tally *t)
{
	struct live l = { .tally = t, .trace_fd = -1, .copy_fd = -1, .err_fd = -1 };
	struct copy_job copy = { .in = -1, .out = -1, .file = -1 };
	struct ft_output out = { .fd = -1 };
	pthread_t reader, copier;
	bool have_copier = false, quit, oom = false;
	char **names = NULL;
	uint32_t nnames = 0;
	sigset_t mask, orig;
	unsigned shown = 0;
	uint64_t next;
	int sigfd, status;

	sigemptyset(&mask);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGWINCH);
	sigprocmask(SIG_BLOCK, &mask, &orig);
	sigfd = signalfd(-1, &mask, SFD_CLOEXEC);
	if (sigfd < 0) {
		ft_warn("top: signalfd: %s", strerror(errno));
		return EXIT_RUNTIME;
	}
	pthread_mutex_init(&l.lock, NULL);
	t->cgroup_of = cgroup_of_pid;
	if (a->output) {
		int p[2];

		/* as record -o: made under its name when new, an old trace replaced at the end */
		const struct ft_output_opts oo = { .mode = 0600, .force = a->force,
						   .in_place_if_new = true };
		struct ft_error err;

		if (ft_output_open(&out, a->output, &oo, &err)) {
			ft_warn("%s", err.msg);
			close(sigfd);
			return EXIT_RUNTIME;
		}
		copy.file = out.fd;
		if (pipe2(p, O_CLOEXEC)) {
			ft_warn("top: pipe: %s", strerror(errno));
			ft_output_abort(&out, false);
			close(sigfd);
			return EXIT_RUNTIME;
		}
		copy.out = p[1];
		l.copy_fd = p[0];
	}
	if (start_record(&l, a, &orig)) {
		if (a->output) {
			close(copy.out);
			close(l.copy_fd);
			ft_output_abort(&out, false);
		}
		close(sigfd);
		return EXIT_RUNTIME;
	}
	if (a->output) {
		copy.in = l.trace_fd;
		l.trace_fd = l.copy_fd;
		have_copier = !pthread_create(&copier, NULL, copy_trace, &copy);
	}
	pthread_create(&reader, NULL, read_trace, &l);
	screen_open(s);
	next = now_ns() + a->interval_ns;
	for (;;) {
		bool done, last;

		quit = !wait_interval(s, sigfd, next);
		pthread_mutex_lock(&l.lock);
		done = l.done;
		pthread_mutex_unlock(&l.lock);
		last = quit || done || (a->iterations && shown + 1 >= a->iterations);
		if (last) {
			/* the last interval takes everything the recorder still writes */
			if (!done)
				kill(l.child, SIGINT);
			pthread_join(reader, NULL);
		}
		pthread_mutex_lock(&l.lock);
		if (a->cached)
			names = top_cached_names(t, &nnames, &oom);
		else if (!(quit && s->full))	/* q on the screen: nothing more to see */
			show(s, a, t, shown + 1, (double)a->interval_ns / 1e9);
		top_tally_next_interval(t);
		pthread_mutex_unlock(&l.lock);
		shown++;
		/* the files are looked at outside the lock: the reader keeps up with the trace */
		if (a->cached && !oom && !(quit && s->full))
			oom = show_cached(s, names, nnames, shown) < 0;
		top_cached_names_free(names, nnames);
		names = NULL;
		if (oom && !last) {
			kill(l.child, SIGINT);
			pthread_join(reader, NULL);
		}
		next += a->interval_ns;
		if (last || oom)
			break;
	}
	screen_close(s);
	if (have_copier)
		pthread_join(copier, NULL);
	status = reap_record(&l, l.failed);
	close(l.trace_fd);
	close(sigfd);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	if (a->output) {
		struct ft_error err;

		if (!have_copier && !copy.failed) {
			copy.failed = true;
			snprintf(copy.error, sizeof(copy.error), "no thread to copy the trace");
		}
		/* a whole recording takes the name; else a trace made in place stays, cut */
		if (copy.failed || status) {
			ft_output_abort(&out, copy.written > 0);
		} else if (ft_output_commit(&out, &err)) {
			ft_warn("%s", err.msg);
			return EXIT_RUNTIME;
		}
	}
	if (copy.failed) {
		ft_warn("%s: %s", a->output, copy.error);
		return EXIT_RUNTIME;
	}
	if (l.failed && status == 0) {
		ft_warn("top: %s", l.error);
		return EXIT_RUNTIME;
	}
	if (oom) {
		ft_warn("top: out of memory");
		return EXIT_RUNTIME;
	}
	return status ? EXIT_RUNTIME : EXIT_OK;
}

int cmd_top(int argc, char **argv)
{
	static const struct argp argp = {
		top_options, parse_top_opt, NULL,
		"What the page cache does with folios, now: insertions by folio order, hits, "
		"dirtied, written and written-back bytes, evictions, readahead and reclaim, per "
		"file, process or cgroup, every interval.\v"
		"Keys on the screen: h or ? help, '<' and '>' sort by the column left or right, R "
		"reverses, "
		"q quits. See folio-trace-top(1).",
		0, 0, 0
	};
	struct top_args a = { .interval_ns = 2000000000ull, .sort = TOP_COL_INSERTED };
	struct screen s = { 0 };
	struct top_tally t;
	int ret;

	if (argp_parse(&argp, argc, argv, ARGP_IN_ORDER, NULL, &a))
		return EXIT_USAGE;
	if (a.cached && (a.json || a.lines || (a.by_given && a.by != TOP_BY_FILE))) {
		ft_warn("--cached: a table of files, not with --format=json, --lines or --by other "
			"than file");
		return EXIT_USAGE;
	}
	if (a.lines && a.json) {
		ft_warn("--lines: a line of text per interval, not --format=json");
		return EXIT_USAGE;
	}
	s.full = !a.batch && !a.json && !a.lines && !a.from && isatty(STDOUT_FILENO) &&
		 isatty(STDIN_FILENO);
	s.view.sort = (enum top_column)a.sort;
	s.view.title = a.nrecord_args ? "the tasks and files chosen" : NULL;
	s.view.keys = s.full;
	if (!s.full && !a.json && isatty(STDOUT_FILENO))
		screen_size(&s);
	if (top_tally_init(&t, a.by)) {
		ft_warn("out of memory");
		return EXIT_RUNTIME;
	}
	if (a.cached && a.from)
		ret = top_cached(&a, &t);
	else
		ret = a.from ? top_from_trace(&a, &s, &t) : top_live(&a, &s, &t);
	top_tally_release(&t);
	return ret;
}
