// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of util/table.h: small tables from the heap, large ones mapped 2 MiB aligned,
 * every byte zeroed and writable; sizes that overflow refused; growth keeping the elements
 * there and zeroing the new ones, across the huge size. And the page cache index grown
 * through several large tables, every key still found.
 */
#include <stdint.h>
#include <stdlib.h>

#include "model/folio.h"
#include "model/filemap/pagecache.h"
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

/* Does t hold i + 1 in element i below n and zero from n to new_n? */
static bool grown_right(const uint64_t *t, size_t n, size_t new_n)
{
	for (size_t i = 0; i < new_n; i++)
		if (t[i] != (i < n ? i + 1 : 0))
			return false;
	return true;
}

/* 1 KiB -> 8 KiB (heap), -> 4 MiB (heap to mapping), -> 16 MiB (pages moved). */
static void test_grow(void)
{
	size_t sizes[] = { 128, 1024, 512 * 1024, 2 * 1024 * 1024 }, n = sizes[0];
	uint64_t *t = ft_table_alloc(n, sizeof(*t));

	for (size_t i = 0; i < n; i++)
		t[i] = i + 1;
	for (unsigned s = 1; s < 4 && t; s++) {
		uint64_t *g = ft_table_grow(t, n, sizes[s], sizeof(*t));

		if (!ok(g && grown_right(g, n, sizes[s]), "grown from %zu to %zu elements: kept "
			"and zeroed", n, sizes[s]))
			break;
		for (size_t i = n; i < sizes[s]; i++)
			g[i] = i + 1;
		t = g;
		n = sizes[s];
	}
	is_u64((uintptr_t)t & ((2ul << 20) - 1), 0, "the grown table starts on a 2 MiB boundary");
	ok(ft_table_grow(t, n, n, sizeof(*t)) == NULL, "growing to the same size is refused");
	ft_table_free(t, n, sizeof(*t));
}

/* 300000 folios: the index grows from 1024 slots to 1 Mi (16 MiB), past the huge size. */
static void test_pagecache_growth(void)
{
	const uint32_t n = 300000;
	struct pagecache pc;
	uint64_t lost = 0, after = 0;

	if (!ok(pagecache_init(&pc, 1), "init"))
		return;
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
	test_grow();
	test_pagecache_growth();
	return done_testing();
}
