#!/bin/sh
# replay --by=file|process and info --by=file on a hand-made trace (tests/mktrace.c "units")
# whose figures per file and per process are known: process 100 reads /data/seq (64 MiB) in
# 512 reads of 128 KiB; process 200 (threads 200 and 201) reads 64 distinct 4 KiB pages of
# /data/rand (8 MiB) in its last three 2 MiB regions, then writes 4 KiB at every 16th page of
# its first 1 MiB and fsyncs. The kernel's events: 32 order-9 folios for /data/seq, 80
# order-0 ones for /data/rand, and 64 KiB of it written back (iomap's count).
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
T="$TMPD/units.ftr"
"$TOP_BUILDDIR/tests/mktrace" units "$T" || exit 1
# every miss a folio of the order, no readahead, writes allocate like reads, dirty per folio
W="--folio-order=0,9 --policy=fixed --no-readahead --write-policy=fixed --dirty-granularity=folio"

# Per file, JSON. /data/seq: order 0 inserts 16384 pages, order 9 32 folios (64 MiB / 2 MiB),
# and at order 9 the 15 reads after the first of each folio hit (480 of 512). /data/rand:
# order 0 inserts the 64 pages read and the 16 written (80); order 9 one folio per region
# touched, 3 read and 1 written, and reads 6 MiB for the 3; 61 reads of 64 hit (the first of
# each region misses). Written back: 16 pages at order 0, the whole 2 MiB folio at order 9.
run "$FT" replay -q $W --by=file --format=json "$T"
is "$rc" 0 "replay --by=file --format=json exits 0"
printf '%s\n' "$out" >"$TMPD/file.json"
got=$(python3 - "$TMPD/file.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
b = d["by"]
print(b["unit"], b["sort"], b["top"], b["units"], len(b["rows"]), b["incomplete"])
for r in b["rows"]:
    k = r["kernel"]
    print(r["name"], r["ino"], k["inserted_by_order"][0], k["inserted_by_order"][9],
          k["writeback_bytes"], k["write_amplification"])
    for m in r["models"]:
        print(" ", m["order"], m["read_requests"], m["read_hit_requests"], m["read_bytes"],
              m["device_read_bytes"], m["refaults"], m["write_bytes"],
              m["writeback_bytes"], m["write_amplification"], m["inserted_by_order"][0],
              m["inserted_by_order"][9], sum(m["inserted_by_order"]))
# the rows add up to the models' totals
for i, c in enumerate(d["configurations"]):
    rows = [r["models"][i] for r in b["rows"]]
    assert sum(m["read_bytes"] for m in rows) == c["metrics"]["read_bytes"]
    assert sum(m["device_read_bytes"] for m in rows) == c["metrics"]["device_read_bytes"]
    assert sum(m["writeback_bytes"] for m in rows) == c["metrics"]["writeback_bytes"]
    assert sum(sum(m["inserted_by_order"]) for m in rows) == c["metrics"]["insertions"]
print("sums ok")
PY
)
is "$got" "file device_read_bytes 20 2 2 False
/data/seq 10 0 32 0 None
  0 512 0 67108864 67108864 0 0 0 None 16384 0 16384
  9 512 480 67108864 67108864 0 0 0 None 0 32 32
/data/rand 11 80 0 65536 1
  0 64 0 262144 262144 0 65536 65536 1 80 0 80
  9 64 61 262144 6291456 0 65536 2097152 32 0 4 4
sums ok" "by file: exact figures of each file in each model, the kernel's beside them"

# Per process: thread 201 counts for process 200, as thread 200 does; --top=1 keeps the one
# with the largest write amplification at order 0 (the reader has none).
run "$FT" replay -q $W --by=process --format=csv --sort=write_amplification --top=1 "$T"
is "$rc" 0 "replay --by=process --format=csv exits 0"
printf '%s\n' "$out" >"$TMPD/proc.csv"
got=$(python3 - "$TMPD/proc.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
for r in rows:
    print(r["rank"], r["pid"], r["name"], r["order"], r["read_requests"], r["write_bytes"],
          r["writeback_bytes"], r["write_amplification"], r["inserted_0"], r["inserted_9"],
          r["kernel_inserted_0"], r["kernel_writeback_bytes"])
PY
)
is "$got" "1 200 200 writer 0 64 65536 65536 1 80 0 80 65536
1 200 200 writer 9 64 65536 2097152 32 0 4 80 65536" \
	"by process: threads summed into their process, --top=1 keeps one unit (a row per order)"

run "$FT" replay -q $W --by=process --format=json "$T"
got=$(printf '%s\n' "$out" | python3 -c '
import json, sys
b = json.load(sys.stdin)["by"]
print(b["unit"], b["units"], [(r["pid"], r["models"][1]["read_requests"],
      r["models"][1]["device_read_bytes"]) for r in b["rows"]])')
is "$got" "process 2 [(100, 512, 67108864), (200, 64, 6291456)]" \
	"by process: both processes, sorted by device reads"

# The table: the usual report, then a block per order and the kernel's; the sort named.
run "$FT" replay -q $W --by=file --sort=hit_ratio "$T"
is "$rc" 0 "replay --by=file (table) exits 0"
like "$out" "^By file: 2 of 2 files, by hit_ratio (lowest first) of order 0" "table: heading"
like "$out" "^kernel (the trace's events)" "table: the kernel's block"
like "$out" " 93\.8%  *64\.0 MiB .* 9:32  *  */data/seq$" "table: order 9 row of /data/seq"
got=$(printf '%s\n' "$out" | grep -c "^ *[0-9].*/data/")
is "$got" 6 "table: each file once per order and once in the kernel's block"

# The normal report is the same with --by as without it.
run "$FT" replay -q $W --format=json "$T"
printf '%s\n' "$out" >"$TMPD/plain.json"
got=$(python3 -c '
import json, sys
a = json.load(open(sys.argv[1])); b = json.load(open(sys.argv[2])); del b["by"]
print(a == b)' "$TMPD/plain.json" "$TMPD/file.json")
is "$got" True "json: the report is the same with --by as without"

# Usage errors: one line, exit 2.
for bad in "--by=inode" "--by=file --sort=bogus" "--by=file --top=0" \
	   "--top=3" "--sort=reads" "--by=file --memory=64M,128M" "--by=file --by=process"; do
	run "$FT" replay -q $bad "$T"
	is "$rc" 2 "replay $bad: usage error"
	is "$(printf '%s\n' "$err" | wc -l)" 1 "replay $bad: one line"
done
like "$err" "given twice" "a second --by is refused"

# Per memory cgroup (tests/mktrace.c "units-cgroup": the units trace with the tasks' cgroups).
# Process 100's reads split at its exec: 256 in /batch, 256 in cgroup 3003, gone before it
# could be named; at order 9 each half inserts 16 folios, 240 of its reads hit. /web holds
# both threads of process 200: its figures are process 200's above.
"$TOP_BUILDDIR/tests/mktrace" units-cgroup "$TMPD/cg.ftr" || exit 1
run "$FT" replay -q $W --by=cgroup --format=json "$TMPD/cg.ftr"
is "$rc" 0 "replay --by=cgroup --format=json exits 0"
is "$err" "" "--by=cgroup on a trace that records cgroups: nothing on stderr"
got=$(printf '%s\n' "$out" | python3 -c '
import json, sys
b = json.load(sys.stdin)["by"]
print(b["unit"], b["units"])
for r in b["rows"]:
    k = r["kernel"]
    print(r["name"], r["cgroup_id"], k["inserted_by_order"][9], k["writeback_bytes"],
          [(m["order"], m["read_requests"], m["read_hit_requests"], m["device_read_bytes"],
            m["writeback_bytes"]) for m in r["models"]])')
is "$got" "cgroup 3
/batch 3001 16 0 [(0, 256, 0, 33554432, 0), (9, 256, 240, 33554432, 0)]
cgroup id 3003 3003 16 0 [(0, 256, 0, 33554432, 0), (9, 256, 240, 33554432, 0)]
/web 3002 0 65536 [(0, 64, 0, 262144, 65536), (9, 64, 61, 6291456, 2097152)]" \
	"by cgroup: each cgroup's figures, a cgroup gone unnamed by its id"
run "$FT" replay -q $W --by=cgroup --format=csv --sort=write_bytes --top=1 "$TMPD/cg.ftr"
is "$(printf '%s\n' "$out" | cut -d, -f1-5)" "rank,cgroup_id,name,label,order
1,3002,\"/web\",\"order 0\",0
1,3002,\"/web\",\"order 9\",9" "by cgroup, CSV: the cgroup's id and name, --top=1"
run "$FT" replay -q $W --by=cgroup "$TMPD/cg.ftr"
like "$out" "^By cgroup: 3 of 3 cgroups, by device_read_bytes of order 0" "by cgroup, table: heading"
# top's and info's rows: NAME first, then 17 words of figures (a byte count is two); the
# name moved last, as the awk below reads the rows.
name_last() {
	awk '{ n = NF - 17; name = $1; for (i = 2; i <= n; i++) name = name " " $i
		line = ""; for (i = n + 1; i <= NF; i++) line = line $i " "; print line name }'
}
run "$FT" top --from="$TMPD/cg.ftr" --by=cgroup -b
got=$(printf '%s\n' "$out" | sed -n '/^NAME /,$p' | sed 1d | name_last | awk '{ print $1, $2, $NF }')
is "$got" "32.0 MiB /batch
32.0 MiB 3003
256.0 KiB /web" "top --from --by=cgroup: the trace's cgroups"
# A trace without cgroups: every access under "?", and a word on stderr saying why.
run "$FT" replay -q $W --by=cgroup --format=csv "$T"
is "$rc" 0 "--by=cgroup on a trace without cgroups exits 0"
is "$(printf '%s\n' "$out" | cut -d, -f2,3 | sort -u)" "0,\"?\"
cgroup_id,name" "--by=cgroup without cgroups: one row, \"?\""
like "$err" "records no memory cgroup of its tasks" "--by=cgroup without cgroups says why"

# Names from the trace are escaped in the table and the CSV.
"$TOP_BUILDDIR/tests/mktrace" escapes "$TMPD/esc.ftr" || exit 1
for fmt in table csv; do
	"$FT" replay -q --by=file --format=$fmt "$TMPD/esc.ftr" >"$TMPD/esc.$fmt" 2>/dev/null
	grep -q "$(printf '\033')" "$TMPD/esc.$fmt" && r=1 || r=0
	ok $r "replay --by=file --format=$fmt: no escape byte from the trace's path"
done

# info --by=file: the trace's own figures per file, no model.
run "$FT" info --by=file "$T"
is "$rc" 0 "info --by=file exits 0"
like "$out" "^folio-trace info: the whole trace (0\.720000 s), by file, sorted by INSERTED$" \
	"info --by=file: heading"
got=$(printf '%s\n' "$out" | sed -n '/^NAME /,$p' | sed 1d | name_last |
	awk '{ print $(NF - 8), $(NF - 7), $(NF - 4), $NF }')
is "$got" "16384 0 32 /data/seq
80 80 0 /data/rand" "info --by=file: pages and folios the kernel inserted, by order"
run "$FT" info --by=file --top=1 --sort=WBACK "$T"
got=$(printf '%s\n' "$out" | sed -n '/^NAME /,$p' | sed 1d | name_last |
	awk '{ print $(NF - 11), $(NF - 10), $(NF - 9), $NF }')
is "$got" "64.0 KiB 1.00 /data/rand" "info --by=file --sort=WBACK: the file system's written back, per byte written"
run "$FT" info --by=file --top=1 --sort=READ "$T"
got=$(printf '%s\n' "$out" | sed -n '/^NAME /,$p' | sed 1d | name_last | awk '{ print $NF }')
is "$got" "/data/seq" "info --by=file --top=1 --sort=READ: one row, the largest reader"
for bad in "--by=inode" "--top=2" "--by=file --sort=nope"; do
	run "$FT" info $bad "$T"
	is "$rc" 2 "info $bad: usage error"
done
# info --by=process and --by=cgroup: the same tally per process and per memory cgroup.
run "$FT" info --by=process "$T"
like "$out" "by process, sorted by INSERTED$" "info --by=process: heading"
# (fields: READ and the other byte columns are two words each, so INSERTED is $10, O9+ $14)
got=$(printf '%s\n' "$out" | sed -n '/^NAME /,$p' | sed 1d | name_last |
	awk '{ print $10, $14, $(NF - 1), $NF }')
is "$got" "16384 32 100 reader
80 0 200 writer" "info --by=process: pages and order-9 folios inserted by each process"
run "$FT" info --by=cgroup "$TMPD/cg.ftr"
got=$(printf '%s\n' "$out" | sed -n '/^NAME /,$p' | sed 1d | name_last |
	awk '{ print $1, $2, $10, $NF }')
is "$got" "32.0 MiB 8192 /batch
32.0 MiB 8192 3003
256.0 KiB 80 /web" "info --by=cgroup: bytes read and pages inserted in each memory cgroup"
# The rows per unit have a CSV and figures of their own; info --by is text.
for bad in "--format=csv-long" "--metrics=reads"; do
	run "$FT" replay -q --by=file $bad "$T"
	is "$rc" 2 "replay --by=file $bad: usage error"
done
run "$FT" info --by=file --format=json "$T"
is "$rc" 2 "info --by=file --format=json: usage error"
like "$err" "top --from=FILE --format=json" "the error points to top's JSON"

done_testing
