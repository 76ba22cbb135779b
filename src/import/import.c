/* SPDX-License-Identifier: GPL-2.0-or-later */
/* What every importer shares: bad-line bookkeeping, file table, record counting. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "import/textline.h"
#include "util/error.h"

int import_ctx_init(struct import_ctx *c, struct ft_sink *sink, const char *name,
		    struct ft_error *err)
{
	memset(c, 0, sizeof(*c));
	c->sink = sink;
	c->err = err;
	c->name = name;
	c->page_size = 4096;
	if (u64map_init(&c->files, 256))
		return ft_error_set(err, name, "out of memory");
	return 0;
}

void import_ctx_free(struct import_ctx *c)
{
	u64map_free(&c->files);
}

int import_bad(struct import_ctx *c, const char *fmt, ...)
{
	struct import_bad_line *b = NULL;
	char why[120];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (c->bad < IMPORT_SHOW_BAD)
		b = &c->shown[c->bad];
	c->bad++;
	if (b) {
		b->line = c->line;
		memcpy(b->why, why, sizeof(why));
	}
	if (!c->strict)
		return 0;
	return ft_error_set(c->err, NULL, "%s:%llu: %s (--strict)", c->name,
			    (unsigned long long)c->line, why);
}

int import_emit(struct import_ctx *c, const void *rec)
{
	const struct ft_hdr *h = rec;

	if (ft_sink_append(c->sink, rec, c->err))
		return -1;
	c->records[h->type < FT_TYPE_MAX ? h->type : 0]++;
	return 0;
}

int import_file_seen(struct import_ctx *c, __u64 ts, __u32 dev, __u64 ino, const char *path,
		     uint64_t end, __u64 *isize)
{
	uint64_t *size;
	bool added;

	size = u64map_get_or_add(&c->files, file_key(dev, ino), end, &added);
	if (!size)
		return ft_error_set(c->err, c->name, "out of memory");
	if (end > *size)
		*size = end;
	if (isize)
		*isize = *size;
	if (!added)
		return 0;
	c->nfiles++;
	c->records[FT_FILE]++;
	/* Size unknown when first seen: 0, the accesses carry the running estimate. */
	return ft_sink_file(c->sink, ts, dev, ino, 0, path, c->err);
}

int import_access(struct import_ctx *c, __u64 ts, __u32 tid, __u32 dev, __u64 ino, __u16 op,
		  __u16 flags, uint64_t pos, uint64_t len, __u32 arg)
{
	struct ft_access a = {
		.hdr = { .type = FT_ACCESS, .size = sizeof(a), .tid = tid, .ts = ts },
		.ino = ino,
		.pos = pos,
		.len = len,
		.dev = dev,
		.op = op,
		.flags = flags,
		.arg = arg,
	};
	char why[160];

	/* what no kernel does is a bad line here, as the replay would skip it as damage */
	if (ft_access_problem(&a, why, sizeof(why)))
		return import_bad(c, "%s", why);
	if (import_file_seen(c, ts, dev, ino, NULL, ft_op_moves_data(op) ? pos + len : 0,
			     &a.isize))
		return -1;
	return import_emit(c, &a);
}

int import_each_line(struct import_ctx *c, FILE *in,
		     int (*fn)(struct import_ctx *c, void *arg, char *line), void *arg)
{
	char *buf = NULL, *line;
	size_t cap = 0;
	int ret = 0, r;

	while (!ret && (r = textline_read(in, &buf, &cap, &line)) != 0) {
		c->line++;
		c->lines++;
		if (r < 0) {
			ret = errno == EFBIG ?
				ft_error_set(c->err, NULL, "%s:%llu: a line longer than %d bytes: "
					     "refused (no format imported has one)", c->name,
					     (unsigned long long)c->line, TEXTLINE_MAX) :
				ft_error_set(c->err, c->name, "out of memory");
			break;
		}
		ret = fn(c, arg, line);
	}
	free(buf);
	if (!ret && ferror(in))
		ret = ft_error_set(c->err, c->name, "read error");
	return ret;
}
