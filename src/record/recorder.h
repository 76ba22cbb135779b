/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * folio-trace record: what cmd-record.c hands to the recorder (src/record/recorder.c), which
 * loads the BPF programs, runs the command and writes the trace until the recording ends.
 */
#ifndef FT_RECORD_RECORDER_H
#define FT_RECORD_RECORDER_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RECORD_MAX_PIDS	64

struct record_opts {
	const char *output;	/* trace file, "-" for standard output */
	bool force;		/* --force: a symbolic link at output is replaced */
	__u32 pids[RECORD_MAX_PIDS];
	size_t npids;
	const char *cgroup;
	const char *comm;
	bool dev_set;
	__u32 dev;
	uint64_t duration_ns;	/* 0: until a signal or the command's exit */
	uint64_t interval_ns;	/* counter samples */
	__u64 ring_bytes;	/* a power of two */
	__u64 memory_limit;	/* 0: none; else the command runs in a memory cgroup */
	bool no_paths;
	bool no_start_cache;	/* files' cached pages at the start not probed */
	bool quiet;		/* -q: no progress line, no summary unless events were lost */
	char **cmd;		/* -- COMMAND ARGS..., NULL-terminated */
};

/*
 * Records until SIGINT/SIGTERM, the duration or the command's exit. What it has to say goes to
 * standard error as it happens, in this order: what went wrong, the summary of what reached
 * the trace, how the command ended. The summary has to follow the error (and precede the
 * wait for a memory-limited command), so there is no error out-parameter for the caller to
 * print later. 0: recorded; -1: something failed (what reached the trace stays readable).
 */
int ft_record_run(const struct record_opts *opts);

#endif /* FT_RECORD_RECORDER_H */
