/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Curves against memory for replay: from the model instances of a sweep (one per order and
 * memory size), or from stack-distance engines (model/stack.h) that follow the same decoded
 * stream as pipeline clients, one per order (two with --mrc=compare: exact and sampled).
 */
#ifndef FT_REPLAY_MRC_H
#define FT_REPLAY_MRC_H

#include <stdbool.h>

#include "model/stack.h"
#include "replay/replay.h"
#include "replay/sweep.h"
#include "report/curve.h"

enum mrc_mode {
	MRC_OFF,
	MRC_EXACT,	/* exact stack distances */
	MRC_SAMPLED,	/* spatially sampled */
	MRC_COMPARE,	/* both, the sampled curve's error against the exact one */
};

#define MRC_DEFAULT_RATE	0.01
#define MRC_DEFAULT_POINTS	100

/* "exact", "sampled[:RATE]", "compare[:RATE]"; false with *why. */
bool parse_mrc(const char *s, enum mrc_mode *mode, double *rate, const char **why);

struct mrc_run {
	enum mrc_mode mode;
	double rate;
	struct replay *rp;
	unsigned n;
	struct stack_mrc *s[REPLAY_MAX_EXTRA];
	bool sampled[REPLAY_MAX_EXTRA];
	double rate_of[REPLAY_MAX_EXTRA];	/* share of the folios followed */
	unsigned order[REPLAY_MAX_EXTRA];
};

/* Makes rp start the engines instead of model instances, once its configurations settle. */
void mrc_attach(struct mrc_run *m, struct replay *rp, enum mrc_mode mode, double rate);
void mrc_release(struct mrc_run *m);

/*
 * The curves at the points of l (none: MRC_DEFAULT_POINTS evenly up to the largest distance
 * or the working set). -1 when out of memory.
 */
int mrc_curves(struct mrc_run *m, const struct memory_list *l, uint64_t working_set,
	       struct curve_set *out);

/* The curves of a sweep's instances: rp->cfg is nmem memory sizes per order, order-major. */
int sweep_curves(const struct replay *rp, unsigned norders, unsigned nmem, uint64_t working_set,
		 struct curve_set *out);

#endif /* FT_REPLAY_MRC_H */
