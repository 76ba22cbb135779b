/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Per file of a trace: the bytes the application wrote (write accesses, through any interface)
 * and the bytes of its data the kernel wrote back, by the file system's own count (iomap's
 * folios on xfs, ext4's writepages, btrfs' finished ranges); their ratio is the kernel's own
 * write amplification. Fed the records of a trace one by one.
 */
#ifndef FT_TRACE_FILEWB_H
#define FT_TRACE_FILEWB_H

#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>

#include "trace/events.h"
#include "util/u64map.h"

/* Bytes of a file's path kept for the table: PATH_MAX, the longest a system call takes. */
#define FILEWB_PATH_KEEP	4096

/* What the trace can say about the writeback of a device's files. */
enum ft_wb_count {
	FT_WB_COUNT_UNKNOWN,	/* no file system writeback event of the device in the trace */
	FT_WB_COUNT_KERNEL,	/* the file system counted what it wrote back (ext4, xfs, btrfs) */
	FT_WB_COUNT_NONE,	/* nothing to write back: memory file systems (tmpfs, ramfs) */
};

struct ft_file_wb {
	__u32 dev;
	__u64 ino;
	__u64 written;		/* bytes of write accesses */
	__u64 written_back;	/* bytes of its data the file system wrote back */
	char *path;		/* from its FT_FILE record, cut (...) past FILEWB_PATH_KEEP */
};

struct ft_filewb {
	struct u64map index;	/* file_key(dev, ino) -> slot in files */
	struct ft_file_wb *files;
	size_t n, cap;
	__u32 page_size;	/* from FT_HOST: ext4 counts pages */
	struct ft_host_dev *devs;	/* from FT_HOST: file system of each device */
	size_t ndevs;
	__u32 counted[16];	/* devices with a file system writeback event */
	size_t ncounted;
};

int ft_filewb_init(struct ft_filewb *t);
void ft_filewb_free(struct ft_filewb *t);
/* Takes note of one record of the trace, in order. -1: out of memory. */
int ft_filewb_note(struct ft_filewb *t, const struct ft_hdr *h);
/*
 * Bytes of file data one writeback record says the file system wrote back: iomap and btrfs
 * count bytes, ext4 pages; 0 for the kinds that are no file system's own count.
 */
__u64 ft_writeback_file_bytes(const struct ft_writeback *w, __u32 page_size);
/* The file (NULL if the trace never named it). */
const struct ft_file_wb *ft_filewb_find(const struct ft_filewb *t, __u32 dev, __u64 ino);
/*
 * How far written_back can be trusted for files of device dev: 0 on a memory file system; the
 * file system's count when the trace has writeback events of it (a file not written back yet
 * then reads 0); unknown otherwise (a file system without such events, an older trace).
 */
enum ft_wb_count ft_filewb_count(const struct ft_filewb *t, __u32 dev);

#endif
