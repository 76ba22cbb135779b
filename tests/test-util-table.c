// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of util/table.h: small tables from the heap, large ones mapped 2 MiB aligned,
 * every byte zeroed and writable; sizes that overflow refused. And the page cache index grown
 * through several large tables, every key still found.
 */
#include <stdint.h>
#include <stdlib.h>

#include "model/folio.h"
#include "model/pagecache.h"
#include "tap.h"
#include "util/table.h"

/* Is every byte of [p, p + n) zero? Writes one to each page after reading it. */
static bool zeroed_and_writable(unsigned char *p, size_t n)
{
	bool zero = true;

	for (size_t i = 0; i < n; i++)
		if (p[i])
			zero = false;
	for (size_t i = 0; i < n; i += 4096)
		p[i] = 1;
	p[n - 1] = 1;
	return zero;
}

static void test_sizes(void)
{
	size_t big = (3ul << 20) + 24;	/* not a multiple of the huge page */
	unsigned char *s = ft_table_alloc(1000, 16), *b = ft_table_alloc(big / 8, 8);

	ok(s && zeroed_and_writable(s, 16000), "a small table is zeroed");
	ok(b && zeroed_and_writable(b, big / 8 * 8), "a 3 MiB table is zeroed and writable");
	is_u64((uintptr_t)b & ((2ul << 20) - 1), 0, "a large table starts on a 2 MiB boundary");
	ft_table_free(s, 1000, 16);
	ft_table_free(b, big / 8, 8);
	ok(ft_table_alloc(SIZE_MAX / 8, 16) == NULL, "an overflowing size is refused");
	ok(ft_table_alloc(1ul << 56, 16) == NULL, "2^60 bytes, past any address space, is refused");
	ft_table_free(NULL, 1, 1);
	ok(1, "freeing NULL does nothing");
}

/* 300000 folios: the index grows from 1024 slots to 1 Mi (16 MiB), past the huge size. */
static void test_pagecache_growth(void)
{
	const uint32_t n = 300000;
	struct pagecache pc;
	uint64_t lost = 0, after = 0;

	ok(pagecache_init(&pc, 1), "init");
	for (uint32_t i = 0; i < n; i++)
		if (!pagecache_insert(&pc, i % 3, (uint64_t)i * 7, i))
			lost++;
	is_u64(lost, 0, "every insert succeeded");
	ok((pc.mask + 1) * sizeof(*pc.slots) >= (2ul << 20), "the index outgrew 2 MiB");
	for (uint32_t i = 0; i < n; i++)
		if (pagecache_get(&pc, i % 3, (uint64_t)i * 7) != i)
			lost++;
	is_u64(lost, 0, "every folio is found after the growth");
	for (uint32_t i = 0; i < n; i += 2)
		pagecache_remove(&pc, i % 3, (uint64_t)i * 7);
	for (uint32_t i = 0; i < n; i++)
		if (pagecache_get(&pc, i % 3, (uint64_t)i * 7) != (i % 2 ? i : FOLIO_NIL))
			after++;
	is_u64(after, 0, "removals leave exactly the others");
	is_u64(pc.count, n / 2, "count");
	pagecache_release(&pc);
}

int main(void)
{
	test_sizes();
	test_pagecache_growth();
	return done_testing();
}
