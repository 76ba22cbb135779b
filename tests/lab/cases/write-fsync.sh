#!/bin/sh
# 64 MiB written in 1 MiB writes and fsynced, on ext4 and on xfs: the trace holds every byte
# the application wrote, the file system's writeback events every byte it wrote back (both
# exact), the kernel's counters agree, and the default replay writes back the same bytes.
. /lab/cases/lib.sh
MiB=1048576

for fs in ext4 xfs; do
	f=/mnt/$fs/w
	t=w-$fs.ftr
	dirtied=$(vmstat nr_dirtied)
	written=$(vmstat nr_written)
	check "$fs: ftload write+fsync ran under record" rec "$t" "$fs" ftload write "$f" 64M 1M
	dirtied=$(($(vmstat nr_dirtied) - dirtied))
	written=$(($(vmstat nr_written) - written))
	set -- $(file_wb "$t" "$f")
	echo "# $fs: trace: written $1, written back $2; vmstat: dirtied $dirtied, written $written"
	check "$fs: the trace's writes are the 64 MiB written" equal "$1" $((64 * MiB))
	check "$fs: the trace's writeback is the 64 MiB fsynced" equal "$2" $((64 * MiB))
	check "$fs: nr_dirtied counted at least the 16384 pages" at_least "$dirtied" 16384
	check "$fs: nr_written counted at least the 16384 pages" at_least "$written" 16384
	model=$(model_metric "$t" writeback_bytes)
	echo "# $fs: the default replay writes back $model bytes"
	check "$fs: the default replay writes back the 64 MiB" equal "$model" $((64 * MiB))
	rm -f "$f"
done
finish
