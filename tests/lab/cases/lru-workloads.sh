#!/bin/sh
# Reclaim inside a 32 MiB memory cgroup (record --memory-limit, cgroup v2) on ext4, with
# the two-list LRU and, where the kernel has it, MGLRU (6.12 runs it by default; 6.1 has it
# built and off, switched on here for the run): a Zipf read (40000 reads of 4 KiB, exponent
# 0.9, over 64 MiB) and an 8 MiB hot set read four times, a 96 MiB scan over it, the hot set
# twice again. The default replay follows the kind the trace recorded (lru_gen/enabled); its
# evictions and refaults against the kernel's (its mm_filemap_delete_from_page_cache events,
# the cgroup's workingset_refault_file): within 10%; and where the two kinds differ on the
# kernel by more than that, the model differs the same way. 6.1's two lists keep the hot set
# through the scan and MGLRU loses it (tier 2, unprotected); 6.12's two lists kept or lost it
# by run (not checked there); MGLRU's hotscan refaults are not checked before 6.14, whose
# statistics flushes (which decide the hot set's shadows) traces record.
. /lab/cases/lib.sh

gen=/sys/kernel/mm/lru_gen/enabled
for f in z:64M hot:8M cold:96M; do
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
	# bounded (each takes 3-10 s here), so that one hung run is named and the rest still run
	timeout 120 folio-trace record --dev=/mnt/ext4 --memory-limit=32M -o "$lru-$name.ftr" \
		-- sh -c "$1" > "$lru-$name.out" 2> "$lru-$name.err"
	case $? in
	0) ;;
	124 | 143) echo "# $lru $name: did not end within 120 s (blocked tasks in dmesg)"
		echo w > /proc/sysrq-trigger ;;
	*) sed 's/^/#   /' "$lru-$name.err" ;;
	esac
	echo "$(calib "$lru-$name.ftr" "evictions, pages") $(calib "$lru-$name.ftr" refaults)"
}

# differ NAME MODEL_A MODEL_B KERNEL_A KERNEL_B: where the kernel's two figures differ by
# more than 10%, the model's differ the same way
differ() {
	awk -v a="$4" -v b="$5" 'BEGIN { d = a - b; if (d < 0) d = -d; m = a > b ? a : b
		exit !(d * 10 > m) }' || return 0
	check "$1: the model differs as the kernel does (MGLRU $2 vs $3, kernel $4 vs $5)" \
		awk -v ma="$2" -v mb="$3" -v ka="$4" -v kb="$5" \
		'BEGIN { exit !((ma > mb) == (ka > kb) && ma != mb) }'
}

if [ -w "$gen" ]; then
	echo y > "$gen"
	for w in zipf hotscan; do
		eval "cmd=\$$w"
		set -- $(run mglru "$w" "$cmd")
		eval "mglru_$w=\"$*\""
		echo "# MGLRU ($(cat "$gen")), $w: evictions model $1 kernel $2, refaults model $3" \
			"kernel $4"
		check "MGLRU $w: evictions within 10% of the kernel's" within 10 "${1:-0}" "${2:-0}"
		case $w:$(uname -r) in
		hotscan:6.1.* | hotscan:6.1[0-3].*)
			# the hot set's shadows live or die by when the kernel flushed the
			# cgroup's statistics, which traces record from 6.14 on: 6.12 gave 0 or
			# 2048 run by run, and the model 0 or 2048 by the trace's samples
			echo "# MGLRU $w refaults on $(uname -r): not checked (the statistics" \
				"flushes are not recorded before 6.14)" ;;
		*)	check "MGLRU $w: refaults within 10% (or 82 pages) of memory.stat's" \
				near 10 82 "${3:-0}" "${4:-0}" ;;
		esac
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
		# 6.12's two lists under a memcg kept the hot set in some runs and lost most of
		# it in others (0 or 1542 refaults of 2048; 0 to 2928 of a 16 MiB one), where
		# 6.1 kept it every time: a figure the kernel does not repeat is printed only
		echo "# $w on $(uname -r): not checked, the kernel's figures vary from run to run"
		continue ;;
	esac
	check "$w: evictions within 10% of the kernel's" within 10 "${1:-0}" "${2:-0}"
	# the hot set's refaults are few (none with the two lists on 6.1) against its 2048
	# pages the scan could push out: within 10%, or 4% of those pages
	check "$w: refaults within 10% (or 82 pages) of memory.stat's" \
		near 10 82 "${3:-0}" "${4:-0}"
	eval "m=\$mglru_$w"
	[ -n "$m" ] || continue
	set -- $m "$@"
	case $w:$(uname -r) in
	hotscan:6.1.* | hotscan:6.1[0-3].*) ;;	# MGLRU's refaults not comparable (above)
	*) differ "$w refaults" "$3" "$7" "$4" "$8" ;;
	esac
done
finish
