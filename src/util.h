/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The helpers every subcommand needs (messages, option parsing), in one include. They live in
 * src/util/; new code includes the util/ header it uses.
 */
#ifndef FT_UTIL_H
#define FT_UTIL_H

#include "util/args.h"
#include "util/msg.h"
#include "util/parse.h"

#endif
