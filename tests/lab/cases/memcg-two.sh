#!/bin/sh
# Two memory cgroups at once (cgroup v2) on ext4, with the LRU the kernel runs (6.12: MGLRU;
# 6.1: the two lists): A (16 MiB) rereads a 32 MiB file three times while B (32 MiB) reads 16
# MiB of a 64 MiB file and its memory.stat (so its statistics are flushed non-empty), then
# reads the file at Zipf-drawn 64 KiB blocks. The whole command is recorded, its two workers
# moved into A and B. The default replay charges each cgroup's folios to it and reclaims each
# within its own limit: per cgroup, the evictions and refaults of its last model (the kernel's
# largest order) within 10% of the cgroup's own memory.stat (pgsteal, workingset_refault_file).
# B under MGLRU (6.12) is where the model needs the kernel's own figures: 6.12 holds 76 to 139
# pages of B's 32 MiB besides its page cache (kernel memory, its tasks, charges cached per
# CPU), which the replay finds at B's limit reclaims, and evicts a batch of 64 pages at each;
# with neither its evictions came out 9% and its refaults 12% below the kernel's.
. /lab/cases/lib.sh

ftload write /mnt/ext4/a 32M 1M > /dev/null || echo "# cannot write a"
ftload write /mnt/ext4/b 64M 1M > /dev/null || echo "# cannot write b"
echo +memory > /sys/fs/cgroup/cgroup.subtree_control
A=/sys/fs/cgroup/lab-a B=/sys/fs/cgroup/lab-b
mkdir "$A" "$B" && echo 16M > "$A/memory.max" && echo 32M > "$B/memory.max" ||
	echo "# cannot make the cgroups"
cat > work.sh << EOW
sh -c 'echo \$\$ > $A/cgroup.procs && exec ftload reread /mnt/ext4/a 1M 3' > /dev/null &
sh -c 'echo \$\$ > $B/cgroup.procs && dd if=/mnt/ext4/b of=/dev/null bs=1M count=16 2> /dev/null &&
	cat $B/memory.stat > /dev/null && exec ftload zipf /mnt/ext4/b 64K 6000 0.9 3' > /dev/null &
wait
EOW
remount ext4 || echo "# remount failed"
check "record of the two cgroups' work" rec two.ftr ext4 sh work.sh
folio-trace replay --by=cgroup --format=csv two.ftr > two.csv 2> two.err || sed 's/^/#   /' two.err

stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$1/memory.stat"; }
gen=$(cat /sys/kernel/mm/lru_gen/enabled 2> /dev/null)
echo "# lru_gen/enabled $gen"
for cg in a b; do
	dir=/sys/fs/cgroup/lab-$cg
	ev=$(cgroup_figure two.csv "/lab-$cg" evicted_pages)
	ref=$(cgroup_figure two.csv "/lab-$cg" refaults)
	kev=$(stat_of "$dir" pgsteal) kref=$(stat_of "$dir" workingset_refault_file)
	echo "# $cg: evictions model $ev kernel $kev, refaults model $ref kernel $kref"
	check "$cg: the kernel reclaimed in it" at_least "${kev:-0}" 1000
	check "$cg: evictions within 10% of memory.stat's pgsteal" within 10 "${ev:-0}" "${kev:-0}"
	check "$cg: refaults within 10% of memory.stat's" within 10 "${ref:-0}" "${kref:-0}"
done
finish
