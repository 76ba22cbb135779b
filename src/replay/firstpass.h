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
#include "util/error.h"

/* Either of cgroups and start_folios may be NULL: not wanted. 0, or -1 with err set. */
int replay_first_pass(const char *path, struct replay_cgroups *cgroups,
		      struct replay_start_folios *start_folios, struct ft_error *err);

#endif /* FT_REPLAY_FIRSTPASS_H */
