/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The FT_HOST record of a trace that was not recorded live (synth, import). */
#ifndef FT_IMPORT_SYNTHETIC_HOST_H
#define FT_IMPORT_SYNTHETIC_HOST_H

#include "trace/trace.h"

#define SYNTH_DEV		((8u << 20) | 1u)	/* "8:1", one made-up device */
#define SYNTH_BASE_TS		1000000000ull		/* first event at 1 s */
#define SYNTH_INO_BASE		1000ull			/* first inode number */
#define SYNTH_DEFAULT_MEMORY	(4ull << 30)

/*
 * Fills host and dev: page size 4096, the kernel's default writeback sysctls, one device of
 * fstype (e.g. "xfs"; none when dev is NULL) and FT_HOST_SYNTHETIC. No wall-clock value goes
 * in, so the same options always give the same bytes.
 */
void synthetic_host_init(struct ft_host *host, struct ft_host_dev *dev, __u64 mem_bytes,
			 const char *fstype, const char *name);

#endif
