#!/bin/sh
# Shadows inside a large folio, on xfs (large folios since 5.18) under record --memory-limit=48M
# with the kernel's own LRU (6.12: MGLRU, lru_gen_refault(); 6.1: the two lists): A (16 MiB)
# read at its odd pages alone under POSIX_FADV_RANDOM, B (96 MiB) read through, which evicts
# them, then A read through again, its readahead folios each spanning odd pages.
# __filemap_add_folio() hands workingset_refault() the last shadow of a new folio's range, so
# the kernel counts nearly all of A refaulted (workingset_refault_file); the default replay's
# refaults within 5% of the kernel's. The model looked at each folio's first page alone before:
# a tenth of them (6.18, the same case on ext4: 395 of 3979).
. /lab/cases/lib.sh

ftload write /mnt/xfs/a 16M 1M > /dev/null || echo "# cannot write a"
ftload write /mnt/xfs/b 96M 1M > /dev/null || echo "# cannot write b"
remount xfs || echo "# remount failed"
gen=$(cat /sys/kernel/mm/lru_gen/enabled 2> /dev/null || echo "none")
folio-trace record --dev=/mnt/xfs --memory-limit=48M -o ri.ftr -- sh -c \
	"ftload stride-read /mnt/xfs/a 4K 8K 4K && ftload read /mnt/xfs/b 1M &&
	 ftload read /mnt/xfs/a 1M" > ri.out 2> ri.err
check "odd pages, a flood, then a reread ran under record --memory-limit=48M" equal "$?" 0 ||
	sed 's/^/#   /' ri.err
ino=$(stat -c %i /mnt/xfs/a)
echo "# $(uname -r), lru_gen $gen: A's folios as the kernel cached them (order count ...):" \
	"$(kernel_orders ri.ftr "$ino" | tr '\n' ' ')"
set -- $(calib ri.ftr refaults)
echo "# refaults: model ${1:-?}, kernel ${2:-?}"
check "the kernel counted most of A refaulted (workingset_refault_file)" at_least "${2:-0}" 3000
check "the default replay's refaults within 5% of the kernel's" within 5 "${1:-0}" "${2:-0}"
finish
