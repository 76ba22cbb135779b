/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libCacheSim request streams back into accesses: the inverse of folio-trace export. An
 * object id is read as file number << 40 | page index, so a request becomes an access of
 * obj_size bytes at page index * page size of file number (inode 1000 + number). Times are
 * whole seconds. oracleGeneral has no operation: every request is a read.
 */
#include <stdlib.h>
#include <string.h>

#include "codec/libcachesim.h"
#include "import/import.h"
#include "import/synthetic-host.h"
#include "import/textline.h"
#include "util/error.h"

static int lcs_request(struct import_ctx *c, uint64_t time_s, uint64_t obj_id,
		       uint64_t obj_size, bool write)
{
	uint64_t file = lcs_obj_file(obj_id), index = lcs_obj_index(obj_id), bad = c->bad;
	int ret;

	if (obj_size == 0)
		return import_bad(c, "object size 0");
	if (time_s > 18000000000ull)
		return import_bad(c, "time out of range");
	ret = import_access(c, SYNTH_BASE_TS + time_s * 1000000000ull, 1, SYNTH_DEV,
			    SYNTH_INO_BASE + file, write ? FT_OP_WRITE : FT_OP_READ, 0,
			    index * c->page_size, obj_size, 0);
	c->used += !ret && c->bad == bad;
	return ret;
}

/* "time,obj_id,obj_size[,op]"; op read/get (default) or write/set. */
static int csv_line(struct import_ctx *c, const char *line)
{
	__u64 t, id, size;
	const char *p = skip_spaces(line), *op;
	bool write = false;

	if (*p == '\0') {
		c->ignored++;
		return 0;
	}
	if (!parse_u64_at(p, 10, &t, &p) || *p != ',' ||
	    !parse_u64_at(p + 1, 10, &id, &p) || *p != ',' ||
	    !parse_u64_at(p + 1, 10, &size, &p) || (*p != ',' && *p != '\0'))
		return import_bad(c, "expected time,obj_id,obj_size[,op] in whole numbers");
	if (*p == ',') {
		op = p + 1;
		if (strcmp(op, "write") == 0 || strcmp(op, "set") == 0)
			write = true;
		else if (strcmp(op, "read") && strcmp(op, "get") && *op)
			return import_bad(c, "unknown op '%s' (read, get, write or set)", op);
	}
	return lcs_request(c, t, id, size, write);
}

static int csv_each_line(struct import_ctx *c, void *arg, char *line)
{
	if (c->line == 1 && strncmp(line, "time,", 5) == 0) {
		c->ignored++;	/* the header export writes */
		return 0;
	}
	return csv_line(c, line);
}

int import_lcs_csv(struct import_ctx *c, FILE *in)
{
	return import_each_line(c, in, csv_each_line, NULL);
}

int import_lcs_oracle(struct import_ctx *c, FILE *in)
{
	unsigned char rec[ORACLE_REC_SIZE];
	uint32_t t, size;
	uint64_t id;
	int64_t next;
	size_t n;
	int ret = 0;

	while (!ret && (n = fread(rec, 1, sizeof(rec), in)) > 0) {
		c->line++;
		c->lines++;
		if (n < sizeof(rec)) {
			ret = import_bad(c, "last record cut short (%zu of 24 bytes)", n);
			break;
		}
		oracle_unpack(rec, &t, &id, &size, &next);
		ret = lcs_request(c, t, id, size, false);
	}
	if (!ret && ferror(in))
		ret = ft_error_set(c->err, c->name, "read error");
	return ret;
}
