#!/bin/sh
# A 64 MiB file read three times over in a 32 MiB memory cgroup (record --memory-limit, cgroup
# v2), on ext4: the refaults the default replay counts against the cgroup's own
# workingset_refault_file (memory.stat, sampled by record), within 10%, with the two-list LRU,
# and with MGLRU (6.12's default; 6.1 has it switched on for the run): the default replay
# follows the kind the trace recorded (lru_gen/enabled).
. /lab/cases/lib.sh

f=/mnt/ext4/m
ftload write "$f" 64M 1M > /dev/null || echo "# ftload write failed"
gen=/sys/kernel/mm/lru_gen/enabled

# reread NAME: the cold rereads recorded under the limit, "MODEL KERNEL" refaults.
reread() {
	remount ext4 || echo "# remount failed"
	folio-trace record --dev=/mnt/ext4 --memory-limit=32M -o "$1.ftr" -- \
		ftload reread "$f" 1M 3 > "$1.out" 2> "$1.err" || sed 's/^/#   /' "$1.err"
	calib "$1.ftr" refaults
}

# 6.1 builds MGLRU and leaves it off: switched on for its run, as 6.12 ships it
[ -w "$gen" ] && echo y > "$gen"
if [ -r "$gen" ] && [ "$(cat "$gen")" != 0x0000 ]; then
	set -- $(reread mglru)
	echo "# MGLRU ($(cat "$gen")): refaults, model $1, kernel $2"
	check "calibrate says the kernel ran MGLRU, the model too" \
		test -n "$(folio-trace calibrate -q mglru.ftr |
			grep '^lru: the kernel ran MGLRU (.*), the model mglru$')"
	check "MGLRU: the kernel refaulted under the limit" at_least "${2:-0}" 1
	check "MGLRU: the default replay's refaults are within 10% of memory.stat's" \
		within 10 "${1:-0}" "${2:-0}"
fi
[ -w "$gen" ] && echo n > "$gen"
set -- $(reread two-list)
echo "# two-list LRU: refaults, model $1, kernel $2"
check "the kernel refaulted under the limit" at_least "${2:-0}" 1
check "the default replay's refaults are within 10% of memory.stat's" within 10 "${1:-0}" "${2:-0}"
finish
