#!/bin/sh
# replay --mrc=exact against single-size replays with the settings it names ("--mrc set ..."):
# where it says it is exact, the read requests, hits, device bytes and I/Os are equal at every
# size; where it is not, each reason is named with the accesses it leaves out. Shipped
# recordings with fault-around records (which the plain LRU does not count as accesses),
# truncations and unlinks, synthetic reads at orders 0, 4 and 9, and buffered writes.
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"

# what --mrc=exact sets for itself, from its own table
mrc_settings() {
	"$FT" replay --mrc=exact --folio-order=0 --memory=1M "$1" | sed -n 's/^--mrc set \(.*\):$/\1/p'
}

# check TRACE ORDER SIZES: "exact: N sizes equal", or "not exact" with its reasons, or the
# sizes where they differ
check() {
	opts=$(mrc_settings "$1")
	"$FT" replay --mrc=exact --folio-order="$2" --memory="$3" --format=csv \
		-o "$TMPD/e.csv" "$1" || return
	"$FT" replay --mrc=exact --folio-order="$2" --memory="$3" --format=json \
		-o "$TMPD/e.json" "$1" || return
	for m in $(echo "$3" | tr , ' '); do
		# shellcheck disable=SC2086
		"$FT" replay $opts --folio-order="$2" --memory="$m" --format=csv "$1"
	done >"$TMPD/s.csv"
	python3 - "$TMPD/e.csv" "$TMPD/e.json" "$TMPD/s.csv" <<'PY'
import csv, json, sys
curve = list(csv.DictReader(open(sys.argv[1])))
c = json.load(open(sys.argv[2]))["sweep"]["curves"][0]
rows = list(csv.reader(open(sys.argv[3])))
single = [dict(zip(rows[i], rows[i + 1])) for i in range(0, len(rows) - 1, 2)]
keys = ["read_requests", "read_hit_requests", "read_bytes", "read_hit_bytes",
        "device_read_bytes", "read_ios"]
bad = [f'{p["memory_bytes"]} {k}: {p[k]} vs {s[k]}'
       for p, s in zip(curve, single) for k in keys if p[k] != s[k]]
if len(single) != len(curve):
    print("sizes:", len(curve), len(single))
elif c["exact"]:
    print(f"exact: {len(curve)} sizes equal" if not bad else "exact but " + "; ".join(bad[:3]))
else:
    print("not exact:", c["inexact_accesses"],
          "; ".join(f'{r["accesses"]} {r["why"].split()[0]}' for r in c["inexact_reasons"]))
PY
}

# Shipped recordings: fio's fault-around records (no access of the plain LRU) and its file
# layout truncations; frag-pairs unlinks 1001 files whose folios were cached (the memory they
# free stays free at every size that held them, until a folio fills it).
is "$(check "$TRACES/randread-64M-limit.ftr" 0 1M,2M,4M,8M,16M,64M)" "exact: 6 sizes equal" \
	"randread-64M-limit, order 0: exact, equal to single replays at 6 sizes"
is "$(check "$TRACES/frag-pairs.ftr" 0 1M,4M,16M,64M,256M,512M)" "exact: 6 sizes equal" \
	"frag-pairs, order 0: exact, equal to single replays at 6 sizes"

# hits_vary CSV: the distinct hit counts of a curve (a curve that changes with the size)
hits_vary() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "read_hit_requests") k = i }
		NR > 1 { print $k }' "$1" | sort -u | wc -l
}

# Synthetic Zipf reads and scans of one 16 MiB file, at orders 0, 4 and 9.
"$FT" synth zipf-scan --events=20000 --file-size=16M -o "$TMPD/z.ftr" ||
	skip_all "synth could not make the trace"
for o in 0 4 9; do
	is "$(check "$TMPD/z.ftr" $o 2M,4M,6M,8M,12M,16M,20M)" "exact: 7 sizes equal" \
		"zipf-scan, order $o: exact, equal to single replays at 7 sizes"
	n=$(hits_vary "$TMPD/e.csv")
	ok $([ "$n" -ge 5 ]; echo $?) "zipf-scan, order $o: the hits change with the size ($n values)"
done

# Buffered writes: a dirty folio at the plain LRU's tail is passed over until written back,
# which no stack follows: each write is counted (a libCacheSim CSV stream of page-sized reads
# and writes over two 16 MiB files).
awk 'BEGIN {
	srand(7); B = 1099511627776
	for (f = 1; f <= 2; f++)
		for (p = 0; p < 4096; p++)
			printf "%d,%.0f,4096,write\n", t++, f * B + p
	for (i = 0; i < 20000; i++) {
		f = 1 + int(rand() * 2); p = int(rand() ^ 3 * 4096)
		printf "%d,%.0f,4096,%s\n", t++, f * B + p, rand() < 0.3 ? "write" : "read"
	}
}' >"$TMPD/mix.csv"
"$FT" import --from=csv -o "$TMPD/mix.ftr" "$TMPD/mix.csv" ||
	skip_all "import could not make the trace"
writes=$(grep -c ',write$' "$TMPD/mix.csv")
is "$(check "$TMPD/mix.ftr" 0 2M,8M,32M)" "not exact: $writes $writes buffered" \
	"reads and writes, order 0: not exact, each of the $writes buffered writes counted"

# Not exact: every reason named with its accesses, the same in the table and in JSON
T=$TRACES/git-small-files.ftr
"$FT" replay --mrc=exact --folio-order=9 --memory=4M --format=json -o "$TMPD/n.json" "$T"
run "$FT" replay --mrc=exact --folio-order=9 --memory=4M "$T"
printf '%s\n' "$out" >"$TMPD/n.txt"
got=$(python3 - "$TMPD/n.json" "$TMPD/n.txt" <<'PY'
import json, re, sys
c = json.load(open(sys.argv[1]))["sweep"]["curves"][0]
text = open(sys.argv[2]).read()
head = re.search(r"^  not exact: (\d+) of (\d+) accesses", text, re.M)
rows = re.findall(r"^    (\d+): (.*)$", text, re.M)
reasons = c["inexact_reasons"]
print("total", head and int(head.group(1)) == c["inexact_accesses"] > 0)
print("rows", [(int(n), w) for n, w in rows] == [(r["accesses"], r["why"]) for r in reasons])
print("each", all(r["accesses"] > 0 for r in reasons),
      sum(r["accesses"] for r in reasons) >= c["inexact_accesses"] >= reasons[0]["accesses"])
print("most first", [r["accesses"] for r in reasons] ==
      sorted((r["accesses"] for r in reasons), reverse=True))
print("names", any(r["why"].startswith("buffered writes") for r in reasons),
      any("below the largest order" in r["why"] for r in reasons))
PY
)
is "$got" "total True
rows True
each True True
most first True
names True True" \
	"not exact (writes, mixed folio sizes): every reason with its accesses, as in JSON"

done_testing
