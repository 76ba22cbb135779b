#!/bin/sh
# --memory-limit: the command runs in a memory cgroup of that size, so reading a file 4x the
# limit makes the kernel reclaim its page cache; the trace carries the limit and cgroup samples.
# (A read, not a write: dirty pages under a small v1 limit can get the writer OOM-killed.)
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
[ -w /sys/fs/cgroup/memory/memory.limit_in_bytes ] || skip_all "no cgroup v1 memory controller"

D=$(record_ext4_dir)
T=$TMPD/t.ftr
dd if=/dev/zero of="$D/m" bs=1M count=128 status=none
sync
echo 3 > /proc/sys/vm/drop_caches
rec "$T" --memory-limit=32M -- dd if="$D/m" of=/dev/null bs=1M status=none
is "$rc" 0 "record --memory-limit=32M -- dd exits 0"
is "$err" "$(echo "$err" | grep -v 'exited with\|killed by')" "dd ran to its end"
ino=$(stat -c %i "$D/m")
is "$(access_sum "$T" read "$ino")" 134217728 "dd: 134217728 bytes read"
is "$(dump_type "$T" host | sed 's/.* memory_limit=\([0-9]*\) .*/\1/')" 33554432 \
	"FT_HOST carries the limit"
deleted=$(field_of "$T" pagecache_delete "$ino" index | wc -l)
ok "$([ "$deleted" -gt 100 ] && echo 0 || echo 1)" "the file's cache is reclaimed under the limit ($deleted folios)"
scans=$(dump_type "$T" vmscan | grep -c ' kind=2 ')
ok "$([ "$scans" -gt 0 ] && echo 0 || echo 1)" "vmscan shrink_inactive events recorded ($scans)"
n=$(dump_type "$T" counters | grep -c ' source=4 ')
ok "$([ "$n" -ge 2 ] && echo 0 || echo 1)" "memory cgroup sampled at start and end ($n)"
ls -d /sys/fs/cgroup/memory/folio-trace.* > /dev/null 2>&1
ok "$([ $? -ne 0 ] && echo 0 || echo 1)" "the cgroup is removed afterwards"
done_testing
