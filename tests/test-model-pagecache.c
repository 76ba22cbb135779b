// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model unit tests: the page cache index (open addressing, backward-shift deletion, growth)
 * and its count map, against a direct-indexed reference under random operations; the folio
 * pool's id reuse, growth in place, and reservation for its bound or under an address space
 * limit.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "model/folio.h"
#include "model/filemap/pagecache.h"
#include "tap.h"

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Keys: 4 files x 4096 indexes, clustered (consecutive indexes share hash groups). */
#define FILES	4
#define INDEXES	4096

static void test_random_ops(void)
{
	static uint32_t ref[FILES][INDEXES];
	struct pagecache pc;
	uint64_t seed = 99, live = 0, bad = 0;

	for (unsigned f = 0; f < FILES; f++)
		for (unsigned i = 0; i < INDEXES; i++)
			ref[f][i] = FOLIO_NIL;
	ok(pagecache_init(&pc, 16), "init");
	for (unsigned n = 0; n < 400000; n++) {
		uint64_t v = xorshift(&seed);
		uint32_t f = (uint32_t)(v % FILES), val = (uint32_t)(v >> 40) & 0xffffff;
		uint64_t i = (v >> 8) % INDEXES;

		if (ref[f][i] == FOLIO_NIL && (v >> 32) % 3) {
			if (!pagecache_insert(&pc, f, i, val))
				bad++;
			ref[f][i] = val;
			live++;
		} else if (ref[f][i] != FOLIO_NIL) {
			pagecache_remove(&pc, f, i);
			ref[f][i] = FOLIO_NIL;
			live--;
		}
		if (pagecache_get(&pc, f, i) != ref[f][i])
			bad++;
	}
	is_u64(bad, 0, "every lookup agrees with the reference");
	is_u64(pc.count, live, "entry count");
	for (unsigned f = 0; f < FILES; f++)
		for (unsigned i = 0; i < INDEXES; i++)
			if (pagecache_get(&pc, f, i) != ref[f][i])
				bad++;
	is_u64(bad, 0, "a full scan agrees after 400000 operations");
	ok(pc.count * 2 <= pc.mask + 1, "load at most 1/2 (%llu in %llu)",
	   (unsigned long long)pc.count, (unsigned long long)pc.mask + 1);
	pagecache_release(&pc);
}

static void test_counts(void)
{
	struct pagecache pc;

	pagecache_init(&pc, 16);
	pagecache_count_add(&pc, 1, 7, 64);
	pagecache_count_add(&pc, 1, 7, 2);
	is_u64(pagecache_get(&pc, 1, 7), 66, "counts add");
	pagecache_count_add(&pc, 1, 7, -66);
	is_u64(pagecache_get(&pc, 1, 7), FOLIO_NIL, "a count of 0 is no entry");
	is_u64(pc.count, 0, "the entry is gone");
	pagecache_count_add(&pc, 1, 8, -3);
	is_u64(pc.count, 0, "a negative delta on nothing adds nothing");
	pagecache_release(&pc);
}

static void test_pool(void)
{
	struct folio_pool p;
	struct folio *pb;
	uint32_t a, b, c, last = 0;

	folio_pool_init(&p);
	a = folio_pool_get(&p);
	b = folio_pool_get(&p);
	ok(a == 0 && b == 1, "ids from 0");
	folio_at(&p, a)->order = 9;
	folio_pool_put(&p, a);
	c = folio_pool_get(&p);
	is_u64(c, a, "a freed id is reused");
	is_u64(folio_at(&p, c)->order, 0, "and comes back zeroed");
	is_u64(folio_at(&p, c)->lru_next, FOLIO_NIL, "with empty links");
	pb = folio_at(&p, b);
	pb->index = 77;
	for (unsigned i = 0; i < 3 * FOLIO_CHUNK; i++)
		last = folio_pool_get(&p);
	is_u64(p.nr_used, 2 + 3 * FOLIO_CHUNK, "grows by chunks");
	is_u64(last, 1 + 3 * FOLIO_CHUNK, "ids stay consecutive across chunks");
	ok(folio_at(&p, b) == pb && pb->index == 77, "earlier folios stay in place");
	folio_at(&p, last)->index = 5;	/* the last chunk is writable to its end */
	is_u64(folio_at(&p, last)->index, 5, "the newest folio is usable");
	folio_pool_release(&p);
}

/* A pool told how many folios can live at once reserves for those and grows to them. */
static void test_pool_bound(void)
{
	struct folio_pool p;
	uint64_t n = 3 * FOLIO_CHUNK - 5, got = 0;
	uint32_t id = FOLIO_NIL;

	folio_pool_init(&p);
	folio_pool_bound(&p, n);
	while (got < n && (id = folio_pool_get(&p)) != FOLIO_NIL)
		got++;
	is_u64(got, n, "a bounded pool gives as many folios as its bound");
	is_u64(p.max_chunks, 3, "and reserves the chunks they need, no more");
	while (folio_pool_get(&p) != FOLIO_NIL)
		got++;
	is_u64(got, 3 * FOLIO_CHUNK, "past its reservation a get fails, as an allocation would");
	folio_pool_put(&p, id);
	is_u64(folio_pool_get(&p), id, "a folio put back is given again when full");
	folio_pool_release(&p);
}

/* Current address space of this process, bytes (VmSize). */
static uint64_t address_space(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[128];
	uint64_t kib = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmSize: %" SCNu64, &kib) == 1)
			break;
	if (f)
		fclose(f);
	return kib << 10;
}

/*
 * Under a limit of the address space (ulimit -v) the pool takes the reservation it can get:
 * a pool of 64 MiB's worth of folios still grows. In a child, so the limit stays there.
 */
static void test_pool_limited(void)
{
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		struct rlimit rl;
		struct folio_pool p;
		uint32_t n = 0;

		rl.rlim_cur = rl.rlim_max = address_space() + (512ull << 20);
		if (setrlimit(RLIMIT_AS, &rl))
			_exit(2);
		folio_pool_init(&p);
		while (n < (64u << 20) / sizeof(struct folio) && folio_pool_get(&p) != FOLIO_NIL)
			n++;
		/* the whole reservation would be 256 times the limit */
		_exit(n == (64u << 20) / sizeof(struct folio) &&
		      (uint64_t)p.max_chunks * FOLIO_CHUNK * sizeof(struct folio) < (512ull << 20) ?
		      0 : 1);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	   "under an address space limit the pool reserves less and still grows (status %d)",
	   status);
}

int main(void)
{
	test_random_ops();
	test_counts();
	test_pool();
	test_pool_bound();
	test_pool_limited();
	return done_testing();
}
