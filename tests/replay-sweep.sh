#!/bin/sh
# replay --memory=LIST|RANGE and --mrc: the exact curve equals a separate single-size replay
# at every one of its 100 points at orders 0, 4 and 9; a sweep's instances equal it too; the
# sampled curve reports its error; curves in JSON, CSV and SVG; bad ranges are usage errors.
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"

PLAIN="--lru=plain --policy=fixed --no-readahead"
"$FT" synth random-read --events=20000 --file-size=64M --zipf=0.8 -o "$TMPD/r.ftr" ||
	skip_all "synth could not make the trace"

# 100 points in whole 2 MiB folios, up past the 64 MiB file
run "$FT" replay $PLAIN --folio-order=0,4,9 --mrc=exact --memory=2M..200M:2M --format=csv \
	-o "$TMPD/exact.csv" "$TMPD/r.ftr"
is "$rc" 0 "--mrc=exact over 100 sizes exits 0"
is "$(awk 'END { print NR - 1 }' "$TMPD/exact.csv")" 300 "100 points at each of 3 orders"

# compare CURVE.csv OTHER.csv: the read metrics of every point, "N agree" or the mismatches;
# OTHER is a curve CSV or single replays' CSVs one after the other (header, row)
KEYS="read_requests read_hit_requests read_bytes read_hit_bytes device_read_bytes read_ios"
compare() {
	python3 - "$1" "$2" $KEYS <<'PY'
import csv, sys
curve = list(csv.DictReader(open(sys.argv[1])))
keys = sys.argv[3:]
rows = list(csv.reader(open(sys.argv[2])))
if rows and rows[0][0] == "order":
    other = [dict(zip(rows[0], r)) for r in rows[1:]]
else:
    other = [dict(zip(rows[i], rows[i + 1])) for i in range(0, len(rows) - 1, 2)]
bad = [f'order {c["order"]} {c["memory_bytes"]} {k}: {c[k]} vs {o[k]}'
       for c, o in zip(curve, other) for k in keys if c[k] != o[k]]
print(f"{len(other)} agree" if not bad and len(other) == len(curve) else
      f"{len(other)} points, mismatches: " + "; ".join(bad[:3]))
PY
}

# every point against a replay of its own
for o in 0 4 9; do
	for m in $(seq 2 2 200); do
		"$FT" replay $PLAIN --folio-order=$o --memory=${m}M --format=csv "$TMPD/r.ftr"
	done
done >"$TMPD/single.csv"
is "$(compare "$TMPD/exact.csv" "$TMPD/single.csv")" "300 agree" \
	"exact curve == 300 separate single-size replays (orders 0, 4, 9)"

# the same sizes as instances of one sweep
run "$FT" replay $PLAIN --folio-order=0,4,9 --memory=2M..200M:2M --format=csv \
	-o "$TMPD/inst.csv" "$TMPD/r.ftr"
is "$rc" 0 "a sweep of 300 instances exits 0"
is "$(compare "$TMPD/exact.csv" "$TMPD/inst.csv")" "300 agree" \
	"exact curve == the sweep's instances"

# with writes (fixed write policy): the write path's folios are the read path's
"$FT" synth random-overwrite --events=20000 --file-size=32M -o "$TMPD/w.ftr"
"$FT" replay $PLAIN --write-policy=fixed --folio-order=0,4,9 --mrc=exact \
	--memory=2M..40M:2M --format=csv -o "$TMPD/wexact.csv" "$TMPD/w.ftr"
"$FT" replay $PLAIN --write-policy=fixed --folio-order=0,4,9 \
	--memory=2M..40M:2M --format=csv -o "$TMPD/winst.csv" "$TMPD/w.ftr"
is "$(compare "$TMPD/wexact.csv" "$TMPD/winst.csv")" "60 agree" \
	"writes and fdatasync: exact curve == instances"

# sampled, with its error against the exact curve; JSON names where each curve came from
run "$FT" replay $PLAIN --folio-order=0,9 --mrc=compare:0.1 --format=json \
	--curve="$TMPD/c.csv" --curve-plot="$TMPD/c.svg" -o "$TMPD/c.json" "$TMPD/r.ftr"
is "$rc" 0 "--mrc=compare exits 0"
got=$(python3 - "$TMPD/c.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))["sweep"]
for c in d["curves"]:
    err = c["error_vs_exact"]
    print(c["order"], c["source"], c["exact"], len(c["points"]),
          "err" if err is not None and err["mae"] < 0.05 else "no-err" if err is None else err,
          "knee" if c["knee_bytes"] else "-", "hit90" if c["hit90_bytes"] else "-")
print("ws", d["working_set_bytes"] > 0)
PY
)
is "$got" "0 exact True 100 no-err knee hit90
0 sampled False 100 err knee hit90
9 exact True 100 no-err knee hit90
9 sampled False 100 err knee hit90
ws True" "JSON: default 100 points, sampled error, knee and 90% points per curve"
is "$(awk -F, 'NR > 1 { n[$3]++ } END { print n["exact"], n["sampled"] }' "$TMPD/c.csv")" \
	"200 200" "--curve CSV: a row per order and size"
got=$(python3 - "$TMPD/c.svg" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
for g in root.iter(ns + "g"):
    if g.get("class") == "panel":
        print(g.get("data-panel"), len([p for p in g.iter(ns + "polyline")]),
              len([c for c in g.iter(ns + "circle") if c.get("class") == "knee"]))
    if g.get("class") == "left-out":
        print(g.text)
for t in root.iter(ns + "text"):
    if t.get("class") == "left-out":
        print(t.text)
PY
)
is "$got" "hit_ratio 4 4
device_read_bytes 4 0
not drawn: Refaults (pages) (not counted by a stack pass); Write-back bytes (not counted by a stack pass)" \
	"--curve-plot: a line per curve and its knee; the panels without data named, not drawn"

# the kernel's two-list LRU: instances, and the output says why
run "$FT" replay --folio-order=0,9 --memory=8M,32M,128M "$TMPD/r.ftr"
is "$rc" 0 "two-list sweep exits 0"
like "$out" "two-list LRU is no stack algorithm" "two-list curve: from instances, said so"
run "$FT" replay --folio-order=4 --memory=10%..100%/10 --format=csv "$TMPD/r.ftr"
is "$(printf '%s\n' "$out" | awk 'END { print NR - 1 }')" 10 "shares of the working set: 10 sizes"

# A count gives round sizes: the ends and the multiples of a 1-2-5 step (106.7 MiB -> 100 MiB)
# between them, none within a quarter step of an end.
run "$FT" replay --folio-order=0 --memory=64M..1G/10 --format=csv "$TMPD/r.ftr"
is "$(printf '%s\n' "$out" | awk -F, 'NR > 1 { printf "%d ", $5 / 1048576 }')" \
	"64 100 200 300 400 500 600 700 800 900 1024 " "64M..1G/10: round sizes, the ends kept"
run "$FT" replay --folio-order=0 --memory=1G..16G/4 --format=csv "$TMPD/r.ftr"
is "$(printf '%s\n' "$out" | awk -F, 'NR > 1 { printf "%d ", $5 / 1048576 }')" \
	"1024 5120 10240 16384 " "1G..16G/4: a step of 5 GiB"

# The table's ratio columns between orders: each order's curve over order 0's, size by size.
run "$FT" replay --folio-order=0,9 --memory=8M,16M,32M,64M --curve="$TMPD/ratio.csv" "$TMPD/r.ftr"
printf '%s\n' "$out" | sed -n '/^order 9 against order 0, at each memory size$/,/^$/p' \
	>"$TMPD/ratio.txt"
got=$(python3 - "$TMPD/ratio.csv" "$TMPD/ratio.txt" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
by = {(r["order"], r["memory_bytes"]): r for r in rows}
lines = open(sys.argv[2]).read().split("\n")[2:]
keys = ["hit_ratio", "device_read_bytes", "read_ios", "refaults", "writeback_bytes"]
units = {"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}
n = bad = 0
for l in lines:
    f = l.split()
    if len(f) != 7:
        continue
    mem = str(int(float(f[0]) * units[f[1]]))
    for k, cell in zip(keys, f[2:]):
        a, b = by[("9", mem)][k], by[("0", mem)][k]
        want = "-" if a == "" or b == "" or float(b) == 0 else "%.3f" % (float(a) / float(b))
        bad += cell != want
    n += 1
print(n, bad)
PY
)
is "$got" "4 0" "ratio table: four sizes, every cell the curves' quotient"

# a single size stays what it was
run "$FT" replay --folio-order=9 --memory=64M --format=json "$TMPD/r.ftr"
like "$out" '"configurations"' "single size: the usual report"
case $out in *'"sweep"'*) sweep=yes ;; *) sweep=no ;; esac
is "$sweep" no "single size: no sweep object"

# usage errors: exit 2, a message naming the option
for bad in 1G..64M:1M 64M..1G 64M..1G/1 64M..1G:0 64M..1G:x1 0,1G 5%..1G/10 64M, \
	1M..1T:1M 64M..1G/1001 0% 2000% 1G..2G:5% ..1G/4 1G..; do
	run "$FT" replay --memory="$bad" "$TMPD/r.ftr"
	is "$rc" 2 "--memory=$bad: usage error"
	like "$err" "--memory=" "--memory=$bad: says so"
done
run "$FT" replay --mrc=bogus "$TMPD/r.ftr"
is "$rc" 2 "--mrc=bogus: usage error"
run "$FT" replay --mrc=exact:0.1 $PLAIN "$TMPD/r.ftr"
is "$rc" 2 "--mrc=exact:RATE: usage error"
run "$FT" replay --mrc=sampled:1.5 $PLAIN "$TMPD/r.ftr"
is "$rc" 2 "--mrc=sampled:1.5: usage error"
run "$FT" replay --mrc=exact --lru=two-list --policy=readahead "$TMPD/r.ftr"
is "$rc" 2 "--mrc with the two-list LRU and readahead folios: usage error"
both=$(printf '%s\n' "$err" | grep -c -e '--lru=two-list, --policy=readahead')
is "$(printf '%s\n' "$err" | wc -l):$both" \
	"1:1" "--mrc with the two-list LRU and readahead folios: both named in one line"
# Not given, --mrc sets them itself, says so, and its curve is the one they give.
run "$FT" replay --folio-order=0,9 --mrc=exact --memory=8M,32M --format=csv "$TMPD/r.ftr"
is "$rc" 0 "--mrc=exact alone: exit 0"
set_by_mrc=$out
run "$FT" replay $PLAIN --folio-order=0,9 --mrc=exact --memory=8M,32M --format=csv "$TMPD/r.ftr"
is "$set_by_mrc" "$out" "--mrc=exact alone: the curves of --lru=plain --policy=fixed --no-readahead"
run "$FT" replay --folio-order=0 --mrc=exact --memory=8M "$TMPD/r.ftr"
like "$out" '^--mrc set --lru=plain --policy=fixed --no-readahead --write-policy=fixed --fallback=compact:' \
	"--mrc=exact alone: the table says what it set"
run "$FT" replay --memory=5% - <"$TMPD/r.ftr"
is "$rc" 2 "shares of the working set from stdin: usage error"
run "$FT" replay --curve="$TMPD/x.csv" "$TMPD/r.ftr"
is "$rc" 2 "--curve without a sweep: usage error"
run "$FT" replay --memory=1M,2M --plot="$TMPD/x.svg" --folio-order=0,1,2,3,4,5 "$TMPD/r.ftr"
is "$rc" 2 "--plot of more than 11 configurations: usage error"

done_testing
