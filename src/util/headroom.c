// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "util/headroom.h"

/* MemAvailable in bytes; false when /proc/meminfo does not say. */
static bool mem_available(uint64_t *bytes)
{
	FILE *f = fopen("/proc/meminfo", "re");
	char line[128];
	uint64_t kb;
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "MemAvailable: %" SCNu64 " kB", &kb) == 1;
	fclose(f);
	if (found)
		*bytes = kb << 10;
	return found;
}

/* The address space this process maps now (VmSize), from /proc/self/statm. */
static bool address_space_used(uint64_t *bytes)
{
	FILE *f = fopen("/proc/self/statm", "re");
	uint64_t pages;
	bool ok;
	long psz = sysconf(_SC_PAGESIZE);

	if (!f)
		return false;
	ok = fscanf(f, "%" SCNu64, &pages) == 1 && psz > 0;
	fclose(f);
	if (ok)
		*bytes = pages * (uint64_t)psz;
	return ok;
}

/* What RLIMIT_AS leaves; false when there is no limit. */
static bool address_space_left(uint64_t *bytes)
{
	struct rlimit rl;
	uint64_t used = 0;

	if (getrlimit(RLIMIT_AS, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
		return false;
	address_space_used(&used);
	*bytes = rl.rlim_cur > used ? rl.rlim_cur - used : 0;
	return true;
}

bool ft_memory_headroom(struct ft_headroom *h)
{
	uint64_t avail = 0, left = 0;
	bool have_avail = mem_available(&avail), have_left = address_space_left(&left);

	if (have_left && (!have_avail || left < avail)) {
		*h = (struct ft_headroom){ .bytes = left, .bound = "RLIMIT_AS" };
		return true;
	}
	if (have_avail)
		*h = (struct ft_headroom){ .bytes = avail, .bound = "MemAvailable" };
	return have_avail;
}
