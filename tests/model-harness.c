/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "model-harness.h"

void op(struct model *m, uint64_t ts, enum model_op o, uint32_t file, uint64_t pos,
	uint64_t len, uint64_t isize)
{
	struct model_access a = { .ts = ts, .file_id = file, .op = o, .pos = pos, .len = len,
				  .isize = isize };

	model_access(m, &a);
}

struct model_metrics metrics(struct model *m)
{
	struct model_metrics x;

	model_metrics(m, &x);
	return x;
}
