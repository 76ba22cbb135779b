#!/bin/sh
# replay --plot writes a well-formed, self-contained SVG: four panels (LRU length, write
# bandwidth, dirty bytes, fragmentation index), each with one series per order, and a legend.
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
points True True" "SVG well-formed, four panels with one series per order, legend, axes"

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
ticks=$(grep -A14 'data-panel="lru_entries">' "$TMPD/s.svg" | grep -o 'text-anchor="end">[0-9]*<' |
	tr -dc '0-9\n' | tr '\n' ' ')
is "$ticks" "1 10 100 1000 10000 100000 " "log axis ticks at powers of ten"

# One order: one series per panel.
run "$FT" replay --folio-order=9 --memory=256M --plot="$TMPD/one.svg" -o /dev/null "$TMPD/w.ftr"
n=$(python3 -c '
import sys, xml.etree.ElementTree as ET
r = ET.parse(sys.argv[1]).getroot()
print(sum(1 for p in r.iter("{http://www.w3.org/2000/svg}polyline") if p.get("class") == "series"))
' "$TMPD/one.svg")
is "$rc:$n" "0:4" "one order: one series in each of the four panels"
grep -q 'LRU length (folios)<' "$TMPD/one.svg"
ok $? "one order: linear LRU axis"

# An unwritable plot file is a runtime error.
run "$FT" replay --plot="$TMPD/no/such/dir.svg" -o /dev/null "$TMPD/w.ftr"
is "$rc:$(printf '%s\n' "$err" | wc -l)" "1:1" "unwritable plot: exit 1, one line"
done_testing
