/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Parsers for the replay options whose syntax is ours (lists, device models, sysctl times). */
#ifndef FT_REPLAY_OPTIONS_H
#define FT_REPLAY_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "model/model.h"

#define REPLAY_MAX_CONFIGS	(MODEL_MAX_ORDER + 1)

/* "0,4,9": distinct orders 0..MODEL_MAX_ORDER, in the given order. */
bool parse_order_list(const char *s, unsigned orders[REPLAY_MAX_CONFIGS], unsigned *n,
		      const char **why);

/* A named device (nvme, sata-ssd, hdd, nfs) or "lat=US,bw=MBPS". */
bool parse_device(const char *s, double *latency_us, double *bandwidth_mbps, const char **why);

/* Like the vm.dirty_*_centisecs sysctls: a bare number is centiseconds, else a duration. */
bool parse_centisecs(const char *s, uint64_t *ns, const char **why);

/* Block size: a power of two from 512 B to 64 KiB. */
bool parse_block_size(const char *s, unsigned *out, const char **why);

#endif /* FT_REPLAY_OPTIONS_H */
