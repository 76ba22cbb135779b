/* SPDX-License-Identifier: GPL-2.0-or-later */
/* libCacheSim csv export. */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "export/export.h"
#include "util/error.h"

int export_csv(struct req_stream *s, FILE *out, const char *name, struct ft_error *err)
{
	struct export_req req;
	int ret;

	fputs("time,obj_id,obj_size,op\n", out);
	while ((ret = req_stream_next(s, &req, err)) == 1)
		fprintf(out, "%" PRIu64 ",%" PRIu64 ",%" PRIu32 ",%s\n", req.time_s, req.obj_id,
			req.obj_size, req.write ? "write" : "read");
	if (ret < 0)
		return -1;
	if (fflush(out) || ferror(out))
		return ft_error_set(err, name, "write failed: %s", strerror(errno));
	return 0;
}
