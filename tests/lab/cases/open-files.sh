#!/bin/sh
# Readahead state per open file (file->f_ra, fresh at each open; FMODE_RANDOM in f_mode).
# xfs caches large folios on every release of the lab, so the open files' states show in the
# folio orders: the default replay's insertions, order by order, are the kernel's.
. /lab/cases/lib.sh

# opens_of TRACE FILE: the reads of FILE each open file took, one count a line, fewest first
opens_of() {
	folio-trace dump "$1" | awk -v ino="ino=$(stat -c %i "$2")" '
	$2 == "access" && $4 == "op=read" && $6 == ino {
		for (i = 7; i <= NF; i++) if ($i ~ /^ofile=/) n[$i]++ }
	END { for (o in n) print n[o] }' | sort -n
}

# as_kernel TRACE FILE: the kernel read FILE ahead in large folios, and the default replay's
# folios by order are the kernel's
as_kernel() {
	kernel=$(kernel_orders "$1" "$(stat -c %i "$2")" | tr '\n' ' ')
	echo "# kernel's folios (order count ...): $kernel"
	check "the kernel read ahead in large folios" at_least "$(echo "$kernel" |
		awk '{ for (i = 1; i < NF; i += 2) if ($i > 0) n += $(i + 1) } END { print n + 0 }')" 1
	check "the default replay's folios by order are the kernel's" \
		equal "$(model_orders "$1" | tr '\n' ' ')" "$kernel"
}

# One process reads the first half of a 32 MiB file in 16 KiB reads through one descriptor,
# and a random 16 KiB block of the second half after each through another, advised
# POSIX_FADV_RANDOM (ftload two-readers). With one state for the file, the advice would have
# turned the sequential reader's readahead off too.
f=/mnt/xfs/two
ftload write "$f" 32M 1M > /dev/null || echo "# ftload write failed"
remount xfs || echo "# remount failed"
check "two readers of one file ran under record" rec two.ftr xfs ftload two-readers "$f" 16K 7
check "the reads name two open files, 1024 reads each" \
	equal "$(opens_of two.ftr "$f" | tr '\n' ' ')" "1024 1024 "
as_kernel two.ftr "$f"

# The file opened, read and closed 16 times in turn (ftload reopen-reads): each open gets the
# struct file the close before it freed, and a fresh readahead state and no advice; every
# other open is advised POSIX_FADV_RANDOM. The recorder sees the opens (open(2) and its kin)
# and numbers each apart, so the replay reads ahead for the others as the kernel does.
remount xfs || echo "# remount failed"
check "16 opens in turn ran under record" rec reopen.ftr xfs ftload reopen-reads "$f" 16K 16
check "the reads name 16 open files" equal "$(opens_of reopen.ftr "$f" | wc -l)" 16
as_kernel reopen.ftr "$f"

# The same with the opens made by io_uring (IORING_OP_OPENAT), seen at their completion.
remount xfs || echo "# remount failed"
check "16 io_uring opens in turn ran under record" \
	rec uring.ftr xfs ftload reopen-reads "$f" 16K 16 uring
check "the reads name 16 open files" equal "$(opens_of uring.ftr "$f" | wc -l)" 16
as_kernel uring.ftr "$f"
finish
