/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FT_HOST: what a replay needs to know about the machine the trace was recorded on; then one
 * FT_DEVICE per device it lists (devices.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "record/record.h"

__u64 ft_now_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (__u64)ts.tv_sec * 1000000000ull + (__u64)ts.tv_nsec;
}

__u64 ft_realtime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (__u64)ts.tv_sec * 1000000000ull + (__u64)ts.tv_nsec;
}

/* A number from a one-line /proc file; 0 when absent. */
static __u64 read_proc_u64(const char *path)
{
	unsigned long long v = 0;
	FILE *f = fopen(path, "re");

	if (!f)
		return 0;
	if (fscanf(f, "%llu", &v) != 1)
		v = 0;
	fclose(f);
	return v;
}

static __u64 mem_total_bytes(void)
{
	unsigned long long kb = 0;
	char line[256];
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return kb * 1024;
}

static void copy_str(char *dst, size_t len, const char *src)
{
	snprintf(dst, len, "%s", src);
}

/* FT_DEVICE for each mount listed in FT_HOST, in the same order. */
static int write_devices(struct ft_writer *w, const struct ft_mount *const *listed, size_t n,
			 __u32 page_size, __u64 ts, struct ft_error *err)
{
	for (size_t i = 0; i < n; i++) {
		struct ft_device d;

		ft_device_describe(listed[i], "/sys", page_size, &d);
		d.hdr.ts = ts;
		if (ft_writer_append(w, &d, err))
			return -1;
	}
	return 0;
}

int ft_write_host(struct ft_writer *w, const struct ft_mounts *ms, __u32 flags,
		  __u16 unrecorded, __u64 memory_limit, struct ft_error *err)
{
	const struct ft_mount **listed;
	struct ft_host h;
	struct ft_host_dev *devs;
	struct utsname u;
	size_t n = 0;
	int rc;

	devs = calloc(ms->n ? ms->n : 1, sizeof(*devs));
	listed = calloc(ms->n ? ms->n : 1, sizeof(*listed));
	if (!devs || !listed) {
		free(devs);
		free(listed);
		ft_error_set(err, NULL, "out of memory");
		return -1;
	}
	memset(&h, 0, sizeof(h));
	h.hdr.type = FT_HOST;
	h.start_mono_ns = ft_now_mono_ns();
	h.start_realtime_ns = ft_realtime_ns();
	h.hdr.ts = h.start_mono_ns;
	h.mem_bytes = mem_total_bytes();
	h.memory_limit = memory_limit;
	h.page_size = (__u32)sysconf(_SC_PAGESIZE);
	h.ncpus = (__u32)sysconf(_SC_NPROCESSORS_ONLN);
	h.dirty_background_ratio = (__u32)read_proc_u64("/proc/sys/vm/dirty_background_ratio");
	h.dirty_ratio = (__u32)read_proc_u64("/proc/sys/vm/dirty_ratio");
	h.dirty_background_bytes = read_proc_u64("/proc/sys/vm/dirty_background_bytes");
	h.dirty_bytes = read_proc_u64("/proc/sys/vm/dirty_bytes");
	h.dirty_expire_centisecs = (__u32)read_proc_u64("/proc/sys/vm/dirty_expire_centisecs");
	h.dirty_writeback_centisecs =
		(__u32)read_proc_u64("/proc/sys/vm/dirty_writeback_centisecs");
	h.flags = flags;
	h.unrecorded = unrecorded;
	if (uname(&u) == 0) {
		copy_str(h.release, sizeof(h.release), u.release);
		copy_str(h.hostname, sizeof(h.hostname), u.nodename);
	}
	/* The record size is a __u16: keep the device list within it. */
	for (size_t i = 0; i < ms->n && n < (FT_RECORD_MAX - sizeof(h)) / sizeof(*devs); i++) {
		if (ms->m[i].pseudo)
			continue;
		devs[n].dev = ms->m[i].dev;
		devs[n].block_size = ms->m[i].block_size;
		copy_str(devs[n].fstype, sizeof(devs[n].fstype), ms->m[i].fstype);
		copy_str(devs[n].name, sizeof(devs[n].name), ms->m[i].source);
		listed[n++] = &ms->m[i];
	}
	h.ndevs = (__u32)n;
	rc = ft_writer_host(w, &h, devs, err);
	if (!rc)
		rc = write_devices(w, listed, n, h.page_size, h.hdr.ts, err);
	free(devs);
	free(listed);
	return rc;
}
