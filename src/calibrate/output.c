// SPDX-License-Identifier: GPL-2.0-or-later
/* A calibration as an aligned table or as JSON. */
#include <inttypes.h>
#include <stdio.h>

#include "calibrate/calibrate.h"
#include "trace/trace.h"
#include "model/variants.h"
#include "util/escape.h"
#include "util/json.h"
#include "util/parse.h"

static const char *ra_rule_name(enum ra_rule r)
{
	return model_ra_rules[r]->name;
}

static void format_error(const struct calib_row *r, char *buf, size_t len)
{
	double e;

	if (calib_rel_error(r, &e))
		snprintf(buf, len, "%+.1f%%", e * 100);
	else
		snprintf(buf, len, "-");
}

static void table_header(FILE *f, const struct calibration *c)
{
	char mem[32], rel[4 * sizeof(c->release)];

	format_bytes(c->cfg.memory_bytes, mem, sizeof(mem));
	/* the path and the trace's release escaped: neither may drive a terminal */
	fputs("calibration: ", f);
	ft_fputs_escaped(f, c->path, (size_t)-1);
	fprintf(f, " (Linux %s)\n", c->release[0] ? ft_escape(rel, sizeof(rel), c->release,
								sizeof(c->release)) : "?");
	fprintf(f, "model: %s%s, readahead %u pages (%s rule), largest folio order %u, "
		"kernel orders for %u files\n", mem, c->cgroup_limit ? " (cgroup limit)" : "",
		c->cfg.ra_pages, ra_rule_name(c->cfg.ra_rule), c->cfg.order, c->nfiles_ordered);
	fprintf(f, "files read without readahead (the kernel opened no window): %u\n",
		c->nfiles_ra_off);
	if (c->skip_mmapped)
		fprintf(f, "files: %u mapped files left out (--files=syscalls)\n", c->skipped_files);
	if (c->cfg.start_folios == START_FOLIOS_RULE)
		fprintf(f, "start folios: every one by the rule (--start-folios=rule)\n");
	if (c->shmem_unseen)
		fprintf(f, "tmpfs: %u files kept to the end: shmem fires no insertion event, so their "
			"insertions are the model's only (remove them in the trace to compare)\n",
			c->shmem_unseen);
	/* the kind the model ran against the one the kernel ran: they differ by --lru only */
	if (c->kernel_lru_gen >= 0)
		fprintf(f, "lru: the kernel ran %s (lru_gen/enabled 0x%04x), the model %s\n",
			c->kernel_lru_gen & 1 ? "MGLRU" : "the two lists",
			(unsigned)c->kernel_lru_gen, model_lru_kinds[c->cfg.lru]->name);
	if (c->left_out) {
		fputs("rows left out, their events not recorded on this kernel (no tracepoint): ", f);
		ft_print_unrecorded(f, c->left_out, false);
		fputs("\n", f);
	}
	fprintf(f, "dirty: background %u%%, ratio %u%%, expire %" PRIu64 " cs, flusher %" PRIu64
		" cs; %" PRIu64 " accesses, %" PRIu64 " events lost\n\n",
		c->cfg.dirty_background_ratio, c->cfg.dirty_ratio,
		c->cfg.dirty_expire_ns / 10000000, c->cfg.writeback_period_ns / 10000000,
		c->accesses, c->lost);
}

int calib_write_table(FILE *f, const struct calibration *c)
{
	char err[24];

	table_header(f, c);
	fprintf(f, "%-32s %10s %10s %8s  %-40s %s\n", "metric", "model", "kernel", "error",
		"kernel source", "scope");
	for (unsigned i = 0; i < c->nrows; i++) {
		const struct calib_row *r = &c->rows[i];

		format_error(r, err, sizeof(err));
		fprintf(f, "%-32s %10" PRIu64 " %10" PRIu64 " %8s  %-40s %s\n", r->metric,
			r->model, r->kernel, err, r->source, calib_scope_name(r->scope));
	}
	fprintf(f, "\nsystem-wide figures count other tasks too: the model's should be below "
		"them.\n");
	if (c->by_file)
		return calib_write_files_table(f, c);
	return ferror(f) ? -1 : 0;
}

static void json_config(FILE *f, const struct calibration *c)
{
	fprintf(f, "  \"config\": {\n");
	fprintf(f, "    \"memory_bytes\": %" PRIu64 ",\n", c->cfg.memory_bytes);
	fprintf(f, "    \"cgroup_limit\": %s,\n", c->cgroup_limit ? "true" : "false");
	fprintf(f, "    \"ra_pages\": %u,\n", c->cfg.ra_pages);
	fprintf(f, "    \"ra_rule\": \"%s\",\n", ra_rule_name(c->cfg.ra_rule));
	fprintf(f, "    \"max_order\": %u,\n", c->cfg.order);
	fprintf(f, "    \"files_with_kernel_order\": %u,\n", c->nfiles_ordered);
	fprintf(f, "    \"files_readahead_off\": %u,\n", c->nfiles_ra_off);
	fprintf(f, "    \"files\": \"%s\",\n", c->skip_mmapped ? "syscalls" : "all");
	fprintf(f, "    \"files_left_out\": %u,\n", c->skipped_files);
	fprintf(f, "    \"start_folios\": \"%s\",\n",
		model_start_folios[c->cfg.start_folios]->name);
	fprintf(f, "    \"tmpfs_files_unseen\": %u,\n", c->shmem_unseen);
	fprintf(f, "    \"kernel_lru\": %s,\n", c->kernel_lru_gen < 0 ? "null" :
		c->kernel_lru_gen & 1 ? "\"mglru\"" : "\"two-list\"");
	fprintf(f, "    \"model_lru\": \"%s\",\n", model_lru_kinds[c->cfg.lru]->name);
	fprintf(f, "    \"rows_left_out\": [");
	ft_print_unrecorded(f, c->left_out, true);
	fprintf(f, "],\n");
	fprintf(f, "    \"dirty_background_ratio\": %u,\n", c->cfg.dirty_background_ratio);
	fprintf(f, "    \"dirty_ratio\": %u,\n", c->cfg.dirty_ratio);
	fprintf(f, "    \"dirty_expire_ns\": %" PRIu64 ",\n", c->cfg.dirty_expire_ns);
	fprintf(f, "    \"dirty_writeback_ns\": %" PRIu64 "\n", c->cfg.writeback_period_ns);
	fprintf(f, "  },\n");
}

static void json_row(FILE *f, const struct calib_row *r, bool last)
{
	double e;

	fprintf(f, "    {\"metric\": ");
	ft_json_string(f, r->metric);
	fprintf(f, ", \"source\": ");
	ft_json_string(f, r->source);
	fprintf(f, ", \"model\": %" PRIu64 ", \"kernel\": %" PRIu64 ", \"error\": ", r->model,
		r->kernel);
	if (calib_rel_error(r, &e))
		fprintf(f, "%.6f", e);
	else
		fprintf(f, "null");
	fprintf(f, ", \"scope\": \"%s\", \"upper_bound\": %s}%s\n",
		r->scope == CALIB_TRACE ? "trace" :
		r->scope == CALIB_CGROUP || r->scope == CALIB_CGROUP_BOUND ? "cgroup" :
		r->scope == CALIB_MEMORY ? "memory" : "system",
		r->scope == CALIB_SYSTEM || r->scope == CALIB_CGROUP_BOUND ? "true" : "false",
		last ? "" : ",");
}

int calib_write_json(FILE *f, const struct calibration *c)
{
	fprintf(f, "{\n  \"format\": \"folio-trace-calibrate\",\n  \"version\": 1,\n");
	fprintf(f, "  \"trace\": {\"path\": ");
	ft_json_string(f, c->path);
	fprintf(f, ", \"release\": ");
	ft_json_string(f, c->release);
	fprintf(f, ", \"accesses\": %" PRIu64 ", \"lost_events\": %" PRIu64
		", \"truncated\": %s},\n", c->accesses, c->lost, c->truncated ? "true" : "false");
	json_config(f, c);
	if (c->by_file)
		calib_write_files_json(f, c);
	fprintf(f, "  \"metrics\": [\n");
	for (unsigned i = 0; i < c->nrows; i++)
		json_row(f, &c->rows[i], i + 1 == c->nrows);
	fprintf(f, "  ]\n}\n");
	return ferror(f) ? -1 : 0;
}
