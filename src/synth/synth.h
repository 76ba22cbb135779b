/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Synthetic workloads: a seed and a few sizes in, a stream of FT_HOST, FT_FILE and FT_ACCESS
 * records out. The stream depends on nothing but the configuration, so the same options give
 * a byte-identical trace; memory grows with the files the trace touches (at most --files),
 * never with the number of events.
 */
#ifndef FT_SYNTH_SYNTH_H
#define FT_SYNTH_SYNTH_H

#include <stdbool.h>
#include <stdint.h>

#include "import/sink.h"

enum synth_pattern {
	SYNTH_SEQ_READ,		/* read each file front to back, file after file, again */
	SYNTH_RANDOM_READ,	/* preads at Zipf-popular io-size blocks */
	SYNTH_RANDOM_OVERWRITE,	/* small pwrites into large files, fdatasync every N */
	SYNTH_APPEND_FSYNC,	/* appends round-robin over log files, fsync every N, rotation */
	SYNTH_MANY_SMALL_FILES,	/* create and write a file, later read it back, unlink it */
	SYNTH_ZIPF_SCAN,	/* Zipf-popular preads, a fifth of the reads from sequential scans */
	SYNTH_NR_PATTERNS
};

#define SYNTH_ZIPF_UNSET	(-1.0)

/* Zero (or SYNTH_ZIPF_UNSET) fields take the pattern's defaults in synth_config_defaults. */
struct synth_config {
	enum synth_pattern pattern;
	uint64_t files;		/* files (many-small-files: files alive at once) */
	uint64_t file_size;	/* bytes per file (append-fsync: size at which a log rotates) */
	uint64_t io_size;	/* bytes per read or write */
	uint64_t events;	/* stop after this many access records ... */
	uint64_t bytes;		/* ... or once this many bytes were read and written */
	uint64_t step_ns;	/* time between two access records */
	uint64_t seed;
	double zipf;		/* skew of block popularity, 0 = uniform */
	uint64_t fsync_every;	/* writes to a file between two syncs of it, 0 = never */
	bool fsync_every_set;
	uint64_t mem_bytes;	/* FT_HOST mem_bytes */
	const char *fstype;	/* filesystem type of the one device */
};

struct synth_stats {
	uint64_t accesses;
	uint64_t files;
	uint64_t bytes_read;
	uint64_t bytes_written;
};

const char *synth_pattern_name(enum synth_pattern p);
/* 0 on success, -1 for an unknown name. */
int synth_pattern_parse(const char *name, enum synth_pattern *p);

void synth_config_defaults(struct synth_config *cfg);
/* NULL when the configuration can be generated, else why not (for a usage error). */
const char *synth_config_check(const struct synth_config *cfg);

/* Writes the whole workload to sink. 0, or -1 with err set by the sink. */
int synth_run(const struct synth_config *cfg, struct ft_sink *sink, struct synth_stats *st,
	      struct ft_error *err);

#endif
