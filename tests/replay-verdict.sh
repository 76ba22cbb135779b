#!/bin/sh
# folio-trace replay's answer first: without --folio-order it runs base pages beside the
# largest order the recorded kernel inserted (calibrate's max_order), else beside the model's
# default; every table opens with a verdict of at most 15 lines whose figures are the table's,
# with calibrate's worst error on the trace as its trust line; rows zero in every model are
# left out of the table (counted, --all and -v keep them), never out of JSON.
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"

orders() {	# orders TRACE: the orders of a default run's configurations
	"$FT" replay -q --format=json "$1" | python3 -c '
import json, sys
print(" ".join(str(c["config"]["order"]) for c in json.load(sys.stdin)["configurations"]))'
}

kernel_order() {	# kernel_order TRACE: calibrate's largest order of the kernel
	"$FT" calibrate -q --format=json "$1" | python3 -c '
import json, sys
print(json.load(sys.stdin)["config"]["max_order"])'
}

# The default orders: 0 and the kernel's, as calibrate finds it; known for the shipped traces.
for t in seq-copy:9 git-small-files:5 rand-overwrite:2 append-log:1; do
	n=${t%:*} want=${t#*:}
	is "$(kernel_order "$TRACES/$n.ftr")" "$want" "$n: calibrate's kernel order is $want"
	is "$(orders "$TRACES/$n.ftr")" "0 $want" "$n: the default run is orders 0 and $want"
done
# The kernel added order-0 folios only: order 9, the model's default, beside them, and why.
is "$(kernel_order "$TRACES/randread-64M-limit.ftr")" 0 "randread: the kernel used order 0 only"
is "$(orders "$TRACES/randread-64M-limit.ftr")" "0 9" "randread: orders 0 and 9"
run "$FT" replay -q "$TRACES/randread-64M-limit.ftr"
like "$out" "^  order 9: the model's default (the recorded kernel inserted order 0 only)$" \
	"randread: the verdict says why order 9"
"$FT" synth -q random-read --events=3000 --file-size=8M -o "$TMPD/syn.ftr"
is "$(orders "$TMPD/syn.ftr")" "0 9" "synthetic trace: orders 0 and 9"
run "$FT" replay -q "$TMPD/syn.ftr"
like "$out" "^  order 9: the model's default (no kernel events in the trace)$" \
	"synthetic trace: the verdict says why"
is "$(printf '%s\n' "$out" | sed -n '/^trust: /,/^$/p' | tr -s '\n ' '  ')" \
	"trust: not calibrated, no kernel events to calibrate against (a synthetic or imported trace) " \
	"synthetic trace: nothing to trust it by, and so said"
run "$FT" replay -q --min-order=2 --format=json "$TRACES/seq-copy.ftr"
is "$(printf '%s\n' "$out" | python3 -c '
import json, sys
print([c["config"]["order"] for c in json.load(sys.stdin)["configurations"]])')" "[9]" \
	"--min-order=2: no base pages to compare, the kernel's order alone"
run "$FT" replay -q --min-order=2 "$TRACES/seq-copy.ftr"
is "$(printf '%s\n' "$out" | head -1)" \
	"verdict: order 9 alone (--min-order=2: no base pages to compare with)" \
	"--min-order=2: the verdict says why there is one order"
run "$FT" replay -q --max-pagecache-order=4 "$TRACES/seq-copy.ftr"
is "$(printf '%s\n' "$out" | sed -n 2p)" \
	"  order 4: --max-pagecache-order (the recorded kernel inserted up to order 9)" \
	"--max-pagecache-order below the kernel's order: capped, and said"
run sh -c "cat '$TRACES/seq-copy.ftr' | '$FT' replay -q -"
like "$out" "^  order 9: the model's default (the kernel's orders unread from standard input)$" \
	"standard input: the model's default, and why"

# The verdict on every shipped trace: first, at most 15 lines, its figures the table's own.
for t in "$TRACES"/*.ftr; do
	n=$(basename "$t")
	run "$FT" replay -q --folio-order=0,4,9 "$t"
	printf '%s\n' "$out" >"$TMPD/out"
	got=$(python3 - "$TMPD/out" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
end = lines.index("")
verdict, rest = lines[:end], lines[end:]
pairs = {"LRU entries (mean)": "LRU entries mean", "hit ratio (requests)": "hit ratio (requests)",
         "device read bytes": "device read bytes", "device write bytes": "writeback bytes",
         "write amplification": "write amplification", "pages reclaimed": "pages evicted",
         "refaults (pages)": "refaults", "fragmentation (o9, end)": "unusable index o9 (end)"}
table = {}
for l in rest:
    for label in pairs.values():
        if l.startswith("  " + label + "  "):
            table[label] = l[len(label) + 2:].split()
same = True
for l in verdict:
    for vl, tl in pairs.items():
        if l.startswith("  " + vl + " "):
            cells = l[len(vl) + 2:].split()
            # order 0, 4, 9 then 4/0 and 9/0; the table's cells are the same, or it left the
            # row out as zero in every model
            if tl in table:
                same &= cells == table[tl]
            else:
                same &= all(c in ("0", "B", "-", "0.000", "0.0") for c in cells)
print(verdict[0].startswith("verdict: each order against order 0"), len(verdict) <= 15,
      sum(1 for l in verdict if any(l.startswith("  " + v + " ") for v in pairs)), same,
      verdict[-1].startswith("  ") or verdict[-1].startswith("trust: "))
PY
)
	is "$got" "True True 8 True True" "$n: the verdict opens the table, 15 lines at most, the table's figures"
done

# Trust: calibrate's worst relative error over the rows of the traced files and the cgroup.
for n in seq-copy append-log randread-64M-limit; do
	want=$("$FT" calibrate -q --format=json "$TRACES/$n.ftr" | python3 -c '
import json, sys
rows = [r for r in json.load(sys.stdin)["metrics"] if r["scope"] in ("trace", "cgroup")]
known = [r for r in rows if r["error"] is not None]
w = max(known, key=lambda r: abs(r["error"]))
print("%+.1f%% (%s); %d rows" % (100 * w["error"], w["metric"], len(known)))')
	run "$FT" replay -q "$TRACES/$n.ftr"
	got=$(printf '%s\n' "$out" | sed -n '/^trust: /,/^$/p' | tr '\n' ' ' |
		sed 's/^trust: calibrate.s worst error on this trace: //; s/  */ /g; s/ of the traced.*//')
	is "$got" "$want" "$n: the trust line is calibrate's worst error"
done
run "$FT" replay -q "$TRACES/seq-copy.ftr"
like "$out" "^trust: calibrate's worst error on this trace: +357.3% (insertions at order 0,$" \
	"seq-copy: worst error +357.3%, the model's order-0 insertions"

# Rows zero in every model: left out of the default table and counted; --all and -v keep
# them; JSON keeps every key.
T=$TRACES/seq-copy.ftr
nkeys=$("$FT" replay -q --metrics=help | sed -n '2,/^arrays/p' | grep -c '^  ')
count_rows() { sed -n '/^metric/,$p' | grep -c '^  '; }
run "$FT" replay -q --folio-order=0,9 "$T"
shown=$(printf '%s\n' "$out" | sed '/^folios inserted by order/,$d' | count_rows)
note=$(printf '%s\n' "$out" |
	sed -n 's/^(\([0-9]*\) rows zero in every model left out: --all or -v shows them)$/\1/p')
zero=$("$FT" replay -q --folio-order=0,9 --format=json "$T" | python3 -c '
import json, sys
cs = json.load(sys.stdin)["configurations"]
print(sum(1 for k, v in cs[0]["metrics"].items() if not isinstance(v, list) and
          all(c["metrics"][k] in (0, None) for c in cs)))')
is "$note" "$zero" "the rows counted out are the metrics zero in every model by JSON"
is "$((shown + note))" "$nkeys" "shown rows and the ones counted out make every metric ($nkeys)"
for opt in --all -v --metrics=all; do
	run "$FT" replay -q --folio-order=0,9 $opt "$T"
	is "$(printf '%s\n' "$out" | sed '/^folios inserted by order/,$d' | count_rows)" "$nkeys" \
		"$opt: every metric row"
done
run "$FT" replay -q --folio-order=0,9 --format=json "$T"
is "$(printf '%s\n' "$out" | python3 -c '
import json, sys
print(len(json.load(sys.stdin)["configurations"][0]["metrics"]) - 4)')" "$nkeys" \
	"json: every metric key, zero or not"

# --metrics: the verdict shows the chosen rows alone, as the full run has them; the plain LRU
# keeps no shadow entries without refaults, so its refaults row would read 0 (2737120 pages
# at order 9 here).
P="--lru=plain --policy=fixed --no-readahead --memory=80M --folio-order=0,9"
R=$TRACES/randread-64M-limit.ftr
verdict_of() { printf '%s\n' "$1" | sed '/^trust: /,$d' | sed 1,2d; }
run "$FT" replay -q $P "$R"
full=$(verdict_of "$out")
like "$full" "^  refaults (pages)  *0  *2737120 " "plain LRU, every metric: its refaults in the verdict"
run "$FT" replay -q $P --metrics=hit_ratio,reads "$R"
some=$(verdict_of "$out")
is "$(printf '%s\n' "$some" | cut -c3-24 | sed 's/ *$//' | tr '\n' ,)" \
	"hit ratio (requests),device read bytes," "--metrics=hit_ratio,reads: those rows alone"
is "$some" "$(printf '%s\n' "$full" | grep -E '^  (hit ratio|device read bytes)')" \
	"--metrics=hit_ratio,reads: the rows as the full run has them"

# A sweep: the verdict at its largest memory, with the knee of each order's curve.
run "$FT" replay -q --folio-order=0,9 --memory=16M,32M,64M,128M "$TRACES/randread-64M-limit.ftr"
verdict=$(printf '%s\n' "$out" | sed '/^$/,$d')
like "$verdict" "^verdict: each order against order 0 (base pages), at 128.0 MiB$" \
	"sweep: the verdict at the largest memory"
knees=$(printf '%s\n' "$out" | sed -n 's/^  knee of the hit ratio at \([^;]*\).*/\1/p' | tr '\n' ' ')
is "$(printf '%s\n' "$verdict" | sed -n 's/^  memory knee (hit ratio) *//p' | sed 's/  */ /g')" \
	"$(echo $knees | sed 's/ MiB/MiB/g; s/MiB/ MiB/g')" "sweep: the knees of the curves"
ok "$([ "$(printf '%s\n' "$verdict" | wc -l)" -le 15 ] && echo 0 || echo 1)" \
	"sweep: the verdict within 15 lines"

done_testing
