/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "config.h"

#include <stdlib.h>
#include <zlib.h>
#ifdef HAVE_LIBDEFLATE
#include <libdeflate.h>
#endif

#include "trace/deflate.h"

#define LEVEL	1

struct ft_deflater {
#ifdef HAVE_LIBDEFLATE
	struct libdeflate_compressor *ld;
#else
	int unused;
#endif
};

struct ft_deflater *ft_deflater_new(void)
{
	struct ft_deflater *d = calloc(1, sizeof(*d));

#ifdef HAVE_LIBDEFLATE
	if (d && !(d->ld = libdeflate_alloc_compressor(LEVEL))) {
		free(d);
		return NULL;
	}
#endif
	return d;
}

void ft_deflater_free(struct ft_deflater *d)
{
	if (!d)
		return;
#ifdef HAVE_LIBDEFLATE
	libdeflate_free_compressor(d->ld);
#endif
	free(d);
}

/*
 * zlib's bound is what readers accept for a chunk (they refuse more): libdeflate's own bound
 * can be larger, so its output must fit the smaller of the two, or zlib does the chunk.
 */
size_t ft_deflate_bound(size_t raw)
{
	return compressBound((uLong)raw);
}

size_t ft_deflate(struct ft_deflater *d, const void *in, size_t raw, void *out, size_t cap)
{
	uLongf stored = (uLongf)cap;

#ifdef HAVE_LIBDEFLATE
	size_t n = libdeflate_zlib_compress(d->ld, in, raw, out, cap);

	if (n)
		return n;
#else
	(void)d;
#endif
	if (compress2(out, &stored, in, (uLong)raw, LEVEL) != Z_OK)
		return 0;
	return stored;
}

size_t ft_deflate_store(const void *in, size_t raw, void *out, size_t cap)
{
	uLongf stored = (uLongf)cap;

	if (compress2(out, &stored, in, (uLong)raw, Z_NO_COMPRESSION) != Z_OK)
		return 0;
	return stored;
}

__u32 ft_deflate_crc32(const void *buf, size_t len)
{
#ifdef HAVE_LIBDEFLATE
	return libdeflate_crc32(0, buf, len);
#else
	return (__u32)crc32(0L, buf, (uInt)len);
#endif
}

const char *ft_deflater_name(void)
{
#ifdef HAVE_LIBDEFLATE
	return "libdeflate";
#else
	return "zlib";
#endif
}
