/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef __x86_64__
#include <immintrin.h>
#endif

#include "replay/pipeline.h"

static void client_model_access(void *obj, const struct model_access *a)
{
	model_access(obj, a);
}

static void client_model_advance(void *obj, uint64_t ts)
{
	model_advance(obj, ts);
}

static void client_model_prefetch(const void *obj, const struct model_access *a, unsigned n)
{
	model_prefetch_ahead(obj, a, n);
}

struct pipe_client pipe_client_model(struct model *m)
{
	return (struct pipe_client){
		.access = client_model_access, .advance = client_model_advance, .obj = m,
		.prefetch = client_model_prefetch
	};
}

/*
 * Accesses of the batch fetched ahead of the one running: another thread wrote them, and
 * a client with a prefetch hook reads them a dozen places ahead already.
 */
#define PIPE_FETCH_AHEAD	32

/* One client runs the whole batch (read once: the calls could change it, for all GCC knows). */
static void run_client(const struct pipe_client *c, const struct pipe_batch *b)
{
	const struct model_access *item = b->item;
	unsigned n = b->n;

	for (unsigned i = 0; i < n; i++) {
		if (i + PIPE_FETCH_AHEAD < n)
			__builtin_prefetch(&item[i + PIPE_FETCH_AHEAD]);
		if (c->prefetch)
			c->prefetch(c->obj, &item[i], n - i);
		if (item[i].op)
			c->access(c->obj, &item[i]);
		else
			c->advance(c->obj, item[i].ts);
	}
}

static void run_batch(struct pipeline *p, const struct pipe_batch *b, unsigned first)
{
	for (unsigned k = first; k < p->nclients; k += p->nworkers)
		run_client(&p->clients[k], b);
}

static void *worker_main(void *arg)
{
	struct pipe_worker *w = arg;
	struct pipeline *p = w->p;

	for (;;) {
		struct pipe_batch *b;

		pthread_mutex_lock(&p->lock);
		while (w->next >= p->published && !p->done)
			pthread_cond_wait(&p->ready, &p->lock);
		if (w->next >= p->published) {
			pthread_mutex_unlock(&p->lock);
			return NULL;
		}
		pthread_mutex_unlock(&p->lock);

		b = &p->batch[w->next % PIPE_DEPTH];
		run_batch(p, b, w->first);

		pthread_mutex_lock(&p->lock);
		if (--b->pending == 0)
			pthread_cond_signal(&p->freed);
		pthread_mutex_unlock(&p->lock);
		w->next++;
	}
}

static unsigned pick_workers(unsigned nclients, unsigned threads)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	unsigned n;

	if (threads == 1)
		return 0;
	if (threads)
		n = threads < nclients ? threads : nclients;
	else if (cpus <= 1)
		return 0;
	else
		n = nclients < (unsigned long)cpus ? nclients : (unsigned)cpus;
	return n < PIPE_MAX_WORKERS ? n : PIPE_MAX_WORKERS;
}

static unsigned start_workers(struct pipeline *p)
{
	unsigned started = 0;

	for (unsigned i = 0; i < p->nworkers; i++) {
		p->w[i] = (struct pipe_worker){ .p = p, .first = i };
		if (pthread_create(&p->w[i].tid, NULL, worker_main, &p->w[i]) != 0)
			break;
		started++;
	}
	return started;
}

/* n batches of the length a thread running turns clients at a time gets (pipeline.h). */
static int alloc_batches(struct pipeline *p, unsigned n, unsigned turns)
{
	p->batch_cap = PIPE_BATCH * (turns >= PIPE_MANY_CLIENTS ? PIPE_MANY_SCALE : 1);
	p->batch = aligned_alloc(_Alignof(struct pipe_batch), n * sizeof(*p->batch));
	/* each access a line of its own, where it fills one */
	p->items = aligned_alloc(64, (size_t)n * p->batch_cap * sizeof(*p->items));
	if (p->batch)
		memset(p->batch, 0, n * sizeof(*p->batch));
	if (p->items)
		memset(p->items, 0, (size_t)n * p->batch_cap * sizeof(*p->items));
	if (!p->batch || !p->items) {
		free(p->batch);
		free(p->items);
		p->batch = NULL;
		p->items = NULL;
		return -1;
	}
	for (unsigned i = 0; i < n; i++)
		p->batch[i].item = p->items + (size_t)i * p->batch_cap;
	return 0;
}

static void free_batches(struct pipeline *p)
{
	free(p->items);
	free(p->batch);
	p->items = NULL;
	p->batch = NULL;
}

/*
 * Serial with several clients: the accesses are gathered in one batch and each client runs
 * the whole batch in turn, so a client's state stays in the caches for a batch rather than
 * for one access (feeding every client each access in turn costs 1.4 times the CPU). One
 * client with a prefetch hook gets batches too, so that it sees the accesses ahead.
 */
static int start_serial(struct pipeline *p)
{
	if (p->nclients > 1 || (p->nclients == 1 && p->clients[0].prefetch))
		return alloc_batches(p, 1, p->nclients);
	return 0;
}

static void run_serial(struct pipeline *p)
{
	for (unsigned k = 0; k < p->nclients; k++)
		run_client(&p->clients[k], p->batch);
	p->batch->n = 0;
}

static void push_serial(struct pipeline *p, const struct model_access *a)
{
	p->batch->item[p->batch->n++] = *a;
	if (p->batch->n == p->batch_cap)
		run_serial(p);
}

int pipeline_start(struct pipeline *p, struct pipe_client *clients, unsigned nclients,
		   unsigned threads)
{
	unsigned started;

	memset(p, 0, sizeof(*p));
	p->clients = clients;
	p->nclients = nclients;
	p->nworkers = pick_workers(nclients, threads);
	if (!p->nworkers)
		return start_serial(p);
	/* worker k runs clients k, k + nworkers, ...: the first takes the most turns */
	if (alloc_batches(p, PIPE_DEPTH, (nclients + p->nworkers - 1) / p->nworkers) < 0)
		return -1;
	pthread_mutex_init(&p->lock, NULL);
	pthread_cond_init(&p->ready, NULL);
	pthread_cond_init(&p->freed, NULL);
	started = start_workers(p);
	if (started < p->nworkers) {
		/* fewer threads than asked for: stop those started and run serially */
		pthread_mutex_lock(&p->lock);
		p->done = true;
		pthread_cond_broadcast(&p->ready);
		pthread_mutex_unlock(&p->lock);
		for (unsigned i = 0; i < started; i++)
			pthread_join(p->w[i].tid, NULL);
		free_batches(p);
		p->nworkers = 0;
		p->done = false;
		return start_serial(p);
	}
	return 0;
}

/*
 * An access into a batch for a worker on another core, written around the caches
 * (non-temporal stores, ordered by publish()'s fence): a plain store first fetches the line for
 * ownership from where the worker read it last, one round trip a line that cost a quarter of
 * the CPU of a replay of the plain model at order 9 (CPU 0.83 of that with these).
 */
static inline void item_put(struct model_access *dst, const struct model_access *src)
{
#ifdef __x86_64__
	const long long *s = (const long long *)src;
	long long *d = (long long *)dst;

	_Static_assert(sizeof(*src) % 8 == 0 && _Alignof(struct model_access) >= 8,
		       "an access is whole, aligned 8-byte words");
	for (unsigned i = 0; i < sizeof(*src) / 8; i++)
		_mm_stream_si64(d + i, s[i]);
#else
	*dst = *src;
#endif
}

/* The accesses item_put() wrote reach the caches before the batch is handed over. */
static inline void items_fence(void)
{
#ifdef __x86_64__
	_mm_sfence();
#endif
}

/* Hands the batch being filled to the workers and waits until the next slot is free. */
static void publish(struct pipeline *p)
{
	struct pipe_batch *next;

	items_fence();
	pthread_mutex_lock(&p->lock);
	p->batch[p->published % PIPE_DEPTH].pending = p->nworkers;
	p->published++;
	pthread_cond_broadcast(&p->ready);
	next = &p->batch[p->published % PIPE_DEPTH];
	while (next->pending)
		pthread_cond_wait(&p->freed, &p->lock);
	pthread_mutex_unlock(&p->lock);
	next->n = 0;
}

static void push(struct pipeline *p, const struct model_access *a)
{
	struct pipe_batch *b = &p->batch[p->published % PIPE_DEPTH];

	item_put(&b->item[b->n++], a);
	if (b->n == p->batch_cap)
		publish(p);
}

void pipeline_access(struct pipeline *p, const struct model_access *a)
{
	if (!p->nworkers) {
		if (p->batch)
			push_serial(p, a);
		else if (p->nclients)
			p->clients[0].access(p->clients[0].obj, a);
		return;
	}
	push(p, a);
}

void pipeline_advance(struct pipeline *p, uint64_t ts)
{
	struct model_access a = { .ts = ts };

	if (!p->nworkers) {
		if (p->batch)
			push_serial(p, &a);
		else if (p->nclients)
			p->clients[0].advance(p->clients[0].obj, ts);
		return;
	}
	push(p, &a);
}

void pipeline_finish(struct pipeline *p)
{
	if (!p->nworkers) {
		if (p->batch)
			run_serial(p);
		free_batches(p);
		return;
	}
	if (p->batch[p->published % PIPE_DEPTH].n)
		publish(p);
	pthread_mutex_lock(&p->lock);
	p->done = true;
	pthread_cond_broadcast(&p->ready);
	pthread_mutex_unlock(&p->lock);
	for (unsigned i = 0; i < p->nworkers; i++)
		pthread_join(p->w[i].tid, NULL);
	pthread_cond_destroy(&p->ready);
	pthread_cond_destroy(&p->freed);
	pthread_mutex_destroy(&p->lock);
	free_batches(p);
	p->nworkers = 0;
}
