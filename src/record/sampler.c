/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Periodic kernel counters, the ground truth a replay is checked against: /proc/vmstat,
 * /proc/meminfo (bytes), /proc/buddyinfo (free blocks per node/zone/order), /proc/pagetypeinfo
 * (the same per migratetype, and pageblocks per type), debugfs extfrag's indexes when debugfs
 * is mounted, MGLRU's switches (/sys/kernel/mm/lru_gen: enabled and min_ttl_ms) where the
 * kernel has them and, for a command run under --memory-limit, its memory cgroup's memory.stat
 * and usage.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "record/record.h"

struct sample_source {
	__u16 id;
	const char *path;
	int (*parse)(const char *text, struct ft_counter_list *l);
	/* a second file holding one number, sampled with the first under extra_name; or NULL */
	const char *extra_path, *extra_name;
	char *names_key;	/* names last written, joined: rewrite when they change */
	/* read, not yet written (ft_sampler_read()): its counters and when they were read */
	struct ft_counter_list read;
	__u64 read_ts;
	bool have_read;
};

struct ft_sampler {
	struct sample_source src[10];
	size_t nsrc;
	char *cg_stat, *cg_usage;	/* the cgroup's memory.stat and usage files, or NULL */
	char *buf;
	size_t cap;
};

void ft_counter_list_free(struct ft_counter_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->names[i]);
	free(l->names);
	free(l->values);
	memset(l, 0, sizeof(*l));
}

static int list_push(struct ft_counter_list *l, const char *name, __u64 v)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		char **names = realloc(l->names, cap * sizeof(*names));
		__u64 *values;

		if (!names)
			return -1;
		l->names = names;
		values = realloc(l->values, cap * sizeof(*values));
		if (!values)
			return -1;
		l->values = values;
		l->cap = cap;
	}
	l->names[l->n] = strdup(name);
	if (!l->names[l->n])
		return -1;
	l->values[l->n++] = v;
	return 0;
}

/* "name value" lines (vmstat, memory.stat). */
int ft_parse_vmstat(const char *text, struct ft_counter_list *l)
{
	char name[128];
	unsigned long long v;
	int used;

	while (sscanf(text, " %127s %llu%n", name, &v, &used) == 2) {
		if (list_push(l, name, v))
			return -1;
		text += used;
	}
	return 0;
}

/* "Name:   123 kB" lines; kB values are turned into bytes, bare numbers kept. */
int ft_parse_meminfo(const char *text, struct ft_counter_list *l)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		char line[256], name[128], unit[8] = "";
		unsigned long long v;
		size_t len = nl ? (size_t)(nl - text) : strlen(text);

		if (len >= sizeof(line))
			len = sizeof(line) - 1;
		memcpy(line, text, len);
		line[len] = '\0';
		if (sscanf(line, "%127[^:]: %llu %7s", name, &v, unit) >= 2) {
			if (strcmp(unit, "kB") == 0)
				v *= 1024;
			if (list_push(l, name, v))
				return -1;
		}
		if (!nl)
			break;
		text = nl + 1;
	}
	return 0;
}

/* "Node 0, zone   Normal   3 4 5 ..." -> "0/Normal/ORDER" = free blocks. */
int ft_parse_buddyinfo(const char *text, struct ft_counter_list *l)
{
	while (*text) {
		const char *nl = strchr(text, '\n');
		char zone[32], name[64];
		int node, used;
		unsigned long long v;
		const char *p;

		if (sscanf(text, "Node %d, zone %31s%n", &node, zone, &used) == 2) {
			p = text + used;
			for (int order = 0; (!nl || p < nl); order++) {
				int n;

				if (sscanf(p, " %llu%n", &v, &n) != 1 || (nl && p + n > nl))
					break;
				snprintf(name, sizeof(name), "%d/%s/%d", node, zone, order);
				if (list_push(l, name, v))
					return -1;
				p += n;
			}
		}
		if (!nl)
			break;
		text = nl + 1;
	}
	return 0;
}

/* A count as /proc/pagetypeinfo prints it: a number, or ">100000" where it stopped counting. */
static bool pagetype_count(const char **p, const char *end, unsigned long long *v)
{
	int n = 0;

	while (*p < end && (**p == ' ' || **p == '\t'))
		(*p)++;
	if (*p < end && **p == '>')
		(*p)++;
	if (*p >= end || sscanf(*p, "%llu%n", v, &n) != 1 || *p + n > end)
		return false;
	*p += n;
	return true;
}

/*
 * mm/vmstat.c pagetypeinfo_show(): "Page block order: 9", then per node, zone and type
 * "Node    0, zone   Normal, type      Movable  n0 n1 ..." (free blocks per order), then
 * "Number of blocks type  Unmovable Movable ..." and per zone "Node 0, zone Normal  b0 b1 ...".
 */
int ft_parse_pagetypeinfo(const char *text, struct ft_counter_list *l)
{
	char types[8][32];
	unsigned ntypes = 0;

	while (*text) {
		const char *nl = strchr(text, '\n'), *end = nl ? nl : text + strlen(text), *p;
		char zone[32], type[32], name[96];
		unsigned long long v;
		int node, used = 0;

		if (sscanf(text, "Page block order: %llu", &v) == 1) {
			if (list_push(l, "pageblock_order", v))
				return -1;
		} else if (strncmp(text, "Number of blocks type", 21) == 0) {
			p = text + 21;
			for (ntypes = 0; ntypes < 8 && p < end; ntypes++) {
				int n = 0;

				if (sscanf(p, " %31s%n", types[ntypes], &n) != 1 || p + n > end)
					break;
				p += n;
			}
		} else if (sscanf(text, "Node %d, zone %31[^,], type %31s%n", &node, zone, type,
				  &used) == 3) {
			p = text + used;
			for (int order = 0; pagetype_count(&p, end, &v); order++) {
				snprintf(name, sizeof(name), "%d/%.31s/%.31s/%d", node, zone, type, order);
				if (list_push(l, name, v))
					return -1;
			}
		} else if (ntypes && sscanf(text, "Node %d, zone %31s%n", &node, zone, &used) == 2) {
			p = text + used;
			for (unsigned t = 0; t < ntypes && pagetype_count(&p, end, &v); t++) {
				snprintf(name, sizeof(name), "%d/%.31s/%.31s/blocks", node, zone, types[t]);
				if (list_push(l, name, v))
					return -1;
			}
		}
		if (!nl)
			break;
		text = nl + 1;
	}
	return 0;
}

/* "Node 0, zone   Normal -1.000 0.012 ..." -> "0/Normal/ORDER" = thousandths + offset. */
int ft_parse_extfrag(const char *text, unsigned offset, struct ft_counter_list *l)
{
	while (*text) {
		const char *nl = strchr(text, '\n'), *end = nl ? nl : text + strlen(text), *p;
		char zone[32], name[64];
		int node, used = 0;

		if (sscanf(text, "Node %d, zone %31s%n", &node, zone, &used) == 2) {
			p = text + used;
			for (int order = 0; p < end; order++) {
				char *q;
				double d = strtod(p, &q);
				long long v;

				if (q == p || q > end)
					break;
				/* printed with three decimals: the thousandths are exact */
				v = llround(d * 1000) + (long long)offset;
				snprintf(name, sizeof(name), "%d/%s/%d", node, zone, order);
				if (list_push(l, name, v > 0 ? (__u64)v : 0))
					return -1;
				p = q;
			}
		}
		if (!nl)
			break;
		text = nl + 1;
	}
	return 0;
}

static int parse_unusable(const char *text, struct ft_counter_list *l)
{
	return ft_parse_extfrag(text, 0, l);
}

static int parse_extfrag_index(const char *text, struct ft_counter_list *l)
{
	return ft_parse_extfrag(text, 1000, l);
}

/* memory.stat plus the usage file as "usage_in_bytes". */
static int parse_cgroup_stat(const char *text, struct ft_counter_list *l)
{
	return ft_parse_vmstat(text, l);
}

/* /sys/kernel/mm/lru_gen/enabled: "0x0007", the MGLRU components switched on (0: off). */
static int parse_lru_gen(const char *text, struct ft_counter_list *l)
{
	return list_push(l, "enabled", strtoull(text, NULL, 16));
}

/* The cgroup's usage file: memory.usage_in_bytes (v1) or memory.current (v2). */
static char *cgroup_usage_path(const char *dir)
{
	char *p = NULL;

	if (asprintf(&p, "%s/memory.usage_in_bytes", dir) < 0)
		return NULL;
	if (access(p, R_OK) == 0)
		return p;
	free(p);
	if (asprintf(&p, "%s/memory.current", dir) < 0)
		return NULL;
	return p;
}

static void add_source(struct ft_sampler *s, __u16 id, const char *path,
		       int (*parse)(const char *text, struct ft_counter_list *l),
		       const char *extra_path, const char *extra_name)
{
	s->src[s->nsrc++] = (struct sample_source){ .id = id, .path = path, .parse = parse,
		.extra_path = extra_path, .extra_name = extra_name };
}

struct ft_sampler *ft_sampler_new(const char *cgroup_dir)
{
	struct ft_sampler *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	add_source(s, FT_SRC_VMSTAT, "/proc/vmstat", ft_parse_vmstat, NULL, NULL);
	add_source(s, FT_SRC_MEMINFO, "/proc/meminfo", ft_parse_meminfo, NULL, NULL);
	add_source(s, FT_SRC_BUDDYINFO, "/proc/buddyinfo", ft_parse_buddyinfo, NULL, NULL);
	add_source(s, FT_SRC_PAGETYPEINFO, "/proc/pagetypeinfo", ft_parse_pagetypeinfo, NULL,
		   NULL);
	add_source(s, FT_SRC_EXTFRAG_UNUSABLE, "/sys/kernel/debug/extfrag/unusable_index",
		   parse_unusable, NULL, NULL);
	add_source(s, FT_SRC_EXTFRAG_INDEX, "/sys/kernel/debug/extfrag/extfrag_index",
		   parse_extfrag_index, NULL, NULL);
	add_source(s, FT_SRC_LRU_GEN, "/sys/kernel/mm/lru_gen/enabled", parse_lru_gen,
		   "/sys/kernel/mm/lru_gen/min_ttl_ms", "min_ttl_ms");
	if (cgroup_dir) {
		if (asprintf(&s->cg_stat, "%s/memory.stat", cgroup_dir) < 0 ||
		    !(s->cg_usage = cgroup_usage_path(cgroup_dir))) {
			ft_sampler_free(s);
			return NULL;
		}
		add_source(s, FT_SRC_CGROUP, s->cg_stat, parse_cgroup_stat, s->cg_usage,
			   "usage_in_bytes");
	}
	return s;
}

void ft_sampler_free(struct ft_sampler *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nsrc; i++) {
		free(s->src[i].names_key);
		ft_counter_list_free(&s->src[i].read);
	}
	free(s->cg_stat);
	free(s->cg_usage);
	free(s->buf);
	free(s);
}

/* Whole small file into s->buf, NUL-terminated; false when it cannot be read. */
static bool slurp(struct ft_sampler *s, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t len = 0;
	ssize_t n;

	if (fd < 0)
		return false;
	for (;;) {
		if (len + 4096 + 1 > s->cap) {
			size_t cap = s->cap ? s->cap * 2 : 16384;
			char *b = realloc(s->buf, cap);

			if (!b) {
				close(fd);
				return false;
			}
			s->buf = b;
			s->cap = cap;
		}
		n = read(fd, s->buf + len, s->cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		len += (size_t)n;
	}
	close(fd);
	s->buf[len] = '\0';
	return n == 0;
}

static char *join_names(const struct ft_counter_list *l)
{
	size_t len = 1;
	char *key, *p;

	for (size_t i = 0; i < l->n; i++)
		len += strlen(l->names[i]) + 1;
	key = malloc(len);
	if (!key)
		return NULL;
	p = key;
	for (size_t i = 0; i < l->n; i++)
		p += sprintf(p, "%s\n", l->names[i]);
	*p = '\0';
	return key;
}

/* Reads a source into src->read; a source that cannot be read is skipped. */
static int read_source(struct ft_sampler *s, struct sample_source *src, struct ft_error *err)
{
	struct ft_counter_list *l = &src->read;

	ft_counter_list_free(l);
	*l = (struct ft_counter_list){ 0 };
	src->have_read = false;
	if (!slurp(s, src->path))
		return 0;
	src->read_ts = ft_now_mono_ns();
	if (src->parse(s->buf, l) ||
	    (src->extra_path && slurp(s, src->extra_path) &&
	     list_push(l, src->extra_name, strtoull(s->buf, NULL, 10)))) {
		ft_counter_list_free(l);
		ft_error_set(err, NULL, "%s: out of memory", src->path);
		return -1;
	}
	src->have_read = l->n > 0 && l->n <= UINT16_MAX;
	return 0;
}

/* Writes what read_source() read: its names first when they are new or changed. */
static int write_source(struct sample_source *src, struct ft_writer *w, struct ft_error *err)
{
	struct ft_counter_list *l = &src->read;
	char *key;
	int rc = 0;

	if (!src->have_read)
		return 0;
	src->have_read = false;
	key = join_names(l);
	if (!key)
		return -1;
	if (!src->names_key || strcmp(key, src->names_key) != 0) {
		rc = ft_writer_counter_names(w, src->read_ts, src->id, (__u16)l->n,
					     (const char *const *)l->names, err);
		free(src->names_key);
		src->names_key = key;
	} else {
		free(key);
	}
	if (!rc)
		rc = ft_writer_counters(w, src->read_ts, src->id, (__u16)l->n, l->values, err);
	return rc;
}

int ft_sampler_read(struct ft_sampler *s, struct ft_error *err)
{
	for (size_t i = 0; i < s->nsrc; i++)
		if (read_source(s, &s->src[i], err))
			return -1;
	return 0;
}

int ft_sampler_write(struct ft_sampler *s, struct ft_writer *w, struct ft_error *err)
{
	for (size_t i = 0; i < s->nsrc; i++)
		if (write_source(&s->src[i], w, err))
			return -1;
	return 0;
}

int ft_sampler_sample(struct ft_sampler *s, struct ft_writer *w, struct ft_error *err)
{
	return ft_sampler_read(s, err) || ft_sampler_write(s, w, err) ? -1 : 0;
}
