#!/bin/sh
# io_uring's syncs and advice at their completion (io_uring:io_uring_complete, whose arguments
# changed in 6.3; struct io_sync and io_fadvise read by CO-RE): 8 MiB written to an xfs file,
# then an FSYNC of its first half with IORING_FSYNC_DATASYNC, a FADVISE POSIX_FADV_DONTNEED
# and an FSYNC of it all (ftload uring-sync). The records are the calls of the same names; the
# replay writes back only the first sync's range, so DONTNEED drops that half (io_fsync():
# vfs_fsync_range()), and the kernel that half and what of the rest its writeback finished.
. /lab/cases/lib.sh

f=/mnt/xfs/us
check "uring-sync ran under record" rec us.ftr xfs ftload uring-sync "$f" 8M
ino=$(stat -c %i "$f")
fields() {
	folio-trace dump us.ftr | awk -v ino="ino=$ino" -v op="op=$1" '
		$2 == "access" && $4 == op && $6 == ino { print $7, $8, $11 }'
}
check "FSYNC with IORING_FSYNC_DATASYNC: an fdatasync of the first 4 MiB" \
	equal "$(fields fdatasync)" "pos=0 len=4194304 arg=0"
check "FADVISE: a POSIX_FADV_DONTNEED of the file" equal "$(fields fadvise)" "pos=0 len=0 arg=4"
check "FSYNC: an fsync of the file" equal "$(fields fsync)" "pos=0 len=0 arg=0"
check "the replay drops the 4 MiB the first sync wrote back" \
	equal "$(model_metric us.ftr dontneed_pages)" 1024
kernel=$(deleted_orders us.ftr "$ino" | awk '{ p = $2; for (i = 0; i < $1; i++) p *= 2; s += p }
	END { print s + 0 }')
echo "# the kernel's DONTNEED dropped $kernel pages"
check "the kernel's DONTNEED dropped that half at least" at_least "$kernel" 1024
finish
