/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/replay.h"
#include "replay/units.h"
#include "util/grow.h"

int replay_units_init(struct replay_units *u, enum top_by by)
{
	static const enum report_unit_kind kinds[] = {
		[TOP_BY_FILE] = UNIT_FILE, [TOP_BY_PROCESS] = UNIT_PROCESS,
		[TOP_BY_CGROUP] = UNIT_CGROUP,
	};

	memset(u, 0, sizeof(*u));
	u->kind = kinds[by];
	if (top_tally_init(&u->tally, by))
		return -1;
	if (ft_filewb_init(&u->wb) || u64map_init(&u->key_unit, 64)) {
		replay_units_release(u);
		return -1;
	}
	return 0;
}

void replay_units_release(struct replay_units *u)
{
	top_tally_release(&u->tally);
	ft_filewb_free(&u->wb);
	u64map_free(&u->key_unit);
	free(u->units);
	free(u->rows);
	free(u->figures);
	u->units = NULL;
	u->rows = NULL;
	u->figures = NULL;
}

int replay_units_note(struct replay_units *u, const struct ft_hdr *h)
{
	if (top_tally_add(&u->tally, h) < 0)
		return -1;
	if (h->type == FT_TASK || h->type == FT_CGROUP)
		u->last_valid = false;	/* a thread's pid or cgroup may have changed */
	if (h->type == FT_TASK)
		u->tasks_with_cgroup += ft_task_cgroup((const void *)h) != 0;
	/* the writeback records, the devices: enough to say whether a device's count is known */
	if (h->type == FT_HOST || h->type == FT_WRITEBACK)
		return ft_filewb_note(&u->wb, h);
	return 0;
}

/* The unit of the tally's row key (id: the pid or cgroup id it stands for). */
static uint32_t unit_of_key(struct replay_units *u, uint64_t key, uint64_t id)
{
	struct replay_unit_key *units;
	uint64_t *slot;
	bool added;

	slot = u64map_get_or_add(&u->key_unit, key, 0, &added);
	if (!slot)
		return UINT32_MAX;
	if (*slot)
		return (uint32_t)(*slot - 1);
	units = ft_grow(u->units, &u->cap, u->nunits, sizeof(*units), 64);
	if (!units)
		return UINT32_MAX;
	u->units = units;
	units[u->nunits] = (struct replay_unit_key){ .key = key, .id = id };
	*slot = ++u->nunits;
	return u->nunits - 1;
}

uint32_t replay_units_of_tid(struct replay_units *u, uint32_t tid)
{
	const uint64_t *pid = u64map_find(&u->tally.task_pid, tid);
	uint64_t p = pid ? *pid : tid;
	char name[TOP_NAME_LEN];
	uint32_t unit;

	if (u->last_valid && u->last_tid == tid)
		return u->last_unit;
	if (u->kind == UNIT_CGROUP) {
		uint64_t id = top_tally_cgroup_of(&u->tally, tid);

		unit = unit_of_key(u, top_tally_cgroup_key(&u->tally, id, (uint32_t)p, name,
							   sizeof(name)), id);
	} else {
		unit = unit_of_key(u, p, p);
	}
	u->last_tid = tid;
	u->last_unit = unit;
	u->last_valid = unit != UINT32_MAX;
	return unit;
}

uint32_t replay_units_of_cgroup(struct replay_units *u, uint64_t id)
{
	char name[TOP_NAME_LEN];

	if (u->kind != UNIT_CGROUP)
		return UINT32_MAX;
	return unit_of_key(u, top_tally_cgroup_key(&u->tally, id, 0, name, sizeof(name)), id);
}

/* The kernel's figures of the unit with this tally key, and its name. */
static void kernel_figures(struct replay_units *u, struct report_unit *r, uint64_t key)
{
	const uint64_t *row = u64map_find(&u->tally.row_of, key);
	const struct top_row *t;

	if (!row)
		return;
	t = &u->tally.rows[*row - 1];
	r->name = t->name;
	for (unsigned o = 0; o < TOP_ORDERS && o < REPORT_UNIT_ORDERS; o++)
		r->kernel_inserted[o] = t->total.inserted[o];
	r->kernel_written_back = t->total.written_back_bytes;
	r->kernel_refaults = t->total.refaulted_pages;
}

/* A file only named by the trace (no access, no kernel event) is left out. */
static bool has_figures(const struct report_unit *r, unsigned ncols)
{
	static const struct model_unit none;

	for (unsigned c = 0; c < ncols; c++)
		if (memcmp(&r->m[c], &none, sizeof(none)))
			return true;
	for (unsigned o = 0; o < REPORT_UNIT_ORDERS; o++)
		if (r->kernel_inserted[o])
			return true;
	return r->kernel_written_back != 0;
}

int replay_units_report(struct replay_units *u, const struct replay *rp,
			enum report_unit_sort sort, uint32_t top, struct report_units *out)
{
	uint32_t n = u->kind != UNIT_FILE ? u->nunits : (uint32_t)rp->files.nfiles;
	unsigned ncols = rp->no_models ? 0 : rp->ncfg;

	*out = (struct report_units){ .kind = u->kind, .sort = sort, .top = top,
				      .cols = rp->cols, .ncols = ncols };
	u->rows = calloc(n ? n : 1, sizeof(*u->rows));
	u->figures = calloc((size_t)(n ? n : 1) * (ncols ? ncols : 1), sizeof(*u->figures));
	if (!u->rows || !u->figures)
		return -1;
	for (unsigned c = 0; c < ncols; c++) {
		uint32_t nu = 0;
		bool oom = false;
		const struct model_unit *mu = rp->models[c] ?
					      model_units(rp->models[c], &nu, &oom) : NULL;

		out->incomplete |= oom;
		for (uint32_t i = 0; i < n && i < nu; i++)
			u->figures[(size_t)i * ncols + c] = mu[i];
	}
	for (uint32_t i = 0; i < n; i++) {
		struct report_unit *r = &u->rows[out->nrows];

		memset(r, 0, sizeof(*r));	/* the slot of a unit left out before */
		r->m = &u->figures[(size_t)i * ncols];
		r->name = "?";
		if (u->kind != UNIT_FILE) {
			r->id = u->units[i].id;
			kernel_figures(u, r, u->units[i].key);
			/* by the task the file system wrote back in (fsync; not the flusher's) */
			r->kernel_wb_known = u->wb.ncounted > 0;
		} else {
			const struct file_info *fi = &rp->files.files[i];

			r->dev = fi->dev;
			r->ino = fi->ino;
			kernel_figures(u, r, tally_file_key(fi->dev, fi->ino, fi->gen));
			r->kernel_wb_known = ft_filewb_count(&u->wb, fi->dev) != FT_WB_COUNT_UNKNOWN;
		}
		r->kernel_refaults_known = rp->refault_events;
		if (has_figures(r, ncols))
			out->nrows++;
	}
	out->rows = u->rows;
	out->total = out->nrows;
	report_units_sort(out);
	return 0;
}
