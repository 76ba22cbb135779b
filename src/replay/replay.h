/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The replay driver: streams one trace through every configured model instance in a single
 * pass. It maps (dev, ino) to dense file ids, keeps file sizes, turns FT_ACCESS records into
 * struct model_access, lets time pass in the models between accesses, and takes the defaults
 * the user did not give from the trace's FT_HOST record.
 */
#ifndef FT_REPLAY_REPLAY_H
#define FT_REPLAY_REPLAY_H

#include <stdbool.h>

#include "model/model.h"
#include "replay/anon.h"
#include "replay/budget.h"
#include "replay/cgroups.h"
#include "replay/charges.h"
#include "replay/files.h"
#include "replay/host.h"
#include "replay/options.h"
#include "replay/pipeline.h"
#include "replay/startcache.h"
#include "replay/startfolios.h"
#include "replay/startstate.h"
#include "report/heatmap.h"
#include "report/report.h"
#include "report/series.h"
#include "trace/trace.h"

struct replay;
struct replay_units;

#define REPLAY_MAX_EXTRA	(2 * (MODEL_MAX_ORDER + 1))
#define REPLAY_SHOW_BAD	5	/* damaged access records named one by one */
/* An access this much earlier than the latest is late: not the CPUs' usual reordering. */
#define REPLAY_REORDER_NS	1000000000ull

/* A model instance that also fills the heatmap's cells; it runs in the model's thread. */
struct replay_heat_client {
	struct model *m;
	struct heatmap *h;
	uint64_t *accesses;	/* the first configuration's counts the accesses; else NULL */
	uint64_t *misses;
};

/* Where a model's samples go; it runs in the model's thread. */
struct replay_sink {
	struct series_col *col;
	bool oom;
};

struct replay {
	/* set by replay_init() and the caller before replay_file() */
	unsigned ncfg;
	struct model_config *cfg;	/* [ncfg] */
	unsigned set;			/* enum model_recorded: what the user gave */
	bool keep_series;		/* store the interval samples (--timeseries, --plot) */
	unsigned threads;		/* 0 = as many as useful, 1 = serial (pipeline.h) */
	bool leave_out_mapped;		/* the accesses of mapped files are left out (calibrate) */
	bool quiet;			/* no progress line on a terminal */
	const char *work;		/* what the progress line calls the work: "replay" */

	struct heatmap *heat;		/* --heatmap: grid set up by the caller; NULL: none */
	bool sweep_labels;		/* label columns with their memory too ("order 9, 1G") */
	bool no_models;			/* cfg is settled for the extra clients only: no instances */
	struct replay_units *units;	/* --by: figures per file, process or cgroup; NULL: none */
	/* the trace's memory cgroups (a first pass found them); NULL or not active: one */
	struct replay_cgroups *cgroups;
	/* several: what each was charged besides its traced page cache (charges_ready) */
	struct replay_charges charges;
	bool charges_ready;
	unsigned keep;			/* enum model_keep for every model (MODEL_KEEP_ALL) */
	/*
	 * Optional: another reader of the trace, given each record before the replay takes it,
	 * so that what it learns needs no read of its own (replay's trust line: the kernel's
	 * facts). reader_status says where the read ended.
	 */
	void (*also_read)(void *arg, const struct ft_reader *r, const struct ft_hdr *h);
	void *also_read_arg;

	/* results */
	struct report_col *cols;	/* [ncfg] */
	struct report_run run;
	struct ft_reader_status reader_status;
	struct series series;
	uint64_t samples;		/* interval samples of the busiest model (model_samples) */

	/* while streaming */
	struct ft_reader *reader;
	struct model **models;		/* [ncfg] */
	struct replay_sink *sinks;	/* [ncfg] */
	struct replay_heat_client heat_clients[SERIES_MAX_COLS];
	struct pipe_client *clients;	/* the models, then the extra clients */
	unsigned nextra;
	struct pipe_client extra[REPLAY_MAX_EXTRA];	/* followers of the stream (mrc.h) */
	/* optional: called with the settled configuration before the stream starts */
	int (*extra_start)(void *arg, const struct model_config *settled, unsigned n,
			   struct ft_error *err);
	void *extra_arg;
	struct pipeline pipe;
	struct file_table files;
	struct ft_host host;
	struct ft_host_dev host_devs[16];
	struct model_device devices[16];	/* host_devs as the models see them */
	struct ft_device dev_info[16];		/* host_devs[i]'s FT_DEVICE record ... */
	uint32_t dev_info_have;			/* ... when bit i is set */
	bool have_host;
	bool started;			/* configurations settled, clients running */
	struct budget budget;		/* the recorded cgroup's counters */
	struct replay_anon anon;	/* swap and anon memory for the refault distance */
	uint32_t devices_used;		/* a bit per host device an access was on */
	char sources[512];		/* report_run.sources */
	/* the recorded host's dirtyable memory (MemFree + file LRU), bytes; 0: not sampled */
	uint64_t dirtyable;
	struct meminfo_names {
		uint16_t free, active_file, inactive_file;	/* index + 1 in the names */
	} meminfo;
	/* lru_gen/enabled as first sampled (bit 0: MGLRU ran): the LRU kind the models follow */
	uint16_t lru_gen_idx;		/* index + 1 in the names; 0: not sampled */
	bool have_lru_gen;
	uint64_t lru_gen_enabled;
	uint64_t now;			/* latest access time: models need it never decreasing */
	uint64_t proactive_pages;	/* pages the kernel's DAMON pageout deleted */
	bool refault_events;		/* the trace names the folios that refaulted (1.5 on) */
	char release[FT_RELEASE_LEN];
	struct recorded_start start;	/* the recorded memory at the start */
	struct replay_start_cache start_cache;	/* the page cache before the trace */
	struct replay_start_folios start_folios;	/* its folios the kernel's deletes show */
};

/*
 * cfg[0..ncfg) are complete configurations (model_config_defaults + options); threads 0.
 * 0, or -1 when out of memory (then only replay_release() may follow).
 */
int replay_init(struct replay *rp, const struct model_config *cfg, unsigned ncfg, unsigned set,
		bool keep_series);
/*
 * The start folios a first pass over the trace should find for this replay (its models start
 * from the deletes' folios and none has them yet), or NULL. replay_file() makes that pass
 * itself when its caller made none (replay/firstpass.h).
 */
struct replay_start_folios *replay_start_folios_wanted(struct replay *rp);
/*
 * Replays path. 0: cols/run/series hold the results (run.truncated says whether the trace
 * ended early). -1: err says why (unreadable trace, configuration the model refused, ENOMEM).
 */
int replay_file(struct replay *rp, const char *path, struct ft_error *err);
void replay_release(struct replay *rp);

#endif /* FT_REPLAY_REPLAY_H */
