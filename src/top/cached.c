// SPDX-License-Identifier: GPL-2.0-or-later
/* top --cached: resident pages of the traced files now, by mincore(2) (cached.h). */
#define _GNU_SOURCE	/* O_NOATIME */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "top/cached.h"
#include "util/escape.h"
#include "util/parse.h"

/* mincore(2) over at most this many pages a call: a vector of 1 MiB for 4 GiB. */
#define CACHED_CHUNK_PAGES	(1u << 20)

static uint64_t resident_pages(int fd, uint64_t size, long page, int *error)
{
	uint64_t n = 0, chunk = (uint64_t)CACHED_CHUNK_PAGES * (uint64_t)page;
	unsigned char *vec = malloc(CACHED_CHUNK_PAGES);

	if (!vec) {
		*error = ENOMEM;
		return 0;
	}
	/* a window at a time: a file larger than the address space is counted too */
	for (uint64_t off = 0; off < size; off += chunk) {
		size_t len = (size_t)(size - off < chunk ? size - off : chunk);
		void *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, (off_t)off);
		size_t pages = (len + (size_t)page - 1) / (size_t)page;

		if (p == MAP_FAILED) {
			*error = errno;
			break;
		}
		if (mincore(p, len, vec) == 0)
			for (size_t i = 0; i < pages; i++)
				n += vec[i] & 1;
		munmap(p, len);
	}
	free(vec);
	return n;
}

void top_cached_file(const char *path, struct top_cached *c)
{
	long page = sysconf(_SC_PAGESIZE);
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
		c->resident = resident_pages(fd, c->size, page > 0 ? page : 4096, &c->error);
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

int top_cached_table(FILE *f, const struct top_tally *t, unsigned max)
{
	long page = sysconf(_SC_PAGESIZE);
	struct top_cached *v = calloc(t->nrows ? t->nrows : 1, sizeof(*v));
	uint64_t all = 0, files = 0, gone = 0;
	uint32_t n = 0;
	char res[32], size[32], name[4 * TOP_NAME_LEN];

	if (!v)
		return -1;
	for (uint32_t i = 0; i < t->nrows; i++) {
		if (t->rows[i].name[0] != '/')	/* recorded without a path */
			continue;
		v[n].name = t->rows[i].name;
		top_cached_file(v[n].name, &v[n]);
		gone += v[n].error != 0;
		all += v[n].resident;
		n++;
	}
	qsort(v, n, sizeof(*v), by_resident);
	files = n - gone;
	fprintf(f, "cached now: %s in %" PRIu64 " of the trace's %" PRIu32 " files with a path "
		"(%" PRIu64 " gone or unreadable)\n", format_bytes(all * (uint64_t)page, res,
								     sizeof(res)),
		files, n, gone);
	fprintf(f, "%10s %10s %6s  %s\n", "RES", "SIZE", "RES%", "NAME");
	for (uint32_t i = 0; i < n && (!max || i < max); i++) {
		if (v[i].error)
			continue;
		fprintf(f, "%10s %10s ", format_bytes(v[i].resident * (uint64_t)page, res,
						       sizeof(res)),
			format_bytes(v[i].size, size, sizeof(size)));
		if (v[i].size)
			fprintf(f, "%5.1f%%", 100.0 * (double)(v[i].resident * (uint64_t)page) /
					      (double)((v[i].size + (uint64_t)page - 1) /
						       (uint64_t)page * (uint64_t)page));
		else
			fprintf(f, "%6s", "-");
		fprintf(f, "  %s\n", ft_escape(name, sizeof(name), v[i].name, TOP_NAME_LEN));
	}
	free(v);
	return ferror(f) ? -1 : 0;
}
