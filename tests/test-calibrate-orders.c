// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The model's per-file settings calibration uses: a file's largest order caps its readahead
 * and write folios while other files keep the configured order; readahead off makes a miss
 * read only what it asks.
 */
#include <stdint.h>
#include <string.h>

#include "model/model.h"
#include "tap.h"

#define MIB (1ull << 20)

static struct model *new_model(const uint8_t *orders, const uint8_t *ra_off, uint32_t n)
{
	struct model_config cfg;
	const char *why = NULL;
	struct model *m;

	model_config_defaults(&cfg);
	cfg.order = 9;
	cfg.policy = FOLIO_POLICY_READAHEAD;
	cfg.ra_pages = 512;
	cfg.ra_rule = RA_RULE_6_17;
	cfg.memory_bytes = 256 * MIB;
	cfg.file_orders = orders;
	cfg.file_ra_off = ra_off;
	cfg.nfile_orders = n;
	m = model_new(&cfg, &why);
	ok(m != NULL, "model made%s%s", why ? ": " : "", why ? why : "");
	return m;
}

/* 8 MiB read front to back in 128 KiB reads. */
static void read_sequentially(struct model *m, uint32_t file, uint64_t *ts)
{
	for (uint64_t pos = 0; pos < 8 * MIB; pos += 128 << 10) {
		struct model_access a = { .ts = *ts += 1000, .file_id = file, .op = MODEL_READ,
					  .pos = pos, .len = 128 << 10, .isize = 8 * MIB };

		model_access(m, &a);
	}
}

static unsigned largest_order(const struct model_metrics *mx)
{
	unsigned o = 0;

	for (unsigned i = 0; i <= MODEL_MAX_ORDER; i++)
		if (mx->insertions_by_order[i])
			o = i;
	return o;
}

static void test_read_orders(void)
{
	static const uint8_t orders[] = { MODEL_ORDER_DEFAULT, 2 };
	struct model_metrics mx;
	uint64_t ts = 1;
	struct model *m;

	m = new_model(orders, NULL, 2);
	if (!m)
		return;
	read_sequentially(m, 1, &ts);
	model_metrics(m, &mx);
	is_u64(largest_order(&mx), 2, "file 1 capped at order 2");
	is_u64(mx.inserted_pages, 2048, "its 8 MiB cached");
	read_sequentially(m, 0, &ts);
	model_metrics(m, &mx);
	/*
	 * a sync window of 64 pages at order 0, then async windows of 128, 256 and 512 pages
	 * at orders 2, 4, 6 and on (6.17 keeps ra->order and aligns each window's end to it)
	 */
	is_u64(largest_order(&mx), 9, "file 0 grows past 2, to what its windows allow (9)");
	/* file ids past the table keep the configured order too */
	read_sequentially(m, 5, &ts);
	model_metrics(m, &mx);
	is_u64(mx.inserted_pages, 3 * 2048, "three files cached");
	model_free(m);
	is_u64(model_file_order(&(struct model_config){ .order = 4, .min_order = 1,
		.file_orders = orders, .nfile_orders = 2 }, 1), 2, "order 2 within [1, 4]");
	is_u64(model_file_order(&(struct model_config){ .order = 1, .file_orders = orders,
		.nfile_orders = 2 }, 1), 1, "capped by the configured order");
}

static void test_write_orders(void)
{
	static const uint8_t orders[] = { 3 };
	struct model_access a = { .ts = 10, .op = MODEL_WRITE, .pos = 0, .len = 2 * MIB,
				  .isize = 2 * MIB };
	struct model_metrics mx;
	struct model *m = new_model(orders, NULL, 1);

	if (!m)
		return;
	model_access(m, &a);
	model_metrics(m, &mx);
	/* a 2 MiB write asks for order 9 folios; the file's order 3 makes 64 of 32 KiB */
	is_u64(mx.insertions_by_order[3], 64, "a 2 MiB write: 64 order-3 folios");
	is_u64(mx.write_dirtied_folios, 64, "each dirtied once");
	is_u64(mx.write_dirtied_pages, 512, "512 pages dirtied");
	model_free(m);
}

static void test_readahead_off(void)
{
	static const uint8_t off[] = { 0, 1 };
	struct model_access a = { .ts = 10, .op = MODEL_READ, .pos = 0, .len = 4096,
				  .isize = 64 * MIB };
	struct model_metrics mx;
	struct model *m = new_model(NULL, off, 2);

	if (!m)
		return;
	a.file_id = 0;
	model_access(m, &a);
	model_metrics(m, &mx);
	/* get_init_ra_size(1, 512): 4 pages */
	is_u64(mx.inserted_pages, 4, "a 4 KiB read at 0: a 4-page initial window");
	a.file_id = 1;
	a.ts = 20;
	model_access(m, &a);
	model_metrics(m, &mx);
	is_u64(mx.inserted_pages, 5, "readahead off: the page asked for only");
	model_free(m);
}

int main(void)
{
	test_read_orders();
	test_write_orders();
	test_readahead_off();
	return done_testing();
}
