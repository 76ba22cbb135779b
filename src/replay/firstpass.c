// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The first pass over a trace file: firstpass.h. Each survey takes the records until it has
 * found all it can; the read stops when none wants more.
 */
#include <string.h>

#include "replay/firstpass.h"

static bool format_before(const struct ft_reader_status *st, unsigned minor)
{
	return st->version_major == 1 && st->version_minor < minor;
}

int first_pass_begin(struct first_pass *fp, const struct ft_reader_status *st,
		     struct replay_cgroups *cgroups, struct replay_start_folios *start_folios)
{
	memset(fp, 0, sizeof(*fp));
	fp->cgroups = cgroups;
	fp->start_folios = start_folios;
	if ((cgroups && !(fp->cs = cgroups_survey_begin(cgroups))) ||
	    (start_folios && start_folios_begin(start_folios) < 0))
		return -1;
	/* cgroups are in traces of format 1.1 on, start records in those of 1.3 on */
	fp->feed_cgroups = cgroups && !format_before(st, 1);
	fp->feed_folios = start_folios && !format_before(st, 3);
	return 0;
}

int first_pass_note(struct first_pass *fp, const struct ft_hdr *h)
{
	int got;

	if (fp->feed_cgroups && (got = cgroups_survey_note(fp->cs, h)) != 0) {
		if (got < 0)
			return -1;
		fp->feed_cgroups = false;
	}
	if (fp->feed_folios && (got = start_folios_note(fp->start_folios, h)) != 0) {
		if (got < 0)
			return -1;
		fp->feed_folios = false;
	}
	return 0;
}

int first_pass_finish(struct first_pass *fp)
{
	if (fp->cs && cgroups_survey_finish(fp->cs, fp->cgroups) < 0)
		return -1;
	if (fp->start_folios)
		start_folios_finish(fp->start_folios);
	return 0;
}

void first_pass_free(struct first_pass *fp)
{
	cgroups_survey_free(fp->cs);
	fp->cs = NULL;
}

int replay_first_pass(const char *path, struct replay_cgroups *cgroups,
		      struct replay_start_folios *start_folios, struct ft_error *err)
{
	struct ft_reader_status st;
	struct first_pass fp;
	const struct ft_hdr *h;
	struct ft_reader *r;
	int ret = FT_READ_EOF, rc = -1;

	r = ft_reader_open(path, err);
	if (!r)
		return -1;
	ft_reader_status(r, &st);
	if (first_pass_begin(&fp, &st, cgroups, start_folios) < 0)
		goto oom;
	while (first_pass_wants(&fp)) {
		if ((ret = ft_reader_next(r, &h, err)) != FT_READ_MORE)
			break;
		if (first_pass_note(&fp, h) < 0)
			goto oom;
	}
	if (ret == FT_READ_ERROR)
		goto out;
	if (first_pass_finish(&fp) < 0)
		goto oom;
	rc = 0;
	goto out;
oom:
	ft_error_set(err, path, "out of memory for the trace's first pass");
out:
	first_pass_free(&fp);
	ft_reader_close(r);
	return rc;
}
