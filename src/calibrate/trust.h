/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a replay report borrows from calibration: the largest folio order the recording kernel
 * used, so the default run can set base pages beside it, and how far the model can be trusted
 * on this trace (calibration's worst error on the figures it can hold against the kernel).
 */
#ifndef FT_CALIBRATE_TRUST_H
#define FT_CALIBRATE_TRUST_H

#include <stdbool.h>
#include <stddef.h>

#include "trace/trace.h"
#include "util/error.h"

/*
 * What the kernel did in a trace, read once for both the default orders and the trust line
 * (each would read the whole trace for it otherwise): NULL when out of memory.
 */
struct calib_facts;
struct calib_facts *calib_facts_read(const char *path);
void calib_facts_free(struct calib_facts *f);
/*
 * The same gathered along another read of path (the replay's, when the orders were given
 * and nothing needed them first): begin, note each record the reader r gives, then end
 * with its status once it read path to its end. Memory running out on the way is what the
 * facts say then. Either way the read makes the calibration's first pass too.
 */
struct calib_facts *calib_facts_begin(void);
void calib_facts_note(void *facts, const struct ft_reader *r, const struct ft_hdr *h);
void calib_facts_end(struct calib_facts *f, const char *path, const struct ft_reader_status *st);

/*
 * The largest order the kernel inserted into a file the trace accesses: 1 with *order set,
 * 0 when the trace has no kernel events (synthetic, imported), -1 with err set.
 */
int calib_kernel_order(const char *path, unsigned *order, struct ft_error *err);

/*
 * The orders a replay runs when none is given: base pages and the largest order the kernel
 * inserted in the trace at path (else the model's, largest). Fills orders (two at most) and
 * why_orders (the verdict's line saying where the second came from); returns how many.
 * facts: the trace's, read already (calib_facts_read()), or NULL.
 */
unsigned calib_default_orders(const char *path, const struct calib_facts *facts,
			      unsigned largest, unsigned min_order, unsigned *orders,
			      char *why_orders, size_t len);

struct calib_trust {
	bool have;		/* calibrated: the fields below are set */
	double worst;		/* largest |model - kernel| / kernel over the rows compared */
	char worst_metric[48];	/* the row it was found in */
	unsigned rows;		/* rows on the traced files or the cgroup, error defined */
	unsigned unbounded;	/* rows where the kernel counted 0 and the model did not */
	char why_not[160];	/* !have: why there is no calibration */
};

/*
 * Calibrates path (calibrate_file, at the recorded settings) and keeps the worst error over
 * the rows whose kernel figure counts the traced files or the recorded cgroup alone: the
 * system-wide rows are upper bounds, not errors. Returns 0 with t->have or t->why_not set.
 * facts: the trace's, read already, which the calibration uses up (calib_facts_free() after),
 * or NULL.
 */
int calib_trust_file(const char *path, struct calib_facts *facts, bool quiet,
		     struct calib_trust *t);

struct calibration;
struct calibrate_request;
/*
 * calibrate_file() of path, from its facts read already when they serve (once; not for
 * req->skip_mmapped), else reading them.
 */
int calib_facts_calibrate(struct calib_facts *facts, struct calibration *c, const char *path,
			  const struct calibrate_request *req, struct ft_error *err);

/* The same from a calibration already made, or from why calibrate_file() failed on path. */
void calib_trust_of(const struct calibration *c, struct calib_trust *t);
void calib_trust_failed(const char *path, const struct ft_error *err, struct calib_trust *t);

/* The report's line: "trust: calibrate's worst error on this trace: +66.4% (insertions...". */
void calib_trust_text(const struct calib_trust *t, char *buf, size_t len);

#endif /* FT_CALIBRATE_TRUST_H */
