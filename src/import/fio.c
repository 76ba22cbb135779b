/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * fio iolog, versions 2 and 3 (fio(1), "Trace file format"):
 *   fio version 2 iolog            fio version 3 iolog
 *   FILE add|open|close            USEC FILE add|open|close
 *   FILE ACTION OFFSET LENGTH      USEC FILE ACTION OFFSET LENGTH
 * with ACTION read, write, sync, datasync, trim, or (v2 only) wait OFFSET=microseconds.
 * v3 times are microseconds since the start of the run; v2 has none, so its actions are
 * placed 1 us apart plus the waits.
 */
#include <stdlib.h>
#include <string.h>

#include "import/import.h"
#include "import/synthetic-host.h"
#include "import/textline.h"
#include "util/error.h"

#define FIO_MAX_TOKENS	6
#define FIO_V2_STEP_NS	1000ull
#define FALLOC_PUNCH	0x3	/* PUNCH_HOLE | KEEP_SIZE: what a trim does to the cache */

struct fio_state {
	int version;
	uint64_t v2_ts;
	struct u64map names;	/* hash of the file name -> ino */
	uint64_t next_ino;
};

static uint64_t name_hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h == UINT64_MAX ? 0 : h;
}

static int split_tokens(char *line, char **tok)
{
	int n = 0;

	for (char *p = strtok(line, " \t"); p; p = strtok(NULL, " \t")) {
		if (n == FIO_MAX_TOKENS)
			return n + 1;
		tok[n++] = p;
	}
	return n;
}

static bool parse_u64_token(const char *s, __u64 *v)
{
	const char *end;

	return parse_u64_at(s, 10, v, &end) && *end == '\0';
}

static int fio_add(struct import_ctx *c, struct fio_state *f, uint64_t ts, const char *file)
{
	uint64_t *ino;
	bool added;

	ino = u64map_get_or_add(&f->names, name_hash(file), f->next_ino, &added);
	if (!ino)
		return ft_error_set(c->err, c->name, "out of memory");
	if (!added)
		return 0;	/* added again: fio allows it */
	f->next_ino++;
	return import_file_seen(c, ts, SYNTH_DEV, *ino, file, 0, NULL);
}

static int fio_io(struct import_ctx *c, struct fio_state *f, uint64_t ts, char **tok)
{
	static const struct { const char *name; __u16 op; } actions[] = {
		{ "read", FT_OP_READ }, { "write", FT_OP_WRITE }, { "sync", FT_OP_FSYNC },
		{ "datasync", FT_OP_FDATASYNC }, { "trim", FT_OP_FALLOCATE },
	};
	uint64_t *ino, bad = c->bad;
	__u64 off, len;
	__u16 op = 0, flags = 0;
	int ret;

	for (unsigned i = 0; i < sizeof(actions) / sizeof(actions[0]); i++)
		if (strcmp(tok[1], actions[i].name) == 0)
			op = actions[i].op;
	if (!op)
		return import_bad(c, "unknown fio action '%s'", tok[1]);
	if (!parse_u64_token(tok[2], &off) || !parse_u64_token(tok[3], &len))
		return import_bad(c, "bad offset or length");
	ino = u64map_find(&f->names, name_hash(tok[0]));
	if (!ino)
		return import_bad(c, "file %s used before its 'add' line", tok[0]);
	if (op == FT_OP_READ || op == FT_OP_WRITE) {
		flags = FT_AF_POSITIONAL | (c->direct ? FT_AF_DIRECT : 0);
	} else if (op != FT_OP_FALLOCATE) {
		off = 0;	/* syncs are whole-file; fio logs 0 0 */
		len = 0;
	}
	ret = import_access(c, ts, 1, SYNTH_DEV, *ino, op, flags, off, len,
			    op == FT_OP_FALLOCATE ? FALLOC_PUNCH : 0);
	c->used += !ret && c->bad == bad;
	return ret;
}

static int fio_header(struct import_ctx *c, struct fio_state *f, const char *line)
{
	if (strcmp(line, "fio version 2 iolog") == 0)
		f->version = 2;
	else if (strcmp(line, "fio version 3 iolog") == 0)
		f->version = 3;
	if (f->version) {
		c->ignored++;
		return 0;
	}
	return ft_error_set(c->err, NULL, "%s:%llu: not a fio iolog (want 'fio version 2 iolog' "
			    "or 'fio version 3 iolog')", c->name, (unsigned long long)c->line);
}

/* One line after the header; tokens without the v3 time. */
static int fio_action(struct import_ctx *c, struct fio_state *f, uint64_t ts, char **tok, int n)
{
	__u64 usec;

	if (n == 2) {
		if (strcmp(tok[1], "add") == 0) {
			c->used++;
			return fio_add(c, f, ts, tok[0]);
		}
		if (strcmp(tok[1], "open") == 0 || strcmp(tok[1], "close") == 0) {
			c->ignored++;	/* opening changes nothing in the page cache */
			return 0;
		}
		return import_bad(c, "unknown fio file action '%s'", tok[1]);
	}
	if (n != 4)
		return import_bad(c, "expected FILE ACTION [OFFSET LENGTH]");
	if (strcmp(tok[1], "wait") == 0) {
		if (f->version == 3)
			return import_bad(c, "'wait' is not allowed in a version 3 iolog");
		if (!parse_u64_token(tok[2], &usec))
			return import_bad(c, "bad wait time");
		f->v2_ts += usec * 1000;
		c->used++;
		return 0;
	}
	return fio_io(c, f, ts, tok);
}

static int fio_line(struct import_ctx *c, struct fio_state *f, char *line)
{
	char *tok[FIO_MAX_TOKENS];
	__u64 usec, ts;
	int n;

	if (!f->version)
		return fio_header(c, f, line);
	n = split_tokens(line, tok);
	if (n == 0) {
		c->ignored++;
		return 0;
	}
	if (f->version == 3) {
		if (!parse_u64_token(tok[0], &usec))
			return import_bad(c, "expected a time in microseconds first");
		ts = SYNTH_BASE_TS + usec * 1000;
		return fio_action(c, f, ts, tok + 1, n - 1);
	}
	f->v2_ts += FIO_V2_STEP_NS;
	return fio_action(c, f, SYNTH_BASE_TS + f->v2_ts, tok, n);
}

static int fio_each_line(struct import_ctx *c, void *arg, char *line)
{
	return fio_line(c, arg, line);
}

int import_fio_iolog(struct import_ctx *c, FILE *in)
{
	struct fio_state f = { .next_ino = SYNTH_INO_BASE };
	int ret;

	if (u64map_init(&f.names, 64))
		return ft_error_set(c->err, c->name, "out of memory");
	ret = import_each_line(c, in, fio_each_line, &f);
	if (!ret && !f.version)
		ret = ft_error_set(c->err, c->name, "empty input, not a fio iolog");
	u64map_free(&f.names);
	return ret;
}
