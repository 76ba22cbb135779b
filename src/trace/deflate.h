/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whole-chunk compression into a zlib stream (RFC 1950), the one format every reader inflates.
 * Two engines, chosen at build time: libdeflate's, about twice as fast at the same level on
 * trace records (recording spends most of its own CPU here), when configure found it; zlib's
 * compress2() otherwise. Both write level 1: recording must keep up with the kernel.
 */
#ifndef FT_TRACE_DEFLATE_H
#define FT_TRACE_DEFLATE_H

#include <linux/types.h>
#include <stddef.h>

struct ft_deflater;

struct ft_deflater *ft_deflater_new(void);
void ft_deflater_free(struct ft_deflater *d);
/* Room the output of ft_deflate() needs for raw bytes in, whatever the engine. */
size_t ft_deflate_bound(size_t raw);
/*
 * Compresses raw bytes at in into out (ft_deflate_bound(raw) bytes). Returns the stored size,
 * 0 on failure.
 */
size_t ft_deflate(struct ft_deflater *d, const void *in, size_t raw, void *out, size_t cap);
/*
 * The same in stored blocks, nothing compressed: for bytes deflate would gain little on at
 * a high cost to every reader (packed accesses, trace/pack.h).
 */
size_t ft_deflate_store(const void *in, size_t raw, void *out, size_t cap);
/* CRC-32 (the gzip polynomial, as zlib's crc32()) of the stored bytes: the chunk header's check. */
__u32 ft_deflate_crc32(const void *buf, size_t len);
const char *ft_deflater_name(void);

#endif
