// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Model unit tests for mapped files: fault-around (filemap_map_pages) maps cached pages only
 * and never reads, a fault miss reads ra_pages around the fault with its last quarter marked,
 * a fault on the marked folio reads ahead, and mmap_miss stops read-around after
 * MMAP_LOTSAMISS (100) misses more than hits.
 */
#include <stddef.h>

#include "model/model.h"
#include "model-harness.h"
#include "tap.h"

#define PAGE	4096ull

static struct model *make(unsigned ra_pages)
{
	struct model_config c;
	const char *why = NULL;
	struct model *m;

	model_config_defaults(&c);
	c.memory_bytes = 4096 * PAGE;
	c.readahead = true;
	c.ra_pages = ra_pages;
	m = model_new(&c, &why);
	if (!m)
		diag("model_new: %s", why);
	return m;
}

static void mmap_rd(struct model *m, uint64_t page, uint64_t pages, bool around,
		    uint64_t isize_pages)
{
	struct model_access a = { .op = MODEL_MMAP_READ, .pos = page * PAGE, .len = pages * PAGE,
				  .isize = isize_pages * PAGE, .fault_around = around };

	model_access(m, &a);
}

static void test_fault_around(void)
{
	struct model *m = make(32);
	struct model_metrics x;

	mmap_rd(m, 0, 16, true, 128);
	x = metrics(m);
	is_u64(x.inserted_pages, 0, "fault-around on an empty cache reads nothing");
	is_u64(x.read_io_bytes, 0, "no read I/O");
	is_u64(x.read_requests, 0, "and maps nothing: no request");

	mmap_rd(m, 5, 1, false, 128);	/* read-around: max(0, 5 - 16) = 0, 32 pages */
	x = metrics(m);
	is_u64(x.inserted_pages, 32, "a fault miss reads ra_pages around the fault");
	is_u64(x.read_ios, 1, "in one I/O");

	mmap_rd(m, 16, 16, true, 128);	/* page 24 = 0 + 32 - 32/4 carries PG_readahead */
	x = metrics(m);
	is_u64(x.inserted_pages, 32, "fault-around reads nothing");
	is_u64(x.faultaround_pages, 15, "15 pages mapped: the marked page is left to the fault");
	is_u64(x.read_bytes, PAGE, "the application read the fault's page: the mapping is no read");
	is_u64(x.read_hit_requests, 0, "nor a request");

	mmap_rd(m, 24, 1, false, 128);	/* the fault on the marked page reads ahead */
	x = metrics(m);
	is_u64(x.inserted_pages, 64, "async readahead: the next 32 pages");
	is_u64(x.read_hit_requests + x.read_waited_requests, 1,
	       "the fault found its page cached (in flight at time 0)");
	is_u64(x.read_requests, 2, "two requests: the two faults");
	model_free(m);
}

static void test_mmap_miss(void)
{
	const uint64_t eof = 1000 + 100 * 110;
	struct model *m = make(4);
	uint64_t before;

	for (uint64_t i = 0; i < 100; i++)
		mmap_rd(m, 1000 + 100 * i, 1, false, eof);
	is_u64(metrics(m).inserted_pages, 400, "100 misses: 4 pages read around each");
	mmap_rd(m, 1000 + 100 * 100, 1, false, eof);
	is_u64(metrics(m).inserted_pages, 401, "the 101st miss reads only its page");

	/* fault-around maps the 4 pages around the first fault: mmap_miss 101 - 4 = 97 */
	mmap_rd(m, 998, 4, true, eof);
	before = metrics(m).inserted_pages;
	mmap_rd(m, 1000 + 100 * 101, 1, false, eof);
	is_u64(metrics(m).inserted_pages - before, 4, "mapped pages paid back: read-around again");
	model_free(m);
}

int main(void)
{
	test_fault_around();
	test_mmap_miss();
	return done_testing();
}
