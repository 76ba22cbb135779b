// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stack-distance curves (model/stack.c): at order 0 against a textbook move-to-front LRU
 * stack at every size, at orders 0, 4 and 9 against model instances of the plain LRU at a
 * range of sizes, sampled curves near the exact one, and what makes a curve inexact.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"
#include "model/stack.h"
#include "tap.h"
#include "util/rng.h"

#define PAGE		4096ull
#define NREQ		20000

/* The file: pages, and its size (the last page partly, so folios are capped at EOF). */
static uint64_t NPAGES = 1000, ISIZE = 1000 * PAGE - 1000;

struct req {
	uint64_t pos, len;
};

/* Skewed single-page reads, some short runs and a few longer ones. */
static struct req *make_requests(unsigned n, uint64_t npages, uint64_t isize, uint64_t seed)
{
	struct req *r = calloc(n, sizeof(*r));
	struct ft_rng rng;

	NPAGES = npages;
	ISIZE = isize;
	ft_rng_seed(&rng, seed);
	for (unsigned i = 0; i < n; i++) {
		uint64_t page = ft_rng_below(&rng, ft_rng_below(&rng, NPAGES) + 1);
		uint64_t pages = ft_rng_below(&rng, 10) == 0 ? 1 + ft_rng_below(&rng, 24) : 1;

		if (page + pages > NPAGES)
			pages = NPAGES - page;
		r[i].pos = page * PAGE + (pages == 1 ? ft_rng_below(&rng, 2048) : 0);
		r[i].len = pages * PAGE - (r[i].pos % PAGE);
		if (r[i].pos + r[i].len > ISIZE)
			r[i].len = ISIZE - r[i].pos;
	}
	return r;
}

static struct model_access access_of(const struct req *r, uint64_t ts)
{
	return (struct model_access){ .ts = ts, .file_id = 0, .op = MODEL_READ, .pos = r->pos,
				      .len = r->len, .isize = ISIZE,
				      .device = MODEL_DEVICE_NONE };
}

static void plain_config(struct model_config *c, unsigned order, uint64_t memory)
{
	model_config_defaults(c);
	c->order = order;
	c->lru = LRU_PLAIN;
	c->policy = FOLIO_POLICY_FIXED;
	c->readahead = false;
	c->memory_bytes = memory;
}

static struct stack_mrc *run_stack(const struct req *r, unsigned n, unsigned order, double rate)
{
	struct model_config c;
	const char *why = NULL;
	struct stack_mrc *s;

	plain_config(&c, order, 64 * PAGE);
	s = stack_mrc_new(&c, rate, &why);
	if (!s) {
		diag("stack_mrc_new: %s", why);
		return NULL;
	}
	for (unsigned i = 0; i < n; i++) {
		struct model_access a = access_of(&r[i], 1000 * (i + 1));

		stack_mrc_access(s, &a);
	}
	if (!stack_mrc_finish(s)) {
		stack_mrc_free(s);
		return NULL;
	}
	return s;
}

/*
 * The textbook: a move-to-front list of pages; a page's distance is its place (from 1), a
 * request hits at a size when all its pages do. dist[d] counts requests by their largest
 * distance; misses[d] page references at distance d (0: never seen).
 */
static void textbook(const struct req *r, unsigned n, uint64_t *req_at, uint64_t *ref_at,
		     uint64_t *cold_req, uint64_t *cold_ref)
{
	uint64_t *stack = calloc(NPAGES, sizeof(*stack)), depth = 0;

	for (unsigned i = 0; i < n; i++) {
		uint64_t first = r[i].pos / PAGE, last = (r[i].pos + r[i].len - 1) / PAGE, maxd = 0;
		int cold = 0;

		for (uint64_t p = first; p <= last; p++) {
			uint64_t k = 0;

			while (k < depth && stack[k] != p)
				k++;
			if (k == depth) {
				cold = 1;
				(*cold_ref)++;
				depth++;
			} else {
				ref_at[k + 1]++;
				if (k + 1 > maxd)
					maxd = k + 1;
			}
			memmove(&stack[1], &stack[0], k * sizeof(*stack));
			stack[0] = p;
		}
		if (cold)
			(*cold_req)++;
		else
			req_at[maxd]++;
	}
	free(stack);
}

static void test_textbook(const struct req *r)
{
	uint64_t *req_at = calloc(NPAGES + 2, sizeof(uint64_t));
	uint64_t *ref_at = calloc(NPAGES + 2, sizeof(uint64_t));
	uint64_t cold_req = 0, cold_ref = 0, hits = 0, refhits = 0, refs;
	struct stack_mrc *s = run_stack(r, NREQ, 0, 1.0);
	unsigned bad = 0, badio = 0;
	struct stack_inexact why[STACK_MRC_NR_REASONS];
	unsigned nwhy;

	textbook(r, NREQ, req_at, ref_at, &cold_req, &cold_ref);
	refs = cold_ref;
	for (uint64_t d = 0; d <= NPAGES; d++)
		refs += ref_at[d];
	ok(s != NULL, "order 0: stack pass");
	if (!s)
		return;
	for (uint64_t c = 1; c <= NPAGES + 1; c++) {
		struct model_metrics m;

		hits += req_at[c];
		refhits += ref_at[c];
		stack_mrc_metrics(s, c * PAGE, &m);
		if (m.read_hit_requests != hits && bad++ < 3)
			diag("%llu pages: %llu hits, textbook %llu", (unsigned long long)c,
			     (unsigned long long)m.read_hit_requests, (unsigned long long)hits);
		if (m.read_ios != refs - refhits)
			badio++;
	}
	ok(bad == 0, "order 0: hit requests equal the textbook stack at all %llu sizes",
	   (unsigned long long)NPAGES + 1);
	ok(badio == 0, "order 0: device reads equal the textbook's misses at every size");
	is_u64(stack_mrc_inexact(s, why, &nwhy), 0, "order 0: reads of a fixed file are exact");
	stack_mrc_free(s);
	free(req_at);
	free(ref_at);
}

/* A model instance of the plain LRU at memory bytes: its read metrics. */
static int run_model(const struct req *r, unsigned order, uint64_t memory,
		     struct model_metrics *out)
{
	struct model_config c;
	const char *why = NULL;
	struct model *m;

	plain_config(&c, order, memory);
	m = model_new(&c, &why);
	if (!m) {
		diag("model_new: %s", why);
		return -1;
	}
	for (unsigned i = 0; i < NREQ; i++) {
		struct model_access a = access_of(&r[i], 1000 * (i + 1));

		model_access(m, &a);
	}
	model_finish(m, 1000ull * (NREQ + 1));
	model_metrics(m, out);
	model_free(m);
	return 0;
}

static void test_instances(const struct req *r, unsigned order)
{
	struct stack_mrc *s = run_stack(r, NREQ, order, 1.0);
	unsigned bad = 0, points = 0;

	ok(s != NULL, "order %u: stack pass", order);
	if (!s)
		return;
	/* from one largest folio up to past the whole file, in whole largest folios */
	for (uint64_t pages = 1ull << order; pages <= NPAGES + 512; pages += 1ull << order) {
		struct model_metrics a, b;

		if (order == 0 && pages % 37)
			continue;
		stack_mrc_metrics(s, pages * PAGE, &a);
		if (run_model(r, order, pages * PAGE, &b) < 0)
			break;
		points++;
		if ((a.read_hit_requests != b.read_hit_requests ||
		     a.read_hit_bytes != b.read_hit_bytes || a.read_io_bytes != b.read_io_bytes ||
		     a.read_ios != b.read_ios || a.read_requests != b.read_requests) && bad++ < 3)
			diag("order %u, %llu pages: hits %llu/%llu, bytes %llu/%llu, io %llu/%llu",
			     order, (unsigned long long)pages,
			     (unsigned long long)a.read_hit_requests,
			     (unsigned long long)b.read_hit_requests,
			     (unsigned long long)a.read_hit_bytes,
			     (unsigned long long)b.read_hit_bytes,
			     (unsigned long long)a.read_io_bytes,
			     (unsigned long long)b.read_io_bytes);
	}
	ok(points > 0 && bad == 0, "order %u: the curve equals model instances at %u sizes", order,
	   points);
	stack_mrc_free(s);
}

static void test_sampled(const struct req *r, unsigned nreq)
{
	struct stack_mrc *e = run_stack(r, nreq, 0, 1.0), *s = run_stack(r, nreq, 0, 0.1);
	double sum = 0;
	unsigned n = 0;

	ok(e && s, "sampled and exact passes");
	if (!e || !s)
		goto out;
	for (uint64_t pages = NPAGES / 100; pages <= NPAGES; pages += NPAGES / 100) {
		struct model_metrics a, b;

		stack_mrc_metrics(e, pages * PAGE, &a);
		stack_mrc_metrics(s, pages * PAGE, &b);
		sum += fabs((double)a.read_hit_requests - (double)b.read_hit_requests) /
		       (double)a.read_requests;
		n++;
	}
	diag("10%% sample of %llu pages: mean hit-ratio error %.4f", (unsigned long long)NPAGES,
	     sum / n);
	ok(sum / n < 0.02, "10%% sample: mean hit-ratio error below 0.02");
out:
	stack_mrc_free(e);
	stack_mrc_free(s);
}

/*
 * Reads of a file, and a second file written (O_SYNC: no dirty folio for reclaim to pass over),
 * read and truncated to nothing over and over:
 * the memory a truncation frees is filled before the LRU evicts, at every size that held
 * the folios, which the stack follows with holes in its recency order.
 */
static unsigned truncation_stream(const struct req *r, unsigned n, struct model_access *out)
{
	uint64_t pages1 = 0, ts = 0;
	unsigned k = 0;

	for (unsigned i = 0; i < n; i++) {
		unsigned phase = i % 200;
		struct model_access a = access_of(&r[i], ++ts * 1000);

		if (phase == 100) {
			a = (struct model_access){ .ts = ts * 1000, .file_id = 1,
						   .op = MODEL_TRUNCATE, .device = MODEL_DEVICE_NONE };
			pages1 = 0;
		} else if (phase > 150 && phase <= 190) {
			pages1++;
			a = (struct model_access){ .ts = ts * 1000, .file_id = 1, .op = MODEL_WRITE,
						   .pos = (pages1 - 1) * PAGE, .len = PAGE,
						   .isize = pages1 * PAGE, .sync = true,
						   .device = MODEL_DEVICE_NONE };
		} else if (pages1 && i % 3 == 0) {
			a = (struct model_access){ .ts = ts * 1000, .file_id = 1, .op = MODEL_READ,
						   .pos = (i % pages1) * PAGE, .len = PAGE,
						   .isize = pages1 * PAGE, .device = MODEL_DEVICE_NONE };
		}
		out[k++] = a;
	}
	return k;
}

static void test_truncation(const struct req *r)
{
	struct model_access *a = calloc(NREQ, sizeof(*a));
	struct stack_inexact why[STACK_MRC_NR_REASONS];
	struct model_config c;
	const char *err = NULL;
	struct stack_mrc *s;
	unsigned n = truncation_stream(r, NREQ, a), bad = 0, points = 0, nwhy;

	plain_config(&c, 0, 64 * PAGE);
	c.write_policy = WRITE_POLICY_FIXED;
	c.fallback = ALLOC_FALLBACK_COMPACT;
	s = stack_mrc_new(&c, 1.0, &err);
	for (unsigned i = 0; i < n; i++)
		stack_mrc_access(s, &a[i]);
	stack_mrc_finish(s);
	for (uint64_t pages = 8; pages <= NPAGES + 64; pages += 23) {
		struct model_metrics x, y;
		struct model *m;

		c.memory_bytes = pages * PAGE;
		m = model_new(&c, &err);
		if (!m)
			break;
		for (unsigned i = 0; i < n; i++)
			model_access(m, &a[i]);
		model_finish(m, a[n - 1].ts + 1000);
		model_metrics(m, &y);
		model_free(m);
		stack_mrc_metrics(s, pages * PAGE, &x);
		points++;
		if ((x.read_hit_requests != y.read_hit_requests || x.read_ios != y.read_ios) &&
		    bad++ < 3)
			diag("%llu pages: hits %llu/%llu, ios %llu/%llu", (unsigned long long)pages,
			     (unsigned long long)x.read_hit_requests,
			     (unsigned long long)y.read_hit_requests,
			     (unsigned long long)x.read_ios, (unsigned long long)y.read_ios);
	}
	ok(points > 0 && bad == 0, "truncations: the curve equals model instances at %u sizes",
	   points);
	is_u64(stack_mrc_inexact(s, why, &nwhy), 0, "truncations: exact");
	stack_mrc_free(s);
	free(a);
}

/* Every reason is counted, once per access that meets it, most first. */
static void test_inexact(void)
{
	struct stack_inexact why[STACK_MRC_NR_REASONS];
	struct model_config c;
	const char *err = NULL;
	struct stack_mrc *s;
	unsigned nwhy = 99;
	struct model_access a = { .ts = 1, .op = MODEL_READ, .pos = 0, .len = 8 * PAGE,
				  .isize = 8 * PAGE, .device = MODEL_DEVICE_NONE };

	plain_config(&c, 0, 64 * PAGE);
	c.lru = LRU_TWO_LIST;
	ok(stack_mrc_new(&c, 1.0, &err) == NULL, "the two-list LRU is refused");
	plain_config(&c, 0, 64 * PAGE);
	s = stack_mrc_new(&c, 1.0, &err);
	stack_mrc_access(s, &a);
	is_u64(stack_mrc_inexact(s, why, &nwhy), 0, "reads: exact");
	is_u64(nwhy, 0, "reads: no reason");
	/* a truncate dropping 6 cached folios leaves them free memory: followed */
	a.op = MODEL_TRUNCATE;
	a.pos = 2 * PAGE;
	stack_mrc_access(s, &a);
	is_u64(stack_mrc_inexact(s, why, &nwhy), 0, "a truncation: exact");
	a.op = MODEL_OTHERS;
	stack_mrc_access(s, &a);
	stack_mrc_access(s, &a);
	/* a buffered write, and an O_SYNC one (nothing left dirty: followed) */
	a = (struct model_access){ .ts = 2, .op = MODEL_WRITE, .pos = 0, .len = PAGE,
				   .isize = 2 * PAGE, .device = MODEL_DEVICE_NONE };
	stack_mrc_access(s, &a);
	a.sync = true;
	stack_mrc_access(s, &a);
	is_u64(stack_mrc_inexact(s, why, &nwhy), 3, "3 inexact accesses");
	is_u64(stack_mrc_accesses(s), 6, "of 6");
	is_u64(nwhy, 2, "two reasons");
	ok(nwhy == 2 && strstr(why[0].why, "others") && why[0].accesses == 2 &&
	   strstr(why[1].why, "buffered writes") && why[1].accesses == 1,
	   "each reason with its accesses, most first: %llu %s; %llu %s",
	   (unsigned long long)why[0].accesses, why[0].why,
	   (unsigned long long)why[1].accesses, nwhy > 1 ? why[1].why : "");
	stack_mrc_free(s);
}

int main(void)
{
	struct req *r = make_requests(NREQ, 1000, 1000 * PAGE - 1000, 42);

	test_textbook(r);
	test_instances(r, 0);
	test_instances(r, 4);
	test_truncation(r);
	free(r);
	/*
	 * Order 9 in a file of whole 2 MiB folios: with mixed folio sizes the buddy allocator
	 * of an instance can fall back to smaller folios (fragmentation) where the stack,
	 * which counts pages, does not; folio-trace-model(7) says so.
	 */
	r = make_requests(NREQ, 4096, 4096 * PAGE, 43);
	test_instances(r, 9);
	free(r);
	r = make_requests(5 * NREQ, 50000, 50000 * PAGE, 44);
	test_sampled(r, 5 * NREQ);
	free(r);
	test_inexact();
	return done_testing();
}
