#!/bin/sh
# The recorder must not change the folios it records. Before cachestat(2) (6.5) it finds a
# file's cached pages with mincore(2), through a mapping of the file; on a tmpfs that allows
# huge pages the mapping registers the recorder with khugepaged and wakes it
# (mm/khugepaged.c khugepaged_enter_vma()), which may then collapse the file's base pages
# into PMD folios while the mapping lasts (hpage_collapse_scan_file()). A 16 MiB file written
# in 4 KiB writes under huge=within_size is in base pages (shmem_is_huge(): the write is
# past i_size); read under record once its start state was probed (ftload probed-read) and
# removed, its deletes must still be of base pages, every time.
. /lab/cases/lib.sh

# thp_collapses: huge pages khugepaged made, system-wide
thp_collapses() {
	awk '$1 == "thp_collapse_alloc" { print $2 }' /proc/vmstat
}

if ! mount -o remount,huge=within_size /mnt/tmpfs; then
	echo "# tmpfs: cannot remount with huge=within_size"
	finish
	exit
fi
for i in 1 2 3; do
	t=probe-$i.ftr
	check "run $i: the file was written in base pages" sh -c \
		"ftload write /mnt/tmpfs/f 16M 4K > /dev/null"
	before=$(thp_collapses)
	# the command is the recorder's child: its parent is the recorder
	check "run $i: read and removed under record" rec "$t" tmpfs sh -c \
		"grep THP_enabled /proc/\$PPID/status > thp-recorder &&
		grep THP_enabled /proc/\$\$/status > thp-command &&
		stat -c %i /mnt/tmpfs/f > ino && ftload probed-read /mnt/tmpfs/f 1M > /dev/null &&
		rm /mnt/tmpfs/f"
	echo "# run $i: huge pages khugepaged made meanwhile (anyone's): $(($(thp_collapses) - before))"
	check "run $i: the start state was probed" \
		test "$(folio-trace dump "$t" | grep -c start_cache)" -ge 1
	check "run $i: the kernel removed the file in base pages alone" \
		equal "$(deleted_orders "$t" "$(cat ino)" | tr '\n' ' ')" "0 4096 "
done
# PR_SET_THP_DISABLE (/proc/PID/status since 5.0): the recorder's, not the command's
check "the recorder has no huge pages" equal "$(cat thp-recorder | tr -s ' \t' ' ')" \
	"THP_enabled: 0"
check "the traced command keeps them" equal "$(cat thp-command | tr -s ' \t' ' ')" \
	"THP_enabled: 1"
finish
