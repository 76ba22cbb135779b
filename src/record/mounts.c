/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Mounted filesystems from /proc/self/mountinfo, one entry per device: the host description
 * lists them, and the consumer puts a file's mount point in front of the path BPF walked up
 * to its filesystem root.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>

#include "record/record.h"

__u32 ft_kdev(unsigned long long udev)
{
	return (__u32)(major(udev) << 20 | minor(udev));
}

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape_octal(char *s)
{
	char *d = s;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*d++ = *s;
		}
	}
	*d = '\0';
}

static struct ft_mount *mounts_slot(struct ft_mounts *ms, __u32 dev, bool root)
{
	for (size_t i = 0; i < ms->n; i++) {
		if (ms->m[i].dev != dev)
			continue;
		if (!root || strcmp(ms->m[i].dir, "?") != 0)
			return NULL;	/* keep the first mount of the filesystem root */
		free(ms->m[i].fstype);
		free(ms->m[i].source);
		free(ms->m[i].dir);
		free(ms->m[i].options);
		return &ms->m[i];
	}
	if (ms->n % 64 == 0) {
		struct ft_mount *m = realloc(ms->m, (ms->n + 64) * sizeof(*m));

		if (!m)
			return NULL;
		ms->m = m;
	}
	return &ms->m[ms->n++];
}

/* Filesystems without file data worth describing in the host record. */
static bool is_pseudo_fs(const char *fstype)
{
	static const char *const pseudo[] = {
		"proc", "sysfs", "devpts", "cgroup", "cgroup2", "tracefs", "debugfs", "bpf",
		"securityfs", "pstore", "mqueue", "configfs", "fusectl", "binfmt_misc", "autofs",
		"nsfs", "efivarfs", "rpc_pipefs", "selinuxfs", "hugetlbfs",
	};

	for (size_t i = 0; i < sizeof(pseudo) / sizeof(pseudo[0]); i++)
		if (strcmp(fstype, pseudo[i]) == 0)
			return true;
	return false;
}

/* One mountinfo line: "ID PARENT MAJ:MIN ROOT DIR OPTS [TAGS...] - FSTYPE SOURCE SUPER". */
static int mounts_parse_line(struct ft_mounts *ms, char *line)
{
	char *f[6] = { 0 }, *save = NULL, *tok, *fstype = NULL, *source = NULL, *opts = NULL;
	unsigned maj, min;
	struct ft_mount *m;
	struct statvfs sv;
	int i = 0;

	for (tok = strtok_r(line, " \n", &save); tok; tok = strtok_r(NULL, " \n", &save)) {
		if (i < 6) {
			f[i++] = tok;
		} else if (strcmp(tok, "-") == 0) {
			fstype = strtok_r(NULL, " \n", &save);
			source = strtok_r(NULL, " \n", &save);
			opts = strtok_r(NULL, " \n", &save);
			break;
		}
	}
	if (i < 6 || !fstype || sscanf(f[2], "%u:%u", &maj, &min) != 2)
		return 0;
	unescape_octal(f[3]);
	unescape_octal(f[4]);
	m = mounts_slot(ms, maj << 20 | min, strcmp(f[3], "/") == 0);
	if (!m)
		return 0;
	m->dev = maj << 20 | min;
	m->fstype = strdup(fstype);
	/*
	 * A block device's source is its path. A virtual filesystem's source is a free-form label
	 * that names nothing on disk and may say more about the host than a trace should: use the
	 * filesystem type instead.
	 */
	m->source = strdup(source && source[0] == '/' ? source : fstype);
	/* A bind mount of a subdirectory: its dir is not the filesystem root. */
	m->dir = strdup(strcmp(f[3], "/") == 0 ? f[4] : "?");
	m->options = strdup(opts ? opts : "");
	m->block_size = 0;
	m->pseudo = is_pseudo_fs(fstype);
	if (strcmp(fstype, "autofs") != 0 && strcmp(f[3], "/") == 0 && statvfs(f[4], &sv) == 0)
		m->block_size = (__u32)sv.f_bsize;
	return m->fstype && m->source && m->dir && m->options ? 0 : -1;
}

int ft_mounts_load(struct ft_mounts *ms, struct ft_error *err)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char *line = NULL;
	size_t cap = 0;
	int rc = 0;

	ms->m = NULL;
	ms->n = 0;
	if (!f) {
		ft_error_set(err, NULL, "/proc/self/mountinfo: %s", strerror(errno));
		return -1;
	}
	while (rc == 0 && getline(&line, &cap, f) > 0)
		rc = mounts_parse_line(ms, line);
	free(line);
	fclose(f);
	if (rc)
		ft_error_set(err, NULL, "/proc/self/mountinfo: out of memory");
	return rc;
}

void ft_mounts_free(struct ft_mounts *ms)
{
	for (size_t i = 0; i < ms->n; i++) {
		free(ms->m[i].fstype);
		free(ms->m[i].source);
		free(ms->m[i].dir);
		free(ms->m[i].options);
	}
	free(ms->m);
	ms->m = NULL;
	ms->n = 0;
}

const struct ft_mount *ft_mounts_find(const struct ft_mounts *ms, __u32 dev)
{
	for (size_t i = 0; i < ms->n; i++)
		if (ms->m[i].dev == dev)
			return &ms->m[i];
	return NULL;
}
