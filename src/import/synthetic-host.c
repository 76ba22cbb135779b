/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <string.h>

#include "import/synthetic-host.h"

void synthetic_host_init(struct ft_host *host, struct ft_host_dev *dev, __u64 mem_bytes,
			 const char *fstype, const char *name)
{
	memset(host, 0, sizeof(*host));
	host->hdr.type = FT_HOST;
	host->hdr.size = sizeof(*host) + (dev ? sizeof(*dev) : 0);
	host->hdr.ts = SYNTH_BASE_TS;
	host->mem_bytes = mem_bytes;
	host->start_mono_ns = SYNTH_BASE_TS;
	host->page_size = 4096;
	host->ncpus = 1;
	host->dirty_background_ratio = 10;
	host->dirty_ratio = 20;
	host->dirty_expire_centisecs = 3000;
	host->dirty_writeback_centisecs = 500;
	host->ndevs = dev ? 1 : 0;
	host->flags = FT_HOST_SYNTHETIC;
	strncpy(host->release, "synthetic", sizeof(host->release) - 1);
	strncpy(host->hostname, name, sizeof(host->hostname) - 1);

	if (!dev)
		return;
	memset(dev, 0, sizeof(*dev));
	dev->dev = SYNTH_DEV;
	dev->block_size = 4096;
	strncpy(dev->fstype, fstype, sizeof(dev->fstype) - 1);
	strncpy(dev->name, name, sizeof(dev->name) - 1);
}
