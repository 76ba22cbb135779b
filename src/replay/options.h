/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The command line of the commands that run models (replay, calibrate): the model's options,
 * made from its configuration table (model/params.h) for --help and parsing, next to each
 * command's own; and the syntax of replay's own --folio-order list.
 */
#ifndef FT_REPLAY_OPTIONS_H
#define FT_REPLAY_OPTIONS_H

#include <argp.h>
#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"
#include "model/params.h"

#define REPLAY_MAX_CONFIGS	(MODEL_MAX_ORDER + 1)

/* "0,4,9": distinct orders 0..MODEL_MAX_ORDER, in the given order. */
bool parse_order_list(const char *s, unsigned orders[REPLAY_MAX_CONFIGS], unsigned *n,
		      const char **why);

/*
 * One configuration per order of orders[n], base's options shared; -1 (said on stderr) when
 * an order is below --min-order or above the page cache's largest.
 */
int order_configs(const struct model_config *base, const unsigned *orders, unsigned n,
		  struct model_config *cfg);

/* argp keys of the model's options: MODEL_OPTION_KEY + the row's index in model_params. */
#define MODEL_OPTION_KEY	0x4000

/* The model's options followed by a command's own, as one argp option array. */
struct model_options {
	struct argp_option *options;	/* what struct argp takes */
	char **help;			/* the generated help texts, freed with it */
	unsigned nhelp;
};

/*
 * Builds mo->options: every row of the table that has an option, under its group's title,
 * then own (argp's zero-terminated array; own keys below MODEL_OPTION_KEY). -1 on ENOMEM.
 */
int model_options_init(struct model_options *mo, const struct argp_option *own);
void model_options_release(struct model_options *mo);
/*
 * A command's own placeholder and help for a model option it takes more of (replay's
 * --memory takes lists and ranges); arg and doc must outlive mo.
 */
void model_options_override(struct model_options *mo, const char *name, const char *arg,
			    const char *doc);

/*
 * For an argp parser: a model option's value into cfg, its row's recorded bit into *given (what
 * the user gave wins over the trace). ARGP_ERR_UNKNOWN for other keys, EINVAL after a one-line
 * usage message.
 */
int model_options_parse(int key, const char *arg, struct model_config *cfg, unsigned *given);

#endif /* FT_REPLAY_OPTIONS_H */
