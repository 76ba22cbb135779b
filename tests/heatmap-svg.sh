#!/bin/sh
# replay --heatmap writes a well-formed, self-contained SVG of one file: a panel of its data
# accesses by time and offset, then the reads that missed per order, with axes and a colour
# legend. Its cells add up to that file's accesses as dump lists them and to the misses the
# report counts; the file is the busiest by default, or the one --heatmap-file names; text from
# the trace is escaped.
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"

"$FT" synth random-read --events=5000 --duration=2s --file-size=32M \
	-o "$TMPD/r.ftr" 2>/dev/null || skip_all "synth could not make the trace"
run "$FT" replay --folio-order=0,4,9 --memory=8M --heatmap="$TMPD/h.svg" -o /dev/null \
	"$TMPD/r.ftr"
is "$rc" 0 "replay --heatmap exits 0"

cat > "$TMPD/cells.py" <<'PY'
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
refs = [e for e in root.iter() for k in e.attrib if k.endswith("href")]
print("self-contained", root.tag == ns + "svg", len(refs), len(list(root.iter(ns + "script"))))
print("file", root.get("data-dev"), root.get("data-ino"))
legend = [g for g in root.iter(ns + "g") if g.get("class") == "legend"]
shades = [r for r in legend[0].iter(ns + "rect") if r.get("class") == "shade"]
# the shades cover 1 .. the largest cell, without gap
cont = all(int(b.get("data-from")) == int(a.get("data-to")) + 1 for a, b in zip(shades, shades[1:]))
top = max(int(c.get("data-count")) for c in root.iter(ns + "rect") if c.get("class") == "cell")
print("legend", len(shades) > 0, shades[0].get("data-from") == "1", cont,
      shades[-1].get("data-to") == str(top))
for g in root.iter(ns + "g"):
    if g.get("class") != "panel":
        continue
    cells = [r for r in g.iter(ns + "rect") if r.get("class") == "cell"]
    texts = " ".join(t.text or "" for t in g.iter(ns + "text"))
    total = sum(int(c.get("data-count")) for c in cells)
    fill = {c.get("fill") for c in cells}
    print(g.get("data-panel"), g.get("data-order") or "-", total,
          total == int(g.get("data-total")), "axes" if "time (s)" in texts and
          "file offset" in texts and "B" in texts else "no-axes", len(fill) > 1 or len(cells) < 2)
PY
got=$(python3 "$TMPD/cells.py" "$TMPD/h.svg")
devino=$(printf '%s\n' "$got" | sed -n 's/^file //p')
dev=${devino% *}
ino=${devino#* }
accesses=$("$FT" dump "$TMPD/r.ftr" | grep -cE " access .*op=(read|write|mmap_read|mmap_write) dev=$dev ino=$ino ")
misses=$("$FT" replay --folio-order=0,4,9 --memory=8M --format=json "$TMPD/r.ftr" | python3 -c '
import json, sys
for c in json.load(sys.stdin)["configurations"]:
    m = c["metrics"]
    print(m["read_requests"] - m["read_hit_requests"], end=" ")')
set -- $misses
is "$(printf '%s\n' "$got" | grep -v '^file')" "self-contained True 0 0
legend True True True True
accesses - $accesses True axes True
misses 0 $1 True axes True
misses 4 $2 True axes True
misses 9 $3 True axes True" \
	"cells add up to dump's accesses and the report's misses per order; axes and legend"

# The busiest file by default: on a shipped trace of several files, the one with the most data
# accesses in dump's listing.
cat > "$TMPD/files.py" <<'PY'
import sys, xml.etree.ElementTree as ET
root = ET.parse(sys.argv[1]).getroot()
sub = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("class") == "subtitle"]
print(root.get("data-dev"), root.get("data-ino"), sub[0].split(" (")[0])
PY
T=$TOP_SRCDIR/traces/randread-64M-limit.ftr
if [ -e "$T" ]; then
	run "$FT" replay --folio-order=9 --heatmap="$TMPD/b.svg" -o /dev/null "$T"
	busiest=$("$FT" dump "$T" | grep -E ' access .*op=(read|write|mmap_read|mmap_write) ' |
		sed 's/.* dev=\([^ ]*\) ino=\([^ ]*\) .*/\1 \2/' | sort | uniq -c | sort -rn |
		awk 'NR == 1 { print $2, $3 } $1 > 1 { n++ } END { if (n < 2) print "one file" }')
	is "$rc:$(python3 "$TMPD/files.py" "$TMPD/b.svg" | cut -d' ' -f1,2)" "0:$busiest" \
		"default: the file with the most data accesses"
else
	ok 0 "default: the busiest file # SKIP no shipped traces"
fi

# A file named by path or by device and inode; text from the trace escaped.
"$TOP_BUILDDIR/tests/mktrace" escapes "$TMPD/esc.ftr" || exit 1
run "$FT" replay --memory=64M --heatmap="$TMPD/esc.svg" -o /dev/null "$TMPD/esc.ftr"
is "$rc" 0 "a trace with a hostile path: exit 0"
ESC=$(printf '\033')
LC_ALL=C grep -q "$ESC" "$TMPD/esc.svg"
is $? 1 "the path reaches the SVG escaped: no ESC byte"
is "$(python3 "$TMPD/files.py" "$TMPD/esc.svg")" '254:0 7 file /data/\x1b[8mhidden' \
	"the path is shown escaped, the SVG well-formed"
run "$FT" replay --memory=64M --heatmap="$TMPD/p.svg" \
	--heatmap-file="$(printf '/data/\033[8mhidden')" -o /dev/null "$TMPD/esc.ftr"
is "$rc:$(python3 "$TMPD/files.py" "$TMPD/p.svg" | cut -d' ' -f1,2)" "0:254:0 7" \
	"--heatmap-file=PATH: that file"
run "$FT" replay --memory=64M --heatmap="$TMPD/d.svg" --heatmap-file=254:0:7 -o /dev/null \
	"$TMPD/esc.ftr"
is "$rc:$(python3 "$TMPD/files.py" "$TMPD/d.svg" | cut -d' ' -f1,2)" "0:254:0 7" \
	"--heatmap-file=MAJ:MIN:INO: that file"

# Usage errors: one line, exit 2, nothing written.
for args in "--heatmap-file=254:0:999" "--heatmap-file=/no/such/file" \
	"--heatmap-file=x --heatmap-file=y" "--heatmap-file=:" "--mrc=exact --lru=plain --policy=fixed --no-readahead"; do
	rm -f "$TMPD/u.svg"
	# shellcheck disable=SC2086
	run "$FT" replay --memory=64M --heatmap="$TMPD/u.svg" $args -o /dev/null "$TMPD/esc.ftr"
	is "$rc:$(printf '%s\n' "$err" | wc -l):$([ -e "$TMPD/u.svg" ] && echo written)" "2:1:" \
		"--heatmap $args: usage error, one line, nothing written"
done
run "$FT" replay --memory=64M --heatmap-file=254:0:7 -o /dev/null "$TMPD/esc.ftr"
is "$rc:$(printf '%s\n' "$err" | wc -l)" "2:1" "--heatmap-file without --heatmap: usage error"
run sh -c '"$1" replay --memory=64M --heatmap="$2" -o /dev/null - < "$3"' sh "$FT" \
	"$TMPD/u.svg" "$TMPD/esc.ftr"
like "$rc:$err" "^2:.*--heatmap: needs a trace file, not standard input" \
	"--heatmap from standard input: usage error"
done_testing
