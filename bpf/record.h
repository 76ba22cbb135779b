/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the record BPF programs and src/record/ share beyond the trace records of events.h:
 * private ring-buffer records that user space turns into trace metadata, and map sizes.
 * Include <linux/types.h> (user space) or vmlinux.h (BPF) and events.h first.
 */
#ifndef FT_BPF_RECORD_H
#define FT_BPF_RECORD_H

/* Private record types: never written to a trace (>= FT_TYPE_MAX). */
#define FT_PRIV_PATH	0x8001	/* struct ft_priv_path: the name of a newly seen file */
#define FT_PRIV_TRUNCATE 0x8002	/* struct ft_priv_truncate: truncate(2) of a path */
#define FT_PRIV_OPEN	0x8003	/* struct ft_priv_open: a traced task opened a file */

#define FT_PATH_NAMES	1024	/* bytes of path components (power of two) */
#define FT_NAME_MAX	256	/* longest component read, NUL included */
#define FT_PATH_DEPTH	32	/* directories walked up at most */

/*
 * A file seen for the first time. names holds the components from the file up to the root of
 * its filesystem, leaf first, each NUL-terminated; user space joins them in reverse order under
 * the mount point of dev.
 */
struct ft_priv_path {
	struct ft_hdr hdr;
	__u64 ino;
	__u64 size;
	__u32 dev;
	__u16 depth;		/* components in names */
	__u16 truncated;	/* walk stopped before the filesystem root */
	__u32 gen;		/* i_generation: a new inode under a reused number differs */
	__u32 pad;
	char names[FT_PATH_NAMES + FT_NAME_MAX];
};

#define FT_TRUNC_PATH	256

/*
 * truncate(2) names a file by path, which BPF cannot resolve: user space stats the path (under
 * /proc/PID/cwd when relative) and writes the FT_ACCESS record.
 */
struct ft_priv_truncate {
	struct ft_hdr hdr;
	__u64 length;
	__u32 pid;
	__u32 pad;
	char path[FT_TRUNC_PATH];
};

/*
 * A traced task opened a file (open(2) and its kin, io_uring OPENAT). The number BPF gives an
 * open file (ft_access.ofile) is made from its struct file's address, which the slab gives the
 * next open as soon as a file is closed: user space numbers the opens at one address apart, so
 * each open file keeps a readahead state of its own in the replay, as in the kernel.
 */
struct ft_priv_open {
	struct ft_hdr hdr;
	__u32 ofile;		/* the new open file's number, as its accesses carry it */
	__u32 pad;
};

/*
 * Key of per-file maps. An inode number is reused once its file is gone: i_generation tells
 * the new file from the old one (ext4, xfs, btrfs and tmpfs give each new inode its own).
 */
struct ft_file_key {
	__u32 dev;
	__u32 gen;		/* i_generation */
	__u64 ino;
};

#define FT_MAX_FILES	65536	/* files already named (LRU) */
#define FT_MAX_PIDS	4096	/* processes traced with -p or -- COMMAND */

#endif /* FT_BPF_RECORD_H */
