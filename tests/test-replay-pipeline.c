// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of replay/pipeline: every client sees exactly the stream pushed, in order, time
 * advances included, serially and in worker threads, for 1 to 12 clients - across many
 * batch boundaries at both batch lengths (a thread taking turns among few clients and among
 * PIPE_MANY_CLIENTS or more) and with a last batch left partly filled.
 */
#include <stdint.h>
#include <stdlib.h>

#include "replay/pipeline.h"
#include "tap.h"

/* What a client saw: counts and a checksum that depends on the order of the items. */
struct seen {
	uint64_t accesses, advances, sum;
	uint64_t next_ts;	/* the ts the next item must carry */
	uint64_t out_of_order;
};

static void seen_item(struct seen *s, uint64_t ts)
{
	if (ts != s->next_ts)
		s->out_of_order++;
	s->next_ts = ts + 1;
	s->sum = s->sum * 1000003 + ts;
}

static void seen_access(void *obj, const struct model_access *a)
{
	struct seen *s = obj;

	s->accesses++;
	if (a->pos != a->ts * 4096 || a->len != 4096)
		s->out_of_order++;
	seen_item(s, a->ts);
}

static void seen_advance(void *obj, uint64_t ts)
{
	struct seen *s = obj;

	s->advances++;
	seen_item(s, ts);
}

/* Every seventh item is a time advance, the others reads; ts counts the items from 0. */
static uint64_t stream(struct pipeline *p, uint64_t n)
{
	uint64_t sum = 0;

	for (uint64_t i = 0; i < n; i++) {
		if (i % 7 == 6) {
			pipeline_advance(p, i);
		} else {
			struct model_access a = {
				.ts = i, .op = MODEL_READ, .pos = i * 4096, .len = 4096,
			};

			pipeline_access(p, &a);
		}
		sum = sum * 1000003 + i;
	}
	return sum;
}

static void test_stream(unsigned nclients, unsigned threads, uint64_t n)
{
	struct pipe_client clients[12];
	struct seen seen[12] = { { 0 } };
	struct pipeline p;
	uint64_t want, bad = 0;

	for (unsigned k = 0; k < nclients; k++)
		clients[k] = (struct pipe_client){
			.access = seen_access, .advance = seen_advance, .obj = &seen[k],
		};
	if (!ok(pipeline_start(&p, clients, nclients, threads) == 0,
		"%u clients, threads=%u: started", nclients, threads))
		return;
	want = stream(&p, n);
	pipeline_finish(&p);
	for (unsigned k = 0; k < nclients; k++) {
		uint64_t advances = n / 7;

		if (seen[k].accesses != n - advances || seen[k].advances != advances ||
		    seen[k].sum != want || seen[k].out_of_order || seen[k].next_ts != n) {
			diag("client %u: %llu accesses, %llu advances, %llu out of order", k,
			     (unsigned long long)seen[k].accesses,
			     (unsigned long long)seen[k].advances,
			     (unsigned long long)seen[k].out_of_order);
			bad++;
		}
	}
	is_u64(bad, 0, "every client saw the whole stream in order");
}

int main(void)
{
	/* several batches of the long kind and a partial one at the end */
	uint64_t n = 3ull * PIPE_DEPTH * PIPE_BATCH * PIPE_MANY_SCALE + 12345;

	test_stream(1, 1, n);	/* serial, one client with no prefetch: no batches */
	test_stream(3, 1, n);	/* serial, one batch taking turns among 3 */
	test_stream(4, 1, n);	/* serial, long batches */
	test_stream(1, 0, n);
	test_stream(3, 2, n);	/* 2 threads: 2 turns at most, short batches */
	test_stream(12, 2, n);	/* 6 turns: long batches */
	test_stream(12, 12, n);	/* a thread each */
	test_stream(5, 3, 1000);	/* less than one batch */
	test_stream(2, 2, 0);	/* nothing at all */
	return done_testing();
}
