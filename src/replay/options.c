/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "replay/options.h"
#include "util.h"

bool parse_order_list(const char *s, unsigned orders[REPLAY_MAX_CONFIGS], unsigned *n,
		      const char **why)
{
	char item[32];
	unsigned count = 0;
	uint64_t v;

	if (!s || !*s) {
		*why = "expected a list of orders like 0,4,9";
		return false;
	}
	while (*s) {
		size_t len = strcspn(s, ",");

		if (len == 0 || len >= sizeof(item)) {
			*why = "expected a list of orders like 0,4,9";
			return false;
		}
		memcpy(item, s, len);
		item[len] = '\0';
		if (!parse_u64_range(item, 0, MODEL_MAX_ORDER, &v, why)) {
			*why = "orders are whole numbers from 0 to 10";
			return false;
		}
		for (unsigned i = 0; i < count; i++)
			if (orders[i] == v) {
				*why = "order listed twice";
				return false;
			}
		orders[count++] = (unsigned)v;
		s += len;
		if (*s == ',' && !*++s) {
			*why = "expected a list of orders like 0,4,9";
			return false;
		}
	}
	*n = count;
	return true;
}

/* "KEY=NUMBER" at s (up to a comma): the number into *v. */
static bool parse_device_pair(const char *s, size_t len, const char *key, double max, double *v,
			      const char **why)
{
	size_t klen = strlen(key);
	char num[32];

	if (len <= klen + 1 || strncmp(s, key, klen) != 0 || s[klen] != '=' ||
	    len - klen - 1 >= sizeof(num))
		return false;
	memcpy(num, s + klen + 1, len - klen - 1);
	num[len - klen - 1] = '\0';
	return parse_double_range(num, 0, max, v, why);
}

bool parse_device(const char *s, double *latency_us, double *bandwidth_mbps, const char **why)
{
	const char *comma;
	double lat = -1, bw = -1;

	/* the named classes are the model's, so one table serves every user */
	if (s && model_device_preset(s, latency_us, bandwidth_mbps))
		return true;
	*why = "expected nvme, sata-ssd, hdd, nfs or lat=US,bw=MBPS";
	if (!s || !(comma = strchr(s, ',')))
		return false;
	if (!parse_device_pair(s, (size_t)(comma - s), "lat", 1e9, &lat, why) ||
	    !parse_device_pair(comma + 1, strlen(comma + 1), "bw", 1e9, &bw, why)) {
		*why = "expected nvme, sata-ssd, hdd, nfs or lat=US,bw=MBPS";
		return false;
	}
	if (bw <= 0) {
		*why = "bandwidth must be above 0 MB/s";
		return false;
	}
	*latency_us = lat;
	*bandwidth_mbps = bw;
	return true;
}

bool parse_centisecs(const char *s, uint64_t *ns, const char **why)
{
	uint64_t cs;
	const char *p;

	for (p = s; p && isdigit((unsigned char)*p); p++)
		;
	if (s && *s && !*p) {
		if (!parse_u64_range(s, 0, UINT64_MAX / 10000000, &cs, why))
			return false;
		*ns = cs * 10000000;
		return true;
	}
	return parse_duration_ns(s, ns, why);
}

bool parse_block_size(const char *s, unsigned *out, const char **why)
{
	uint64_t v;

	if (!parse_size(s, &v, why))
		return false;
	if (v < 512 || v > 65536 || (v & (v - 1))) {
		*why = "block size must be a power of two from 512 to 64K";
		return false;
	}
	*out = (unsigned)v;
	return true;
}
