/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "codec/libcachesim.h"

/* Field offsets in an oracleGeneral record. */
#define OFF_TIME	0
#define OFF_OBJ_ID	4
#define OFF_OBJ_SIZE	12
#define OFF_NEXT	16

static void put_le(unsigned char *p, uint64_t v, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, unsigned n)
{
	uint64_t v = 0;

	for (unsigned i = 0; i < n; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

void oracle_pack(unsigned char *p, uint32_t time, uint64_t obj_id, uint32_t obj_size,
		 int64_t next)
{
	put_le(p + OFF_TIME, time, 4);
	put_le(p + OFF_OBJ_ID, obj_id, 8);
	put_le(p + OFF_OBJ_SIZE, obj_size, 4);
	put_le(p + OFF_NEXT, (uint64_t)next, 8);
}

void oracle_unpack(const unsigned char *p, uint32_t *time, uint64_t *obj_id, uint32_t *obj_size,
		   int64_t *next)
{
	*time = (uint32_t)get_le(p + OFF_TIME, 4);
	*obj_id = get_le(p + OFF_OBJ_ID, 8);
	*obj_size = (uint32_t)get_le(p + OFF_OBJ_SIZE, 4);
	*next = (int64_t)get_le(p + OFF_NEXT, 8);
}

uint64_t oracle_obj_id(const unsigned char *p)
{
	return get_le(p + OFF_OBJ_ID, 8);
}

void oracle_set_next(unsigned char *p, int64_t next)
{
	put_le(p + OFF_NEXT, (uint64_t)next, 8);
}
