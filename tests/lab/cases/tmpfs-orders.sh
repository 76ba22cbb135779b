#!/bin/sh
# tmpfs folio orders by release (mm/shmem.c shmem_huge_global_enabled()): 16 MiB written in
# 1 MiB writes, in 4 KiB writes and in one write on a tmpfs with huge=within_size, then
# huge=always, and removed, recorded. shmem fires no insertion event; the removal fires
# mm_filemap_delete_from_page_cache for each folio, with its order: the kernel's folios. The
# default replay's, order by order, must be the same: before 6.14 a write takes a PMD folio
# or base pages (within_size: PMD only where the folio ends within the write or the file, and
# its range is free), since 6.14 any order. 16 MiB fallocated (falloc) as written in one
# write (6.1: i_size grows after). huge=advise: PMD folios for the faults of a MADV_HUGEPAGE
# mapping alone.
. /lab/cases/lib.sh

for huge in within_size always; do
	if ! mount -o remount,huge=$huge /mnt/tmpfs; then
		echo "# tmpfs: cannot remount with huge=$huge"
		continue
	fi
	for bs in 1M 4K 16M falloc; do
		t=tmpfs-$huge-$bs.ftr
		load="ftload write /mnt/tmpfs/f 16M $bs"
		[ "$bs" = falloc ] && load="ftload fallocate /mnt/tmpfs/f 16M"
		check "huge=$huge $bs: the writes ran under record" rec "$t" tmpfs sh -c \
			"$load > /dev/null && stat -c %i /mnt/tmpfs/f > ino && rm /mnt/tmpfs/f"
		kernel=$(deleted_orders "$t" "$(cat ino)" | tr '\n' ' ')
		model=$(model_orders "$t" | tr '\n' ' ')
		echo "# huge=$huge $bs: folios by order (order count ...): kernel $kernel," \
			"model $model"
		check "huge=$huge $bs: the kernel removed the file's folios" test -n "$kernel"
		check "huge=$huge $bs: the default replay inserts the kernel's folios, by order" \
			equal "$model" "$kernel"
	done
done
# huge=advise: PMD folios for a VM_HUGEPAGE mapping's faults, not for write(2)s to the same file
# (shmem_get_folio_gfp() has no VMA then): 8 MiB faulted in through a mapping advised
# MADV_HUGEPAGE, 8 MiB written after it. shmem's faults are recorded from the page fault.
if mount -o remount,huge=advise /mnt/tmpfs; then
	t=tmpfs-advise.ftr
	check "huge=advise: the faults and writes ran under record" rec "$t" tmpfs sh -c \
		"ftload advised-write /mnt/tmpfs/f 8M 1M > /dev/null && stat -c %i /mnt/tmpfs/f > ino &&
		rm /mnt/tmpfs/f"
	kernel=$(deleted_orders "$t" "$(cat ino)" | tr '\n' ' ')
	model=$(model_orders "$t" | tr '\n' ' ')
	echo "# huge=advise: folios by order (order count ...): kernel $kernel, model $model"
	check "huge=advise: the kernel made PMD folios for the faults alone" \
		equal "$kernel" "0 2048 9 4 "
	check "huge=advise: the default replay inserts the kernel's folios, by order" \
		equal "$model" "$kernel"
else
	echo "# tmpfs: cannot remount with huge=advise"
fi
finish
