/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "model-harness.h"
#include "tap.h"
#include "model/variants.h"

void op_on(struct model *m, uint64_t ts, enum model_op o, uint32_t file, uint16_t device,
	   uint64_t pos, uint64_t len, uint64_t isize)
{
	struct model_access a = { .ts = ts, .file_id = file, .op = o, .pos = pos, .len = len,
				  .isize = isize, .device = device };

	model_access(m, &a);
}

void op(struct model *m, uint64_t ts, enum model_op o, uint32_t file, uint64_t pos,
	uint64_t len, uint64_t isize)
{
	op_on(m, ts, o, file, MODEL_DEVICE_NONE, pos, len, isize);
}

struct model *checked_model(const struct model_config *c)
{
	const char *why = NULL;
	struct model *m = model_new(c, &why);

	if (!m)
		diag("model_new: %s", why);
	return m;
}

struct model_metrics metrics(struct model *m)
{
	struct model_metrics x;

	model_metrics(m, &x);
	return x;
}

struct model_device test_device(const char *fstype, unsigned release, unsigned block_size)
{
	return (struct model_device){
		.fs = model_fs_kind_for(fstype), .release = release, .block_size = block_size,
		.ra_pages = MODEL_UNKNOWN, .io_pages = MODEL_UNKNOWN, .huge = TMPFS_HUGE_ALWAYS,
	};
}
