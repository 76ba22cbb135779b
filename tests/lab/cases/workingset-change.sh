#!/bin/sh
# A working set that changes, in a 64 MiB memory cgroup (record --memory-limit, cgroup v2) on
# ext4 with the two-list LRU: A (16 MiB) read twice, so it is active, then B (56 MiB) read
# three times. B's rereads refault within the active list and come back active, which moves
# the cgroup's workingset_activate_file; mm/vmscan.c prepare_scan_count() (6.1) and
# prepare_scan_control() (6.12) then deactivate the stale A although the inactive list is not
# low. The default replay's deactivations against the cgroup's pgdeactivate (memory.stat, the
# trace's first and last samples), its refault activations against workingset_activate_file,
# its evictions and refaults against the kernel's. On 6.1, whose reclaim reads the counts as
# flushed at each pass: refault activations within 25%, deactivations within 10% (four
# recordings: kernel 10572-10637, model 10547-10671). 6.12 reads them as last flushed (every
# 2 s), a phase the trace does not give: printed only (kernel 4239 to 11251 over four runs, the
# 4239 in a slow VM on a loaded host; model 10684, 10921 and 11602 where the kernel had 9436,
# 9644 and 11251, and 8298 against the 4239; once 0, the model 7446: no flush the reclaim
# read had moved the refaults, so no pass deactivated). Since the model reads the lists'
# sizes for inactive_is_low() as last flushed too: the kernel 0, the model 0, and the kernel
# 3031, the model 16088 (9370 reading them as they were).
. /lab/cases/lib.sh

gen=/sys/kernel/mm/lru_gen/enabled
[ -w "$gen" ] && echo n > "$gen"
ftload write /mnt/ext4/a 16M 1M > /dev/null || echo "# cannot write a"
ftload write /mnt/ext4/b 56M 1M > /dev/null || echo "# cannot write b"
remount ext4 || echo "# remount failed"
folio-trace record --dev=/mnt/ext4 --memory-limit=64M -o ws.ftr -- sh -c \
	"ftload reread /mnt/ext4/a 1M 2 && ftload reread /mnt/ext4/b 1M 3" > ws.out 2> ws.err ||
	sed 's/^/#   /' ws.err

# cgroup_delta NAME: the recorded cgroup's memory.stat NAME, last sample less the first.
cgroup_delta() {
	folio-trace dump ws.ftr | awk -v k="$1" '
	$2 == "counter_names" && $4 == "source=4" { sub("names=", "", $6); n = split($6, nm, ",")
		for (i = 1; i <= n; i++) if (nm[i] == k) c = i; next }
	$2 == "counters" && $4 == "source=4" && c { sub("values=", "", $6); split($6, v, ",")
		if (first == "") first = v[c]; last = v[c] }
	END { if (first != "") print last - first }'
}

kd=$(cgroup_delta pgdeactivate)
ka=$(cgroup_delta workingset_activate_file)
md=$(model_metric ws.ftr deactivations)
ma=$(model_metric ws.ftr refault_activations)
set -- $(calib ws.ftr "evictions, pages") $(calib ws.ftr refaults)
echo "# $(uname -r): deactivations model $md kernel $kd, refault activations model $ma" \
	"kernel $ka, evictions model $1 kernel $2, refaults model $3 kernel $4"
check "the kernel activated refaults (workingset_activate_file)" at_least "${ka:-0}" 1
case $(uname -r) in
6.1.*)
	check "the kernel deactivated (pgdeactivate)" at_least "${kd:-0}" 1
	check "refault activations within 25% of workingset_activate_file" \
		within 25 "${ma:-0}" "${ka:-0}"
	check "deactivations within 10% of pgdeactivate" within 10 "${md:-0}" "${kd:-0}" ;;
*)	echo "# $(uname -r): flushed counts, deactivations and refault activations printed" ;;
esac
finish
