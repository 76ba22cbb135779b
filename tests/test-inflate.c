/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Both inflate engines give the same bytes for good chunks and refuse damaged ones; what the
 * writer's deflate engine makes, zlib and libdeflate both inflate.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "tap.h"
#include "trace/deflate.h"
#include "trace/inflate.h"

#define RAW (1u << 20)

/* Trace-like bytes: repeating 64-byte records with a counter, as access records look. */
static void fill(unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)((i % 64) < 8 ? (i / 64) >> ((i % 8) * 8 % 32) : i % 64 * 7);
}

static void check_engine(enum ft_inflate_engine e, const char *name, const unsigned char *raw,
			 const unsigned char *z, size_t stored)
{
	struct ft_inflater *inf = ft_inflater_new(e);
	unsigned char *out = malloc(RAW), *bad = malloc(stored);
	bool refused_all = true;

	if (!inf) {
		tap_skip("%s engine not built", name);
		free(out);
		free(bad);
		return;
	}
	is_str(ft_inflater_name(inf), name, "engine name");
	ok(ft_inflate(inf, z, stored, out, RAW) && memcmp(out, raw, RAW) == 0,
	   "%s: a good chunk inflates to the original bytes", name);
	ok(ft_inflate(inf, z, stored, out, RAW) && memcmp(out, raw, RAW) == 0,
	   "%s: the engine is reusable", name);
	ok(!ft_inflate(inf, z, stored, out, RAW - 1), "%s: a raw size too small is refused", name);
	ok(!ft_inflate(inf, z, stored, out, RAW + 1), "%s: a raw size too large is refused", name);
	ok(!ft_inflate(inf, z, stored - 5, out, RAW), "%s: a cut stream is refused", name);
	memcpy(bad, z, stored);
	bad[0] = 0x79;	/* window 128 KiB: not a valid zlib header */
	ok(!ft_inflate(inf, bad, stored, out, RAW), "%s: a bad zlib header is refused", name);
	/* Flipped bits in the body: refused, or (deflate cannot always tell) never "good". */
	for (size_t off = 2; off < stored - 4; off += stored / 37) {
		memcpy(bad, z, stored);
		bad[off] ^= 0x10;
		if (ft_inflate(inf, bad, stored, out, RAW) && memcmp(out, raw, RAW) == 0)
			refused_all = false;
	}
	ok(refused_all, "%s: no damaged stream passes as the original", name);
	ft_inflater_free(inf);
	free(out);
	free(bad);
}

/* The writer's engine: a zlib stream either engine inflates, its CRC-32 zlib's. */
static void check_deflate(const unsigned char *raw)
{
	size_t cap = ft_deflate_bound(RAW), stored;
	unsigned char *z = malloc(cap), *out = malloc(RAW);
	struct ft_deflater *d = ft_deflater_new();

	stored = ft_deflate(d, raw, RAW, z, cap);
	ok(stored > 0 && stored < RAW / 4, "%s deflate: %zu bytes stored for %u", ft_deflater_name(),
	   stored, RAW);
	ok(ft_deflate_crc32(z, stored) == (__u32)crc32(0L, z, (uInt)stored),
	   "its CRC-32 is zlib's");
	for (int e = FT_INFLATE_ZLIB; e <= FT_INFLATE_LIBDEFLATE; e++) {
		struct ft_inflater *inf = ft_inflater_new(e);

		if (!inf) {
			tap_skip("libdeflate engine not built");
			continue;
		}
		ok(ft_inflate(inf, z, stored, out, RAW) && memcmp(out, raw, RAW) == 0,
		   "%s inflates it to the original bytes", ft_inflater_name(inf));
		ft_inflater_free(inf);
	}
	ft_deflater_free(d);
	free(z);
	free(out);
}

int main(void)
{
	unsigned char *raw = malloc(RAW);
	uLongf stored = compressBound(RAW);
	unsigned char *z = malloc(stored);

	fill(raw, RAW);
	if (compress2(z, &stored, raw, RAW, 1) != Z_OK)
		tap_skip_all("compress2 failed");
	check_engine(FT_INFLATE_ZLIB, "zlib", raw, z, stored);
	check_engine(FT_INFLATE_LIBDEFLATE, "libdeflate", raw, z, stored);
	{
		struct ft_inflater *best = ft_inflater_new(FT_INFLATE_BEST);

#ifdef HAVE_LIBDEFLATE
		is_str(ft_inflater_name(best), "libdeflate", "the best engine is libdeflate");
#else
		is_str(ft_inflater_name(best), "zlib", "without libdeflate the engine is zlib");
#endif
		ft_inflater_free(best);
	}
	check_deflate(raw);
	free(raw);
	free(z);
	return done_testing();
}
