// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The HTML page of folio-trace report (page.h). It adds markup only: every figure on it is
 * text another renderer wrote, so the page and the terminal never disagree.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "model/params.h"
#include "report/page.h"
#include "util/escape.h"

/*
 * Nothing may be fetched: the page is read from a file:// URL, offline, years later. The
 * policy makes any attempt an error a browser reports, which the tests look for.
 */
static const char page_head[] =
	"<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	"<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
	"style-src 'unsafe-inline'\">\n"
	"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";

static const char page_style[] =
	"<style>\n"
	"body { font-family: sans-serif; margin: 0 auto; max-width: 1000px; padding: 0 1em 2em;"
	" color: #222; background: #fff; line-height: 1.4; }\n"
	"h1 { font-size: 1.5em; margin-bottom: 0.2em; }\n"
	"h2 { font-size: 1.2em; border-bottom: 1px solid #ccc; margin-top: 2em; }\n"
	"pre { background: #f6f6f6; padding: 0.6em; overflow-x: auto; font-size: 0.85em;"
	" line-height: 1.25; }\n"
	"#verdict pre { background: #eef4fb; border-left: 4px solid #1f77b4; font-size: 0.95em; }\n"
	"svg { max-width: 100%; height: auto; display: block; margin: 0.5em 0; }\n"
	"nav a { margin-right: 1em; }\n"
	"code { background: #f0f0f0; padding: 0 0.2em; }\n"
	"table { border-collapse: collapse; font-size: 0.9em; }\n"
	"td, th { border-bottom: 1px solid #ddd; padding: 0.15em 0.8em 0.15em 0; text-align: left;"
	" vertical-align: top; }\n"
	".why { color: #555; font-style: italic; }\n"
	"</style>\n";

/* Text as HTML character data or an attribute value: n bytes of s. */
static void put_text_n(FILE *f, const char *s, size_t n)
{
	for (const char *end = s + n; s < end; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		default:
			fputc(*s, f);
		}
	}
}

static void put_text(FILE *f, const char *s)
{
	put_text_n(f, s, strlen(s));
}

/* An untrusted name (a path): no control byte or broken UTF-8 on the page either. */
static void put_name(FILE *f, const char *s)
{
	char buf[4 * 4096 + 1];

	put_text(f, ft_escape(buf, sizeof(buf), s, strlen(s)));
}

/* A renderer's lines as they are, without the blank lines that end them on a terminal. */
static void put_pre(FILE *f, const char *text)
{
	size_t n = strlen(text);

	while (n && text[n - 1] == '\n')
		n--;
	fputs("<pre>", f);
	put_text_n(f, text, n);
	fputs("</pre>\n", f);
}

/* A command that gives the section on a terminal, to copy. */
static void put_command(FILE *f, const char *before, const struct report_page *p,
			const char *after)
{
	fputs("<p>On a terminal: <code>", f);
	put_text(f, before);
	fputc(' ', f);
	put_name(f, p->trace_path);
	put_text(f, after);
	fputs("</code></p>\n", f);
}

/* An SVG document inline: its XML declaration has no place inside HTML. */
static void put_svg(FILE *f, const char *svg)
{
	const char *start = strstr(svg, "<svg");

	fputs(start ? start : "", f);
	fputc('\n', f);
}

static void put_why_not(FILE *f, const char *why)
{
	fputs("<p class=\"why\">", f);
	put_text(f, why);
	fputs("</p>\n", f);
}

static void section_begin(FILE *f, const char *id, const char *title)
{
	fprintf(f, "<section id=\"%s\">\n<h2>%s</h2>\n", id, title);
}

static const struct {
	const char *id, *title;
} sections[] = {
	{ "verdict", "Verdict" },
	{ "orders", "Each order" },
	{ "curves", "Against memory" },
	{ "time", "Over time" },
	{ "files", "Top files" },
	{ "calibration", "Calibration" },
	{ "settings", "Model settings" },
};

static void put_header(FILE *f, const struct report_page *p)
{
	fputs("<title>folio-trace report: ", f);
	put_name(f, p->trace_path);
	fputs("</title>\n", f);
	fputs(page_style, f);
	fputs("</head>\n<body>\n<h1>folio-trace report: ", f);
	put_name(f, p->trace_path);
	fputs("</h1>\n<nav>", f);
	for (unsigned i = 0; i < sizeof(sections) / sizeof(sections[0]); i++)
		fprintf(f, "<a href=\"#%s\">%s</a>", sections[i].id, sections[i].title);
	fputs("</nav>\n", f);
}

static void put_value(FILE *f, const struct model_param *mp, const struct model_config *c)
{
	struct model_param_value v = model_param_get(mp, c);

	switch (v.kind) {
	case PV_NUMBER:
		fprintf(f, "%" PRIu64, v.u);
		break;
	case PV_REAL:
		fprintf(f, "%g", v.d);
		break;
	case PV_NAME:
		put_text(f, v.name ? v.name : "-");
		break;
	case PV_BOOL:
		fputs(v.b ? "yes" : "no", f);
		break;
	}
	if (mp->unit && v.kind != PV_NAME && v.kind != PV_BOOL) {
		fputc(' ', f);
		put_text(f, mp->unit);
	}
}

/* Every setting of the model, its option beside it, as the replay ran it. */
static void put_settings(FILE *f, const struct model_config *c)
{
	fputs("<table>\n<tr><th>setting</th><th>option</th><th>value</th></tr>\n", f);
	for (unsigned i = 0; i < model_nr_params; i++) {
		const struct model_param *mp = &model_params[i];

		fputs("<tr><td>", f);
		put_text(f, mp->key);
		fputs("</td><td>", f);
		if (mp->option) {
			fputs("--", f);
			put_text(f, mp->option);
		} else {
			fputs("(from the trace)", f);
		}
		fputs("</td><td>", f);
		put_value(f, mp, c);
		fputs("</td></tr>\n", f);
	}
	fputs("</table>\n", f);
}

static void put_curves(FILE *f, const struct report_page *p)
{
	char after[128];

	if (!p->curves_svg) {
		put_why_not(f, p->curves_why_not ? p->curves_why_not : "no curves");
		return;
	}
	put_svg(f, p->curves_svg);
	put_pre(f, p->curves_text);
	snprintf(after, sizeof(after), " --memory=%s", p->sweep ? p->sweep : "");
	put_command(f, "folio-trace replay", p, after);
}

static void put_calibration(FILE *f, const struct report_page *p)
{
	fputs("<p id=\"trust\">", f);
	put_text(f, p->trust);
	fputs("</p>\n", f);
	if (p->calibration_text) {
		put_pre(f, p->calibration_text);
		put_command(f, "folio-trace calibrate", p, "");
	}
}

int report_write_page(FILE *f, const struct report_page *p)
{
	fputs(page_head, f);
	put_header(f, p);

	section_begin(f, "verdict", "Verdict");
	put_pre(f, p->verdict);
	put_command(f, "folio-trace replay", p, "");
	fputs("</section>\n", f);

	section_begin(f, "orders", "Each order");
	put_pre(f, p->details);
	put_command(f, "folio-trace replay", p, " --all");
	fputs("</section>\n", f);

	section_begin(f, "curves", "Against memory");
	put_curves(f, p);
	fputs("</section>\n", f);

	section_begin(f, "time", "Over time");
	if (p->time_svg)
		put_svg(f, p->time_svg);
	else
		put_why_not(f, "no time series");
	put_command(f, "folio-trace replay", p, " --plot=plot.svg");
	fputs("</section>\n", f);

	section_begin(f, "files", "Top files");
	put_pre(f, p->files_text ? p->files_text : "");
	put_command(f, "folio-trace replay", p, " --by=file");
	fputs("</section>\n", f);

	section_begin(f, "calibration", "Calibration");
	put_calibration(f, p);
	fputs("</section>\n", f);

	section_begin(f, "settings", "Model settings");
	if (p->cfg)
		put_settings(f, p->cfg);
	fputs("</section>\n", f);

	fputs("<footer><p>Written by folio-trace ", f);
	put_text(f, p->version);
	fputs("; man folio-trace-report and folio-trace-analysis say how to read it.</p>"
	      "</footer>\n</body>\n</html>\n", f);
	return ferror(f) ? -1 : 0;
}
