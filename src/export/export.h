/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Request-stream writers in libCacheSim's layouts. */
#ifndef FT_EXPORT_EXPORT_H
#define FT_EXPORT_EXPORT_H

#include <stdio.h>

#include "export/requests.h"
#include "util/output.h"

/*
 * csv: a "time,obj_id,obj_size,op" header, then one line per request; time in whole seconds
 * since the first access, op "read" or "write".
 */
int export_csv(struct req_stream *s, FILE *out, const char *name, struct ft_error *err);

/*
 * oracleGeneral (records in codec/libcachesim.h): written forward, then the next-access field
 * is filled by one pass backwards over the file, so memory grows with the number of distinct
 * objects only. A file of ours is worked on in place; a direct output (stdout, a device, a
 * pipe) gets it from an unnamed temporary file in $TMPDIR, as large as the output (24 bytes a
 * request, at most 12 MiB per access: requests.c bounds each).
 */
int export_oracle(struct req_stream *s, struct ft_output *out, struct ft_error *err);

#endif
