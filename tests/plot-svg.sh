#!/bin/sh
# replay --plot writes a well-formed, self-contained SVG whose panels follow the data (LRU
# length and fragmentation index always, hit ratio and device read bandwidth for reads, write
# bandwidth and dirty bytes for writes), each with one series per order, and a legend; its
# lines map back to the --timeseries CSV it came from; without --interval, one is fitted to the
# trace.
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"

"$FT" synth random-overwrite --events=20000 --duration=20s --file-size=64M \
	-o "$TMPD/w.ftr" 2>/dev/null || skip_all "synth could not make the trace"
run "$FT" replay --folio-order=0,4,9 --memory=256M --plot="$TMPD/w.svg" \
	--timeseries="$TMPD/w.csv" -o /dev/null "$TMPD/w.ftr"
is "$rc" 0 "replay with --plot exits 0"

got=$(python3 - "$TMPD/w.svg" "$TMPD/w.csv" <<'PY'
import csv, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
print("root", root.tag == ns + "svg")
# self-contained: nothing fetched from elsewhere
refs = [e for e in root.iter() for k in e.attrib if k.endswith("href")]
print("external", len(refs), len(list(root.iter(ns + "script"))))
panels = [g for g in root.iter(ns + "g") if g.get("class") == "panel"]
print("panels", *[g.get("data-panel") for g in panels])
for g in panels:
    lines = [p for p in g.iter(ns + "polyline") if p.get("class") == "series"]
    texts = " ".join(t.text or "" for t in g.iter(ns + "text"))
    print(g.get("data-panel"), "orders", *[p.get("data-order") for p in lines],
          "axis" if "time (s)" in texts else "no-axis")
legend = [g for g in root.iter(ns + "g") if g.get("class") == "legend"][0]
print("legend", *[t.text for t in legend.iter(ns + "text")])
# as many points per line as time-series rows per order
rows = {}
for r in csv.DictReader(open(sys.argv[2])):
    rows[r["order"]] = rows.get(r["order"], 0) + 1
lru = [p for p in panels[0].iter(ns + "polyline")]
print("points", all(len(p.get("points").split()) == rows[p.get("data-order")] for p in lru),
      min(rows.values()) >= 19)
PY
)
is "$got" "root True
external 0 0
panels lru_entries write_bandwidth dirty_bytes fragmentation_index
lru_entries orders 0 4 9 axis
write_bandwidth orders 0 4 9 axis
dirty_bytes orders 0 4 9 axis
fragmentation_index orders 0 4 9 axis
legend order 0 order 4 order 9
points True True" "write-only trace: SVG well-formed, no read panel, one series per order, legend, axes"

# units on the axes
grep -q 'Write bandwidth (writeback) (.*B/s)' "$TMPD/w.svg"
ok $? "write bandwidth axis has a unit"
# A sequential read, every miss a folio of the order: order 0 has 512 times the LRU entries
# of order 9, so powers of ten.
"$FT" synth seq-read --events=2000 --duration=5s -o "$TMPD/s.ftr" 2>/dev/null
run "$FT" replay --folio-order=0,9 --policy=fixed --no-readahead --plot="$TMPD/s.svg" \
	-o /dev/null "$TMPD/s.ftr"
grep -q 'LRU length (folios, log scale)' "$TMPD/s.svg"
ok $? "LRU axis counts folios, on a log scale when orders differ 20 times"
ticks=$(grep -A14 'class="panel" data-panel="lru_entries"' "$TMPD/s.svg" | grep -o 'text-anchor="end">[0-9]*<' |
	tr -dc '0-9\n' | tr '\n' ' ')
is "$ticks" "1 10 100 1000 10000 100000 " "log axis ticks at powers of ten"

# One order: one series per panel.
run "$FT" replay --folio-order=9 --memory=256M --plot="$TMPD/one.svg" -o /dev/null "$TMPD/w.ftr"
n=$(python3 -c '
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
print(sum(1 for p in r.iter("{http://www.w3.org/2000/svg}polyline") if p.get("class") == "series"))
' "$TMPD/one.svg")
is "$rc:$n" "0:4" "one order: one series in each of the four panels of a write-only trace"
grep -q 'LRU length (folios)<' "$TMPD/one.svg"
ok $? "one order: linear LRU axis"

# An unwritable plot file is a runtime error.
run "$FT" replay --plot="$TMPD/no/such/dir.svg" -o /dev/null "$TMPD/w.ftr"
is "$rc:$(printf '%s\n' "$err" | wc -l)" "1:1" "unwritable plot: exit 1, one line"
# A read-only trace: read panels, no write panel; every point of the hit-ratio and LRU lines
# maps back to its CSV row within a pixel; the interval fitted to the trace.
"$FT" synth random-read --events=6000 --duration=3s --file-size=64M \
	-o "$TMPD/r.ftr" 2>/dev/null || skip_all "synth could not make the read trace"
run "$FT" replay --folio-order=0,9 --memory=16M --plot="$TMPD/r.svg" \
	--timeseries="$TMPD/r.csv" -o /dev/null "$TMPD/r.ftr"
is "$rc" 0 "read-only trace: replay with --plot exits 0"
cat > "$TMPD/check.py" <<'PY'
import csv, re, sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
rows = list(csv.DictReader(open(sys.argv[2])))
panels = {g.get("data-panel"): g for g in root.iter(ns + "g") if g.get("class") == "panel"}
print("panels", *panels)
sub = [t.text for t in root.iter(ns + "text") if t.get("class") == "subtitle"][0]
print("subtitle", re.sub(r"[0-9.]+", "N", sub))
iv = float(re.search(r"every ([0-9.e-]+) s", sub).group(1))
by = {}
for r in rows:
    by.setdefault(r["order"], []).append(r)
# the interval is the step between rows, 200 to 500 of them per order
steps = {round(float(b["time_s"]) - float(a["time_s"]), 9) for v in by.values()
         for a, b in zip(v, v[1:-1])}
print("step", steps == {round(iv, 9)}, all(200 <= len(v) <= 501 for v in by.values()))

def frame(g):
    r = [e for e in g if e.tag == ns + "rect"][0]
    x, y, w, h = (float(r.get(k)) for k in ("x", "y", "width", "height"))
    # the time axis ends where the trace does, which the panel says; its ticks stop before
    xhi = float(g.get("data-time-max"))
    ticks = [float(t.text) for t in g.iter(ns + "text")
             if t.get("text-anchor") == "middle" and re.fullmatch(r"[0-9.e+-]+", t.text or "")]
    assert max(ticks) <= xhi
    return x, y, w, h, xhi

def worst(panel, column, ylo, yhi):
    g = panels[panel]
    x, y, w, h, xhi = frame(g)
    bad = 0.0
    for p in g.iter(ns + "polyline"):
        pts = [tuple(map(float, q.split(","))) for q in p.get("points").split()]
        want = [r for r in by[p.get("data-order")] if r[column] != ""]
        if len(pts) != len(want):
            return "count %d %d" % (len(pts), len(want))
        for (px, py), r in zip(pts, want):
            ex = x + float(r["time_s"]) / xhi * w
            ey = y + h - (float(r[column]) - ylo) / (yhi - ylo) * h
            bad = max(bad, abs(px - ex), abs(py - ey))
    return "within a pixel" if bad <= 1.0 else "off by %.2f" % bad

print("hit_ratio", worst("read_hit_ratio", "hit_ratio_bytes", 0, 1))
lru = panels["lru_entries"]
title = [t.text for t in lru.iter(ns + "text")][0]
if "log" not in title:
    top = max(float(t.text) for t in lru.iter(ns + "text")
              if t.get("text-anchor") == "end" and re.fullmatch(r"[0-9.e+-]+", t.text or ""))
    print("lru", worst("lru_entries", "lru_entries", 0, top))
else:
    print("lru log")
PY
got=$(python3 "$TMPD/check.py" "$TMPD/r.svg" "$TMPD/r.csv" 2>&1)
is "$got" "panels lru_entries read_hit_ratio read_io_bandwidth fragmentation_index
subtitle a sample every N s, chosen for the trace's N s (no --interval)
step True True
hit_ratio within a pixel
lru within a pixel" "read-only trace: read panels, no write panel; lines map back to the CSV"

# The hit ratio per interval is the CSV's read_hit_bytes over read_bytes; over the whole run,
# the bytes add up to the report's.
got=$(python3 - "$TMPD/r.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
ok = all((r["hit_ratio_bytes"] == "") == (r["read_bytes"] == "0") and
         (r["hit_ratio_bytes"] == "" or
          abs(float(r["hit_ratio_bytes"]) - int(r["read_hit_bytes"]) / int(r["read_bytes"])) < 1e-6)
         for r in rows)
print(ok, sum(int(r["read_bytes"]) for r in rows if r["order"] == "9"),
      sum(int(r["read_hit_bytes"]) for r in rows if r["order"] == "9"))
PY
)
json=$("$FT" replay --folio-order=9 --memory=16M --format=json "$TMPD/r.ftr" | python3 -c '
import json, sys
m = json.load(sys.stdin)["configurations"][0]["metrics"]
print(m["read_bytes"], m["read_hit_bytes"])')
is "$got" "True $json" "CSV: hit ratio per interval, read bytes adding up to the report's"

# --interval given: kept, and said so; from standard input: 1 s, and said why.
run "$FT" replay --folio-order=9 --memory=16M --interval=250ms --plot="$TMPD/i.svg" \
	-o /dev/null "$TMPD/r.ftr"
is "$rc:$(grep -o 'a sample every [^<]*' "$TMPD/i.svg")" "0:a sample every 0.25 s (--interval)" \
	"--interval given: used and stated"
run sh -c '"$1" replay --folio-order=9 --memory=16M --plot="$2" -o /dev/null - < "$3"' sh \
	"$FT" "$TMPD/p.svg" "$TMPD/r.ftr"
like "$rc:$(grep -o 'a sample every [^<]*' "$TMPD/p.svg")" \
	'^0:a sample every 1 s [(]the default: standard input cannot be read twice' \
	"standard input: the default interval, and why"
done_testing
