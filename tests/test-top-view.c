/*
 * top's text view at 80x24 on a shipped trace: nothing wider than the terminal, nothing past
 * its last line but one (a newline there scrolls the title away), the name first and cut in
 * its middle, the sort column marked, the help in place of the rows, and no dangling "in
 * folios of order" when nothing was inserted.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "top/tally.h"
#include "top/view.h"
#include "trace/trace.h"

/* The whole trace as one interval of the tally. */
static int tally_trace(struct top_tally *t, const char *path)
{
	struct ft_error err;
	struct ft_reader *r = ft_reader_open(path, &err);
	const struct ft_hdr *h;
	int rc;

	if (!r) {
		diag("%s", err.msg);
		return -1;
	}
	while ((rc = ft_reader_next(r, &h, &err)) == FT_READ_MORE)
		if (top_tally_add(t, h))
			break;
	ft_reader_close(r);
	return rc == FT_READ_EOF ? 0 : -1;
}

static char *render(const struct top_view *v, const struct top_tally *t)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	top_view_text(f, v, t, 1, 2.0);
	fclose(f);
	return buf;
}

/* Lines and the widest of them. */
static unsigned count_lines(const char *s, unsigned *widest)
{
	unsigned n = 0;

	*widest = 0;
	while (*s) {
		size_t len = strcspn(s, "\n");

		if (len > *widest)
			*widest = (unsigned)len;
		n++;
		s += len + (s[len] == '\n');
	}
	return n;
}

static const char *line_after(const char *s, const char *prefix)
{
	const char *p = strstr(s, prefix);

	return p ? strchr(p, '\n') + 1 : NULL;
}

static void test_screen(const struct top_tally *t)
{
	struct top_view v = { .sort = TOP_COL_INSERTED, .width = 80, .height = 24 };
	char *s = render(&v, t), first[128];
	const char *heads, *row;
	unsigned widest, n = count_lines(s, &widest);

	ok(widest <= 80, "80 columns: no line wider (%u)", widest);
	is_u64(n, 23, "24 lines: the screen filled to the last line but one");
	snprintf(first, sizeof(first), "%.*s", (int)strcspn(s, "\n"), s);
	is_str(first, "folio-trace top: the whole system, interval 1 (2.0 s)",
	       "the title on the first line");
	ok(strstr(s, "\nby file, sorted by INSERTED\n") != NULL,
	   "the sort column named on the second, whole at 80 columns");
	heads = strstr(s, "\nNAME ");
	ok(heads != NULL, "NAME is the first column");
	ok(heads && strstr(heads, " *INSERTED") && strstr(heads, " O9+") &&
	   strstr(heads, " READ"), "the sort column marked, orders and bytes kept");
	row = line_after(s, "\nNAME ");
	/* the trace's longest paths lose their middle, keeping directory and file */
	ok(row && strstr(s, "/var/tmp/ft-t...") == NULL, "names cut in the middle, not the end");
	ok(strstr(s, "...") != NULL, "a long name shows the cut");
	free(s);

	v.width = 0;
	v.height = 0;
	s = render(&v, t);
	ok(strstr(s, " RA\n") != NULL, "no width: every column, RA last");
	ok(strstr(s, "...") == NULL, "no width: names whole");
	free(s);

	v.width = 80;
	v.height = 24;
	v.sort = TOP_COL_NAME;
	s = render(&v, t);
	ok(strstr(s, "\n*NAME ") != NULL, "sorted by name: the name marked");
	free(s);

	v.help = true;
	s = render(&v, t);
	ok(strstr(s, "  h or ?   this help") && strstr(s, "\nNAME ") == NULL,
	   "help: the keys instead of the rows");
	count_lines(s, &widest);
	ok(widest <= 80, "help: 80 columns (%u)", widest);
	free(s);
}

static void test_nothing_inserted(void)
{
	struct top_tally t;
	struct top_view v = { .sort = TOP_COL_INSERTED };
	char *s;

	top_tally_init(&t, TOP_BY_FILE);
	s = render(&v, &t);
	ok(strstr(s, "\ninserted 0 pages\n") != NULL,
	   "nothing inserted: \"inserted 0 pages\" alone");
	ok(strstr(s, "in folios of order") == NULL, "no dangling \"in folios of order\"");
	free(s);
	top_tally_release(&t);
}

int main(void)
{
	const char *top = getenv("TOP_SRCDIR");
	char path[4096];
	struct top_tally t;

	if (!top)
		tap_skip_all("run through make check (TOP_SRCDIR)");
	snprintf(path, sizeof(path), "%s/traces/git-small-files.ftr", top);
	if (top_tally_init(&t, TOP_BY_FILE) || tally_trace(&t, path)) {
		ok(0, "tally of %s", path);
		return done_testing();
	}
	test_screen(&t);
	top_tally_release(&t);
	test_nothing_inserted();
	return done_testing();
}
