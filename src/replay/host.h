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

/*
 * Host facts into cfg where the user did not say otherwise: set holds the enum model_recorded
 * bits of what the user gave (model_options_parse collects them).
 */
void replay_host_defaults(struct model_config *cfg, unsigned set, const struct ft_host *h);
/*
 * The host's devices as the models see them (devs[0..h->ndevs)): each filesystem's rule, the
 * kernel release, block size, and from its FT_DEVICE record (info[i], when bit i of have is
 * set) the readahead window, largest I/O, tmpfs huge= and mount flags. What the trace does not
 * give, or the user set (set: enum model_recorded), stays unknown: the configuration's.
 */
void replay_host_devices(struct model_device *out, const struct ft_host *h,
			 const struct ft_host_dev *devs, const struct ft_device *info,
			 uint32_t have, unsigned set);
/*
 * Block size of device dev from the host's device list, unless set; 0 when not listed or not
 * a filesystem block size (512 to 64 KiB, a power of two).
 */
unsigned replay_host_block_size(const struct ft_host *h, const struct ft_host_dev *devs,
				__u32 dev);

#endif /* FT_REPLAY_HOST_H */
