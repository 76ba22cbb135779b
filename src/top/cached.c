// SPDX-License-Identifier: GPL-2.0-or-later
/* top --cached: resident pages of the traced files now (cached.h, util/residency.h). */
#define _GNU_SOURCE	/* O_NOATIME */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "top/cached.h"
#include "util/escape.h"
#include "util/parse.h"
#include "util/residency.h"

void top_cached_file(const char *path, struct top_cached *c)
{
	struct stat st;
	int fd;

	c->size = c->resident = 0;
	c->error = 0;
	/* O_NOATIME where allowed: looking must not change what is looked at */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC | O_NOATIME);
	if (fd < 0 && errno == EPERM)
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		c->error = errno;
		return;
	}
	if (fstat(fd, &st) < 0) {
		c->error = errno;
	} else if (!S_ISREG(st.st_mode)) {
		c->error = EINVAL;
	} else {
		c->size = (uint64_t)st.st_size;
		if (ft_resident_pages(fd, c->size, &c->resident) < 0)
			c->error = errno;
	}
	close(fd);
}

static int by_resident(const void *a, const void *b)
{
	const struct top_cached *x = a, *y = b;

	if (x->resident != y->resident)
		return x->resident < y->resident ? 1 : -1;
	return strcmp(x->name, y->name);
}

char **top_cached_names(const struct top_tally *t, uint32_t *n, bool *oom)
{
	char **v = calloc(t->nrows ? t->nrows : 1, sizeof(*v));

	*n = 0;
	*oom = !v;
	if (!v)
		return NULL;
	for (uint32_t i = 0; i < t->nrows; i++) {
		if (t->rows[i].name[0] != '/')	/* recorded without a path */
			continue;
		v[*n] = strdup(t->rows[i].name);
		if (!v[*n]) {
			*oom = true;
			top_cached_names_free(v, *n);
			*n = 0;
			return NULL;
		}
		(*n)++;
	}
	return v;
}

void top_cached_names_free(char **names, uint32_t n)
{
	for (uint32_t i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
}

int top_cached_print(FILE *f, char *const *names, uint32_t n, const char *whose, unsigned max)
{
	long page = sysconf(_SC_PAGESIZE);
	struct top_cached *v = calloc(n ? n : 1, sizeof(*v));
	uint64_t all = 0, gone = 0, psize = page > 0 ? (uint64_t)page : 4096;
	char res[32], size[32], name[4 * TOP_NAME_LEN];

	if (!v)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		v[i].name = names[i];
		top_cached_file(v[i].name, &v[i]);
		gone += v[i].error != 0;
		all += v[i].resident;
	}
	qsort(v, n, sizeof(*v), by_resident);
	fprintf(f, "cached now: %s in %" PRIu64 " of %s%" PRIu32 " files with a path "
		"(%" PRIu64 " gone or unreadable)\n", format_bytes(all * psize, res, sizeof(res)),
		n - gone, whose, n, gone);
	fprintf(f, "%10s %10s %10s %6s  %s\n", "RES", "PAGES", "SIZE", "RES%", "NAME");
	for (uint32_t i = 0; i < n && (!max || i < max); i++) {
		if (v[i].error)
			continue;
		fprintf(f, "%10s %10" PRIu64 " %10s ",
			format_bytes(v[i].resident * psize, res, sizeof(res)), v[i].resident,
			format_bytes(v[i].size, size, sizeof(size)));
		if (v[i].size)
			fprintf(f, "%5.1f%%", 100.0 * (double)v[i].resident /
					      (double)((v[i].size + psize - 1) / psize));
		else
			fprintf(f, "%6s", "-");
		fprintf(f, "  %s\n", ft_escape(name, sizeof(name), v[i].name, TOP_NAME_LEN));
	}
	free(v);
	return ferror(f) ? -1 : 0;
}

int top_cached_table(FILE *f, const struct top_tally *t, unsigned max)
{
	uint32_t n;
	bool oom;
	char **names = top_cached_names(t, &n, &oom);
	int rc = oom ? -1 : top_cached_print(f, names, n, "the trace's ", max);

	top_cached_names_free(names, n);
	return rc;
}
