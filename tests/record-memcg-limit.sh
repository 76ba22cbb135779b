#!/bin/sh
# A memory cgroup's limit lowered while recording, live. The kernel reclaims the cgroup down to
# a new memory.max (v1 memory.limit_in_bytes) in the writer's context (mm/memcontrol.c,
# memory_max_write() / mem_cgroup_resize_max()); the recorder reads the limits at each sample
# and the models reclaim then, after the accesses before the write: the evictions of the
# trace's files are held against the kernel's page-cache deletions (calibrate), within 5%.
# 1. record --memory-limit=64M runs a command that reads 48 MiB and then writes 16M to its
#    own cgroup's limit: the kernel drops about 32 MiB, and so does the replay (the limit is
#    a budget in the recorded zone).
# 2. Two cgroups made by the test, 256 MiB each: one reads 16 MiB, the other 48 MiB and then
#    lowers its own limit to 16M: only its folios go, 32 MiB and what else it held (below).
# Without the records of the change the model evicts nothing in either case.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf

memcg_hierarchy
MiB=1048576

D=$(record_ext4_dir)
dd if=/dev/zero of="$D/m" bs=1M count=48 status=none
dd if=/dev/zero of="$D/s" bs=1M count=16 status=none
drop_pages "$D/m" "$D/s"

# calibrated TRACE: "model kernel" of the trace's files' evicted pages
calibrated() {
	"$FOLIO_TRACE" calibrate "$1" |
		awk '/^evictions, pages .*mm_filemap_delete_from_page_cache/ { print $3, $4; exit }'
}
# within5 "MODEL KERNEL" DESCRIPTION: the kernel's at least 1000 pages, the model within 5%
within5() {
	set -- $1 "$2"
	ok "$([ "$2" -ge 1000 ] && [ $(($1 * 100)) -ge $(($2 * 95)) ] &&
	      [ $(($1 * 100)) -le $(($2 * 105)) ] && echo 0 || echo 1)" "$3 (model $1, kernel $2)"
}

# The command's own memory cgroup, from /proc/self/cgroup (v1: the memory line, v2: 0::).
LOWER='cg=$(sed -n "s/^[0-9]*:memory://p; s/^0:://p" /proc/self/cgroup | head -n 1)
echo 16M > "$1$cg/$2"'
"$FOLIO_TRACE" record -q -o "$TMPD/one.ftr" --memory-limit=64M -- sh -c "
	dd if='$D/m' of=/dev/null bs=1M status=none && $LOWER" sh "$ROOT" "$MAX"
is "$?" 0 "record --memory-limit=64M of a read that lowers its limit exits 0"
n=$("$FOLIO_TRACE" dump -t cgroup_limits "$TMPD/one.ftr" | grep -c " max=$((16 * MiB)) ")
is "$n" 1 "the trace has the new limit"
run "$FOLIO_TRACE" replay "$TMPD/one.ftr"
like "$(printf '%s\n' "$out" | tr '\n' ' ' | tr -s ' ')" \
	"its cgroup's limits written 1 time during the trace;" "the report says it followed it"
damon_note "$TMPD/one.ftr"
within5 "$(calibrated "$TMPD/one.ftr")" "the limit lowered to 16 MiB: evictions"
drop_pages "$D/m" "$D/s"

A=$ROOT/ft-test-limit-a-$$
B=$ROOT/ft-test-limit-b-$$
mkdir "$A" "$B" || skip_all "cannot make memory cgroups under $ROOT"
trap 'rmdir "$A" "$B" 2> /dev/null; record_cleanup' EXIT
echo $((256 * MiB)) > "$A/$MAX"
echo $((256 * MiB)) > "$B/$MAX"
"$FOLIO_TRACE" record -q -o "$TMPD/two.ftr" -- sh -c '
	(echo 0 > "$1/cgroup.procs" && exec dd if="$3" of=/dev/null bs=1M status=none) &&
	(echo 0 > "$2/cgroup.procs" && dd if="$4" of=/dev/null bs=1M status=none &&
	 echo 16M > "$2/$5")' sh "$A" "$B" "$D/s" "$D/m" "$MAX"
is "$?" 0 "record of two cgroups, one lowering its limit, exits 0"
run "$FOLIO_TRACE" replay --by=cgroup --format=csv "$TMPD/two.ftr"
is "$rc" 0 "replay --by=cgroup exits 0"
evicted_a=$(printf '%s\n' "$out" | awk -F, -v n="\"/$(basename "$A")\"" \
	'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	 $col["name"] == n { e = $col["evicted_pages"] } END { print e }')
is "$evicted_a" 0 "the cgroup whose limit stayed loses nothing"
damon_note "$TMPD/two.ftr"
# The trace samples the recorded cgroup alone, so the replay knows nothing of what the second
# one holds beside its files (its tasks' and kernel memory, the per-CPU charge stock): it
# evicts the 32 MiB the new limit leaves no room for, and the kernel that and room for those
# too (512 pages more in three runs here, 2 MiB): the model between the two, no more than
# 4 MiB short of the kernel.
set -- $(calibrated "$TMPD/two.ftr")
ok "$([ "${1:-0}" -ge $((32 * MiB / 4096)) ] && [ "$1" -le "${2:-0}" ] &&
      [ $(($2 - $1)) -le $((4 * MiB / 4096)) ] && echo 0 || echo 1)" \
	"two cgroups, one lowered to 16 MiB: evictions (model $1, kernel $2): 32 MiB at least, \
at most the kernel's, at most 4 MiB below it"
drop_pages "$D/m" "$D/s"
rm -f "$D/m" "$D/s"
done_testing
