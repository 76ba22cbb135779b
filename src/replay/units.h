/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * replay --by=file|process|cgroup: the driver's side. Each access gets its unit (a process:
 * the pid of its thread, from the trace's FT_TASK records; a cgroup: the memory cgroup they
 * name, as FT_CGROUP records name it; as a dense index), the models count per unit, and the
 * kernel's own figures per unit come from the trace's events through the same tally `top`
 * keeps (top/tally.h), which also names the units.
 */
#ifndef FT_REPLAY_UNITS_H
#define FT_REPLAY_UNITS_H

#include <stdbool.h>
#include <stdint.h>

#include "report/units.h"
#include "top/tally.h"
#include "trace/filewb.h"
#include "util/u64map.h"

struct replay;

struct replay_units {
	enum report_unit_kind kind;
	struct top_tally tally;		/* the kernel's figures, names, tid -> pid and cgroup */
	struct ft_filewb wb;		/* whether a device's writeback is counted */
	struct u64map key_unit;		/* the tally's row key -> unit + 1 */
	struct replay_unit_key {
		uint64_t key;		/* the tally's row key */
		uint64_t id;		/* the pid or cgroup id */
	} *units;
	uint32_t nunits;
	size_t cap;
	/* the unit of the last access's thread, until a task or cgroup record */
	uint32_t last_tid, last_unit;
	bool last_valid;
	/* tasks with a recorded cgroup: without any, --by=cgroup has only "?" */
	uint64_t tasks_with_cgroup;
	/* the report's rows and the models' figures they point to */
	struct report_unit *rows;
	struct model_unit *figures;
};

int replay_units_init(struct replay_units *u, enum top_by by);
void replay_units_release(struct replay_units *u);
/* Every record of the trace, in order. -1: out of memory. */
int replay_units_note(struct replay_units *u, const struct ft_hdr *h);
/* The unit of an access of thread tid (by process or cgroup); UINT32_MAX when out of memory. */
uint32_t replay_units_of_tid(struct replay_units *u, uint32_t tid);
/* --by=cgroup: the unit of the cgroup id; UINT32_MAX for none (another kind, out of memory). */
uint32_t replay_units_of_cgroup(struct replay_units *u, uint64_t id);
/* After replay_file(), before replay_release(): the report's rows, sorted and cut. -1: ENOMEM. */
int replay_units_report(struct replay_units *u, const struct replay *rp,
			enum report_unit_sort sort, uint32_t top, struct report_units *out);

#endif
