/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names of the model's configuration choices, both ways: the option parser reads them and
 * every report prints them, from the one table each.
 */
#ifndef FT_REPORT_CONFIG_H
#define FT_REPORT_CONFIG_H

#include "model/model.h"

struct config_name {
	const char *name;
	int value;
};

extern const struct config_name config_policy_names[];
extern const struct config_name config_write_policy_names[];
extern const struct config_name config_lru_names[];
extern const struct config_name config_dirty_names[];
extern const struct config_name config_fallback_names[];
extern const struct config_name config_ra_rule_names[];

/* Value of name in the NULL-terminated table, or -1. */
int config_lookup(const struct config_name *tbl, const char *name);
/* Name of value, or "?". */
const char *config_name_of(const struct config_name *tbl, int value);
/* "a|b|c" for usage messages, into buf. */
const char *config_choices(const struct config_name *tbl, char *buf, unsigned len);

#endif /* FT_REPORT_CONFIG_H */
