// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Device cost presets: a per-I/O latency and a streaming bandwidth, round figures for the
 * class of device (queue depth 1, no parallelism), enough to compare write patterns.
 */
#include <string.h>

#include "model/model.h"

static const struct {
	const char *name;
	double latency_us, bandwidth_mbps;
} presets[] = {
	{ "nvme", 20, 2000 },
	{ "sata-ssd", 100, 500 },
	{ "hdd", 8000, 150 },
	{ "nfs", 2000, 110 },	/* a round trip over a LAN, 1 Gbit/s */
};

bool model_device_preset(const char *name, double *latency_us, double *bandwidth_mbps)
{
	for (size_t i = 0; i < sizeof(presets) / sizeof(presets[0]); i++) {
		if (!strcmp(name, presets[i].name)) {
			*latency_us = presets[i].latency_us;
			*bandwidth_mbps = presets[i].bandwidth_mbps;
			return true;
		}
	}
	return false;
}
