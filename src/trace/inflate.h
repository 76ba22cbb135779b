/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whole-chunk inflation of a zlib stream (RFC 1950) whose integrity the chunk's CRC-32 already
 * vouches for: the 2-byte zlib header is checked, the deflate body inflated, and the stream's
 * Adler-32 over the inflated bytes (11x more of them than stored) not computed.
 * Two engines: zlib's inflate, always built, and libdeflate's, 3-4x faster on trace chunks,
 * used when configure found it.
 */
#ifndef FT_TRACE_INFLATE_H
#define FT_TRACE_INFLATE_H

#include <stdbool.h>
#include <stddef.h>

struct ft_inflater;

enum ft_inflate_engine {
	FT_INFLATE_BEST,	/* libdeflate when built with it, else zlib */
	FT_INFLATE_ZLIB,
	FT_INFLATE_LIBDEFLATE,	/* NULL from ft_inflater_new when not built with it */
};

struct ft_inflater *ft_inflater_new(enum ft_inflate_engine engine);
void ft_inflater_free(struct ft_inflater *inf);
/* True when stored bytes at z inflate to exactly raw bytes at out. */
bool ft_inflate(struct ft_inflater *inf, const unsigned char *z, size_t stored,
		unsigned char *out, size_t raw);
const char *ft_inflater_name(const struct ft_inflater *inf);

#endif
