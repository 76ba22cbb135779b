#!/bin/sh
# msync(2) with MS_SYNC is vfs_fsync_range(file, start, end, 1) of each shared file mapping's
# part (mm/msync.c, 6.1 to 6.18): the recorder records an fdatasync of that range (the VMA
# walk of madvise, VM_SHARED read by CO-RE), and the replay writes back what the kernel wrote.
# 4 MiB of an xfs file mapped shared, a byte written to each page, then msync of it all
# (ftload msync-write); without the record the replay wrote back nothing.
. /lab/cases/lib.sh
MiB=1048576

f=/mnt/xfs/ms
check "msync-write ran under record" rec ms.ftr xfs ftload msync-write "$f" 4M
ino=$(stat -c %i "$f")
check "msync(MS_SYNC): an fdatasync of the mapped 4 MiB" \
	equal "$(folio-trace dump ms.ftr | awk -v ino="ino=$ino" '
		$2 == "access" && $4 == "op=fdatasync" && $6 == ino { print $7, $8 }')" \
	"pos=0 len=$((4 * MiB))"
check "the replay writes the 4 MiB back at the msync" \
	equal "$(model_metric ms.ftr wb_fsync_bytes)" $((4 * MiB))
written=$(folio-trace calibrate ms.ftr 2>/dev/null |
	awk '/^bytes written back .*writeback/ { print $4, $5; exit }')
echo "# bytes written back, model and kernel: $written"
check "the kernel wrote back what the replay did" equal "${written#* }" "${written% *}"
finish
