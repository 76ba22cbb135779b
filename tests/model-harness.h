/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shorthands the model unit tests share. */
#ifndef FT_TESTS_MODEL_HARNESS_H
#define FT_TESTS_MODEL_HARNESS_H

#include "model/model.h"

/* One access at ts. */
void op(struct model *m, uint64_t ts, enum model_op o, uint32_t file, uint64_t pos,
	uint64_t len, uint64_t isize);
/* The model's totals so far, by value. */
struct model_metrics metrics(struct model *m);

#endif
