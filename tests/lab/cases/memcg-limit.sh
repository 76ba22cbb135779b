#!/bin/sh
# A memory cgroup's limit lowered during the recording (cgroup v2 memory.max; the writer
# reclaims the cgroup down to it in memory_max_write()), on ext4, with the LRU the kernel runs:
# 1. record --memory-limit=64M of a 32 MiB read that then writes 8M to its own memory.max:
#    the trace's evicted pages (calibrate: the model's against the kernel's deletions);
# 2. two cgroups of 64 MiB, A reading 8 MiB and B 32 MiB and then lowering its own max to 8M:
#    B's evictions (--by=cgroup, the kernel's largest order) against its memory.stat pgsteal,
#    and none in A.
# Each within 10%; the limit is in the trace at the sample after the write. The two kinds
# differ here: on 6.1's two lists the excess (about 6200 of 8192 pages) is more than the
# priority levels down to 1 take (5824), so priority 0 takes the rest and every page goes
# (model and kernel 8192); MGLRU (6.12) stops at the goal (model 6144-6171, kernel 6271).
. /lab/cases/lib.sh

ftload write /mnt/ext4/a 8M 1M > /dev/null || echo "# cannot write a"
ftload write /mnt/ext4/b 32M 1M > /dev/null || echo "# cannot write b"
echo +memory > /sys/fs/cgroup/cgroup.subtree_control

remount ext4 || echo "# remount failed"
folio-trace record --dev=/mnt/ext4 --memory-limit=64M -o one.ftr -- sh -c '
	dd if=/mnt/ext4/b of=/dev/null bs=1M 2> /dev/null &&
	echo 8M > "/sys/fs/cgroup$(sed -n "s/^0:://p" /proc/self/cgroup)/memory.max"' \
	> one.out 2> one.err || sed 's/^/#   record: /' one.err
set -- $(calib one.ftr "evictions, pages")
echo "# one cgroup, max 64M then 8M: evictions, model $1, kernel $2"
check "one cgroup: the kernel reclaimed to the new limit" at_least "${2:-0}" 4096
check "one cgroup: the model's evictions within 10% of the kernel's" within 10 "${1:-0}" "${2:-0}"

A=/sys/fs/cgroup/lab-la B=/sys/fs/cgroup/lab-lb
mkdir "$A" "$B" && echo 64M > "$A/memory.max" && echo 64M > "$B/memory.max" ||
	echo "# cannot make the cgroups"
cat > work.sh << EOW
sh -c 'echo \$\$ > $A/cgroup.procs && exec dd if=/mnt/ext4/a of=/dev/null bs=1M' 2> /dev/null &&
sh -c 'echo \$\$ > $B/cgroup.procs && dd if=/mnt/ext4/b of=/dev/null bs=1M 2> /dev/null &&
	echo 8M > $B/memory.max'
EOW
remount ext4 || echo "# remount failed"
check "record of the two cgroups' work" rec two.ftr ext4 sh work.sh
folio-trace replay --by=cgroup --format=csv two.ftr > two.csv 2> two.err || sed 's/^/#   /' two.err
ea=$(cgroup_figure two.csv /lab-la evicted_pages) eb=$(cgroup_figure two.csv /lab-lb evicted_pages)
kb=$(awk '$1 == "pgsteal" { print $2 }' "$B/memory.stat")
echo "# two cgroups, B's max 64M then 8M: B's evictions, model $eb, kernel $kb; A's model $ea"
check "two cgroups: the kernel reclaimed B to its new limit" at_least "${kb:-0}" 4096
check "two cgroups: B's evictions within 10% of its pgsteal" within 10 "${eb:-0}" "${kb:-0}"
check "two cgroups: A, whose limit stayed, loses nothing" test "${ea:-x}" = 0
finish
