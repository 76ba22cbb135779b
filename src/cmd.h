/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Subcommands: one cmd_NAME per src/cmd-NAME.c, listed in the table of folio-trace.c. */
#ifndef FT_CMD_H
#define FT_CMD_H

/* Exit statuses of every subcommand. */
#define EXIT_OK		0
#define EXIT_RUNTIME	1	/* bad input file, I/O error, kernel refused */
#define EXIT_USAGE	2	/* bad option or argument */

/* argv[0] is the subcommand name. Returns an exit status. */
int cmd_info(int argc, char **argv);
int cmd_dump(int argc, char **argv);
int cmd_synth(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_replay(int argc, char **argv);
int cmd_calibrate(int argc, char **argv);
int cmd_report(int argc, char **argv);

int cmd_record(int argc, char **argv);
int cmd_top(int argc, char **argv);

#endif
