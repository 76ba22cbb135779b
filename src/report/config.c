/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <string.h>

#include "report/config.h"

const struct config_name config_policy_names[] = {
	{ "fixed", FOLIO_POLICY_FIXED },
	{ "readahead", FOLIO_POLICY_READAHEAD },
	{ NULL, 0 },
};

const struct config_name config_write_policy_names[] = {
	{ "sized", WRITE_POLICY_SIZED },
	{ "fixed", WRITE_POLICY_FIXED },
	{ NULL, 0 },
};

const struct config_name config_lru_names[] = {
	{ "two-list", LRU_TWO_LIST },
	{ "plain", LRU_PLAIN },
	{ NULL, 0 },
};

const struct config_name config_dirty_names[] = {
	{ "folio", DIRTY_FOLIO },
	{ "block", DIRTY_BLOCK },
	{ NULL, 0 },
};

const struct config_name config_fallback_names[] = {
	{ "smaller", ALLOC_FALLBACK_SMALLER },
	{ "compact", ALLOC_FALLBACK_COMPACT },
	{ NULL, 0 },
};

/* named by the first kernel release that behaves so */
const struct config_name config_ra_rule_names[] = {
	{ "6.6", RA_RULE_6_6 },
	{ "6.17", RA_RULE_6_17 },
	{ NULL, 0 },
};

int config_lookup(const struct config_name *tbl, const char *name)
{
	for (; tbl->name; tbl++)
		if (strcmp(tbl->name, name) == 0)
			return tbl->value;
	return -1;
}

const char *config_name_of(const struct config_name *tbl, int value)
{
	for (; tbl->name; tbl++)
		if (tbl->value == value)
			return tbl->name;
	return "?";
}

const char *config_choices(const struct config_name *tbl, char *buf, unsigned len)
{
	unsigned used = 0;

	buf[0] = '\0';
	for (; tbl->name && used < len; tbl++) {
		int n = snprintf(buf + used, len - used, "%s%s", used ? "|" : "", tbl->name);

		if (n < 0)
			break;
		used += (unsigned)n;
	}
	return buf;
}
