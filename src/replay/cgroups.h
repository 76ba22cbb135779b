/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memory cgroups of a trace as the models see them: a first pass finds the cgroups whose
 * tasks accessed files (FT_TASK names each thread's, FT_CGROUP and FT_CGROUP_LIMITS each
 * cgroup's path and limits); when there are two or more, or --cgroup-limit names one, each
 * gets a memory cgroup of its own in every model (model_config.memcgs), with its recorded
 * limits or the one given, and each access is charged to its thread's. Limits written later
 * (the recorder reads them at each sample) reach the models in time with the accesses. Cgroups past the
 * models' MODEL_MAX_MEMCGS - 1 share the first, unlimited one with threads of no known cgroup.
 */
#ifndef FT_REPLAY_CGROUPS_H
#define FT_REPLAY_CGROUPS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "trace/trace.h"
#include "util/error.h"
#include "util/u64map.h"

#define CGROUP_NAME_LEN		128
#define CGROUP_LIMITS_GIVEN_MAX	16

/* --cgroup-limit=NAME:SIZE */
struct cgroup_limit_given {
	char name[CGROUP_NAME_LEN];
	uint64_t bytes;
	bool matched;
};

struct replay_cgroup {
	uint64_t id;			/* the kernel's (FT_CGROUP id) */
	char path[CGROUP_NAME_LEN];	/* under its hierarchy's root; "" when not recorded */
	bool v1;			/* in the v1 memory hierarchy (FT_CG_V1) */
	uint64_t accesses;		/* by its threads */
	bool limit_given;		/* its max is --cgroup-limit's */
	struct model_memcg now;		/* its limits as the models have them now */
};

struct replay_cgroups {
	/* set by the caller: the what-ifs */
	struct cgroup_limit_given given[CGROUP_LIMITS_GIVEN_MAX];
	unsigned ngiven;

	/* found by the first pass: cg[i] is the models' memory cgroup i + 1 */
	struct replay_cgroup cg[MODEL_MAX_MEMCGS - 1];
	struct model_memcg limits[MODEL_MAX_MEMCGS - 1];
	uint32_t n;
	uint64_t shared;		/* cgroups past the last, charged to the first */
	uint32_t limit_changes;		/* their limits written after the first access */
	bool active;			/* the models get them */

	/* while replaying: each thread's cgroup index (+ 1), and each cgroup id's */
	struct u64map tid_index, id_index;
	uint32_t last_tid;
	uint8_t last_index;
	bool last_valid;
};

/* Parses NAME:SIZE into the next free given slot; false with *why set. */
bool replay_cgroups_parse_limit(struct replay_cgroups *c, const char *arg, const char **why);
/*
 * The first pass over a trace (replay/firstpass.h): the cgroups with accesses, their limits
 * and paths. begin empties c's findings (NULL: out of memory); note takes each record (1:
 * nothing more to find, a synthetic trace; -1 out of memory); finish sets c's cgroups, and
 * active when the models should have them (-1 out of memory); free at the end either way.
 * A trace of a format before 1.1 has no cgroups: begin and finish, and no record between.
 */
struct cgroups_survey;
struct cgroups_survey *cgroups_survey_begin(struct replay_cgroups *c);
int cgroups_survey_note(struct cgroups_survey *s, const struct ft_hdr *h);
int cgroups_survey_finish(struct cgroups_survey *s, struct replay_cgroups *c);
void cgroups_survey_free(struct cgroups_survey *s);
/* A record of the replay's pass: FT_TASK moves a thread. -1 out of memory. */
int replay_cgroups_note(struct replay_cgroups *c, const struct ft_hdr *h);
/*
 * The models' memory cgroup of the kernel's cgroup id: true with *index set when the models
 * have it (their only one, 0, when the trace's accesses came from that cgroup alone).
 */
bool replay_cgroups_index(const struct replay_cgroups *c, uint64_t id, uint8_t *index);
/*
 * An FT_CGROUP_LIMITS of the replay's pass: true with *index, *now and *v1 set when it changes a
 * model cgroup's limits (a max given by --cgroup-limit stays); the models' only cgroup, 0,
 * when the trace's accesses came from that cgroup alone.
 */
bool replay_cgroups_limits_changed(struct replay_cgroups *c, const struct ft_cgroup_limits *l,
				   uint8_t *index, struct model_memcg *now, bool *v1);
/*
 * The models' memory cgroups with a dirty domain of their own (model_config.dirty_domains):
 * each recorded cgroup below the root of a v2 hierarchy, where cgroup writeback gives it a
 * wb of its own; none under v1.
 */
uint32_t replay_cgroups_dirty_domains(const struct replay_cgroups *c);
/* The models' memory cgroup index of an access by thread tid. */
uint8_t replay_cgroups_of_tid(struct replay_cgroups *c, uint32_t tid);
void replay_cgroups_release(struct replay_cgroups *c);

#endif /* FT_REPLAY_CGROUPS_H */
