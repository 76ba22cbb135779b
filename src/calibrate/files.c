// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * calibrate --by=file: each file's insertions, refaults and writeback, the model's beside the
 * kernel's. The model's figures are the replay's units (replay --by=file counts them the same
 * way); the kernel's are the same per-file facts the totals add up (kernel.c), of the same
 * files (those the model sees: accessed, not left out), so the files' rows sum to the totals'
 * rows of the traced files.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "calibrate/calibrate.h"
#include "replay/replay.h"
#include "replay/units.h"
#include "util/escape.h"
#include "util/json.h"

static uint64_t unit_pages(const struct model_unit *m)
{
	uint64_t pages = 0;

	for (unsigned o = 0; o <= MODEL_MAX_ORDER; o++)
		pages += m->insertions_by_order[o] << o;
	return pages;
}

/* What a file moved, the model's or the kernel's, whichever is more: bytes in and out. */
static uint64_t busyness(const struct calib_file *f)
{
	uint64_t in = f->model_pages > f->kernel_pages ? f->model_pages : f->kernel_pages;
	uint64_t out = f->model_wb > f->kernel_wb ? f->model_wb : f->kernel_wb;

	return in * 4096 + out;
}

static int busiest_first(const void *a, const void *b)
{
	const struct calib_file *x = a, *y = b;
	uint64_t bx = busyness(x), by = busyness(y);

	if (bx != by)
		return bx > by ? -1 : 1;
	return strcmp(x->name, y->name);
}

int calib_files(struct calibration *c, struct replay_units *u, const struct replay *rp,
		struct kernel_facts *k, uint32_t top)
{
	struct report_units out;

	c->by_file = true;
	/* every unit: those the model does not see are left out below, then the first top */
	if (replay_units_report(u, rp, UNIT_SORT_KERNEL_INSERTED, UINT32_MAX, &out) < 0)
		return -1;
	c->files = calloc(out.nrows ? out.nrows : 1, sizeof(*c->files));
	if (!c->files)
		return -1;
	for (uint32_t i = 0; i < out.nrows; i++) {
		const struct report_unit *r = &out.rows[i];
		struct calib_file *f = &c->files[c->nfiles];
		const struct kfile *kf = kernel_kfile(k, r->dev, r->ino);

		if (!kf)
			return -1;
		/* the files the totals count: those the model sees */
		if (!kfile_modelled(k, kf))
			continue;
		c->files_total++;
		f->name = strdup(r->name ? r->name : "?");
		if (!f->name)
			return -1;
		c->nfiles++;
		f->dev = r->dev;
		f->ino = r->ino;
		f->model_pages = out.ncols ? unit_pages(&r->m[0]) : 0;
		f->kernel_pages = kf->add_pages;
		f->model_refaults = out.ncols ? r->m[0].refaults : 0;
		f->kernel_refaults = kf->refault_pages;
		f->refaults_known = k->have_refault_events;
		f->model_wb = out.ncols ? r->m[0].writeback_bytes : 0;
		f->kernel_wb = kf->wb_fs_bytes;
		f->wb_known = r->kernel_wb_known;
	}
	qsort(c->files, c->nfiles, sizeof(*c->files), busiest_first);
	while (c->nfiles > top)
		free(c->files[--c->nfiles].name);
	return 0;
}

void calibration_release(struct calibration *c)
{
	for (uint32_t i = 0; i < c->nfiles; i++)
		free(c->files[i].name);
	free(c->files);
	c->files = NULL;
	c->nfiles = 0;
}

/* "+1.2%" as the metric rows give it (calib_rel_error()), or "-": undefined, or unknown */
static const char *error_cell(uint64_t model, uint64_t kernel, bool known, char *buf, size_t n)
{
	const struct calib_row r = { .model = model, .kernel = kernel };
	double e;

	if (!known || !calib_rel_error(&r, &e))
		return "-";
	snprintf(buf, n, "%+.1f%%", e * 100);
	return buf;
}

static const char *count_cell(uint64_t v, bool known, char *buf, size_t n)
{
	if (!known)
		return "-";
	snprintf(buf, n, "%" PRIu64, v);
	return buf;
}

int calib_write_files_table(FILE *f, const struct calibration *c)
{
	char b[6][32], name[4 * 256 + 1];

	fprintf(f, "\nby file: %" PRIu32 " of %" PRIu32 " files, the busiest first (pages inserted, "
		"refaulted; bytes written back)\n", c->nfiles, c->files_total);
	fprintf(f, "%10s %10s %8s  %9s %9s %8s  %12s %12s %8s  %s\n", "inserted", "kernel",
		"error", "refaults", "kernel", "error", "written back", "kernel", "error", "file");
	for (uint32_t i = 0; i < c->nfiles; i++) {
		const struct calib_file *r = &c->files[i];

		fprintf(f, "%10" PRIu64 " %10" PRIu64 " %8s  %9" PRIu64 " %9s %8s  %12" PRIu64
			" %12s %8s  %s\n", r->model_pages, r->kernel_pages,
			error_cell(r->model_pages, r->kernel_pages, true, b[0], 32),
			r->model_refaults, count_cell(r->kernel_refaults, r->refaults_known, b[1], 32),
			error_cell(r->model_refaults, r->kernel_refaults, r->refaults_known, b[2], 32),
			r->model_wb, count_cell(r->kernel_wb, r->wb_known, b[3], 32),
			error_cell(r->model_wb, r->kernel_wb, r->wb_known, b[4], 32),
			ft_escape(name, sizeof(name), r->name, (size_t)-1));
	}
	return ferror(f) ? -1 : 0;
}

static void json_pair(FILE *f, const char *key, uint64_t model, uint64_t kernel, bool known)
{
	fprintf(f, ", \"%s\": {\"model\": %" PRIu64 ", \"kernel\": ", key, model);
	if (known)
		fprintf(f, "%" PRIu64 "}", kernel);
	else
		fputs("null}", f);
}

int calib_write_files_json(FILE *f, const struct calibration *c)
{
	fprintf(f, "  \"files_total\": %" PRIu32 ",\n  \"files\": [", c->files_total);
	for (uint32_t i = 0; i < c->nfiles; i++) {
		const struct calib_file *r = &c->files[i];

		fprintf(f, "%s\n    {\"name\": ", i ? "," : "");
		ft_json_string(f, r->name);
		fprintf(f, ", \"dev\": \"%u:%u\", \"ino\": %" PRIu64, r->dev >> 20, r->dev & 0xfffff,
			r->ino);
		json_pair(f, "inserted_pages", r->model_pages, r->kernel_pages, true);
		json_pair(f, "refaults", r->model_refaults, r->kernel_refaults, r->refaults_known);
		json_pair(f, "writeback_bytes", r->model_wb, r->kernel_wb, r->wb_known);
		fputc('}', f);
	}
	fputs("\n  ],\n", f);
	return ferror(f) ? -1 : 0;
}
