// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * png-colours FILE.png: prints "WIDTH HEIGHT COLOURS", the distinct colours of an 8-bit RGB or
 * RGBA, non-interlaced PNG (what a browser's screenshot is), counted up to 65536. The report
 * test holds a screenshot against it: a blank page has one colour, a rendered one hundreds.
 * Exit 1 with a message on anything else.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#define MAX_COLOURS	65536
#define SET_SIZE	(4 * MAX_COLOURS)	/* open addressing, a power of two */

struct png {
	uint32_t width, height;
	unsigned channels;		/* 3: RGB, 4: RGBA */
	unsigned char *z;		/* the IDAT chunks, concatenated */
	size_t zlen;
};

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int fail(const char *path, const char *why)
{
	fprintf(stderr, "png-colours: %s: %s\n", path, why);
	return 1;
}

/* The header and the compressed image of the file's bytes d[0..n). NULL: fine, else why not. */
static const char *parse(const unsigned char *d, size_t n, struct png *p)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	size_t off = 8;

	if (n < 8 || memcmp(d, sig, 8))
		return "not a PNG";
	while (off + 12 <= n) {
		uint32_t len = be32(d + off);
		const unsigned char *type = d + off + 4, *data = d + off + 8;

		if (len > n - off - 12)
			return "a chunk runs past the end";
		if (!memcmp(type, "IHDR", 4)) {
			if (len < 13)
				return "short IHDR";
			p->width = be32(data);
			p->height = be32(data + 4);
			if (data[8] != 8 || (data[9] != 2 && data[9] != 6) || data[12] != 0)
				return "not 8-bit RGB or RGBA without interlace";
			p->channels = data[9] == 6 ? 4 : 3;
		} else if (!memcmp(type, "IDAT", 4)) {
			unsigned char *z = realloc(p->z, p->zlen + len);

			if (!z)
				return "out of memory";
			memcpy(z + p->zlen, data, len);
			p->z = z;
			p->zlen += len;
		} else if (!memcmp(type, "IEND", 4)) {
			return p->channels && p->zlen ? NULL : "no IHDR or no IDAT";
		}
		off += 12 + (size_t)len;
	}
	return "no IEND";
}

static unsigned paeth(unsigned a, unsigned b, unsigned c)
{
	int pa = abs((int)b - (int)c), pb = abs((int)a - (int)c);
	int pc = abs((int)a + (int)b - 2 * (int)c);

	return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/* Undoes each row's filter in place: row r is 1 + stride bytes, its filter byte first. */
static const char *unfilter(unsigned char *img, const struct png *p, size_t stride)
{
	unsigned bpp = p->channels;

	for (uint32_t r = 0; r < p->height; r++) {
		unsigned char *row = img + r * (stride + 1), *x = row + 1;
		/* the row above, unfiltered already */
		const unsigned char *up = r ? row - stride : NULL;

		for (size_t i = 0; i < stride; i++) {
			unsigned a = i >= bpp ? x[i - bpp] : 0, b = up ? up[i] : 0;
			unsigned c = up && i >= bpp ? up[i - bpp] : 0;

			switch (row[0]) {
			case 0:
				break;
			case 1:
				x[i] += a;
				break;
			case 2:
				x[i] += b;
				break;
			case 3:
				x[i] += (a + b) / 2;
				break;
			case 4:
				x[i] += paeth(a, b, c);
				break;
			default:
				return "bad row filter";
			}
		}
	}
	return NULL;
}

/* Distinct colours of the unfiltered rows, counted up to MAX_COLOURS. */
static unsigned count_colours(const unsigned char *img, const struct png *p, size_t stride)
{
	uint32_t *set = calloc(SET_SIZE, sizeof(*set));
	unsigned n = 0;

	if (!set)
		return 0;
	for (uint32_t r = 0; r < p->height && n < MAX_COLOURS; r++) {
		const unsigned char *x = img + r * (stride + 1) + 1;

		for (uint32_t c = 0; c < p->width && n < MAX_COLOURS; c++, x += p->channels) {
			/* +1: 0 marks a free slot */
			uint32_t v = ((uint32_t)x[0] << 16 | (uint32_t)x[1] << 8 | x[2]) + 1;
			uint32_t h = (v * 2654435761u) & (SET_SIZE - 1);

			while (set[h] && set[h] != v)
				h = (h + 1) & (SET_SIZE - 1);
			if (!set[h]) {
				set[h] = v;
				n++;
			}
		}
	}
	free(set);
	return n;
}

int main(int argc, char **argv)
{
	struct png p = { 0 };
	unsigned char *d, *img;
	const char *why;
	size_t n, stride;
	uLongf out;
	FILE *f;
	long size;

	if (argc != 2)
		return fail("usage", "png-colours FILE.png");
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		return fail(argv[1], "cannot read");
	d = malloc((size_t)size + 1);
	n = d ? fread(d, 1, (size_t)size, f) : 0;
	fclose(f);
	if (!d || n != (size_t)size)
		return fail(argv[1], "cannot read");
	if ((why = parse(d, n, &p)))
		return fail(argv[1], why);
	if (!p.width || !p.height || p.width > 16384 || p.height > 65536)
		return fail(argv[1], "size out of range");
	stride = (size_t)p.width * p.channels;
	out = (uLongf)((stride + 1) * p.height);
	img = malloc(out);
	if (!img || uncompress(img, &out, p.z, (uLong)p.zlen) != Z_OK ||
	    out != (stride + 1) * p.height)
		return fail(argv[1], "the image data does not inflate to its size");
	if ((why = unfilter(img, &p, stride)))
		return fail(argv[1], why);
	printf("%u %u %u\n", p.width, p.height, count_colours(img, &p, stride));
	free(img);
	free(p.z);
	free(d);
	return 0;
}
