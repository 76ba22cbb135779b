/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The model's configuration table: one row per field of struct model_config with its name,
 * type, default, bounds, unit, help text and where a recorded trace supplies it. The table
 * drives the defaults (model_config_defaults), the checks (model_new), the command-line
 * options of replay and calibrate (--help and parsing, src/replay/options.c) and the
 * configuration every report prints. A new option is one row here and the code that uses
 * the field.
 */
#ifndef FT_MODEL_PARAMS_H
#define FT_MODEL_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/model.h"
#include "model/variants.h"

/* How an option's value is written. */
enum param_syntax {
	PARAM_NUMBER,		/* a decimal integer */
	PARAM_SIZE,		/* bytes, with K, M, G, T suffixes (binary) */
	PARAM_CENTISECS,	/* as the vm.dirty_*_centisecs sysctls, or a duration */
	PARAM_DURATION,		/* a number with ns, us, ms, s (default), m or h */
	PARAM_PERCENT,		/* a decimal number */
	PARAM_CHOICE,		/* the name of a row of a variation point */
	PARAM_OFF,		/* an option without value that turns the field off */
	PARAM_ON,		/* an option without value that turns it on (off by default) */
	PARAM_DEVICE,		/* a device class or lat=US,bw=MBPS: sets latency and bandwidth */
};

/* How the field is stored in struct model_config (enums are stored as unsigned). */
enum param_store { PARAM_U32, PARAM_U64, PARAM_DOUBLE, PARAM_BOOL };

/* The --help groups of the model's options. */
enum param_group {
	PARAM_GROUP_FOLIOS = 1, PARAM_GROUP_MEMORY, PARAM_GROUP_DIRTY, PARAM_GROUP_OUTPUT,
};

struct model_param {
	const char *key;	/* the JSON key, and the name in messages */
	const char *option;	/* long option; NULL: set from the trace or by the caller */
	const char *arg;	/* the value's name in --help */
	const char *help;
	enum param_syntax syntax;
	enum param_store store;
	size_t offset;		/* in struct model_config */
	uint64_t min, max;	/* bounds of numbers, sizes and percents (max 0: none) */
	bool pow2;		/* a power of two */
	bool zero_unset;	/* 0 means "not set": the bounds hold for other values */
	const struct model_variant *const *choices;	/* PARAM_CHOICE */
	const char *def;	/* the default, in the option's syntax; NULL: 0 */
	const char *def_text;	/* --help's default when it is not a constant */
	const char *unit;	/* of numbers, in --help and the reports */
	unsigned recorded;	/* enum model_recorded: what a recorded trace supplies */
	const char *recorded_text;	/* where from, for --help */
	const char *clears;	/* key of a field the option resets (a ratio and its bytes) */
	enum param_group group;
	const char *invalid;	/* what model_new() says of a value out of bounds */
	const char *brief;	/* its label in a report's one-line summary */
	unsigned summary;	/* its place in that summary, from 1; 0: not there */
	/* optional: the summary's value when the field alone does not say it */
	void (*describe)(const struct model_config *c, char *buf, size_t len);
};

extern const struct model_param model_params[];
extern const unsigned model_nr_params;

/* The row of a long option or of a key; NULL when there is none. */
const struct model_param *model_param_by_option(const char *option);
const struct model_param *model_param_by_key(const char *key);

/*
 * Sets the field from an option value (arg NULL for PARAM_OFF). NULL, or why the value is
 * refused (a static string); the field is unchanged then.
 */
const char *model_param_set(const struct model_param *p, const char *arg,
			    struct model_config *c);
/* NULL, or why the field's value breaks its row's bounds (the row's static invalid text). */
const char *model_param_check(const struct model_param *p, const struct model_config *c);

/* A field's value, for the reports. */
struct model_param_value {
	enum { PV_NUMBER, PV_REAL, PV_NAME, PV_BOOL } kind;
	uint64_t u;
	double d;
	const char *name;
	bool b;
};

struct model_param_value model_param_get(const struct model_param *p,
					 const struct model_config *c);
/* "LABEL VALUE[ UNIT]" of a row with a brief label, into buf. */
#define MODEL_SUMMARY_MAX	16	/* places in the one-line summary */
void model_param_brief(const struct model_param *p, const struct model_config *c, char *buf,
		       size_t len);
/* The whole --help text of the option: help, choices, default, unit. */
void model_param_help(const struct model_param *p, char *buf, size_t len);
/*
 * The what-ifs of a configuration, ", "-separated ("policy fixed, lru plain"), into buf:
 * choices no kernel makes, and a page-cache order limit above the kernel's. "" when none.
 */
void model_config_what_ifs(const struct model_config *c, char *buf, size_t len);
/* The title of a --help group. */
const char *model_param_group_title(enum param_group g);

/* The syntaxes of their own, for other callers too. */
/* As the vm.dirty_*_centisecs sysctls: a bare number is centiseconds, else a duration. */
bool parse_centisecs(const char *s, uint64_t *ns, const char **why);
/* A named device (nvme, sata-ssd, hdd, nfs) or "lat=US,bw=MBPS". */
bool parse_device(const char *s, double *latency_us, double *bandwidth_mbps, const char **why);
/* A block size within the block_size row's bounds. */
bool parse_block_size(const char *s, unsigned *out, const char **why);

#endif /* FT_MODEL_PARAMS_H */
