#!/bin/sh
# folio-trace replay from the command line: exact figures of a sequential read at orders 0
# and 9 in every output format, usage errors (one line, exit 2) and bad traces (exit 1).
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"

"$FT" synth seq-read --files=1 --file-size=64M --io-size=1M --bytes=64M \
	-o "$TMPD/seq.ftr" 2>/dev/null || skip_all "synth could not make the trace"

# 64 MiB read once in 1 MiB reads, no readahead, every miss a folio of the order (the fixed
# what-if): 16384 order-0 folios or 32 of order 9; at order 9 the second 1 MiB read of each
# 2 MiB folio hits.
run "$FT" replay --folio-order=0,9 --policy=fixed --no-readahead --format=json "$TMPD/seq.ftr"
is "$rc" 0 "json replay exits 0"
printf '%s\n' "$out" >"$TMPD/seq.json"
got=$(python3 - "$TMPD/seq.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
c = d["configurations"]
print(d["format"], d["version"], d["baseline"], len(c), d["trace"]["accesses"],
      d["trace"]["files"], d["trace"]["clean_end"])
for x in c:
    m = x["metrics"]
    print(x["label"], x["config"]["order"], x["config"]["memory_bytes"], m["lru_entries_max"],
          m["insertions"], m["inserted_pages"], m["read_bytes"], m["device_read_bytes"],
          m["read_hit_requests"], m["evictions"], x["ratio_to_baseline"]["lru_entries_max"])
PY
)
is "$got" "folio-trace-replay 2 order 0 2 64 1 True
order 0 0 4294967296 16384 16384 16384 67108864 67108864 0 0 1
order 9 9 4294967296 32 32 16384 67108864 67108864 32 0 0.001953125" \
	"json: exact LRU lengths, insertions, bytes, hits; memory from the host record"

# The same numbers as CSV: one header row of keys, one row per order.
run "$FT" replay --folio-order=0,9 --policy=fixed --no-readahead --format=csv "$TMPD/seq.ftr"
is "$rc" 0 "csv replay exits 0"
printf '%s\n' "$out" >"$TMPD/seq.csv"
got=$(python3 - "$TMPD/seq.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
print(len(rows), *[r["label"] + "=" + r["lru_entries_max"] for r in rows],
      rows[0]["write_amplification"] == "")
PY
)
is "$got" "2 order 0=16384 order 9=32 True" "csv: one row per order, empty cell for none"

# The table: aligned columns, a ratio column, the same figures.
run "$FT" replay --folio-order=0,9 --policy=fixed --no-readahead "$TMPD/seq.ftr"
is "$rc" 0 "table replay exits 0"
row=$(printf '%s\n' "$out" | grep '^  LRU entries max ')
is "$(echo $row)" "LRU entries max 16384 32 0.002" "table row of LRU entries with its ratio"
head=$(printf '%s\n' "$out" | grep '^metric')
is "$(echo $head)" "metric order 0 order 9 9/0" "table header"
widths=$(printf '%s\n' "$out" | sed -n '/^metric/,$p' | grep -v '^[a-z(]' | awk '{print length}' |
	sort -u | wc -l)
is "$widths" 1 "every metric row as wide as the others"

# Sizes with a fraction and binary units (folio-trace(1), SIZES).
for m in 1.5G:1610612736 1536MiB:1610612736 0.25G:268435456; do
	run "$FT" replay --folio-order=9 --no-readahead --memory="${m%%:*}" --format=json \
		"$TMPD/seq.ftr"
	got=$(printf '%s\n' "$out" | python3 -c \
		'import json, sys; print(json.load(sys.stdin)["configurations"][0]["config"]["memory_bytes"])')
	is "$rc:$got" "0:${m#*:}" "--memory=${m%%:*} is ${m#*:} bytes"
done

# -o writes the report to a file and nothing to stdout.
run "$FT" replay --folio-order=9 --no-readahead --format=csv -o "$TMPD/o.csv" "$TMPD/seq.ftr"
is "$rc:$out" "0:" "-o: nothing on stdout"
is "$(sed -n 2p "$TMPD/o.csv" | cut -d, -f1,2)" '"order 9",9' "-o: the report is in the file"

# --timeseries: a header row, then rows per interval per order with the label first.
run "$FT" replay --folio-order=0,4 --interval=100us --timeseries="$TMPD/ts.csv" \
	-o /dev/null "$TMPD/seq.ftr"
is "$rc" 0 "timeseries replay exits 0"
is "$(head -1 "$TMPD/ts.csv" | cut -d, -f1-4)" "label,order,time_s,lru_entries" "timeseries header"
n0=$(grep -c '^"order 0",0,' "$TMPD/ts.csv")
n4=$(grep -c '^"order 4",4,' "$TMPD/ts.csv")
ok $([ "$n0" -gt 1 ] && [ "$n0" = "$n4" ] && echo 0 || echo 1) \
	"timeseries: as many rows for each order ($n0, $n4)"

# Every metric key of the output is documented in the man page (lru_LIST_* once per list).
page="$TOP_SRCDIR/man/folio-trace-replay.1"
missing=""
for key in $(head -1 "$TMPD/seq.csv" | tr ',' ' '); do
	base=$(echo "$key" | sed 's/_[0-9][0-9]*$//')
	case $base in label|order) continue ;; esac
	family=$(echo "$base" | sed -n 's/^\(lru_[a-z]*\)_\(mean\|p99\|max\)$/\1_*/p')
	grep -qF -- "$base" "$page" || { [ -n "$family" ] && grep -qF -- "$family" "$page"; } ||
		missing="$missing $base"
done
is "$missing" "" "every metric key is in folio-trace-replay(1)"
missing=""
for key in $(python3 -c 'import json, sys
print(" ".join(json.load(open(sys.argv[1]))["configurations"][0]["config"]))' "$TMPD/seq.json"); do
	grep -qF -- ".BR $key" "$page" || grep -qF -- ".B $key" "$page" || missing="$missing $key"
done
is "$missing" "" "every configuration key is in folio-trace-replay(1)"

# Every option reaches the configuration the models ran with.
run "$FT" replay --folio-order=2,4 --min-order=2 --policy=readahead --write-policy=fixed \
	--lru=plain --ra-pages=64 --memory=128M --pinned=5 --seed=3 --fallback=compact \
	--dirty-granularity=block --block-size=16K --dirty-expire=1500 --dirty-writeback=2s \
	--dirty-ratio=30 --dirty-background-bytes=8M --device=lat=150,bw=250 --interval=250ms \
	--format=json "$TMPD/seq.ftr"
is "$rc" 0 "every option at once: exit 0"
printf '%s\n' "$out" >"$TMPD/opts.json"
got=$(python3 - "$TMPD/opts.json" <<'PY'
import json, sys
for x in json.load(open(sys.argv[1]))["configurations"]:
    c = x["config"]
    print(*[c[k] for k in ("order", "min_order", "policy", "write_policy", "lru", "readahead",
        "ra_pages", "memory_bytes", "pinned_pct", "seed", "fallback", "dirty_granularity",
        "block_size", "dirty_expire_ns", "dirty_writeback_ns", "dirty_ratio", "dirty_bytes",
        "dirty_background_bytes", "device_latency_us", "device_bandwidth_mbps", "interval_ns")])
PY
)
same="readahead fixed plain True 64 134217728 5 3 compact block 16384 15000000000 2000000000"
same="$same 30 0 8388608 150 250 250000000"
is "$got" "2 2 $same
4 2 $same" \
	"the JSON config shows every option given"
run "$FT" replay --no-readahead --device=hdd --format=json "$TMPD/seq.ftr"
got=$(printf '%s\n' "$out" | python3 -c '
import json, sys
cs = [c["config"] for c in json.load(sys.stdin)["configurations"]]
print(cs[1]["readahead"], cs[1]["device_latency_us"] > 1000, [c["order"] for c in cs])')
is "$got" "False True [0, 9]" \
	"--no-readahead, a named device; a trace without kernel events: orders 0 and 9 by default"

# The device presets the page states are the model's.
for dev in nvme sata-ssd hdd nfs; do
	run "$FT" replay --device=$dev --format=json "$TMPD/seq.ftr"
	got=$(printf '%s\n' "$out" | python3 -c '
import json, sys
c = json.load(sys.stdin)["configurations"][0]["config"]
print("%g us and %g MB/s" % (c["device_latency_us"], c["device_bandwidth_mbps"]))')
	grep -A1 -x "\.B $dev" "$TOP_SRCDIR/man/folio-trace-replay.1" | grep -q -F "$got"
	ok $? "folio-trace-replay(1) gives $dev as $got"
done

# Standard input.
run sh -c "cat '$TMPD/seq.ftr' | '$FT' replay --folio-order=9 --no-readahead --format=csv -"
is "$rc:$(printf '%s\n' "$out" | sed -n 2p | cut -d, -f1-3)" '0:"order 9",9,64' "trace on stdin"

# Usage errors: one line on stderr, exit 2, no report.
usage_error() {	# usage_error DESCRIPTION ARGS...
	what=$1
	shift
	run "$FT" replay "$@"
	is "$rc:$(printf '%s\n' "$err" | wc -l):$out" "2:1:" "usage error, one line: $what"
	case $err in folio-trace:*) ;; *) diag "stderr: $err" ;; esac
}
usage_error "order above 10" --folio-order=11 "$TMPD/seq.ftr"
usage_error "order listed twice" --folio-order=4,4 "$TMPD/seq.ftr"
usage_error "order 10 above MAX_PAGECACHE_ORDER" --folio-order=10 "$TMPD/seq.ftr"
usage_error "unknown readahead rule" --ra-rule=5.15 "$TMPD/seq.ftr"
usage_error "unknown large-folio choice" --large-folios=some "$TMPD/seq.ftr"
usage_error "memory 0" --memory=0 "$TMPD/seq.ftr"
usage_error "memory junk" --memory=lots "$TMPD/seq.ftr"
usage_error "no thread" --threads=0 "$TMPD/seq.ftr"
usage_error "threads above 64" --threads=65 "$TMPD/seq.ftr"
usage_error "threads junk" --threads=many "$TMPD/seq.ftr"
usage_error "memory in SI units" --memory=4GB "$TMPD/seq.ftr"
run "$FT" replay --memory=4GB "$TMPD/seq.ftr"
like "$err" "use G or GiB" "4GB: the message says what to give instead"
usage_error "fractional bytes" --memory=1500.5 "$TMPD/seq.ftr"
usage_error "unknown policy" --policy=bogus "$TMPD/seq.ftr"
usage_error "unknown write policy" --write-policy=lazy "$TMPD/seq.ftr"
usage_error "unknown lru" --lru=clock "$TMPD/seq.ftr"
usage_error "unknown dirty granularity" --dirty-granularity=byte "$TMPD/seq.ftr"
usage_error "unknown device" --device=floppy "$TMPD/seq.ftr"
usage_error "device without bandwidth" --device=lat=5 "$TMPD/seq.ftr"
usage_error "dirty ratio above 100" --dirty-ratio=101 "$TMPD/seq.ftr"
usage_error "dirty bytes 0" --dirty-bytes=0 "$TMPD/seq.ftr"
usage_error "bad expire" --dirty-expire=soon "$TMPD/seq.ftr"
usage_error "block size not a power of two" --block-size=3000 "$TMPD/seq.ftr"
usage_error "pinned 100%" --pinned=100 "$TMPD/seq.ftr"
usage_error "min order above order" --min-order=5 --folio-order=4 "$TMPD/seq.ftr"
usage_error "ra-pages above 2^20" --ra-pages=2000000 "$TMPD/seq.ftr"
usage_error "io-pages 0" --io-pages=0 "$TMPD/seq.ftr"
usage_error "interval 0" --interval=0 "$TMPD/seq.ftr"
usage_error "unknown fallback" --fallback=never "$TMPD/seq.ftr"
usage_error "unknown format" --format=xml "$TMPD/seq.ftr"
usage_error "no trace" --folio-order=0
usage_error "two traces" "$TMPD/seq.ftr" "$TMPD/seq.ftr"
run "$FT" replay --folio-order=10 --max-pagecache-order=10 --format=csv "$TMPD/seq.ftr"
is "$rc:$(printf '%s\n' "$out" | sed -n 2p | cut -d, -f1,2)" '0:"order 10",10' \
	"order 10 as an explicit what-if (--max-pagecache-order=10)"
run "$FT" replay --folio-order=11 "$TMPD/seq.ftr"
is "$err" "folio-trace: --folio-order=11: orders are whole numbers from 0 to 10" \
	"the message names the option and the problem"

# Bad traces: exit 1 with one line naming the file.
run "$FT" replay "$TMPD/missing.ftr"
is "$rc:$(printf '%s\n' "$err" | wc -l)" "1:1" "missing trace: exit 1, one line"
echo "not a trace at all, but long enough to hold a header" >"$TMPD/text.ftr"
run "$FT" replay "$TMPD/text.ftr"
is "$rc:$(printf '%s\n' "$err" | wc -l)" "1:1" "not a trace: exit 1, one line"
case $err in *text.ftr*) ok 0 "the message names the file" ;; *) ok 1 "names the file: $err" ;; esac

# A cut trace: the results of what was readable, then exit 1 with the reason.
"$FT" synth random-read --events=100000 -o "$TMPD/big.ftr" 2>/dev/null
size=$(wc -c <"$TMPD/big.ftr")
head -c $((size - 50)) "$TMPD/big.ftr" >"$TMPD/cut.ftr"
run "$FT" replay --format=csv "$TMPD/cut.ftr"
is "$rc" 1 "cut trace: exit 1"
is "$(printf '%s\n' "$out" | wc -l)" 3 "cut trace: the report is still printed, orders 0 and 9"
case $err in *cut.ftr*incomplete*) ok 0 "cut trace: stderr says where" ;;
	*) ok 1 "cut trace: stderr says where: $err" ;; esac

# MGLRU's insertion reads the folio's reclaim bit: the frame bitmaps cover the folio before
# it is on a list (with a zone this trace's host size, its first folios took frames past them).
run "$FT" replay --lru=mglru --format=csv "$TOP_SRCDIR/traces/seq-copy.ftr"
is "$rc:$(printf '%s\n' "$out" | wc -l)" "0:3" "mglru on a shipped trace: exit 0, orders 0 and 9"

done_testing
