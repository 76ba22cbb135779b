/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "util/escape.h"

/* Line separators and the bidirectional controls that can make shown text read otherwise. */
static bool is_format_control(unsigned cp)
{
	return (cp >= 0x200e && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

/*
 * Bytes of the UTF-8 character at s (at most n bytes there) when it is valid, shortest form,
 * not a surrogate and not a control character (C1 controls are U+0080..U+009F); 0 otherwise.
 */
static size_t utf8_printable(const unsigned char *s, size_t n)
{
	unsigned cp, need;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	need = s[0] >= 0xf0 ? 3 : s[0] >= 0xe0 ? 2 : 1;
	if (n < need + 1)
		return 0;
	cp = s[0] & (0x3fu >> need);
	for (unsigned i = 1; i <= need; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3fu);
	}
	if ((need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp < 0xa0 || is_format_control(cp))
		return 0;
	return need + 1;
}

/*
 * The next piece of s[i..n) as it is shown: *piece points at it (in s or in tmp) and its
 * length is returned; *used is how many bytes of s it stands for.
 */
static size_t next_piece(const unsigned char *s, size_t n, char tmp[5], const char **piece,
			 size_t *used)
{
	size_t k;

	if (s[0] == '\\') {
		*piece = "\\\\";
		*used = 1;
		return 2;
	}
	if (s[0] >= 0x20 && s[0] < 0x7f) {
		*piece = (const char *)s;
		*used = 1;
		return 1;
	}
	k = utf8_printable(s, n);
	if (k) {
		*piece = (const char *)s;
		*used = k;
		return k;
	}
	snprintf(tmp, 5, "\\x%02x", s[0]);
	*piece = tmp;
	*used = 1;
	return 4;
}

static size_t bounded_len(const char *s, size_t max)
{
	return s ? strnlen(s, max) : 0;
}

char *ft_escape(char *buf, size_t len, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = bounded_len(s, max), out = 0;

	if (!len)
		return buf;
	while (n) {
		const char *piece;
		char tmp[5];
		size_t used, k = next_piece(p, n, tmp, &piece, &used);

		if (out + k >= len)
			break;
		memcpy(buf + out, piece, k);
		out += k;
		p += used;
		n -= used;
	}
	buf[out] = '\0';
	return buf;
}

void ft_fputs_escaped(FILE *f, const char *s, size_t max)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t n = bounded_len(s, max);

	while (n) {
		const char *piece;
		char tmp[5];
		size_t used, k = next_piece(p, n, tmp, &piece, &used);

		fwrite(piece, 1, k, f);
		p += used;
		n -= used;
	}
}
