// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The files processes traced with -p have mapped when the recording starts. Their pages are
 * cached, often mapped and active, yet the trace names a file only at its first event, and a
 * program whose text is all mapped may fault none of it again: without a probe here the
 * replay would not know those pages occupy memory. Each regular file of /proc/PID/maps is
 * named and its start state probed as a file met later is (startcache.c), once; a file that is
 * not the mapped one any more (renamed over, deleted) is left out.
 */
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "record/record.h"

/* One line of /proc/PID/maps: its inode and path, when a regular file. */
static bool mapped_file(char *line, unsigned long long *ino, char **path)
{
	int n = 0;
	char *p;

	if (sscanf(line, "%*s %*s %*s %*s %llu %n", ino, &n) < 1 || !*ino || !n)
		return false;
	p = line + n;
	p[strcspn(p, "\n")] = '\0';
	*path = p;
	return p[0] == '/';
}

static int start_maps_of(struct ft_consumer *c, __u32 pid)
{
	char name[64], line[4096 + 128];
	unsigned long long ino;
	struct stat st;
	char *path;
	FILE *f;
	int rc = 0;

	snprintf(name, sizeof(name), "/proc/%u/maps", pid);
	f = fopen(name, "re");
	if (!f)
		return 0;	/* gone, or not ours to read: its faults name its files */
	while (rc == 0 && fgets(line, sizeof(line), f)) {
		if (!mapped_file(line, &ino, &path) || stat(path, &st) < 0 ||
		    !S_ISREG(st.st_mode) || st.st_ino != ino ||
		    (c->dev_set && ft_kdev(st.st_dev) != c->dev))
			continue;
		rc = ft_consumer_file_at_start(c, path, ft_kdev(st.st_dev), st.st_ino,
					       (__u64)st.st_size, ft_now_mono_ns());
	}
	fclose(f);
	return rc;
}

int ft_start_maps(struct ft_consumer *c, const __u32 *pids, size_t npids)
{
	for (size_t i = 0; i < npids; i++)
		if (start_maps_of(c, pids[i]) < 0)
			return -1;
	return 0;
}
