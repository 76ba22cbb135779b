/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <zlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "trace/inflate.h"

struct ft_inflater {
	enum ft_inflate_engine engine;
	z_stream zs;
	bool zs_ready;
#ifdef HAVE_LIBDEFLATE
	struct libdeflate_decompressor *ld;
#endif
};

struct ft_inflater *ft_inflater_new(enum ft_inflate_engine engine)
{
	struct ft_inflater *inf;

#ifdef HAVE_LIBDEFLATE
	if (engine == FT_INFLATE_BEST)
		engine = FT_INFLATE_LIBDEFLATE;
#else
	if (engine == FT_INFLATE_LIBDEFLATE)
		return NULL;
	engine = FT_INFLATE_ZLIB;
#endif
	inf = calloc(1, sizeof(*inf));
	if (!inf)
		return NULL;
	inf->engine = engine;
#ifdef HAVE_LIBDEFLATE
	if (engine == FT_INFLATE_LIBDEFLATE && !(inf->ld = libdeflate_alloc_decompressor())) {
		free(inf);
		return NULL;
	}
#endif
	return inf;
}

void ft_inflater_free(struct ft_inflater *inf)
{
	if (!inf)
		return;
	if (inf->zs_ready)
		inflateEnd(&inf->zs);
#ifdef HAVE_LIBDEFLATE
	if (inf->ld)
		libdeflate_free_decompressor(inf->ld);
#endif
	free(inf);
}

const char *ft_inflater_name(const struct ft_inflater *inf)
{
	return inf->engine == FT_INFLATE_LIBDEFLATE ? "libdeflate" : "zlib";
}

/* CMF/FLG: deflate, window <= 32 KiB, no preset dictionary, check bits right. */
static bool zlib_header_ok(const unsigned char *z)
{
	return (z[0] & 0x0f) == Z_DEFLATED && (z[0] >> 4) <= 7 && !(z[1] & 0x20) &&
	       ((unsigned)z[0] << 8 | z[1]) % 31 == 0;
}

static bool inflate_with_zlib(struct ft_inflater *inf, const unsigned char *body, size_t len,
			      unsigned char *out, size_t raw)
{
	z_stream *zs = &inf->zs;

	if (!inf->zs_ready) {
		if (inflateInit2(zs, -MAX_WBITS) != Z_OK)
			return false;
		inf->zs_ready = true;
	} else if (inflateReset(zs) != Z_OK) {
		return false;
	}
	zs->next_in = (Bytef *)body;
	zs->avail_in = (uInt)len;
	zs->next_out = out;
	zs->avail_out = (uInt)raw;
	/* Z_STREAM_END with every raw byte out and only the Adler-32 trailer left unread. */
	return inflate(zs, Z_FINISH) == Z_STREAM_END && zs->total_out == raw && zs->avail_in == 4;
}

bool ft_inflate(struct ft_inflater *inf, const unsigned char *z, size_t stored,
		unsigned char *out, size_t raw)
{
	if (stored < 6 || !zlib_header_ok(z))
		return false;
#ifdef HAVE_LIBDEFLATE
	if (inf->engine == FT_INFLATE_LIBDEFLATE) {
		size_t in_used, out_len;

		return libdeflate_deflate_decompress_ex(inf->ld, z + 2, stored - 2, out, raw,
							&in_used, &out_len) == LIBDEFLATE_SUCCESS &&
		       out_len == raw && in_used == stored - 6;
	}
#endif
	return inflate_with_zlib(inf, z + 2, stored - 2, out, raw);
}
