/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "import/textline.h"

/* Room for len bytes and a NUL in *buf, never more than a longest line needs. */
static int make_room(char **buf, size_t *cap, size_t len)
{
	size_t want = *cap ? *cap : 256;
	char *p;

	if (len + 1 <= *cap)
		return 0;
	if (len > TEXTLINE_MAX) {
		errno = EFBIG;
		return -1;
	}
	while (want < len + 1)
		want *= 2;
	if (want > TEXTLINE_MAX + 1)
		want = TEXTLINE_MAX + 1;
	p = realloc(*buf, want);
	if (!p)
		return -1;
	*buf = p;
	*cap = want;
	return 0;
}

int textline_read(FILE *in, char **buf, size_t *cap, char **line)
{
	size_t n = 0;
	int ch;

	if (make_room(buf, cap, 0))
		return -1;
	while ((ch = getc_unlocked(in)) != EOF && ch != '\n') {
		if (make_room(buf, cap, n + 1))
			return -1;
		(*buf)[n++] = (char)ch;
	}
	if (ch == EOF && n == 0)
		return 0;
	while (n > 0 && (*buf)[n - 1] == '\r')
		n--;
	(*buf)[n] = '\0';
	*line = *buf;
	return 1;
}

const char *skip_spaces(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

bool parse_u64_at(const char *s, int base, __u64 *v, const char **end)
{
	char *e;

	if (base == 16 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		s += 2;
	if (!isxdigit((unsigned char)*s) || (base == 10 && !isdigit((unsigned char)*s)))
		return false;
	errno = 0;
	*v = strtoull(s, &e, base);
	if (errno)
		return false;
	*end = e;
	return true;
}

bool parse_s64_at(const char *s, __s64 *v, const char **end)
{
	char *e;

	if (!(isdigit((unsigned char)*s) || (*s == '-' && isdigit((unsigned char)s[1]))))
		return false;
	errno = 0;
	*v = strtoll(s, &e, 10);
	if (errno)
		return false;
	*end = e;
	return true;
}

bool parse_seconds_ns(const char *s, __u64 *ns, const char **end)
{
	__u64 sec, frac = 0, scale = 1000000000ull;
	const char *p;

	if (!parse_u64_at(s, 10, &sec, &p) || sec > 18000000000ull)
		return false;
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++) {
			if (scale > 1) {
				scale /= 10;
				frac += (__u64)(*p - '0') * scale;
			}
		}
	}
	*ns = sec * 1000000000ull + frac;
	*end = p;
	return true;
}

bool parse_devno(const char *s, __u32 *dev, const char **end)
{
	__u64 maj, min;
	const char *p;

	if (!parse_u64_at(s, 10, &maj, &p) || *p != ':' || !parse_u64_at(p + 1, 10, &min, &p) ||
	    maj >= 4096 || min >= (1u << 20))
		return false;
	*dev = (__u32)(maj << 20 | min);
	*end = p;
	return true;
}

const char *find_field(const char *s, const char *key)
{
	size_t len = strlen(key);
	const char *p = s;

	while ((p = strstr(p, key)) != NULL) {
		if ((p == s || p[-1] == ' ' || p[-1] == '\t') && p[len] == '=')
			return p + len + 1;
		p += len;
	}
	return NULL;
}

bool field_u64(const char *s, const char *key, int base, __u64 *v)
{
	const char *p = find_field(s, key), *end;

	return p && parse_u64_at(p, base, v, &end);
}

bool field_s64(const char *s, const char *key, __s64 *v)
{
	const char *p = find_field(s, key), *end;

	return p && parse_s64_at(p, v, &end);
}
