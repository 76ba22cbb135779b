// SPDX-License-Identifier: GPL-2.0-or-later
/* The kernel's largest order and calibration's worst error, for replay's verdict: trust.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "calibrate/trust.h"

struct calib_facts {
	struct kernel_facts k;
	int rc;			/* kernel_facts_read()'s */
	struct ft_error err;	/* why, when rc < 0 */
	bool used;		/* a calibration has changed k */
};

/* calibrating: a calibration of the trace follows, whose first pass the read makes too */
static struct calib_facts *facts_new(bool calibrating)
{
	struct calib_facts *f = calloc(1, sizeof(*f));

	if (!f)
		return NULL;
	f->k.skip_mmapped = false;
	kernel_facts_init(&f->k);
	f->k.want_first_pass = calibrating;
	return f;
}

static struct calib_facts *facts_read(const char *path, bool calibrating)
{
	struct calib_facts *f = facts_new(calibrating);

	if (f)
		f->rc = kernel_facts_read(&f->k, path, &f->err);
	return f;
}

struct calib_facts *calib_facts_begin(void)
{
	return facts_new(true);
}

struct calib_facts *calib_facts_read(const char *path)
{
	return facts_read(path, true);
}

void calib_facts_note(void *facts, const struct ft_reader *r, const struct ft_hdr *h)
{
	kernel_facts_note(&((struct calib_facts *)facts)->k, r, h);
}

void calib_facts_end(struct calib_facts *f, const char *path, const struct ft_reader_status *st)
{
	f->rc = kernel_facts_end(&f->k, path, st, &f->err);
}

void calib_facts_free(struct calib_facts *f)
{
	if (!f)
		return;
	kernel_facts_release(&f->k);
	free(f);
}

/* calib_kernel_order() from facts read already. */
static int kernel_order_of(const struct calib_facts *f, unsigned *order, struct ft_error *err)
{
	if (f->rc == 0) {
		*order = f->k.max_order;
		return 1;
	}
	if (f->k.read_whole)	/* read, but nothing of the kernel's in it */
		return 0;
	*err = f->err;
	return -1;
}

int calib_kernel_order(const char *path, unsigned *order, struct ft_error *err)
{
	struct calib_facts *f = facts_read(path, false);	/* for the orders alone */
	int ret;

	if (!f)
		return ft_error_set(err, path, "out of memory");
	ret = kernel_order_of(f, order, err);
	calib_facts_free(f);
	return ret;
}

int calib_facts_calibrate(struct calib_facts *facts, struct calibration *c, const char *path,
			  const struct calibrate_request *req, struct ft_error *err)
{
	if (!facts || facts->used || req->skip_mmapped)
		return calibrate_file(c, path, req, err);
	memset(c, 0, sizeof(*c));
	c->path = path;
	if (facts->rc < 0) {
		*err = facts->err;
		return -1;
	}
	facts->used = true;
	return calibrate_with_facts(c, path, req, &facts->k, err);
}

/* The rows whose kernel figure counts what the model replays and nothing else. */
static bool comparable(const struct calib_row *r)
{
	return !r->by_rule && (r->scope == CALIB_TRACE || r->scope == CALIB_CGROUP);
}

static void keep_worst(struct calib_trust *t, const struct calibration *c)
{
	for (unsigned i = 0; i < c->nrows; i++) {
		const struct calib_row *r = &c->rows[i];
		double e;

		if (!comparable(r))
			continue;
		if (!calib_rel_error(r, &e)) {
			t->unbounded++;
			continue;
		}
		if (!t->rows || fabs(e) > fabs(t->worst)) {
			t->worst = e;
			snprintf(t->worst_metric, sizeof(t->worst_metric), "%s", r->metric);
		}
		t->rows++;
	}
}

/* A message names the path first ("PATH: why"): the reason alone. */
static const char *reason_of(const char *msg, const char *path)
{
	size_t n = strlen(path);

	return strncmp(msg, path, n) == 0 && msg[n] == ':' && msg[n + 1] == ' ' ? msg + n + 2 : msg;
}

void calib_trust_of(const struct calibration *c, struct calib_trust *t)
{
	memset(t, 0, sizeof(*t));
	if (c->truncated) {
		snprintf(t->why_not, sizeof(t->why_not), "the trace is cut or damaged");
		return;
	}
	keep_worst(t, c);
	t->have = t->rows > 0;
	if (!t->have)
		snprintf(t->why_not, sizeof(t->why_not), "no figure of the traced files to hold "
			 "the model against");
}

void calib_trust_failed(const char *path, const struct ft_error *err, struct calib_trust *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->why_not, sizeof(t->why_not), "%.*s", (int)sizeof(t->why_not) - 1,
		 reason_of(err->msg, path));
}

int calib_trust_file(const char *path, struct calib_facts *facts, bool quiet,
		     struct calib_trust *t)
{
	const struct calibrate_request req = { .quiet = quiet };
	struct calibration *c = malloc(sizeof(*c));
	struct ft_error err;

	memset(t, 0, sizeof(*t));
	if (!c) {
		snprintf(t->why_not, sizeof(t->why_not), "out of memory");
		return 0;
	}
	if (calib_facts_calibrate(facts, c, path, &req, &err) < 0) {
		calib_trust_failed(path, &err, t);
	} else {
		calib_trust_of(c, t);
	}
	free(c);
	return 0;
}

unsigned calib_default_orders(const char *path, const struct calib_facts *facts,
			      unsigned largest, unsigned min_order, unsigned *orders,
			      char *why_orders, size_t len)
{
	unsigned kernel = 0, n = 0;
	const char *why = NULL;
	struct ft_error err;
	int found = 0;

	if (strcmp(path, "-") == 0)
		why = "the kernel's orders unread from standard input";
	else if ((found = facts ? kernel_order_of(facts, &kernel, &err) :
			  calib_kernel_order(path, &kernel, &err)) < 0)
		why = "the kernel's orders could not be read";
	else if (found == 0)
		why = "no kernel events in the trace";
	else if (kernel == 0)
		why = "the recorded kernel inserted order 0 only";
	if (why) {
		snprintf(why_orders, len, "order %u: the model's default (%s)", largest, why);
		kernel = largest;
	} else if (kernel > largest) {
		snprintf(why_orders, len, "order %u: --max-pagecache-order (the recorded kernel "
			 "inserted up to order %u)", largest, kernel);
		kernel = largest;
	} else {
		snprintf(why_orders, len, "order %u: the largest the recorded kernel inserted in "
			 "this trace", kernel);
	}
	/* --min-order above 0 leaves no base pages to compare with */
	if (min_order == 0 && kernel > 0)
		orders[n++] = 0;
	orders[n++] = kernel;
	return n;
}

void calib_trust_text(const struct calib_trust *t, char *buf, size_t len)
{
	int n;

	if (!t->have) {
		snprintf(buf, len, "trust: not calibrated, %s", t->why_not);
		return;
	}
	n = snprintf(buf, len, "trust: calibrate's worst error on this trace: %+.1f%% (%s); %u "
		     "rows of the traced files compared", 100 * t->worst, t->worst_metric,
		     t->rows);
	if (t->unbounded && n > 0 && (size_t)n < len)
		snprintf(buf + n, len - (size_t)n, "; %u more the kernel counted 0 of",
			 t->unbounded);
}
