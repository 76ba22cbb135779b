/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/parse.h"

/* Leading digits of s as an unsigned; *end past them. False on none or overflow. */
static bool parse_digits(const char *s, uint64_t *out, const char **end, const char **why)
{
	uint64_t v = 0;

	if (!isdigit((unsigned char)*s)) {
		*why = "expected a non-negative number";
		return false;
	}
	for (; isdigit((unsigned char)*s); s++) {
		unsigned d = (unsigned)(*s - '0');

		if (v > (UINT64_MAX - d) / 10) {
			*why = "number too large";
			return false;
		}
		v = v * 10 + d;
	}
	*out = v;
	*end = s;
	return true;
}

/*
 * The unit after a size's number: K, M, G, T, P, E (any case), alone or as KiB, MiB...: binary
 * multiples, as the kernel's own sizes are; B or nothing: bytes. Returns the shift, or -1 with
 * *why set. "GB"-style suffixes are refused: in SI they mean powers of 1000, which no size here
 * is, and taking them as binary would be a silent 7% surprise.
 */
static int size_unit(const char *end, const char **why)
{
	static const char units[] = "BKMGTPE";
	const char *u;
	unsigned shift;

	if (*end == '\0')
		return 0;
	u = strchr(units, toupper((unsigned char)*end));
	if (!u) {
		*why = "unknown size unit (use K, M, G or T, or KiB, MiB, GiB, TiB: binary)";
		return -1;
	}
	shift = 10 * (unsigned)(u - units);
	end++;
	if (shift && (end[0] == 'i' || end[0] == 'I') && (end[1] == 'B' || end[1] == 'b'))
		end += 2;
	else if (shift && (end[0] == 'B' || end[0] == 'b') && end[1] == '\0') {
		*why = "decimal (SI) units like GB are not taken: use G or GiB (binary, 2^30) "
		       "or bytes";
		return -1;
	}
	if (*end != '\0') {
		*why = "junk after the size";
		return -1;
	}
	return (int)shift;
}

bool parse_size(const char *s, uint64_t *out, const char **why)
{
	const char *end, *frac = NULL;
	uint64_t v, part;
	double f = 0;
	int shift;

	if (!s || !parse_digits(s, &v, &end, why)) {
		if (s && !isdigit((unsigned char)*s))
			*why = "not a size (a number, with K, M, G or T for binary units)";
		return false;
	}
	if (*end == '.') {
		/* a plain decimal fraction, digits only: 1.5G */
		frac = ++end;
		while (isdigit((unsigned char)*end))
			end++;
		if (end == frac) {
			*why = "expected digits after the decimal point";
			return false;
		}
	}
	shift = size_unit(end, why);
	if (shift < 0)
		return false;
	if (frac) {
		for (const char *p = end; p > frac; p--)
			f = (f + (p[-1] - '0')) / 10;
		if (f != 0 && shift == 0) {
			*why = "a size in bytes is a whole number (1.5 takes a unit: 1.5K)";
			return false;
		}
	}
	if (shift && v > (UINT64_MAX >> shift)) {
		*why = "size too large";
		return false;
	}
	/* the fraction of the unit, to the nearest byte */
	part = (uint64_t)llround(ldexp(f, shift));
	if ((v << shift) > UINT64_MAX - part) {
		*why = "size too large";
		return false;
	}
	*out = (v << shift) + part;
	return true;
}

bool parse_u64_range(const char *s, uint64_t min, uint64_t max, uint64_t *out, const char **why)
{
	const char *end;
	uint64_t v;

	*why = "expected a whole number";
	if (!s || !parse_digits(s, &v, &end, why))
		return false;
	if (*end != '\0') {
		*why = "expected a whole number";
		return false;
	}
	if (v < min || v > max) {
		*why = "out of range";
		return false;
	}
	*out = v;
	return true;
}

/*
 * A plain decimal number at s, digits with at most one '.': strtod() alone would also take
 * "0x10", "1e3", "inf" and leading spaces, which no size or count here accepts either.
 * Returns its value with *end past it, or false when s does not start with one.
 */
static bool parse_decimal(const char *s, double *out, const char **end)
{
	const char *p = s;
	char *stop;
	bool digits = false;

	while (isdigit((unsigned char)*p)) {
		p++;
		digits = true;
	}
	if (*p == '.')
		for (p++; isdigit((unsigned char)*p); p++)
			digits = true;
	if (!digits)
		return false;
	errno = 0;
	*out = strtod(s, &stop);
	/* strtod() stops where the scan did unless the number went on (hex, exponent) */
	if (stop != p || errno || !isfinite(*out))
		return false;
	*end = p;
	return true;
}

bool parse_double_range(const char *s, double min, double max, double *out, const char **why)
{
	const char *end;
	double v;

	if (!s || !parse_decimal(s, &v, &end) || *end != '\0') {
		*why = "expected a decimal number";
		return false;
	}
	if (v < min || v > max) {
		*why = "out of range";
		return false;
	}
	*out = v;
	return true;
}

bool parse_duration_ns(const char *s, uint64_t *out, const char **why)
{
	static const struct {
		const char *name;
		double ns;
	} units[] = {
		{ "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 },
		{ "m", 60e9 }, { "h", 3600e9 },
	};
	const char *end;
	double v;

	if (!s || !parse_decimal(s, &v, &end)) {
		*why = "expected a duration like 10, 1.5s, 500ms";
		return false;
	}
	for (unsigned i = 0; i < sizeof(units) / sizeof(units[0]); i++) {
		if (strcmp(end, units[i].name) == 0) {
			double ns = v * units[i].ns;

			if (ns >= 1.8e19) {
				*why = "duration too long";
				return false;
			}
			*out = (uint64_t)llround(ns);
			return true;
		}
	}
	*why = "unknown duration unit (use ns, us, ms, s, m or h)";
	return false;
}

const char *format_bytes(uint64_t bytes, char *buf, unsigned len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	unsigned u = 0;

	while (v >= 1024 && u < 6) {
		v /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%llu B", (unsigned long long)bytes);
	else
		snprintf(buf, len, "%.1f %s", v, units[u]);
	return buf;
}
