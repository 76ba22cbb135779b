/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Feeds the same stream of accesses to every model instance, with the models in worker
 * threads: the trace is decoded once while the models run, and several orders run on several
 * cores. Each model sees exactly the serial sequence, so results do not depend on threads.
 */
#ifndef FT_REPLAY_PIPELINE_H
#define FT_REPLAY_PIPELINE_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

#define PIPE_MAX_WORKERS	64	/* threads at most, whatever the number of clients */
/*
 * Accesses handed over at once: one lock round per batch, and each client runs a whole batch
 * before the next client does. Small batches cost a sweep dearly: a model's hot folios leave
 * the caches while the others run (12 instances of a 2M-access trace took 1.2 times the CPU
 * of 12 single runs at 4096, 0.9 times at 32768; 65536 gained nothing more). A thread that
 * takes turns among PIPE_MANY_CLIENTS models or more gets batches PIPE_MANY_SCALE times as
 * long: 12 instances on 2 threads of a 10M-access trace then took 0.89 times the CPU (and
 * wall time) they took at 32768, for 21 MiB more; one to three instances gained nothing.
 */
#define PIPE_BATCH		32768
#define PIPE_MANY_CLIENTS	4
#define PIPE_MANY_SCALE		4
#define PIPE_DEPTH		4	/* batches in flight */

/* A line each: the reader fills one batch's n while workers read the others'. */
struct pipe_batch {
	struct model_access *item;	/* [pipeline.batch_cap]; op 0: only time passes, to ts */
	unsigned n;
	unsigned pending;	/* workers yet to run it */
} __attribute__((aligned(64)));

struct pipeline;

/*
 * What the stream goes to: a model instance, or anything else that follows the accesses (a
 * stack-distance engine). Each client is run by one thread at a time, in stream order.
 */
struct pipe_client {
	void (*access)(void *obj, const struct model_access *a);
	void (*advance)(void *obj, uint64_t ts);
	void *obj;
	/* Optional: hints for a[1] .. a[n - 1] before a[0] runs (model_prefetch_ahead()). */
	void (*prefetch)(const void *obj, const struct model_access *a, unsigned n);
};

/* A model instance as a client. */
struct pipe_client pipe_client_model(struct model *m);

struct pipe_worker {
	struct pipeline *p;
	pthread_t tid;
	unsigned first;		/* clients first, first + nworkers, ... */
	uint64_t next;		/* sequence number of the next batch to run */
};

struct pipeline {
	struct pipe_client *clients;
	unsigned nclients, nworkers;	/* nworkers 0: serial, in the caller's thread */
	struct pipe_worker w[PIPE_MAX_WORKERS];
	pthread_mutex_t lock;
	pthread_cond_t ready, freed;
	struct pipe_batch *batch;	/* [PIPE_DEPTH], or one when serial */
	struct model_access *items;	/* the batches' items, batch_cap each */
	unsigned batch_cap;
	uint64_t published;		/* batches handed to the workers */
	bool done;
};

/*
 * threads: 1 = serial, in the caller's thread; N > 1 = up to N worker threads; 0 = one worker
 * per client up to the online CPUs (serial on one CPU). Falls back to serial when threads
 * cannot be had. The caller keeps clients alive until pipeline_finish. 0, or -1 on ENOMEM.
 */
int pipeline_start(struct pipeline *p, struct pipe_client *clients, unsigned nclients,
		   unsigned threads);
void pipeline_access(struct pipeline *p, const struct model_access *a);
void pipeline_advance(struct pipeline *p, uint64_t ts);
/* Everything pushed has been run by every client; workers are gone. */
void pipeline_finish(struct pipeline *p);

#endif /* FT_REPLAY_PIPELINE_H */
