/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shorthands the model unit tests share. */
#ifndef FT_TESTS_MODEL_HARNESS_H
#define FT_TESTS_MODEL_HARNESS_H

#include "model/model.h"

/* One access at ts. */
void op(struct model *m, uint64_t ts, enum model_op o, uint32_t file, uint64_t pos,
	uint64_t len, uint64_t isize);
/* One access of a file on a device (index into cfg.devices; a file's first access says). */
void op_on(struct model *m, uint64_t ts, enum model_op o, uint32_t file, uint16_t device,
	   uint64_t pos, uint64_t len, uint64_t isize);
/* A device of a filesystem type, recorded by a release; tmpfs mounted huge=always. */
struct model_device test_device(const char *fstype, unsigned release, unsigned block_size);
/* model_new(), saying why in a TAP comment when it refuses. */
struct model *checked_model(const struct model_config *c);
/* The model's totals so far, by value. */
struct model_metrics metrics(struct model *m);

#endif
