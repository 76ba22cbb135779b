#!/bin/sh
# A file refault measured against the anonymous memory while swap is free (mm/workingset.c
# workingset_test_recent(), 6.1 to 6.18: NR_ACTIVE_FILE + NR_ACTIVE_ANON + NR_INACTIVE_ANON
# when mem_cgroup_get_nr_swap_pages() > 0). In a 64 MiB cgroup a process holds 32 MiB of
# anonymous memory (dd's buffer, blocked on a pipe nobody reads) while a 56 MiB file is read
# twice: no file page is read twice in a pass, so the active file list stays empty, and the
# second pass refaults at distances of about 20 MiB that only the anonymous memory covers.
# With a swap file on, the kernel activates refaults and so does the default replay (the
# trace's SwapFree and memory.stat anon), within 30% of the kernel's count: both compare with
# the active file list as last flushed, not as it grows with each activation (the model did:
# 10636 against the kernel's 3864); with --swap=off the replay activates none. With
# swap off, neither does the kernel nor the replay. The swap file is turned off and removed
# at the end; no swap (swapon refused) skips.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
[ -w /sys/fs/cgroup/memory/memory.limit_in_bytes ] || [ -w /sys/fs/cgroup/cgroup.procs ] ||
	skip_all "no memory cgroup controller"
grep -q '^/' /proc/swaps 2> /dev/null && skip_all "swap is already on: the case needs it off"

D=$(record_ext4_dir)
SW=$D/swapfile
swap_off() { swapoff "$SW" 2> /dev/null; record_cleanup; }
trap swap_off EXIT
{ fallocate -l 256M "$SW" && chmod 600 "$SW" && mkswap "$SW"; } > /dev/null 2>&1 ||
	skip_all "cannot make a swap file"
swapon "$SW" 2> /dev/null || skip_all "swapon refused on this host"
swapoff "$SW"

dd if=/dev/zero of="$D/f" bs=1M count=56 status=none
# The command: dd's 32 MiB buffer filled (its RSS says so), kept in memory (v1: the cgroup's
# swappiness 0, so its reclaim leaves anon alone while swap stays free), the cgroup's
# statistics flushed by reading memory.stat (what the refault reads is the flushed count),
# then the file twice. The recorder samples every 100 ms, so the replay learns of the anon
# memory while the file is read: its first and last samples come before the buffer is filled
# and after it is gone.
cat > "$D/run.sh" << EOF
cg=\$(awk -F: '\$2 ~ /memory/ || \$2 == "" { print \$3; exit }' /proc/self/cgroup)
echo 0 > /sys/fs/cgroup/memory\$cg/memory.swappiness 2> /dev/null
dd if=/dev/zero bs=32M count=1 2> /dev/null | sleep 300 &
i=0
while [ \$i -lt 600 ]; do
	rss=\$(awk '/^VmRSS/ { print \$2 }' /proc/\$(pgrep -n -x -P \$\$ dd)/status 2> /dev/null)
	[ "\${rss:-0}" -ge 32768 ] && break
	sleep 0.05
	i=\$((i + 1))
done
cat /sys/fs/cgroup/memory\$cg/memory.stat /sys/fs/cgroup\$cg/memory.stat > /dev/null 2>&1
dd if="$D/f" of=/dev/null bs=1M status=none
dd if="$D/f" of=/dev/null bs=1M status=none
pkill -x -P \$\$ sleep
EOF

# activations TRACE: "KERNEL DEFAULT OFF OTHERS" refault activations: the kernel's
# workingset_activate_file (/proc/vmstat, system-wide: the cgroup's v1 memory.stat has none),
# the default replay's and the replay's with --swap=off; then the file refaults of the host
# outside the test's cgroup meanwhile (vmstat's less the cgroup's workingset_refault_file):
# the host's other work activates at most that many of the kernel's count.
activations() {
	k=$(counter_delta "$1" 1 workingset_activate_file)
	m=$("$FOLIO_TRACE" replay --format=csv "$1" | csv_last refault_activations)
	o=$("$FOLIO_TRACE" replay --format=csv --swap=off "$1" | csv_last refault_activations)
	r=$(($(counter_delta "$1" 1 workingset_refault_file) -
		$(counter_delta "$1" 4 workingset_refault_file)))
	echo "$k $m $o $((r > 0 ? r : 0))"
}

# csv_last KEY: the last row's KEY column of replay's CSV.
csv_last() {
	awk -F, -v k="$1" 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next }
		c { v = $c } END { print v + 0 }'
}

swapon "$SW"
drop_pages "$D/f"
rec "$TMPD/swap.ftr" --interval=100ms --memory-limit=64M -- sh "$D/run.sh"
swapoff "$SW"
set -- $(activations "$TMPD/swap.ftr")
diag "swap on: refault activations kernel $1 (of which the host's other work at most $4)," \
	"replay $2, replay --swap=off $3"
is "$rc" 0 "recorded with swap on"
ok "$([ "$1" -ge 1000 ] && echo 0 || echo 1)" "swap on: the kernel activates refaults ($1)"
ok "$([ "$2" -ge 1000 ] && echo 0 || echo 1)" "swap on: so does the default replay ($2)"
# within 30% of the test's own share of the count, which lies between $1 - $4 and $1
ok "$(awk -v k="$1" -v m="$2" -v x="$4" 'BEGIN { own = k - x; if (own < 0) own = 0
	print (m * 100 >= 70 * own && m * 100 <= 130 * k) ? 0 : 1 }')" \
	"swap on: the replay's activations within 30% of the kernel's ($2; $1, less at most $4)"
is "$3" 0 "swap on, --swap=off: the active file list alone activates none"

drop_pages "$D/f"
rec "$TMPD/noswap.ftr" --interval=100ms --memory-limit=64M -- sh "$D/run.sh"
set -- $(activations "$TMPD/noswap.ftr")
diag "swap off: refault activations kernel $1 (of which the host's other work at most $4)," \
	"replay $2, replay --swap=off $3"
is "$rc" 0 "recorded with swap off"
ok "$([ "$1" -lt $((100 + $4)) ] && echo 0 || echo 1)" \
	"swap off: the kernel activates (almost) none ($1, less at most $4 of the host's)"
is "$2" 0 "swap off: neither does the default replay"
done_testing
