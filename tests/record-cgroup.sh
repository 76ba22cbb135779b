#!/bin/sh
# Memory cgroups, live: one shell moves itself into memory cgroup A and reads an 8 MiB file
# there, then moves into cgroup B and writes 3 MiB with dd. The trace names both cgroups by
# their directories and ids (the directories' inode numbers); each task is announced again in
# its new cgroup when it moves, so every access counts where it was made; replay --by=cgroup
# and top --from --by=cgroup split the figures by them. Each cgroup's limits come after its
# name, and again when they change: B's limit lowered at the end of the workload is in the
# trace's last limits of B, read at the naming or at the last sample as recording stops.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"

# The memory controller's hierarchy: its own (v1), else the unified one with memory enabled.
if [ -w /sys/fs/cgroup/memory/cgroup.procs ]; then
	ROOT=/sys/fs/cgroup/memory HIER=v1
elif grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
	ROOT=/sys/fs/cgroup HIER=v2
else
	skip_all "no memory cgroup controller to make cgroups in (v1 or v2)"
fi
A=$ROOT/ft-test-a-$$
B=$ROOT/ft-test-b-$$
mkdir "$A" "$B" || skip_all "cannot make memory cgroups under $ROOT"
trap 'rmdir "$A" "$B" 2>/dev/null; record_cleanup' EXIT
MiB=1048576
if [ "$HIER" = v1 ]; then
	MAX=memory.limit_in_bytes
	echo $((128 * MiB)) > "$A/memory.soft_limit_in_bytes"
else
	MAX=memory.max
	echo $((192 * MiB)) > "$A/memory.high"
fi
echo $((256 * MiB)) > "$A/$MAX"
echo $((512 * MiB)) > "$B/$MAX"

D=$(record_ext4_dir)
dd if=/dev/urandom of="$D/in" bs=1M count=8 status=none
T=$TMPD/cg.ftr
rec "$T" -- sh -c "echo \$\$ > '$A/cgroup.procs' && cat '$D/in' > /dev/null &&
	echo \$\$ > '$B/cgroup.procs' && dd if=/dev/zero of='$D/out' bs=1M count=3 status=none &&
	echo $((64 * MiB)) > '$B/$MAX'"
is "$rc" 0 "record exits 0"

# The limits: "max high low min soft" per FT_CGROUP_LIMITS of a cgroup, in trace order.
limits() {
	"$FOLIO_TRACE" dump -t cgroup_limits "$T" | awk -v id="id=$1" '$4 == id {
		print $5, $6, $7, $8, $9 }'
}
if [ "$HIER" = v1 ]; then
	a_high=max a_soft=$((128 * MiB))
else
	a_high=$((192 * MiB)) a_soft=max
fi
is "$(limits "$(stat -c %i "$A")")" \
	"max=$((256 * MiB)) high=$a_high low=0 min=0 soft=$a_soft" \
	"A's limits, as its $HIER files say"
# B is named when the recorder reads the task's move there, which may come after the change
is "$(limits "$(stat -c %i "$B")" | tail -n 1)" "max=$((64 * MiB)) high=max low=0 min=0 soft=max" \
	"B's limit as lowered at the end, by the last sample"

run "$FOLIO_TRACE" info "$T"
if [ "$HIER" = v1 ]; then a_words="max 256.0 MiB, soft 128.0 MiB"
else a_words="max 256.0 MiB, high 192.0 MiB"; fi
like "$out" "^cgroup:     /ft-test-a-$$: $a_words\$" "info: A's limits as they are set"
run "$FOLIO_TRACE" info --format=json "$T"
b_json="{\"id\": $(stat -c %i "$B"), \"path\": \"/ft-test-b-$$\", \"limits\": "
like "$out" "$b_json{\"changes\": [01], \"max\": $((64 * MiB)), " "info's JSON: B's last limit"

# Per cgroup path, from the dump: the trace's own word, record by record.
"$FOLIO_TRACE" dump "$T" > "$TMPD/dump"
got=$(python3 - "$TMPD/dump" "$(stat -c %i "$D/in")" "$(stat -c %i "$D/out")" \
	"$TMPD/written" $$ <<'PY'
import sys
# this run's cgroups only: another test (or suite) beside it may have its own ft-test ones
ours = ("/ft-test-a-" + sys.argv[5], "/ft-test-b-" + sys.argv[5])
names, task_cg, read, write = {}, {}, {}, {}
for line in open(sys.argv[1]):
    w = line.split()
    f = dict(x.split("=", 1) for x in w[2:] if "=" in x)
    if w[1] == "cgroup":
        names[f["id"]] = (f["path"], f["hierarchy"])
    elif w[1] == "task":
        task_cg[f["tid"]] = f.get("cgroup", "?")
    elif w[1] == "access" and f["op"] in ("read", "write"):
        cg = names.get(task_cg.get(f["tid"]), ("?",))[0]
        d = read if f["op"] == "read" else write
        d[cg, f["ino"]] = d.get((cg, f["ino"]), 0) + int(f["len"])
for cg, (path, hier) in sorted(names.items(), key=lambda x: x[1]):
    if path in ours:
        print(cg, path, hier)
def total(d, ino):
    return sorted((cg, n) for (cg, i), n in d.items() if i == ino)
print("read of in", total(read, sys.argv[2]))
print("written to out", total(write, sys.argv[3]))
# every byte written by the tasks of each cgroup (the shell's pid to cgroup.procs counts in
# the cgroup it moved into: its write returns there)
with open(sys.argv[4], "w") as out:
    for cg in sorted(set(cg for cg, _ in write)):
        print(cg, sum(n for (c, _), n in write.items() if c == cg), file=out)
PY
)
is "$got" "$(stat -c %i "$A") /ft-test-a-$$ $HIER
$(stat -c %i "$B") /ft-test-b-$$ $HIER
read of in [('/ft-test-a-$$', 8388608)]
written to out [('/ft-test-b-$$', 3145728)]" \
	"each cgroup named by its id and path; the 8 MiB read in A, the 3 MiB written in B"

# replay --by=cgroup: the same split in the models, each cgroup by its id: A's row reads the
# 8 MiB (and the shell's own few reads), each row writes what its tasks wrote.
run "$FOLIO_TRACE" replay -q --by=cgroup --format=json "$T"
is "$rc" 0 "replay --by=cgroup exits 0"
got=$(printf '%s\n' "$out" | python3 -c '
import json, sys
written = dict(l.split() for l in open(sys.argv[1]))
ours = ("/ft-test-a-" + sys.argv[2], "/ft-test-b-" + sys.argv[2])
for r in json.load(sys.stdin)["by"]["rows"]:
    if r["name"] in ours:
        m = r["models"][0]
        print(r["name"], r["cgroup_id"], m["read_bytes"] >= 8388608,
              m["write_bytes"] == int(written.get(r["name"], 0)),
              m["write_bytes"] >= 3145728)' "$TMPD/written" $$ | sort)
is "$got" "/ft-test-a-$$ $(stat -c %i "$A") True True False
/ft-test-b-$$ $(stat -c %i "$B") False True True" \
	"replay --by=cgroup: the 8 MiB read in A's row, the 3 MiB in B's, every write where made"

run "$FOLIO_TRACE" top --from="$T" --by=cgroup -b
like "$out" "^/ft-test-a-$$ " "top --from --by=cgroup: A has a row, its name first"
like "$out" "^/ft-test-b-$$ .* 3\.0 MiB " "top --from --by=cgroup: B's row shows the 3 MiB"
done_testing
