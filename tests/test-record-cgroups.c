/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * record's memory cgroup names: the hierarchy picked from the mounts, a cgroup found by the
 * inode number of its directory in a tree made here, one FT_CGROUP per id in the trace, and
 * its limits read from v1 and v2 files, written again only when they change.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/record.h"
#include "scratch.h"
#include "tap.h"

static __u64 inode_of(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 ? st.st_ino : 0;
}

static void test_hierarchy(void)
{
	struct ft_mount m[] = {
		{ .fstype = "cgroup", .dir = "/sys/fs/cgroup/cpu", .options = "rw,cpu" },
		{ .fstype = "cgroup2", .dir = "/sys/fs/cgroup/unified", .options = "rw" },
		{ .fstype = "cgroup", .dir = "/sys/fs/cgroup/memory", .options = "rw,memory" },
		{ .fstype = "cgroup", .dir = "/x", .options = "rw,name=memory_not" },
	};
	struct ft_mounts ms = { .m = m, .n = 2 };
	struct ft_cgroups c;

	ft_cgroups_init(&c, &ms);
	is_str(c.root, "/sys/fs/cgroup/unified", "no memory hierarchy of its own: the unified one");
	ok(!c.v1, "... said to be v2");
	ft_cgroups_free(&c);
	ms.n = 4;
	ft_cgroups_init(&c, &ms);
	is_str(c.root, "/sys/fs/cgroup/memory", "the v1 memory controller's hierarchy first");
	ok(c.v1, "... said to be v1");
	ft_cgroups_free(&c);
	m[2].options = "rw,memoryx";
	ft_cgroups_init(&c, &ms);
	is_str(c.root, "/sys/fs/cgroup/unified", "an option that only starts with memory is not it");
	ft_cgroups_free(&c);
	ft_cgroups_init(&c, NULL);
	ok(c.root == NULL, "no mounts: no hierarchy");
	ft_cgroups_free(&c);
}

static void test_find(const char *root)
{
	char path[256], sub[512];

	ok(ft_cgroup_find(root, inode_of(root), path, sizeof(path)), "the root is found");
	is_str(path, "/", "the root is \"/\"");
	snprintf(sub, sizeof(sub), "%s/a/b/c", root);
	ok(ft_cgroup_find(root, inode_of(sub), path, sizeof(path)), "a cgroup three levels down");
	is_str(path, "/a/b/c", "... by its path under the root");
	snprintf(sub, sizeof(sub), "%s/z", root);
	ok(ft_cgroup_find(root, inode_of(sub), path, sizeof(path)), "a sibling of a");
	is_str(path, "/z", "... by its own path, nothing of a's left in it");
	snprintf(sub, sizeof(sub), "%s/a/file", root);
	ok(!ft_cgroup_find(root, inode_of(sub), path, sizeof(path)), "a file is no cgroup");
	ok(!ft_cgroup_find(root, 0, path, sizeof(path)), "id 0 is unknown");
	ok(!ft_cgroup_find(NULL, 1, path, sizeof(path)), "no hierarchy: nothing found");
	snprintf(sub, sizeof(sub), "%s/a/b/c", root);
	ok(!ft_cgroup_find(root, inode_of(sub), path, 5), "a path too long to hold: not found");
}

/* Each record of type in the trace at path, as format_line makes a line of it, into out. */
static void read_lines(const char *trace, __u16 type,
		       int (*format_line)(char *buf, size_t len, const struct ft_hdr *h),
		       char *out, size_t len)
{
	struct ft_error err;
	struct ft_reader *r = ft_reader_open(trace, &err);
	const struct ft_hdr *h;
	size_t used = 0;

	out[0] = '\0';
	if (!r)
		return;
	while (ft_reader_next(r, &h, &err) == FT_READ_MORE)
		if (h->type == type && used < len)
			used += (size_t)format_line(out + used, len - used, h);
	ft_reader_close(r);
}

/* An FT_CGROUP as "id:flags:path". */
static int cgroup_line(char *buf, size_t len, const struct ft_hdr *h)
{
	const struct ft_cgroup *c = (const void *)h;

	return snprintf(buf, len, "%llu:%u:%.*s\n", (unsigned long long)c->id, c->flags,
			(int)c->path_len, ft_cgroup_path(c));
}

/* An FT_CGROUP_LIMITS as "id max high low min soft", the limits that may be none in hex. */
static int limits_line(char *buf, size_t len, const struct ft_hdr *h)
{
	const struct ft_cgroup_limits *l = (const void *)h;

	return snprintf(buf, len, "%llu %llx %llx %llu %llu %llx\n", (unsigned long long)l->id,
			(unsigned long long)l->max, (unsigned long long)l->high,
			(unsigned long long)l->low, (unsigned long long)l->min,
			(unsigned long long)l->soft);
}

static void rm_file(const char *dir, const char *name)
{
	char path[1024];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	unlink(path);
}

/* Limits as cgroup v2 and v1 write them: "max", bytes, v1's unlimited page counter. */
static void test_read_limits(const char *dir)
{
	struct ft_cgroup_limits l;

	put_file(dir, "memory.max", "67108864\n");
	put_file(dir, "memory.high", "max\n");
	put_file(dir, "memory.low", "1048576\n");
	ft_cgroup_read_limits(dir, false, &l);
	is_u64(l.max, 64u << 20, "v2 memory.max in bytes");
	is_u64(l.high, FT_LIMIT_NONE, "v2 memory.high \"max\": none");
	is_u64(l.low, 1u << 20, "v2 memory.low");
	is_u64(l.min, 0, "v2 memory.min missing: 0");
	is_u64(l.soft, FT_LIMIT_NONE, "v2 has no soft limit");
	put_file(dir, "memory.limit_in_bytes", "9223372036854771712\n");
	put_file(dir, "memory.soft_limit_in_bytes", "134217728\n");
	ft_cgroup_read_limits(dir, true, &l);
	is_u64(l.max, FT_LIMIT_NONE, "v1's unlimited page counter: none");
	is_u64(l.soft, 128u << 20, "v1 soft limit");
	is_u64(l.high, FT_LIMIT_NONE, "v1 has no memory.high");
	ok(l.low == 0 && l.min == 0, "nor low and min");
	for (const char *n = "memory.max\0memory.high\0memory.low\0memory.limit_in_bytes\0"
			     "memory.soft_limit_in_bytes\0"; *n; n += strlen(n) + 1)
		rm_file(dir, n);
}

/* A cgroup's limits at its naming, then only when a sample finds them changed. */
static void test_limit_changes(const char *root, const char *trace)
{
	struct ft_mount m = { .fstype = "cgroup2", .dir = (char *)root, .options = "rw" };
	struct ft_mounts ms = { .m = &m, .n = 1 };
	struct ft_error err;
	struct ft_writer *w = ft_writer_open(trace, 0600, &err);
	struct ft_cgroups c;
	char dir[512], got[512], want[512];
	__u64 id;

	snprintf(dir, sizeof(dir), "%s/z", root);
	id = inode_of(dir);
	put_file(dir, "memory.max", "268435456\n");
	ft_cgroups_init(&c, &ms);
	is_i64(ft_cgroups_name(&c, w, 1, id, &err), 0, "a v2 cgroup named, its limits read");
	is_i64(ft_cgroups_check_limits(&c, w, 2, &err), 0, "a sample, nothing changed");
	put_file(dir, "memory.max", "67108864\n");
	is_i64(ft_cgroups_check_limits(&c, w, 3, &err), 0, "a sample after memory.max changed");
	is_i64(ft_cgroups_check_limits(&c, w, 4, &err), 0, "and one more");
	ok(ft_writer_close(w, &err) == 0, "trace closed");
	ft_cgroups_free(&c);
	read_lines(trace, FT_CGROUP_LIMITS, limits_line, got, sizeof(got));
	snprintf(want, sizeof(want), "%llu 10000000 ffffffffffffffff 0 0 ffffffffffffffff\n"
		 "%llu 4000000 ffffffffffffffff 0 0 ffffffffffffffff\n", (unsigned long long)id,
		 (unsigned long long)id);
	is_str(got, want, "limits at the naming and at the change, not at the samples between");
	rm_file(dir, "memory.max");
}

static void test_records(const char *root, const char *trace)
{
	struct ft_mount m = { .fstype = "cgroup", .dir = (char *)root, .options = "rw,memory" };
	struct ft_mounts ms = { .m = &m, .n = 1 };
	struct ft_error err;
	struct ft_writer *w = ft_writer_open(trace, 0600, &err);
	struct ft_cgroups c;
	char sub[512], got[512], want[512];
	__u64 b, gone = 999999999;

	snprintf(sub, sizeof(sub), "%s/a/b", root);
	b = inode_of(sub);
	ft_cgroups_init(&c, &ms);
	ok(w != NULL, "trace opened");
	is_i64(ft_cgroups_name(&c, w, 1, b, &err), 0, "a cgroup named");
	is_i64(ft_cgroups_name(&c, w, 2, b, &err), 0, "the same again: nothing written");
	is_i64(ft_cgroups_name(&c, w, 3, 0, &err), 0, "id 0: nothing written");
	is_i64(ft_cgroups_name(&c, w, 4, gone, &err), 0, "a cgroup no longer there");
	ok(ft_writer_close(w, &err) == 0, "trace closed");
	ft_cgroups_free(&c);
	read_lines(trace, FT_CGROUP, cgroup_line, got, sizeof(got));
	snprintf(want, sizeof(want), "%llu:%u:/a/b\n%llu:%u:\n", (unsigned long long)b, FT_CG_V1,
		 (unsigned long long)gone, FT_CG_V1);
	is_str(got, want, "one FT_CGROUP per id, the one gone with an empty path");
}

int main(void)
{
	char root[] = "/tmp/ft-cgroups.XXXXXX", p[600], trace[600];
	FILE *f;

	if (!mkdtemp(root))
		tap_skip_all("cannot make a directory in /tmp");
	snprintf(p, sizeof(p), "%s/a", root);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/a/b", root);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/a/b/c", root);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/z", root);
	mkdir(p, 0700);
	snprintf(p, sizeof(p), "%s/a/file", root);
	f = fopen(p, "w");
	if (f)
		fclose(f);
	snprintf(trace, sizeof(trace), "%s.ftr", root);

	test_hierarchy();
	test_find(root);
	test_records(root, trace);
	snprintf(p, sizeof(p), "%s/a/b", root);
	test_read_limits(p);
	test_limit_changes(root, trace);
	snprintf(p, sizeof(p), "%s/a/file", root);

	unlink(trace);
	unlink(p);
	for (const char *d = "/a/b/c\0/a/b\0/a\0/z\0"; *d; d += strlen(d) + 1) {
		snprintf(p, sizeof(p), "%s%s", root, d);
		rmdir(p);
	}
	rmdir(root);
	return tap_done();
}
