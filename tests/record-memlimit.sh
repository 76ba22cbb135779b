#!/bin/sh
# --memory-limit: the command runs in a memory cgroup of that size, so reading a file 4x the
# limit makes the kernel reclaim its page cache; the trace carries the limit and cgroup samples.
# The cgroup goes away afterwards, also when the recorder is killed with SIGKILL.
# (A read, not a write: dirty pages under a small v1 limit can get the writer OOM-killed.)
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
[ -w /sys/fs/cgroup/memory/memory.limit_in_bytes ] || skip_all "no cgroup v1 memory controller"

D=$(record_ext4_dir)
T=$TMPD/t.ftr
CG=/sys/fs/cgroup/memory/folio-trace
dd if=/dev/zero of="$D/m" bs=1M count=128 status=none
drop_pages "$D/m"
# In the background only to know the recorder's pid, which names its cgroup.
"$FOLIO_TRACE" record -o "$T" --memory-limit=32M -- dd if="$D/m" of=/dev/null bs=1M \
	status=none 2> "$TMPD/rec.err" &
rp=$!
wait $rp
rc=$?
err=$(cat "$TMPD/rec.err")
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
ok "$([ ! -d "$CG.$rp" ] && echo 0 || echo 1)" "the cgroup is removed afterwards"

# wait_for COND...: up to 5 s for the test COND to hold.
wait_for() {
	i=0
	while ! test "$@" && [ $i -lt 100 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

# SIGKILL leaves no chance to clean up: the keeper removes the cgroup once the command is done.
# The command runs until the test ends it, however long a busy machine takes to get here.
"$FOLIO_TRACE" record -o "$TMPD/k.ftr" --memory-limit=32M -- sleep 120 > /dev/null 2>&1 &
rp=$!
wait_recording "$TMPD/k.ftr"
sp=$(cat "$CG.$rp/cgroup.procs" 2> /dev/null)
ok "$([ -n "$sp" ] && echo 0 || echo 1)" "the command runs in folio-trace.$rp ($sp)"
kill -KILL $rp
wait $rp 2> /dev/null
ok "$([ -d "$CG.$rp" ] && echo 0 || echo 1)" "killed recorder: the cgroup stays while the command runs"
[ -n "$sp" ] && kill $sp 2> /dev/null
wait_for ! -d "$CG.$rp"
ok "$([ ! -d "$CG.$rp" ] && echo 0 || echo 1)" "killed recorder: the cgroup is gone once the command has exited"

# The whole process group killed (timeout -s KILL kills its own group: record, the command
# and, unless it left the group, the keeper): the cgroup is still removed, not left until the
# next record.
timeout -s KILL 60 sh -c 'echo $$ > "$1"; exec "$2" record -o "$3" --memory-limit=32M \
	-- sleep 120' sh "$TMPD/pg.pid" "$FOLIO_TRACE" "$TMPD/pg.ftr" > /dev/null 2>&1 &
tp=$!
wait_for -s "$TMPD/pg.pid"
rp=$(cat "$TMPD/pg.pid")
wait_recording "$TMPD/pg.ftr"
ok "$([ -d "$CG.$rp" ] && echo 0 || echo 1)" "record under timeout: the cgroup folio-trace.$rp made"
pg=$(ps -o pgid= -p "$rp" | tr -d ' ')
if [ -n "$pg" ] && [ "$pg" != "$(ps -o pgid= -p $$ | tr -d ' ')" ]; then
	kill -KILL "-$pg"	# what timeout does when its time is up, without waiting for it
	wait $tp 2> /dev/null
	wait_for ! -d "$CG.$rp"
	ok "$([ ! -d "$CG.$rp" ] && echo 0 || echo 1)" \
		"process group killed: the cgroup is removed at once, not at the next record"
else
	kill -KILL "$rp"
	skip "timeout did not make a process group of its own"
fi

# A cgroup left by a recorder and keeper both gone (named after a pid that has exited):
# removed by the next record --memory-limit.
sh -c 'exit 0' &
dead=$!
wait $dead
if ! kill -0 "$dead" 2> /dev/null && mkdir "$CG.$dead"; then
	rec "$TMPD/s.ftr" --memory-limit=32M -- true
	ok "$([ ! -d "$CG.$dead" ] && echo 0 || echo 1)" "a stale cgroup is removed at the next start"
fi
done_testing
