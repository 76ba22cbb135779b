#!/bin/sh
# folio-trace info --format=json: one document holding what the text shows, for every shipped
# trace: counts per record type, accesses per operation, the writeback table, block requests
# and lost events; usage errors for a bad or repeated --format.
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
FT=$FOLIO_TRACE

for t in "$TRACES"/*.ftr; do
	n=$(basename "$t")
	run "$FT" info "$t"
	printf '%s\n' "$out" >"$TMPD/text"
	run "$FT" info --format=json "$t"
	is "$rc" 0 "$n: json exits 0"
	printf '%s\n' "$out" >"$TMPD/json"
	got=$(python3 - "$TMPD/text" "$TMPD/json" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read().splitlines()
d = json.load(open(sys.argv[2]))
bad = []
def check(what, a, b):
    if a != b:
        bad.append("%s: text %r json %r" % (what, a, b))
if d["format"] != "folio-trace-info" or d["version"] != 1:
    bad.append("format")
sec = None
types, ops, wb, blocks = {}, {}, [], []
for l in text:
    m = re.match(r"^(\w+):\s*(.*)$", l)
    if m:
        sec, rest = m.group(1), m.group(2)
        if sec == "records":
            r = re.match(r"(\d+) \((\d+) events\)", rest)
            check("records", int(r.group(1)), d["records"])
            check("events", int(r.group(2)), d["events"])
        elif sec == "files":
            check("files", int(rest), d["files"])
        elif sec == "lost":
            check("lost", int(rest), d["lost_events"])
        elif sec == "host":
            check("cpus", rest.split(", ")[-1].split()[0], str(d["host"]["cpus"]))
        elif sec == "complete":
            check("complete", rest == "yes", d["trace"]["complete"])
        elif sec == "block":
            r = re.match(r"(\d+:\d+) read .* \((\d+) requests\), write .* \((\d+)\), flush (\d+), discard (\d+)", rest)
            blocks.append((r.group(1), int(r.group(2)), int(r.group(3)), int(r.group(4)), int(r.group(5))))
        continue
    f = l.split()
    if sec == "records" and len(f) == 2:
        types[f[0]] = int(f[1])
    elif sec == "accesses" and len(f) >= 3 and f[2] != "bytes" and not l.startswith("  of which"):
        if " via " not in l:
            ops[f[0]] = (int(f[1]), int(f[2]))
    elif sec == "writeback" and len(f) >= 4 and f[0].isdigit() and f[-1] != "files":
        wb.append((int(f[0]), None if f[1] == "-" else int(f[1]), l.split("  ")[-1].strip()))
check("types", types, d["records_per_type"])
check("ops", ops, {k: (v["count"], v["bytes"]) for k, v in d["accesses"].items()})
jw = [(w["written"], w["written_back"], w["path"] or "") for w in d["writeback"]][:20]
check("writeback", [(a, b) for a, b, _ in wb], [(a, b) for a, b, _ in jw])
check("writeback paths", [p for _, _, p in wb], [p for _, _, p in jw])
check("writeback sum", sum(w["written"] for w in d["writeback"]), d["writeback_all"]["written"])
check("block", blocks, [(b["dev"], b["read_requests"], b["write_requests"], b["flushes"], b["discards"]) for b in d["block"]])
check("devices", len([l for l in text if l.startswith("device:")]), len(d["host"]["devices"]))
print("\n".join(bad) if bad else "same")
PY
)
	is "$got" "same" "$n: the JSON holds what the text shows"
done

# Every key is documented in folio-trace-info(1) (the names of types, operations and interfaces
# are values of the trace format, not keys of ours).
"$FT" info --format=json "$TRACES/git-small-files.ftr" >"$TMPD/doc.json"
missing=$(python3 - "$TMPD/doc.json" "$TOP_SRCDIR/man/folio-trace-info.1" <<'PY'
import json, re, sys
d = json.load(open(sys.argv[1]))
page = open(sys.argv[2]).read().replace("\\-", "-").replace("\\(dq", '"')
named = {"records_per_type", "accesses", "lost_per_type", "read", "write"}
keys = set()
def walk(o, parent=None):
    if isinstance(o, dict):
        for k, v in o.items():
            if parent not in named:
                keys.add(k)
            walk(v, k)
    elif isinstance(o, list):
        for v in o:
            walk(v, parent)
walk(d)
print(" ".join(sorted(k for k in keys if not re.search(r"\b%s\b" % re.escape(k), page))))
PY
)
is "$missing" "" "every JSON key is in folio-trace-info(1)"

# Standard input; an incomplete trace still gives a whole document, then exit 1.
run sh -c "cat '$TRACES/seq-copy.ftr' | '$FT' info --format=json -"
is "$rc:$(printf '%s\n' "$out" | python3 -c 'import json, sys; print(json.load(sys.stdin)["file"])')" \
	"0:-" "standard input"
size=$(wc -c <"$TRACES/seq-copy.ftr")
head -c $((size - 100)) "$TRACES/seq-copy.ftr" >"$TMPD/cut.ftr"
run "$FT" info --format=json "$TMPD/cut.ftr"
is "$rc:$(printf '%s\n' "$out" | python3 -c 'import json, sys
t = json.load(sys.stdin)["trace"]; print(t["complete"], t["incomplete_why"] is not None)')" \
	"1:False True" "cut trace: a whole document saying so, exit 1"

run "$FT" info --format=xml "$TRACES/seq-copy.ftr"
is "$rc:$(printf '%s\n' "$err" | wc -l):$out" "2:1:" "unknown format: usage error, one line"
run "$FT" info --format=json --format=json "$TRACES/seq-copy.ftr"
is "$rc:$out" "2:" "--format given twice: usage error"
run "$FT" info --format=text "$TRACES/seq-copy.ftr"
like "$out" "^complete:   yes" "--format=text is the text"

done_testing
