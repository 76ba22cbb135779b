/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "util/json.h"

void ft_json_string_n(FILE *f, const char *s, size_t max, unsigned flags)
{
	fputc('"', f);
	for (size_t i = 0; s && i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\') {
			fprintf(f, "\\%c", c);
		} else if (c < 0x20 || (c >= 0x7f && (flags & FT_JSON_ASCII))) {
			fprintf(f, "\\u%04x", c);
		} else if (c == 0xc2 && i + 1 < max && (unsigned char)s[i + 1] >= 0x80 &&
			   (unsigned char)s[i + 1] <= 0x9f) {
			/* a C1 control (U+0080..U+009F: CSI among them) spelled out too */
			fprintf(f, "\\u%04x", (unsigned char)s[++i]);
		} else {
			fputc(c, f);
		}
	}
	fputc('"', f);
}
