// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The folio orders of the start state (src/model/filemap/startstate.c): each clean run of a
 * file's cached pages read in from the file's first page as cat(1) reads it (the window
 * doubled by POSIX_FADV_SEQUENTIAL, read(2)s of 128 KiB) through the model's readahead, what
 * it read outside the runs dropped. A 64 MiB file on ext4 (6.18: large folios up to order 9),
 * read_ahead_kb 8192 (2048 pages, 4096 doubled), io_pages 1024, the 6.17 rule, by hand from
 * mm/readahead.c (get_init_ra_size(), get_next_ra_size(), page_cache_async_ra()'s
 * ra->order += 2 and its alignment of the window's end, page_cache_ra_order()):
 *   window [0, 128): get_init_ra_size(32, 4096) = 128, order 0: 128 base pages;
 *   [128, 640): 4 * 128, order 2: 128 folios; [640, 1664): 1024, order 4: 64;
 *   [1664, 3712): 2048, order 6: 32; [3712, 7680): 4096 cut to end at a multiple of 256,
 *   order 8, the first folio lowered to its index's alignment: 1 of order 7 and 15 of order 8;
 *   then order 9 (the largest), windows cut to 3584 and 3072 pages, then 2048 to the end:
 *   7 + 6 + 4 = 17 folios.
 * The same orders cat(1) gave on this project's 6.18 host (a cold read inserted them, and the
 * deletes of a warm copy showed them). A run with a hole where one order-9 folio was (reclaim
 * took it) has the same folios but that one; a lone page far from the start, a base page; on
 * ext4 of 6.12 (no large folios) every folio is a base page.
 */
#include <string.h>

#include "model/instance.h"
#include "model-harness.h"
#include "tap.h"

#define MiB	(1024ull * 1024)
#define FILE_PAGES	16384ull	/* 64 MiB */

struct orders {
	uint64_t n[MODEL_MAX_ORDER + 1];
	uint64_t folios, pages;
};

static struct model *make(const struct model_device *d)
{
	struct model_config c;

	model_config_defaults(&c);
	c.order = 9;
	c.memory_bytes = 1024 * MiB;
	c.ra_rule = RA_RULE_6_17;
	c.start_cache = START_CACHE_RECORDED;
	c.devices = d;
	c.ndevices = 1;
	return checked_model(&c);
}

/* file 0: pages [first, first + n) cached at the start */
static void run(struct model *m, uint64_t first, uint64_t n)
{
	struct model_access a = { .ts = 1, .op = MODEL_START_CACHE, .pos = first, .len = n,
				  .isize = FILE_PAGES * 4096, .device = 0 };

	model_access(m, &a);
}

/* The folios of file 0 once the start state is in (an access of another file ends it). */
static struct orders start_folios(struct model *m)
{
	struct orders o;
	uint32_t id;

	op_on(m, 2, MODEL_READ, 1, 0, 0, 4096, 4096);
	memset(&o, 0, sizeof(o));
	for (id = model_file(m, 0)->folios; id != FOLIO_NIL;
	     id = folio_at(&m->pool, id)->file_next) {
		const struct folio *f = folio_at(&m->pool, id);

		o.n[f->order]++;
		o.folios++;
		o.pages += folio_nr_pages(f);
	}
	return o;
}

static struct model_device ext4(unsigned release)
{
	struct model_device d = test_device("ext4", release, 4096);

	d.ra_pages = 2048;
	d.io_pages = 1024;
	return d;
}

static void test_whole(void)
{
	struct model_device d = ext4(6018);
	struct model *m = make(&d);
	struct orders o;

	run(m, 0, FILE_PAGES);
	o = start_folios(m);
	is_u64(o.pages, FILE_PAGES, "a file cached whole: all its pages");
	is_u64(o.folios, 385, "in 385 folios");
	is_u64(o.n[0], 128, "128 base pages (the first window)");
	is_u64(o.n[2], 128, "128 of order 2");
	is_u64(o.n[4], 64, "64 of order 4");
	is_u64(o.n[6], 32, "32 of order 6");
	is_u64(o.n[7], 1, "1 of order 7 (a window's start aligned to 128 pages)");
	is_u64(o.n[8], 15, "15 of order 8");
	is_u64(o.n[9], 17, "17 of order 9");
	is_u64(metrics(m).start_cache_pages, FILE_PAGES, "counted as the start state's");
	is_u64(metrics(m).insertions, 1, "not as the trace's insertions (the other file's page)");
	model_free(m);
}

static void test_hole(void)
{
	struct model_device d = ext4(6018);
	struct model *m = make(&d);
	struct orders o;

	run(m, 0, 9728);
	run(m, 10240, FILE_PAGES - 10240);
	o = start_folios(m);
	is_u64(o.pages, FILE_PAGES - 512, "a hole of one order-9 folio: the rest cached");
	is_u64(o.folios, 384, "the same folios but that one");
	is_u64(o.n[0] + o.n[2] + o.n[4] + o.n[6], 352, "the ramp's small ones all there");
	is_u64(o.n[9], 16, "16 of order 9");
	model_free(m);
}

static void test_lone_page(void)
{
	struct model_device d = ext4(6018);
	struct model *m = make(&d);
	struct orders o;

	run(m, 10000, 1);
	o = start_folios(m);
	is_u64(o.folios, 1, "a lone page in the middle: one folio");
	is_u64(o.n[0], 1, "a base page");
	is_u64(metrics(m).start_cache_pages, 1, "and nothing the reader read around it");
	model_free(m);
}

static void test_no_large_folios(void)
{
	struct model_device d = ext4(6012);
	struct model *m = make(&d);
	struct orders o;

	run(m, 0, FILE_PAGES);
	o = start_folios(m);
	is_u64(o.n[0], FILE_PAGES, "ext4 of 6.12, no large folios: 16384 base pages");
	model_free(m);
}

int main(void)
{
	test_whole();
	test_hole();
	test_lone_page();
	test_no_large_folios();
	return tap_done();
}
