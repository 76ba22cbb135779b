#!/bin/sh
# readahead(2) is a POSIX_FADV_WILLNEED in the kernel (mm/readahead.c ksys_readahead(), 6.1 to
# 6.18): the recorder records it as one (an fadvise access of its range, advice 3), and the
# default replay of 8 MiB read ahead of a cold 32 MiB xfs file, then all of it read in 128 KiB
# reads, adds the kernel's folios, order by order. Without the record the replay read the
# first 8 MiB as misses, with a readahead window of its own.
. /lab/cases/lib.sh
MiB=1048576

f=/mnt/xfs/ra
ftload write "$f" 32M 1M > /dev/null || echo "# ftload write failed"
remount xfs || echo "# remount failed"
check "readahead(2) and reads ran under record" \
	rec ra.ftr xfs sh -c "ftload readahead $f 8M && ftload read $f 128K"
ino=$(stat -c %i "$f")
check "the trace has readahead(2) as an fadvise WILLNEED of 8 MiB at 0" \
	equal "$(folio-trace dump ra.ftr | awk -v ino="ino=$ino" '
		$2 == "access" && $4 == "op=fadvise" && $6 == ino { print $7, $8, $11 }')" \
	"pos=0 len=$((8 * MiB)) arg=3"
kernel=$(kernel_orders ra.ftr "$ino" | tr '\n' ' ')
echo "# kernel's folios (order count ...): $kernel"
check "the default replay's folios by order are the kernel's" \
	equal "$(model_orders ra.ftr | tr '\n' ' ')" "$kernel"
finish
