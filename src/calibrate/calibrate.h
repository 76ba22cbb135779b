/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Calibration: the trace replayed through one model configured as the recording kernel was
 * (memory or cgroup limit, vm.dirty_* sysctls, readahead window and rule, the folio orders it
 * used per file), and each metric of the model set beside what the kernel did.
 */
#ifndef FT_CALIBRATE_CALIBRATE_H
#define FT_CALIBRATE_CALIBRATE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "calibrate/kernel.h"
#include "model/model.h"
#include "report/series.h"
#include "trace/trace.h"

/* Where a kernel figure comes from, so how far it can be held against the model. */
enum calib_scope {
	CALIB_TRACE,		/* events of the traced files: the same files the model sees */
	CALIB_CGROUP,		/* the recorded command's memory cgroup */
	CALIB_SYSTEM,		/* system-wide counters: other tasks too, an upper bound */
	CALIB_MEMORY,		/* the state of the memory: other tasks' pages too, no bound */
	CALIB_CGROUP_BOUND,	/* the cgroup's counter, of files the model leaves out too */
};

struct calib_row {
	char metric[48];	/* what is counted, with its unit */
	const char *source;	/* the kernel's event or counter */
	uint64_t model, kernel;
	enum calib_scope scope;
	/*
	 * the model's figure stands on a stated rule, not on the trace (the folios of pages
	 * cached before it, model/filemap/startstate.c): shown, and left out of the trust
	 */
	bool by_rule;
};

#define CALIB_MAX_ROWS	64

/* One file, the model's figures beside the kernel's (calibrate --by=file). */
struct calib_file {
	char *name;			/* its path as the trace names it; shown escaped */
	uint32_t dev;
	uint64_t ino;
	uint64_t model_pages, kernel_pages;	/* inserted */
	uint64_t model_refaults, kernel_refaults;	/* pages */
	uint64_t model_wb, kernel_wb;		/* bytes written back by its file system */
	bool refaults_known, wb_known;		/* the trace can say (1.5 on; a counted fs) */
};

struct calibration {
	const char *path;
	struct model_config cfg;	/* as it ran */
	bool cgroup_limit;		/* memory_bytes is the recorded cgroup limit */
	char release[FT_RELEASE_LEN];
	uint64_t accesses, lost;
	bool truncated;
	unsigned nfiles_ordered;	/* files with a per-file order from the kernel */
	unsigned skipped_files;		/* mapped files left out */
	unsigned shmem_unseen;		/* tmpfs files whose insertions no event showed */
	unsigned nfiles_ra_off;		/* files the kernel read without readahead windows */
	bool skip_mmapped;
	__u16 left_out;			/* FT_UNREC_*: rows left out, the kernel had no events */
	int kernel_lru_gen;		/* lru_gen/enabled as recorded, -1 where not sampled */
	struct calib_row rows[CALIB_MAX_ROWS];
	unsigned nrows;
	/* --by=file: the files with the most insertions by the kernel, of files_total */
	struct calib_file *files;
	uint32_t nfiles, files_total;
	bool by_file;
};

/* What the user asked of a calibration. */
struct calibrate_request {
	bool skip_mmapped;	/* leave out the files the trace maps, accesses and events */
	uint64_t memory_bytes;	/* the memory instead of the recorded host's or cgroup's; 0 */
	enum start_folios start_folios;	/* the start cache's folio orders (--start-folios) */
	bool quiet;		/* no progress line on a terminal */
	uint32_t by_file;	/* files shown one by one, most inserted first; 0: none */
};

/* Replays path as its recording host, as req asks. 0, or -1 with err set. */
int calibrate_file(struct calibration *c, const char *path, const struct calibrate_request *req,
		   struct ft_error *err);
/*
 * The same from the kernel's facts of path already read (kernel_facts_read() returned 0, with
 * k->skip_mmapped req->skip_mmapped), which the calibration then changes.
 */
int calibrate_with_facts(struct calibration *c, const char *path,
			 const struct calibrate_request *req, struct kernel_facts *k,
			 struct ft_error *err);
void calibration_release(struct calibration *c);

struct replay;
struct replay_units;
/* --by=file (files.c): the files' rows from the replay's units and the kernel's facts. */
int calib_files(struct calibration *c, struct replay_units *u, const struct replay *rp,
		struct kernel_facts *k, uint32_t top);

/* Appends a row (none past CALIB_MAX_ROWS): the metric named by fmt, its source, both figures. */
void calib_add_row(struct calibration *c, const char *source, uint64_t model, uint64_t kernel,
		   enum calib_scope scope, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* (model - kernel) / kernel; false when the kernel figure is 0 and the model's is not. */
bool calib_rel_error(const struct calib_row *r, double *err);
const char *calib_scope_name(enum calib_scope s);

/*
 * The fragmentation rows (frag.c): the free blocks per order and the indexes at order 9 at the
 * end, the order-9 unusable index at points of the trace, compaction counters.
 */
void calib_frag_rows(struct calibration *c, const struct model_metrics *m,
		     const struct series_col *col, uint64_t t0, const struct kernel_facts *k);

/* The rows from the model's totals, its last sample and the kernel's figures. */
void calib_build_rows(struct calibration *c, const struct model_metrics *m,
		      const struct model_sample *last, const struct kernel_facts *k);

int calib_write_table(FILE *f, const struct calibration *c);
int calib_write_json(FILE *f, const struct calibration *c);
int calib_write_files_table(FILE *f, const struct calibration *c);
int calib_write_files_json(FILE *f, const struct calibration *c);

#endif /* FT_CALIBRATE_CALIBRATE_H */
