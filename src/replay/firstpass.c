// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The first pass over a trace file: firstpass.h. Each survey takes the records until it has
 * found all it can; the read stops when none wants more.
 */
#include "replay/firstpass.h"

static bool format_before(const struct ft_reader_status *st, unsigned minor)
{
	return st->version_major == 1 && st->version_minor < minor;
}

int replay_first_pass(const char *path, struct replay_cgroups *cgroups,
		      struct replay_start_folios *start_folios, struct ft_error *err)
{
	struct cgroups_survey *cs = NULL;
	struct ft_reader_status st;
	bool feed_cgroups, feed_folios;
	const struct ft_hdr *h;
	struct ft_reader *r;
	int ret = FT_READ_EOF, rc = -1;

	r = ft_reader_open(path, err);
	if (!r)
		return -1;
	ft_reader_status(r, &st);
	if ((cgroups && !(cs = cgroups_survey_begin(cgroups))) ||
	    (start_folios && start_folios_begin(start_folios) < 0))
		goto oom;
	/* cgroups are in traces of format 1.1 on, start records in those of 1.3 on */
	feed_cgroups = cgroups && !format_before(&st, 1);
	feed_folios = start_folios && !format_before(&st, 3);
	while (feed_cgroups || feed_folios) {
		int got;

		if ((ret = ft_reader_next(r, &h, err)) != FT_READ_MORE)
			break;

		if (feed_cgroups && (got = cgroups_survey_note(cs, h)) != 0) {
			if (got < 0)
				goto oom;
			feed_cgroups = false;
		}
		if (feed_folios && (got = start_folios_note(start_folios, h)) != 0) {
			if (got < 0)
				goto oom;
			feed_folios = false;
		}
	}
	if (ret == FT_READ_ERROR)
		goto out;
	if (cs && cgroups_survey_finish(cs, cgroups) < 0)
		goto oom;
	if (start_folios)
		start_folios_finish(start_folios);
	rc = 0;
	goto out;
oom:
	ft_error_set(err, path, "out of memory for the trace's first pass");
out:
	cgroups_survey_free(cs);
	ft_reader_close(r);
	return rc;
}
