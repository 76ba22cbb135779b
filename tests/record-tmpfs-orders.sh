#!/bin/sh
# tmpfs folio orders, live (mm/shmem.c shmem_huge_global_enabled(), shmem_suitable_orders(),
# 6.18): a file written on a tmpfs mounted huge=within_size, then huge=always, in 1 MiB writes,
# in 4 KiB writes and in one 16 MiB write, then removed, all recorded. shmem fires no
# insertion event, but removing the file fires mm_filemap_delete_from_page_cache for each of
# its folios, with its order: the kernel's folios. The default replay's insertions into the
# file, order by order, must be the same, exactly (within_size: 1 MiB writes make order 8,
# 4 KiB writes order 0, one write PMD folios; always: PMD folios whatever the writes), and
# calibrate takes the kernel's from the deletes (its order rows agree); 16 MiB fallocated makes
# PMD folios on both mounts, as one write would. Then huge=advise: faults
# through a MADV_HUGEPAGE mapping take PMD folios, write(2)s to the same file base pages.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
T=$TMPD/t.ftr

# kernel_orders INO [TRACE] / model_orders INO [TRACE]: "ORDER:FOLIOS ..." of the file in TRACE,
# else $T (the model up to the PMD order, which the mounts' rules bound)
kernel_orders() {
	"$FOLIO_TRACE" dump "${2:-$T}" | awk -v ino="ino=$1" '
		$2 == "pagecache_delete" && $5 == ino { sub("order=", "", $7); n[$7]++ }
		END { for (o in n) print o ":" n[o] }' | sort -n | tr '\n' ' '
}
model_orders() {
	"$FOLIO_TRACE" replay --folio-order=9 --by=file --format=csv "${2:-$T}" | awk -F, -v ino="$1" '
		NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^inserted_[0-9]+$/)
			c[i] = substr($i, 10) }
		NR > 1 && $3 == ino { for (i in c) if ($i > 0) print c[i] ":" $i }' |
		sort -n | tr '\n' ' '
}

for huge in within_size always; do
	M=$TMPD/tmpfs-$huge
	mkdir -p "$M"
	if ! mount -t tmpfs -o size=64m,huge=$huge ft-tmpfs-orders "$M"; then
		diag "tmpfs huge=$huge: cannot mount: not tested"
		continue
	fi
	echo "$M" >> "$TMPD/cleanup-mounts"
	for w in 1M:16 4K:4096 16M:1; do
		bs=${w%%:*} count=${w#*:}
		rec "$T" -- sh -c "dd if=/dev/zero of='$M/f' bs=$bs count=$count status=none &&
			stat -c %i '$M/f' > '$TMPD/ino' && rm '$M/f'"
		ok "$rc" "huge=$huge, $count writes of $bs: recorded"
		ino=$(cat "$TMPD/ino")
		k=$(kernel_orders "$ino")
		diag "huge=$huge, $count writes of $bs: kernel folios by order $k"
		ok "$([ -n "$k" ]; echo $?)" "huge=$huge, writes of $bs: the kernel removed the file's folios"
		is "$(model_orders "$ino")" "$k" \
			"huge=$huge, writes of $bs: the model's folios by order are the kernel's"
	done
	# fallocate(1) of 16 MiB: shmem_fallocate() allocates its folios as one write would
	rec "$T" -- sh -c "fallocate -l 16M '$M/f' && stat -c %i '$M/f' > '$TMPD/ino' &&
		cat '$M/f' > /dev/null && rm '$M/f'"
	ok "$rc" "huge=$huge, 16 MiB fallocated and read: recorded"
	ino=$(cat "$TMPD/ino")
	k=$(kernel_orders "$ino")
	is "$k" "9:8 " "huge=$huge, fallocated: the kernel's folios are PMD folios"
	is "$(model_orders "$ino")" "$k" \
		"huge=$huge, fallocated: the model's folios by order are the kernel's"
done
# huge=advise: the PMD order for a VM_HUGEPAGE mapping's faults only. 8 MiB faulted in through a
# mapping advised MADV_HUGEPAGE (4 PMD folios), 8 MiB after it written with write(2) (base pages,
# the mapping's advice notwithstanding: shmem_get_folio_gfp() has no VMA for a write). shmem's
# faults fire no mm_filemap_fault: the recorder takes them from the page fault.
ftload=${TOP_BUILDDIR:?run through make check}/tests/lab/ftload
M=$TMPD/tmpfs-advise
mkdir -p "$M"
if [ ! -x "$ftload" ]; then
	diag "tests/lab/ftload not built: huge=advise not tested"
elif ! mount -t tmpfs -o size=64m,huge=advise ft-tmpfs-orders "$M"; then
	diag "tmpfs huge=advise: cannot mount: not tested"
else
	echo "$M" >> "$TMPD/cleanup-mounts"
	A=$TMPD/advise.ftr
	rec "$A" -- sh -c "'$ftload' advised-write '$M/f' 8M 1M > /dev/null &&
		stat -c %i '$M/f' > '$TMPD/ino' && rm '$M/f'"
	ok "$rc" "huge=advise, faults through a MADV_HUGEPAGE mapping and writes: recorded"
	ino=$(cat "$TMPD/ino")
	faults=$("$FOLIO_TRACE" dump "$A" | awk -v ino="ino=$ino" '
		$2 == "access" && $4 == "op=mmap_write" && $6 == ino { n++ } END { print n + 0 }')
	is "$faults" 4 "huge=advise: the mapping's 4 write faults recorded, one per PMD folio"
	k=$(kernel_orders "$ino" "$A")
	is "$k" "0:2048 9:4 " "huge=advise: the kernel made PMD folios for the faults alone"
	is "$(model_orders "$ino" "$A")" "$k" \
		"huge=advise: the model's folios by order are the kernel's"
fi
# the calibration of the last one: its order-9 row from the deletes
c=$("$FOLIO_TRACE" calibrate "$T")
like "$c" "insertions at order 9, folios  *8  *8 " \
	"calibrate: the tmpfs file's 8 PMD folios on both sides, from the deletes"
done_testing
