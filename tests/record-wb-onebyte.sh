#!/bin/sh
# One byte into a large folio, live: on ext4 (the root filesystem), xfs (a loop device) and
# tmpfs (huge=always), a 2 MiB file written in one write and fsynced (one order-9 folio), then
# one byte overwritten with write(2) and fsynced, then one byte stored through a shared
# mapping and fsynced. The bytes the model writes back for the recorded trace equal what the
# block layer saw written inside the file, exactly: 2 MiB, one block, then the whole folio
# (page_mkwrite dirties every block), on ext4 and xfs; nothing on tmpfs. With one dirty flag
# per folio (--dirty-granularity=folio) the model would write the whole folio for the byte.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
. "$TOP_SRCDIR/tests/wb-lib.sh"
record_requires_bpf
command -v xfs_io > /dev/null || skip_all "xfs_io (xfsprogs) not installed"
command -v filefrag > /dev/null || skip_all "filefrag (e2fsprogs) not installed"
blk_trace_start || skip_all "no tracefs instance with block:block_rq_issue"
blk_trace_stop
T=$TMPD/t.ftr
MiB=1048576

# The three steps on file $1, each ended by fsync.
WORKLOAD='xfs_io -f -c "pwrite -q -b 2m 0 2m" -c fsync "$1" &&
	xfs_io -c "pwrite -q -S 0x41 1048676 1" -c fsync "$1" &&
	xfs_io -c "mmap -w 0 2m" -c "mwrite -S 0x42 524388 1" -c fsync "$1"'

# onebyte NAME FILE: record the workload on FILE, compare kernel and model.
onebyte() {
	name=$1 f=$2
	blk_trace_start
	rec "$T" -- sh -c "$WORKLOAD" sh "$f"
	blk_trace_stop
	is "$rc" 0 "$name: the workload ran under record"
	ino=$(stat -c %i "$f")
	order=$(field_of "$T" pagecache_add "$ino" order | sort -n | tail -1)
	model=$(model_metric "$T" writeback_bytes --folio-order=9)
	folio=$(model_metric "$T" writeback_bytes --folio-order=9 --dirty-granularity=folio)
}

# ext4, the root filesystem
D=$(record_ext4_dir)
onebyte ext4 "$D/f"
is "$order" 9 "ext4: the 2 MiB write made one order-9 folio"
kernel=$(file_written_bytes "$D/f")
diag "ext4: kernel wrote $kernel bytes into the file, the model $model ($folio per folio)"
is "$kernel" $((2 * MiB + 4096 + 2 * MiB)) "ext4: the kernel writes 2 MiB, one block, 2 MiB"
is "$model" "$kernel" "ext4: the model writes back exactly what the kernel wrote"
is "$folio" $((6 * MiB)) "ext4: one dirty flag per folio would write the folio for the byte"

# xfs on a loop device
if command -v mkfs.xfs > /dev/null &&
	{ grep -qw xfs /proc/filesystems || modprobe xfs 2> /dev/null; }; then
	truncate -s 320M "$D/img"
	if mkfs.xfs -q "$D/img" && L=$(losetup -f --show "$D/img"); then
		echo "$L" >> "$TMPD/cleanup-loops"
		mkdir -p "$D/mnt"
		if mount -t xfs "$L" "$D/mnt"; then
			echo "$D/mnt" >> "$TMPD/cleanup-mounts"
			onebyte xfs "$D/mnt/f"
			is "$order" 9 "xfs: the 2 MiB write made one order-9 folio"
			kernel=$(file_written_bytes "$D/mnt/f")
			diag "xfs: kernel wrote $kernel bytes, the model $model ($folio per folio)"
			is "$kernel" $((4 * MiB + 4096)) "xfs: the kernel writes 2 MiB, one block, 2 MiB"
			is "$model" "$kernel" "xfs: the model writes back exactly what the kernel wrote"
			is "$folio" $((6 * MiB)) "xfs: per folio the byte would cost 2 MiB"
		else
			diag "xfs: cannot mount the loop device: not tested"
		fi
	fi
else
	diag "xfs: mkfs.xfs or the xfs module missing: not tested"
fi

# tmpfs, huge=always: shmem folios are never written back (noop_dirty_folio)
M=$TMPD/tmpfs
mkdir -p "$M"
if mount -t tmpfs -o size=64m,huge=always ft-wb-test "$M"; then
	echo "$M" >> "$TMPD/cleanup-mounts"
	onebyte tmpfs "$M/f"
	ino=$(stat -c %i "$M/f")
	is "$(field_of "$T" writeback "$ino" nr_pages | wc -l)" 0 "tmpfs: no writeback event"
	is "$(field_of "$T" folio_dirty "$ino" order | wc -l)" 0 "tmpfs: no accounted dirtying"
	is "$model" 0 "tmpfs: the model writes nothing back either"
	is "$folio" 0 "tmpfs: whatever the granularity"
else
	diag "tmpfs: cannot mount: not tested"
fi
done_testing
