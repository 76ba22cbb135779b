#!/bin/sh
# Two memory cgroups at once, live: cgroup A (64 MiB) rereads a 128 MiB file three times while
# cgroup B (128 MiB) reads a 256 MiB file at Zipf-drawn 64 KiB blocks, both under one
# recording of the whole command. B first reads 64 MiB of its file and its memory.stat (which
# flushes its statistics, a flush the trace records): a cgroup whose statistics still say it
# is empty lets the shadow shrinker free every node holding only shadows, and under random
# reads the model counts more such nodes than the kernel has (it counts a node per 64 evicted
# pages, as sequential reads fill them); A, fresh, shows the sequential case. The default replay gives each cgroup its own memory cgroup
# with its recorded limit, charges each folio to the cgroup that read it in, and reclaims each
# within its own limit: its evictions and refaults per cgroup (--by=cgroup, the kernel's
# largest order) are held against the kernel's, within 10%: evictions as the trace's own
# reclaim events count them in each cgroup's threads, refaults as each cgroup's memory.stat
# (workingset_refault_file) counts them, B's within 20% (its random reads' refaults moved by
# 16% between recordings of the same work). Without the cgroups the model would see 24 GiB and
# one LRU: no eviction at all.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
. "$TOP_SRCDIR/tests/wb-lib.sh"
record_requires_bpf
command -v python3 > /dev/null 2>&1 || skip_all "python3 not installed"
ftload=${TOP_BUILDDIR:?run through make check}/tests/lab/ftload
[ -x "$ftload" ] || skip_all "tests/lab/ftload not built"

memcg_hierarchy
A=$ROOT/ft-test-two-a-$$
B=$ROOT/ft-test-two-b-$$
mkdir "$A" "$B" || skip_all "cannot make memory cgroups under $ROOT"
trap 'rmdir "$A" "$B" 2> /dev/null; record_cleanup' EXIT
MiB=1048576
echo $((64 * MiB)) > "$A/$MAX"
echo $((128 * MiB)) > "$B/$MAX"

D=$(record_ext4_dir)
dd if=/dev/zero of="$D/a" bs=1M count=128 status=none
dd if=/dev/zero of="$D/b" bs=1M count=256 status=none
drop_pages "$D/a" "$D/b"
cat > "$TMPD/work.sh" << EOW
sh -c 'echo \$\$ > "$A/cgroup.procs" && exec "$ftload" reread "$D/a" 1M 3' > /dev/null &
sh -c 'echo \$\$ > "$B/cgroup.procs" && dd if="$D/b" of=/dev/null bs=1M count=64 status=none &&
	cat "$B/memory.stat" > /dev/null && exec "$ftload" zipf "$D/b" 64K 20000 0.9 7' > /dev/null &
wait
EOW
T=$TMPD/two.ftr
rec "$T" -- sh "$TMPD/work.sh"
is "$rc" 0 "record of the two cgroups' work exits 0"

stat_of() { awk -v k="$2" '$1 == k { print $2 }' "$1/memory.stat"; }
"$FOLIO_TRACE" replay --by=cgroup --format=json "$T" > "$TMPD/r.json" 2> "$TMPD/r.err"
is "$?" 0 "replay --by=cgroup exits 0"
"$FOLIO_TRACE" top --from="$T" --by=cgroup --format=json > "$TMPD/top.json" 2> "$TMPD/top.err"
is "$?" 0 "top --from --by=cgroup exits 0"

# "MODEL_EVICTED MODEL_REFAULTS KERNEL_EVICTED" of cgroup NAME (the last model: the kernel's
# largest order; the kernel's evictions summed over top's intervals)
figures() {
	python3 - "$TMPD/r.json" "$TMPD/top.json" "$1" << 'EOP'
import json, sys
replay = json.load(open(sys.argv[1]))
name = sys.argv[3]
row = [r for r in replay["by"]["rows"] if r["name"] == name]
model = row[0]["models"][-1] if row else {"evicted_pages": -1, "refaults": -1}
kernel = 0
for line in open(sys.argv[2]):
    for r in json.loads(line).get("rows", []):
        if r["name"] == name:
            kernel += r["evicted_pages"]
print(model["evicted_pages"], model["refaults"], kernel)
EOP
}

for cg in A B; do
	eval dir=\$$cg
	set -- $(figures "/$(basename "$dir")")
	kref=$(stat_of "$dir" workingset_refault_file)
	diag "cgroup $cg: evictions model $1 kernel $3, refaults model $2 kernel $kref"
	ok "$([ "${3:-0}" -gt 1000 ] && echo 0 || echo 1)" "cgroup $cg: the kernel evicted in it"
	ok "$([ "${kref:-0}" -gt 1000 ] && echo 0 || echo 1)" "cgroup $cg: the kernel refaulted in it"
	within 10 "${1:-0}" "${3:-0}"
	ok $? "cgroup $cg: evictions within 10% of the kernel's"
	# B's Zipf reads: the model's refaults +16%, +11% and -0.5% in three runs of one tree
	tol=10
	[ "$cg" = B ] && tol=20
	within $tol "${2:-0}" "${kref:-0}"
	ok $? "cgroup $cg: refaults within $tol% of memory.stat's"
done
like "$(python3 -c 'import json, sys; print(json.load(sys.stdin)["trace"]["sources"])' \
	< "$TMPD/r.json")" "[0-9] memory cgroups, each charged its own folios (.*/$(basename "$A") 64.0 MiB" \
	"the replay's sources line names the cgroups and their limits"
done_testing
