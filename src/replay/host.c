/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "model/variants.h"
#include "replay/host.h"

/* What the workload could fill: its cgroup limit when it had one below the host's memory. */
static uint64_t host_cache_memory(const struct ft_host *h)
{
	if (h->memory_limit && (!h->mem_bytes || h->memory_limit < h->mem_bytes))
		return h->memory_limit;
	return h->mem_bytes;
}

void replay_host_defaults(struct model_config *cfg, unsigned set, const struct ft_host *h)
{
	if (!(set & MODEL_REC_MEMORY) && host_cache_memory(h)) {
		cfg->memory_bytes = host_cache_memory(h);
		cfg->memcg = cfg->memory_bytes != h->mem_bytes;	/* shared as the samples say */
	}
	if (!(set & MODEL_REC_PAGE_SIZE) && h->page_size)
		cfg->page_size = h->page_size;
	/* release is NUL-terminated by the trace reader's checks */
	if (!(set & MODEL_REC_RA_RULE))
		model_ra_rule_for_release(h->release, &cfg->ra_rule);
	/* 0 means "not recorded" for these; the kernel's defaults stay then. */
	if (!(set & MODEL_REC_DIRTY_EXPIRE) && h->dirty_expire_centisecs)
		cfg->dirty_expire_ns = (uint64_t)h->dirty_expire_centisecs * 10000000;
	if (!(set & MODEL_REC_DIRTY_WRITEBACK) && h->dirty_writeback_centisecs)
		cfg->writeback_period_ns = (uint64_t)h->dirty_writeback_centisecs * 10000000;
	/* As in the kernel, a non-zero *_bytes sysctl replaces its ratio. */
	if (!(set & MODEL_REC_DIRTY_RATIO)) {
		if (h->dirty_ratio)
			cfg->dirty_ratio = h->dirty_ratio;
		cfg->dirty_bytes = h->dirty_bytes;
	}
	if (!(set & MODEL_REC_DIRTY_BACKGROUND)) {
		if (h->dirty_background_ratio)
			cfg->dirty_background_ratio = h->dirty_background_ratio;
		cfg->dirty_background_bytes = h->dirty_background_bytes;
	}
}

/* major * 1000 + minor of the recording kernel; MODEL_UNKNOWN (the newest) when synthetic */
static unsigned host_release(const struct ft_host *h)
{
	unsigned major, minor;

	if ((h->flags & FT_HOST_SYNTHETIC) || sscanf(h->release, "%u.%u", &major, &minor) != 2 ||
	    major > 1000000)
		return MODEL_UNKNOWN;
	return major * 1000 + (minor < 1000 ? minor : 999);
}

/* An FT_DEVICE's facts over the device's defaults; 0 in the record means not known. */
static void apply_device_record(struct model_device *d, const struct ft_device *r, unsigned set)
{
	if (r->ra_pages && !(set & MODEL_REC_RA_PAGES))
		d->ra_pages = r->ra_pages;
	if (r->io_pages && !(set & MODEL_REC_IO_PAGES))
		d->io_pages = r->io_pages;
	if (r->huge <= FT_HUGE_ADVISE)
		d->huge = r->huge;	/* the same numbering as enum model_tmpfs_huge */
	/* ext4_should_enable_large_folio(): none with data=journal; DAX bypasses the cache */
	if (r->flags & (FT_DEV_DATA_JOURNAL | FT_DEV_DAX))
		d->flags |= MODEL_DEV_NO_LARGE_FOLIOS;
}

void replay_host_devices(struct model_device *out, const struct ft_host *h,
			 const struct ft_host_dev *devs, const struct ft_device *info,
			 uint32_t have, unsigned set)
{
	for (__u32 i = 0; i < h->ndevs; i++) {
		char fstype[FT_FSTYPE_LEN + 1];

		/* the recorder NUL-pads fstype; a damaged record may fill it */
		memcpy(fstype, devs[i].fstype, FT_FSTYPE_LEN);
		fstype[FT_FSTYPE_LEN] = '\0';
		out[i] = (struct model_device){
			.fs = model_fs_kind_for(fstype),
			.release = host_release(h),
			.block_size = devs[i].block_size ? devs[i].block_size : MODEL_UNKNOWN,
			.ra_pages = MODEL_UNKNOWN,
			.io_pages = MODEL_UNKNOWN,
		};
		if (i < 32 && (have & (1u << i)))
			apply_device_record(&out[i], &info[i], set);
	}
}

unsigned replay_host_block_size(const struct ft_host *h, const struct ft_host_dev *devs,
				__u32 dev)
{
	for (__u32 i = 0; i < h->ndevs; i++) {
		unsigned bs = devs[i].block_size;

		/* NFS reports its wsize (128 KiB, 1 MiB): no block size a model can take */
		if (devs[i].dev == dev)
			return bs >= 512 && bs <= MODEL_BLOCK_SIZE_MAX && !(bs & (bs - 1)) ? bs : 0;
	}
	return 0;
}
