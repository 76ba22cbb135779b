#!/bin/sh
# Readahead state per open file (file->f_ra, fresh at each open; FMODE_RANDOM in f_mode):
# one process reads the first half of a 32 MiB xfs file in 16 KiB reads through one
# descriptor, and a random 16 KiB block of the second half after each through another,
# advised POSIX_FADV_RANDOM (ftload two-readers). xfs caches large folios on every release of
# the lab, so the readers' states show in the folio orders: the default replay's insertions,
# order by order, are the kernel's. With one state for the file, the advice would have turned
# the sequential reader's readahead off too.
. /lab/cases/lib.sh

f=/mnt/xfs/two
ftload write "$f" 32M 1M > /dev/null || echo "# ftload write failed"
remount xfs || echo "# remount failed"
t=two.ftr
check "two readers of one file ran under record" rec "$t" xfs ftload two-readers "$f" 16K 7
ino=$(stat -c %i "$f")
reads=$(folio-trace dump "$t" | awk -v ino="ino=$ino" '
	$2 == "access" && $4 == "op=read" && $6 == ino {
		for (i = 7; i <= NF; i++) if ($i ~ /^ofile=/) n[$i]++ }
	END { for (o in n) print n[o] }' | sort -n | tr '\n' ' ')
check "the reads name two open files, 1024 reads each" equal "$reads" "1024 1024 "
kernel=$(kernel_orders "$t" "$ino" | tr '\n' ' ')
echo "# kernel's folios (order count ...): $kernel"
check "the kernel read ahead in large folios" at_least "$(kernel_orders "$t" "$ino" |
	awk '$1 > 0 { n += $2 } END { print n + 0 }')" 1
check "the default replay's folios by order are the kernel's" \
	equal "$(model_orders "$t" | tr '\n' ' ')" "$kernel"
finish
