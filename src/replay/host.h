/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Defaults from the recorded host: what the kernel that ran the workload had (memory or cgroup
 * limit, page size, vm.dirty_* sysctls, block size of the filesystem). Options the user gave win.
 */
#ifndef FT_REPLAY_HOST_H
#define FT_REPLAY_HOST_H

#include <linux/types.h>
#include <stdbool.h>

#include "model/model.h"
#include "trace/events.h"

/* Which configuration fields the user set on the command line. */
enum replay_set {
	REPLAY_SET_MEMORY = 1u << 0,
	REPLAY_SET_BLOCK_SIZE = 1u << 1,
	REPLAY_SET_DIRTY_EXPIRE = 1u << 2,
	REPLAY_SET_DIRTY_WRITEBACK = 1u << 3,
	REPLAY_SET_DIRTY_RATIO = 1u << 4,	/* --dirty-ratio or --dirty-bytes */
	REPLAY_SET_DIRTY_BACKGROUND = 1u << 5,	/* --dirty-background-ratio or -bytes */
};

/*
 * The readahead order rule of the kernel release "MAJOR.MINOR...": 6.17 changed it. false
 * when the release does not say (a synthetic trace).
 */
bool replay_release_ra_rule(const char *release, enum ra_rule *rule);

/* Host facts into cfg where the user did not say otherwise. */
void replay_host_defaults(struct model_config *cfg, unsigned set, const struct ft_host *h);
/* Block size of device dev from the host's device list, unless set; 0 when not listed. */
unsigned replay_host_block_size(const struct ft_host *h, const struct ft_host_dev *devs,
				__u32 dev);

#endif /* FT_REPLAY_HOST_H */
