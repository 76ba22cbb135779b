/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "replay/files.h"
#include "replay/sweep.h"
#include "trace/trace.h"
#include "util/hash.h"
#include "util/parse.h"

bool memory_arg_is_sweep(const char *s)
{
	return s && (strchr(s, ',') || strstr(s, "..") || strchr(s, '%'));
}

/* One size or share: "256M" or "5%" (a share of the working set). */
static bool parse_point(const char *s, size_t len, struct memory_point *p, const char **why)
{
	char item[64];

	if (len == 0 || len >= sizeof(item)) {
		*why = "expected sizes like 64M,256M,1G, a range like 64M..16G:64M or "
		       "64M..16G/100, or shares of the working set like 5%";
		return false;
	}
	memcpy(item, s, len);
	item[len] = '\0';
	memset(p, 0, sizeof(*p));
	if (item[len - 1] == '%') {
		item[len - 1] = '\0';
		if (!parse_double_range(item, 0, SWEEP_MAX_PERCENT, &p->percent, why))
			return false;
		if (!(p->percent > 0)) {
			*why = "a share of the working set must be above 0%";
			return false;
		}
		p->is_percent = true;
		return true;
	}
	if (!parse_size(item, &p->bytes, why))
		return false;
	if (!p->bytes) {
		*why = "a memory size must be above 0";
		return false;
	}
	return true;
}

static bool add_point(struct memory_list *l, const struct memory_point *p, const char **why)
{
	if (l->n >= SWEEP_MAX_POINTS) {
		*why = "more than " "1000" " memory sizes";
		return false;
	}
	l->v[l->n++] = *p;
	l->any_percent |= p->is_percent;
	return true;
}

/* The value of a point: bytes, or the share in percent. */
static double point_value(const struct memory_point *p)
{
	return p->is_percent ? p->percent : (double)p->bytes;
}

static struct memory_point point_at(const struct memory_point *lo, double v)
{
	struct memory_point p = *lo;

	if (p.is_percent)
		p.percent = v;
	else
		p.bytes = (uint64_t)llround(v);
	return p;
}

/*
 * A round step near raw: 1, 2 or 5 times a power of ten of the largest binary unit not above
 * it (B, KiB, MiB, GiB, TiB), or of percent for shares: sizes a reader can compare at a
 * glance (100 MiB, 200 MiB), not 170.7 MiB and 277.3 MiB.
 */
static double round_step(double raw, bool percent)
{
	double unit = 1, mant, pow10, m;

	while (!percent && unit < 1099511627776.0 && unit * 1024 <= raw)
		unit *= 1024;
	mant = raw / unit;
	pow10 = pow(10, floor(log10(mant)));
	m = mant / pow10;
	/* the nearest on a log scale: the bounds are the geometric means of 1, 2, 5, 10 */
	m = m < 1.414 ? 1 : m < 3.162 ? 2 : m < 7.071 ? 5 : 10;
	if (!percent && m * pow10 * unit < 1)
		return 1;
	return m * pow10 * unit;
}

/*
 * "A..B/N": about N sizes, the ends and the multiples of a round step between them; a
 * multiple within a quarter step of an end is left out, the end is its size.
 */
static bool add_round_points(struct memory_list *l, const struct memory_point *lo, double a,
			     double b, unsigned count, const char **why)
{
	double step = round_step((b - a) / (count - 1), lo->is_percent);
	struct memory_point p = point_at(lo, a);

	if (!add_point(l, &p, why))
		return false;
	for (double k = ceil(a / step); k * step < b - step / 4; k++) {
		if (k * step < a + step / 4)
			continue;
		p = point_at(lo, k * step);
		if (!add_point(l, &p, why))
			return false;
	}
	p = point_at(lo, b);
	return a == b || add_point(l, &p, why);
}

/* "A..B:STEP", "A..B:xF", "A..B/N" (the part after A.. is at rest). */
static bool parse_range(const char *s, size_t len, struct memory_list *l, const char **why)
{
	const char *dots = strstr(s, "..");
	size_t alen = (size_t)(dots - s), rest;
	const char *tail, *sep;
	struct memory_point lo, hi, step = { 0 };
	double a, b, count = 0, factor = 0;
	char num[32];

	if (!parse_point(s, alen, &lo, why))
		return false;
	tail = dots + 2;
	rest = len - alen - 2;
	sep = memchr(tail, ':', rest);
	if (!sep)
		sep = memchr(tail, '/', rest);
	if (!sep) {
		*why = "a range needs a step (64M..16G:64M, 1G..16G:x2) or a count (64M..16G/100)";
		return false;
	}
	if (!parse_point(tail, (size_t)(sep - tail), &hi, why))
		return false;
	if (lo.is_percent != hi.is_percent) {
		*why = "a range is either of sizes or of shares of the working set";
		return false;
	}
	a = point_value(&lo);
	b = point_value(&hi);
	if (a > b) {
		*why = "a range must go from the smaller to the larger size";
		return false;
	}
	rest = len - (size_t)(sep + 1 - s);
	if (rest == 0 || rest >= sizeof(num)) {
		*why = "a range needs a step (64M..16G:64M, 1G..16G:x2) or a count (64M..16G/100)";
		return false;
	}
	memcpy(num, sep + 1, rest);
	num[rest] = '\0';
	if (*sep == '/') {
		uint64_t n;

		if (!parse_u64_range(num, 2, SWEEP_MAX_POINTS, &n, why)) {
			*why = "a range's count must be 2 to 1000 sizes";
			return false;
		}
		count = (double)n;
	} else if (num[0] == 'x') {
		if (!parse_double_range(num + 1, 0, 1e6, &factor, why) || !(factor > 1)) {
			*why = "a range's factor must be above 1 (x2 doubles)";
			return false;
		}
	} else if (!parse_point(num, rest, &step, why)) {
		return false;
	} else if (step.is_percent != lo.is_percent) {
		*why = "a range's step is of the same kind as its ends (64M..1G:64M, 1%..50%:1%)";
		return false;
	}
	if (count)
		return add_round_points(l, &lo, a, b, (unsigned)count, why);
	for (double v = a; v <= b * (1 + 1e-9);) {
		struct memory_point p = point_at(&lo, v);

		if (!add_point(l, &p, why))
			return false;
		v = factor ? v * factor : v + point_value(&step);
	}
	return true;
}

bool parse_memory_list(const char *s, struct memory_list *l, const char **why)
{
	memset(l, 0, sizeof(*l));
	if (!s || !*s) {
		*why = "expected sizes like 64M,256M,1G";
		return false;
	}
	while (*s) {
		size_t len = strcspn(s, ",");
		const char *dots = strstr(s, "..");
		struct memory_point p;

		if (dots && (size_t)(dots - s) < len) {
			if (!parse_range(s, len, l, why))
				return false;
		} else if (!parse_point(s, len, &p, why) || !add_point(l, &p, why)) {
			return false;
		}
		s += len;
		if (*s == ',' && !*++s) {
			*why = "expected sizes like 64M,256M,1G";
			return false;
		}
	}
	return true;
}

static int cmp_point(const void *a, const void *b)
{
	uint64_t x = ((const struct memory_point *)a)->bytes;
	uint64_t y = ((const struct memory_point *)b)->bytes;

	return x < y ? -1 : x > y;
}

bool memory_list_resolve(struct memory_list *l, uint64_t working_set, unsigned page_size,
			 const char **why)
{
	unsigned n = 0;

	for (unsigned i = 0; i < l->n; i++) {
		struct memory_point *p = &l->v[i];

		if (p->is_percent)
			p->bytes = (uint64_t)((double)working_set * p->percent / 100.0);
		p->bytes -= p->bytes % page_size;
		if (!p->bytes) {
			*why = p->is_percent ?
			       "a share of the working set comes out below one page" :
			       "a memory size below one page";
			return false;
		}
	}
	qsort(l->v, l->n, sizeof(l->v[0]), cmp_point);
	for (unsigned i = 0; i < l->n; i++)
		if (!n || l->v[i].bytes != l->v[n - 1].bytes)
			l->v[n++] = l->v[i];
	l->n = n;
	return true;
}

/* ---- the working set ------------------------------------------------------------------------ */

/* A set of (file id, page) keys, open addressing. */
struct page_set {
	uint64_t *slot;		/* key + 1; 0 = empty */
	size_t cap, n;
};

static uint64_t page_key(uint32_t id, uint64_t page)
{
	return ((uint64_t)id << 40 ^ page) + 1;
}

static int page_set_add(struct page_set *s, uint64_t key)
{
	size_t i;

	if ((s->n + 1) * 2 > s->cap) {
		struct page_set bigger = { .cap = s->cap ? s->cap * 2 : 4096 };

		bigger.slot = calloc(bigger.cap, sizeof(*bigger.slot));
		if (!bigger.slot)
			return -1;
		for (size_t j = 0; j < s->cap; j++)
			if (s->slot[j])
				page_set_add(&bigger, s->slot[j]);
		free(s->slot);
		*s = bigger;
	}
	for (i = ft_hash64(key) & (s->cap - 1); s->slot[i]; i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == key)
			return 0;
	s->slot[i] = key;
	s->n++;
	return 0;
}

/* A damaged record (ft_access_problem()) is skipped here as replay skips it. */
static bool touches_pages(const struct ft_access *a)
{
	char why[160];

	if (ft_access_problem(a, why, sizeof(why)))
		return false;
	switch (a->op) {
	case FT_OP_READ:
	case FT_OP_WRITE:
		return a->len && !(a->flags & FT_AF_DIRECT);
	case FT_OP_MMAP_WRITE:
		return a->len != 0;
	case FT_OP_MMAP_READ:
		return a->len && a->arg != FT_MMAP_AROUND;
	default:
		return false;
	}
}

static int add_access(struct page_set *set, struct file_table *files, const struct ft_access *a,
		      unsigned shift)
{
	uint32_t id = file_table_id(files, a->dev, a->ino);
	uint64_t first = a->pos >> shift, last;

	if (id == FILE_ID_NONE || a->pos > UINT64_MAX - a->len)
		return id == FILE_ID_NONE ? -1 : 0;
	if (file_table_get(files, id)->no_page_cache)
		return 0;
	last = (a->pos + a->len - 1) >> shift;
	for (uint64_t p = first; p <= last; p++)
		if (page_set_add(set, page_key(id, p)) < 0)
			return -1;
	return 0;
}

int replay_working_set(const char *path, unsigned page_size, uint64_t *bytes,
		       uint64_t *nfiles, struct ft_error *err)
{
	struct ft_reader *r = ft_reader_open(path, err);
	struct page_set set = { 0 };
	struct file_table files;
	const struct ft_hdr *h;
	unsigned shift = 12;
	uint64_t uncached_files = 0;
	__u32 host_flags = 0;
	int ret;

	if (!r)
		return -1;
	file_table_init(&files);
	if (page_size)
		shift = (unsigned)__builtin_ctz(page_size);
	while ((ret = ft_reader_next(r, &h, err)) == FT_READ_MORE) {
		const struct ft_host *host = (const struct ft_host *)h;

		if (h->type == FT_HOST && !page_size && host->page_size &&
		    !(host->page_size & (host->page_size - 1)))
			shift = (unsigned)__builtin_ctz(host->page_size);
		if (h->type == FT_HOST)
			host_flags = host->flags;
		/* the replay leaves the files of procfs and sysfs out: so does its working set */
		if (h->type == FT_FILE) {
			const struct ft_file *f = (const struct ft_file *)h;
			uint32_t id;

			if (!ft_file_without_page_cache(host_flags, f))
				continue;
			id = file_table_id(&files, f->dev, f->ino);
			if (id == FILE_ID_NONE) {
				ft_error_set(err, path, "out of memory for the working set");
				ret = FT_READ_ERROR;
				break;
			}
			uncached_files += !file_table_get(&files, id)->no_page_cache;
			file_table_get(&files, id)->no_page_cache = true;
			continue;
		}
		if (h->type != FT_ACCESS)
			continue;
		/* every file an access names is a file of the model (its footprint) */
		if (!touches_pages((const struct ft_access *)h)) {
			const struct ft_access *a = (const struct ft_access *)h;

			if (file_table_id(&files, a->dev, a->ino) != FILE_ID_NONE)
				continue;
			ft_error_set(err, path, "out of memory for the working set");
			ret = FT_READ_ERROR;
			break;
		}
		if (add_access(&set, &files, (const struct ft_access *)h, shift) < 0) {
			ft_error_set(err, path, "out of memory for the working set");
			ret = FT_READ_ERROR;
			break;
		}
	}
	*bytes = (uint64_t)set.n << shift;
	if (nfiles)
		*nfiles = files.nfiles - uncached_files;
	free(set.slot);
	file_table_release(&files);
	ft_reader_close(r);
	return ret == FT_READ_ERROR ? -1 : 0;
}
