/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The first pass over a trace file: one read, before the replay's, for what the replay must
 * know before its first access: the memory cgroups with accesses (cgroups.h) and the start
 * state's folios the kernel's deletes show (startfolios.h). Standard input cannot be read
 * twice: the caller passes only files.
 */
#ifndef FT_REPLAY_FIRSTPASS_H
#define FT_REPLAY_FIRSTPASS_H

#include "replay/cgroups.h"
#include "replay/startfolios.h"
#include "trace/trace.h"
#include "util/error.h"

/* Either of cgroups and start_folios may be NULL: not wanted. 0, or -1 with err set. */
int replay_first_pass(const char *path, struct replay_cgroups *cgroups,
		      struct replay_start_folios *start_folios, struct ft_error *err);

/*
 * The same surveys fed by a read of the trace made for something else (calibrate's read of
 * the kernel's facts), which then spares its replay the first pass: begin with the status of
 * that read's reader (its format says what the records hold), note each record while
 * first_pass_wants(), finish at the end. begin, note and finish are -1 when memory ran out;
 * first_pass_free() after any of them.
 */
struct first_pass {
	struct replay_cgroups *cgroups;
	struct cgroups_survey *cs;
	struct replay_start_folios *start_folios;
	bool feed_cgroups, feed_folios;
};

int first_pass_begin(struct first_pass *fp, const struct ft_reader_status *st,
		     struct replay_cgroups *cgroups, struct replay_start_folios *start_folios);
static inline bool first_pass_wants(const struct first_pass *fp)
{
	return fp->feed_cgroups || fp->feed_folios;
}
int first_pass_note(struct first_pass *fp, const struct ft_hdr *h);
int first_pass_finish(struct first_pass *fp);
void first_pass_free(struct first_pass *fp);

#endif /* FT_REPLAY_FIRSTPASS_H */
