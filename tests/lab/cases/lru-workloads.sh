#!/bin/sh
# Reclaim inside a 32 MiB memory cgroup (record --memory-limit, cgroup v2) on ext4, with
# the two-list LRU and, where the kernel has it, MGLRU (6.12 runs it by default; 6.1 has it
# built and off, switched on here for the run): a Zipf read (40000 reads of 4 KiB, exponent
# 0.9, over 64 MiB) and a hot set read four times, a 96 MiB scan over it, the hot set twice
# again. The default replay's evictions and refaults against the kernel's (its
# mm_filemap_delete_from_page_cache events, the cgroup's workingset_refault_file): within 10%
# with the two-list LRU the model follows (but for 6.12's hot set: a TODO); with MGLRU
# printed for the model to come.
. /lab/cases/lib.sh

gen=/sys/kernel/mm/lru_gen/enabled
for f in z:64M hot:16M cold:96M; do
	ftload write "/mnt/ext4/${f%%:*}" "${f#*:}" 1M > /dev/null || echo "# cannot write $f"
done
zipf="ftload zipf /mnt/ext4/z 4K 40000 0.9 1"
hotscan="ftload reread /mnt/ext4/hot 1M 4 && ftload read /mnt/ext4/cold 1M &&
	ftload reread /mnt/ext4/hot 1M 2"

# run LRU NAME COMMAND: the command recorded cold under the limit; "EVICTIONS KERNEL
# REFAULTS KERNEL" as model/kernel pairs.
run() {
	lru=$1 name=$2
	shift 2
	remount ext4 || echo "# remount failed"
	folio-trace record --dev=/mnt/ext4 --memory-limit=32M -o "$lru-$name.ftr" -- \
		sh -c "$1" > "$lru-$name.out" 2> "$lru-$name.err" || sed 's/^/#   /' "$lru-$name.err"
	echo "$(calib "$lru-$name.ftr" "evictions, pages") $(calib "$lru-$name.ftr" refaults)"
}

if [ -w "$gen" ]; then
	echo y > "$gen"
	for w in zipf hotscan; do
		eval "cmd=\$$w"
		set -- $(run mglru "$w" "$cmd")
		echo "# MGLRU ($(cat "$gen")), $w: evictions model $1 kernel $2, refaults model $3" \
			"kernel $4"
	done
	echo n > "$gen"
fi
for w in zipf hotscan; do
	eval "cmd=\$$w"
	set -- $(run two-list "$w" "$cmd")
	echo "# two-list, $w: evictions model $1 kernel $2, refaults model $3 kernel $4"
	check "$w: the kernel evicted under the limit" at_least "${2:-0}" 1
	case $w:$(uname -r) in
	hotscan:6.12.*)
		# 6.12's two-list LRU lets the scan push most of the hot set out (2928 pages
		# refaulted in the lab, 6.1 227, the model 209): not in the model yet
		why="6.12 deactivates the hot set during the scan, the model (like 6.1) keeps it"
		check_todo "$why" "$w: evictions within 10% of the kernel's" \
			within 10 "${1:-0}" "${2:-0}"
		check_todo "$why" "$w: refaults within 10% of memory.stat's" \
			within 10 "${3:-0}" "${4:-0}" ;;
	*)
		check "$w: evictions within 10% of the kernel's" within 10 "${1:-0}" "${2:-0}"
		check "$w: refaults within 10% of memory.stat's" within 10 "${3:-0}" "${4:-0}" ;;
	esac
done
finish
