/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * libCacheSim's request streams as folio-trace writes them (export) and reads them back
 * (import): what an object id says, and the oracleGeneral binary record.
 */
#ifndef FT_CODEC_LIBCACHESIM_H
#define FT_CODEC_LIBCACHESIM_H

#include <stdint.h>

/*
 * An object id keeps the file and the position: file number << 40 | page index of the
 * folio's first page. 2^40 pages of 4 KiB are 4 PiB, past any file a trace holds.
 */
#define LCS_FILE_SHIFT	40
#define LCS_INDEX_MASK	((1ull << LCS_FILE_SHIFT) - 1)

static inline uint64_t lcs_obj_id(uint64_t file, uint64_t index)
{
	return file << LCS_FILE_SHIFT | (index & LCS_INDEX_MASK);
}

static inline uint64_t lcs_obj_file(uint64_t obj_id)
{
	return obj_id >> LCS_FILE_SHIFT;
}

static inline uint64_t lcs_obj_index(uint64_t obj_id)
{
	return obj_id & LCS_INDEX_MASK;
}

/*
 * oracleGeneral: 24 packed little-endian bytes per request: uint32 time, uint64 obj_id,
 * uint32 obj_size, int64 next_access_vtime (the 1-based number of the next request for the
 * same object, -1 if none).
 */
#define ORACLE_REC_SIZE	24

void oracle_pack(unsigned char *p, uint32_t time, uint64_t obj_id, uint32_t obj_size,
		 int64_t next);
void oracle_unpack(const unsigned char *p, uint32_t *time, uint64_t *obj_id, uint32_t *obj_size,
		   int64_t *next);

/* One field of a packed record, for a pass that fills next_access_vtime in place. */
uint64_t oracle_obj_id(const unsigned char *p);
void oracle_set_next(unsigned char *p, int64_t next);

#endif
