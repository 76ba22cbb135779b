/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Request-stream writers in libCacheSim's layouts. */
#ifndef FT_EXPORT_EXPORT_H
#define FT_EXPORT_EXPORT_H

#include <stdio.h>

#include "export/requests.h"

/* libCacheSim oracleGeneral: 24 packed little-endian bytes per request. */
#define ORACLE_REC_SIZE 24

/*
 * csv: a "time,obj_id,obj_size,op" header, then one line per request; time in whole seconds
 * since the first access, op "read" or "write".
 */
int export_csv(struct req_stream *s, FILE *out, const char *name, struct ft_error *err);

/*
 * oracleGeneral: uint32 time, uint64 obj_id, uint32 obj_size, int64 next_access_vtime (the
 * 1-based number of the next request for the same object, -1 if none). Written forward, then
 * the next-access field is filled by one pass backwards over the file, so memory grows with
 * the number of distinct objects only. path "-" goes through a temporary file to stdout.
 */
int export_oracle(struct req_stream *s, const char *path, struct ft_error *err);

void oracle_pack(unsigned char *p, uint32_t time, uint64_t obj_id, uint32_t obj_size,
		 int64_t next);
void oracle_unpack(const unsigned char *p, uint32_t *time, uint64_t *obj_id, uint32_t *obj_size,
		   int64_t *next);

#endif
