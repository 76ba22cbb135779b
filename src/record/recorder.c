/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The recorder: output file, the command held at exec, BPF programs loaded and attached, the
 * host and a first sample; then the loop that drains the ring buffer into the trace, samples
 * the counters and flushes a chunk every second until a signal, the duration or the command's
 * exit; then the last drain and the summary.
 *
 * No global state: signals are blocked and read from a signalfd in the loop, so there is no
 * handler to share a flag with, and the BPF skeleton belongs to the struct recorder of the run.
 */
#define _GNU_SOURCE
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bpf/libbpf.h>

#include "record/record.h"
#include "record/recorder.h"
#include "util/msg.h"
#include "util/parse.h"

#define FLUSH_NS		1000000000ull	/* a killed recorder loses at most ~1 s */

struct recorder {
	const struct record_opts *o;
	struct ft_mounts mounts;
	struct ft_writer *w;
	struct ft_bpf *bpf;
	struct ring_buffer *rb;
	struct ft_sampler *sampler;
	struct ft_consumer cons;
	struct record_progress progress;
	struct ft_child child;
	bool have_child;	/* the command is ours to wait for or stop */
	struct ft_memcg memcg;	/* --memory-limit: the command's cgroup (dir NULL if none) */
	int sigfd;		/* SIGINT, SIGTERM, SIGHUP, SIGCHLD, blocked and read here */
	__u64 lost;
	struct ft_error err;	/* why the run failed, said before the summary */
};

/*
 * The trace file, written as every output is (util/output.h), except that it takes its name
 * as soon as the recording starts (record_start): a new one is created there exclusively at
 * once, an existing one replaced once the first chunk is out, so that a recorder killed on the
 * way leaves its own trace readable there to its last whole chunk, and one that cannot start
 * leaves the old file as it was. Mode 0600 whatever was there: traces reveal file activity.
 */
static struct ft_writer *open_output(const struct record_opts *o, struct ft_error *err)
{
	const struct ft_writer_options opts = { .mode = 0600, .force = o->force,
						.in_place_if_new = true };

	return ft_writer_open_with(o->output, &opts, err);
}

/*
 * Reads the ring buffer; while records are held for the start state of files met in it,
 * reads it again: a drain begun after their probes has read every event before them.
 */
static int drain(struct recorder *r)
{
	for (unsigned i = 0;; i++) {
		__u64 begun = ft_now_mono_ns();

		if (ring_buffer__consume(r->rb) < 0 || r->cons.failed ||
		    ft_consumer_settle(&r->cons, i < 8 ? begun : UINT64_MAX) < 0) {
			r->err = r->cons.err;
			return -1;
		}
		if (!ft_consumer_holding(&r->cons))
			return 0;
	}
}

/* Every tick: lost counts, samples when due, a flushed chunk, the progress line. */
static int record_tick(struct recorder *r, __u64 now, bool sample)
{
	struct ft_writer_stats st;

	if (ft_bpf_write_lost(r->bpf, r->w, &r->lost, &r->err))
		return -1;
	/*
	 * The events before the reading go into the trace before the sample: read, drain, write.
	 * A recorder starved of CPU (a loaded host) had drained long before it read, and the
	 * replay took a cgroup's anon pages as sampled for refaults that came before the sample.
	 */
	if (sample && (ft_sampler_read(r->sampler, &r->err) || drain(r) < 0 ||
		       ft_sampler_write(r->sampler, r->w, &r->err) ||
		       ft_cgroups_check_limits(&r->cons.cgroups, r->w, now, &r->err)))
		return -1;
	if (ft_writer_flush(r->w, &r->err))
		return -1;
	ft_writer_stats(r->w, &st);
	record_progress_update(&r->progress, now, r->cons.events, st.stored_bytes, r->lost);
	return 0;
}

/* SIGINT/SIGTERM/SIGHUP stop; SIGCHLD may mean the command is done. */
static bool read_signals(struct recorder *r)
{
	struct signalfd_siginfo si;
	bool stop = false;

	while (read(r->sigfd, &si, sizeof(si)) == sizeof(si)) {
		if (si.ssi_signo == SIGINT || si.ssi_signo == SIGTERM || si.ssi_signo == SIGHUP)
			stop = true;
	}
	if (r->have_child) {
		ft_child_reap(&r->child);
		if (r->child.exited)
			stop = true;
	}
	return stop;
}

static int record_loop(struct recorder *r)
{
	__u64 start = ft_now_mono_ns(), next_flush = start + FLUSH_NS;
	__u64 next_sample = start + r->o->interval_ns;
	struct pollfd pfd[2] = {
		{ .fd = ring_buffer__epoll_fd(r->rb), .events = POLLIN },
		{ .fd = r->sigfd, .events = POLLIN },
	};

	record_progress_begin(&r->progress, start);
	for (;;) {
		__u64 now = ft_now_mono_ns(), wake = next_flush < next_sample ? next_flush
									 : next_sample;
		int timeout = wake > now ? (int)((wake - now) / 1000000) + 1 : 0;
		bool stop = false;

		if (timeout > 100)
			timeout = 100;
		if (poll(pfd, 2, timeout) < 0 && errno != EINTR) {
			snprintf(r->err.msg, sizeof(r->err.msg), "record: poll: %s",
				 strerror(errno));
			return -1;
		}
		if (drain(r) < 0)
			return -1;
		stop = read_signals(r);
		now = ft_now_mono_ns();
		if (r->o->duration_ns && now - start >= r->o->duration_ns)
			stop = true;
		if (stop)
			return 0;
		if (now >= next_flush || now >= next_sample) {
			bool sample = now >= next_sample;

			if (record_tick(r, now, sample))
				return -1;
			next_flush = now + FLUSH_NS;
			if (sample)
				next_sample += r->o->interval_ns;
			if (next_sample < now)
				next_sample = now + r->o->interval_ns;
		}
	}
}

/* Detach first so the last drain sees everything the kernel produced, then close cleanly. */
static int record_finish(struct recorder *r, int rc)
{
	struct ft_writer_stats st;
	char buf[32];

	ft_bpf_detach(r->bpf);
	if ((ring_buffer__consume(r->rb) < 0 || r->cons.failed ||
	     ft_consumer_settle(&r->cons, UINT64_MAX) < 0) && !rc) {
		r->err = r->cons.err;
		rc = -1;
	} else if (r->cons.failed) {
		rc = -1;
	}
	if (!rc && (ft_sampler_sample(r->sampler, r->w, &r->err) ||
		    ft_cgroups_check_limits(&r->cons.cgroups, r->w, ft_now_mono_ns(), &r->err) ||
		    ft_bpf_write_lost(r->bpf, r->w, &r->lost, &r->err)))
		rc = -1;
	record_progress_done(&r->progress);
	/* Everything in the file before the summary counts it. */
	if (!rc && ft_writer_drain(r->w, &r->err))
		rc = -1;
	ft_writer_stats(r->w, &st);
	if (rc) {
		/* Disk full or I/O error: what reached the file stays readable, chunk by chunk. */
		ft_warn("%s", r->err.msg);
		ft_writer_abort(r->w);
	} else if (ft_writer_close(r->w, &r->err)) {
		ft_warn("%s", r->err.msg);
		rc = -1;
	}
	r->w = NULL;
	/* -q keeps what needs acting on: a failure or events lost */
	if (!rc && !r->lost && r->o->quiet)
		return rc;
	fprintf(stderr, "folio-trace: record: %llu events, %s written to %s, %llu lost%s; "
		"cached pages of %llu files probed in %.3f ms\n",
		(unsigned long long)st.events, format_bytes(st.stored_bytes, buf, sizeof(buf)),
		r->o->output, (unsigned long long)r->lost,
		r->lost ? " (ring buffer full: try a larger --buffer-size)" : "",
		(unsigned long long)r->cons.hold.probed, (double)r->cons.hold.probe_ns / 1e6);
	return rc;
}

static int block_signals(sigset_t *orig)
{
	sigset_t set;

	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGHUP);	/* a closed terminal ends the recording cleanly too */
	sigaddset(&set, SIGCHLD);
	if (sigprocmask(SIG_BLOCK, &set, orig) < 0)
		return -1;
	return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

static struct ft_filters record_filters(const struct recorder *r)
{
	const struct record_opts *o = r->o;
	struct ft_filters f = {
		.pids = o->pids, .npids = o->npids, .comm = o->comm, .cgroup = o->cgroup,
		.dev_set = o->dev_set, .dev = o->dev, .no_paths = o->no_paths,
	};

	if (r->have_child) {
		f.pids = (const __u32 *)&r->child.pid;
		f.npids = 1;
		f.follow_forks = true;
	}
	return f;
}

/*
 * The cgroup the recording is about, named with its limits before any event: its first event
 * may reach the consumer after the limits were already written again (a command that lowers
 * its own limit at once), and its starting limits would then be the later ones.
 */
static int name_own_cgroup(struct recorder *r)
{
	const char *dir = r->memcg.dir ? r->memcg.dir : r->o->cgroup;
	struct stat st;

	if (!dir || stat(dir, &st) < 0)
		return 0;	/* a --cgroup that went away: the filter says so itself */
	return ft_cgroups_name(&r->cons.cgroups, r->w, ft_now_mono_ns(), st.st_ino, &r->err);
}

/* Everything up to the first event: output, command held at exec, BPF, host, first sample. */
static int record_start(struct recorder *r, const sigset_t *orig_mask)
{
	struct ft_filters f;

	if (ft_bpf_check(&r->err) || ft_mounts_load(&r->mounts, &r->err))
		return -1;
	for (size_t i = 0; i < r->o->npids; i++) {
		if (kill((pid_t)r->o->pids[i], 0) < 0 && errno == ESRCH) {
			snprintf(r->err.msg, sizeof(r->err.msg), "record: no process %u",
				 r->o->pids[i]);
			return -1;
		}
	}
	r->w = open_output(r->o, &r->err);
	if (!r->w || ft_writer_background(r->w, &r->err))
		return -1;
	if (r->o->memory_limit && ft_memcg_create(&r->memcg, r->o->memory_limit, &r->err))
		return -1;
	if (r->o->cmd) {
		if (ft_child_fork(&r->child, r->o->cmd, orig_mask, strcmp(r->o->output, "-") == 0))
			return -1;
		r->have_child = true;
		if (r->memcg.dir && ft_memcg_add(&r->memcg, r->child.pid, &r->err))
			return -1;
	}
	ft_start_probes_keep_folios();
	f = record_filters(r);
	r->bpf = ft_bpf_open(&f, r->o->ring_bytes, &r->err);
	if (!r->bpf)
		return -1;
	ft_consumer_init(&r->cons, r->w, &r->mounts, r->o->no_paths);
	r->cons.no_start_cache = r->o->no_start_cache;
	r->cons.dev_set = r->o->dev_set;
	r->cons.dev = r->o->dev;
	r->rb = ring_buffer__new(ft_bpf_ring_fd(r->bpf), ft_consumer_handle, &r->cons, NULL);
	r->sampler = ft_sampler_new(r->memcg.dir);
	if (!r->rb || !r->sampler) {
		snprintf(r->err.msg, sizeof(r->err.msg), "record: cannot set up the ring buffer");
		return -1;
	}
	if (ft_write_host(r->w, &r->mounts, FT_HOST_PAGECACHE_FS |
			  (r->o->no_paths ? FT_HOST_NO_PATHS : 0) |
			  (ft_bpf_unrecorded(r->bpf) & FT_UNREC_MEMCG_FLUSH ? 0 : FT_HOST_MEMCG_FLUSHES),
			  ft_bpf_unrecorded(r->bpf), r->o->memory_limit, &r->err) ||
	    ft_sampler_sample(r->sampler, r->w, &r->err) || name_own_cgroup(r) ||
	    ft_writer_flush(r->w, &r->err) || ft_writer_place(r->w, &r->err))
		return -1;
	/* -p: what the processes map already may never fault again while traced */
	if (!r->have_child && !r->o->no_start_cache &&
	    ft_start_maps(&r->cons, r->o->pids, r->o->npids) < 0) {
		r->err = r->cons.err;
		return -1;
	}
	return 0;
}

static void record_cleanup(struct recorder *r)
{
	if (r->w)
		ft_writer_abort(r->w);
	if (r->have_child)
		ft_child_stop(&r->child);
	ft_memcg_remove(&r->memcg);
	ring_buffer__free(r->rb);
	ft_sampler_free(r->sampler);
	ft_bpf_close(r->bpf);
	ft_consumer_fini(&r->cons);
	ft_mounts_free(&r->mounts);
	if (r->sigfd >= 0)
		close(r->sigfd);
}

/*
 * Recording stopped (signal, --duration) with the command maybe still running: it is left to
 * run untraced, except in its memory cgroup, which can only be removed once it is done.
 */
static void child_after_recording(struct recorder *r)
{
	ft_child_reap(&r->child);
	if (r->memcg.dir)
		ft_child_wait(&r->child);
	if (r->child.exited) {
		ft_child_report(&r->child, r->o->cmd[0]);
		return;
	}
	ft_warn("record: %s (pid %d) is still running, no longer traced", r->o->cmd[0],
		(int)r->child.pid);
	r->have_child = false;	/* not ours to stop */
}

int ft_record_run(const struct record_opts *o)
{
	struct recorder r = { .o = o, .sigfd = -1, .child = { .go_fd = -1, .exec_fd = -1 } };
	sigset_t orig;
	int rc = -1;

	r.sigfd = block_signals(&orig);
	if (r.sigfd < 0) {
		ft_warn("record: signalfd: %s", strerror(errno));
		return -1;
	}
	record_progress_init(&r.progress, STDERR_FILENO);
	r.progress.tty &= !o->quiet;
	if (record_start(&r, &orig)) {
		ft_warn("%s", r.err.msg);
		goto out;
	}
	if (r.have_child && !ft_child_release(&r.child, o->cmd[0])) {
		/* The command never ran: keep the (empty) trace well formed anyway. */
		ft_child_wait(&r.child);
		record_finish(&r, 0);
		goto out;
	}
	rc = record_loop(&r);
	rc = record_finish(&r, rc);
	if (r.have_child && !rc)
		child_after_recording(&r);
out:
	record_cleanup(&r);
	sigprocmask(SIG_SETMASK, &orig, NULL);
	return rc;
}

