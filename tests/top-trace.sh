#!/bin/sh
# top --from: every interval's figures add up to the trace's own records, per file and in all;
# intervals follow trace time; the text view sorts; bad options are usage errors.
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed (build-aux/install-deps)"
T="$TOP_SRCDIR/traces/rand-overwrite.ftr"

run "$FOLIO_TRACE" top --from="$T" -i 1s --format=json
is "$rc" 0 "top --from --format=json exits 0"
printf '%s\n' "$out" > "$TMPD/top.jsonl"
"$FOLIO_TRACE" dump --format=json "$T" > "$TMPD/dump.jsonl"

# The same sums from the trace's records (dump) and from top's intervals, side by side.
python3 - "$TMPD/dump.jsonl" "$TMPD/top.jsonl" > "$TMPD/cmp" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
docs = [json.loads(l) for l in open(sys.argv[2])]
page = 4096
names = {}
for r in recs:
    if r["type"] == "file" and r.get("path"):
        names[(r["dev"], r["ino"])] = r["path"]
want = {"write_bytes": 0, "read_bytes": 0, "inserted_pages": 0, "evicted_pages": 0,
        "dirtied_bytes": 0}
orders = [0] * 12
per_file = {}
events = [r for r in recs if r["type"] not in ("host", "device", "file", "task", "counter_names",
          "counters", "lost", "end")]
for r in recs:
    t = r["type"]
    if t == "access" and r["flags"].find("direct") < 0:
        key = names.get((r["dev"], r["ino"]))
        if r["op"] == "write":
            want["write_bytes"] += r["len"]
            if key: per_file[key] = per_file.get(key, 0) + r["len"]
        elif r["op"] == "read":
            want["read_bytes"] += r["len"]
    elif t == "pagecache_add":
        o = r["order"] if r["order"] < 11 else 11
        orders[o] += 1
        want["inserted_pages"] += 1 << r["order"] if r["order"] < 11 else 1
    elif t == "pagecache_delete":
        want["evicted_pages"] += 1 << r["order"] if r["order"] < 11 else 1
    elif t == "folio_dirty":
        want["dirtied_bytes"] += page * ((1 << r["order"]) if r["order"] < 11 else 1)
got = {k: sum(d["interval_totals"][k] for d in docs) for k in want}
for k in want:
    print("sum", k, got[k], want[k])
print("orders", sum(d["interval_totals"]["inserted_folios_by_order"][o] for d in docs
                    for o in [0]) , orders[0])
print("histogram", [sum(d["interval_totals"]["inserted_folios_by_order"][o] for d in docs)
                    for o in range(12)] == orders)
print("run_totals", docs[-1]["run_totals"]["inserted_folios_by_order"] == orders)
top_files = {}
for d in docs:
    for row in d["rows"]:
        top_files[row["name"]] = top_files.get(row["name"], 0) + row["write_bytes"]
big = max(per_file, key=per_file.get)
print("file", big.rsplit("/", 1)[-1], top_files.get(big, -1), per_file[big])
first = min(r["ts"] for r in events)
last = max(r["ts"] for r in events)
print("intervals", len(docs), (last - first) // 1000000000 + 1)
print("numbered", [d["interval"] for d in docs] == list(range(1, len(docs) + 1)))
PY
while read -r what a b c; do
	case $what in
	sum)	is "$b" "$c" "the intervals' $a add up to the trace's ($c)" ;;
	orders)	is "$a" "$b" "order-0 folios inserted: $b" ;;
	histogram|run_totals|numbered)
		is "$a" True "$what: as the trace has it" ;;
	file)	is "$b" "$c" "the busiest writer $a: its rows add up to its writes ($c bytes)" ;;
	intervals)
		is "$a" "$b" "one interval per second of trace time ($b)" ;;
	esac
done < "$TMPD/cmp"

# -n stops early; the text view sorts by the column asked for.
run "$FOLIO_TRACE" top --from="$T" -i 1s -n 2 --format=json
is "$(printf '%s\n' "$out" | wc -l)" 2 "-n 2: two intervals"
run "$FOLIO_TRACE" top --from="$T" -i 1s -n 1 --sort=WRITE
is "$rc" 0 "--sort=WRITE exits 0"
first=$(printf '%s\n' "$out" | awk '/^NAME /{getline; print $(NF - 14), $(NF - 13); exit}')
is "$first" "8.9 MiB" "--sort=WRITE: the file written most comes first"
like "$out" "sorted by WRITE" "the title names the sort column"
like "$out" "^NAME .* \*WRITE " "the heads mark the sort column"
run "$FOLIO_TRACE" top --from="$T" -i 1s -n 1 --by=process
like "$out" "^[0-9][0-9]* fio  *[0-9]" "--by=process: a row for the fio process, its name first"

# Usage errors.
for bad in "--by=inode" "--sort=SIZE" "--format=xml" "-n 0" "-i 0"; do
	run "$FOLIO_TRACE" top --from="$T" $bad
	is "$rc" 2 "top $bad: usage error"
done
run "$FOLIO_TRACE" top --from="$T" -o "$TMPD/x.ftr"
is "$rc" 2 "--from with -o: usage error"
run "$FOLIO_TRACE" top --from="$T" --by=file --by=process
is "$rc:$err" "2:folio-trace: --by given twice: each option may be given once (see folio-trace(1))" \
	"an option given twice: usage error, named"
# A cut trace: what could be read is shown, then one line says where it ends, exit 1.
head -c $(($(wc -c < "$T") / 2)) "$T" > "$TMPD/cut.ftr"
run "$FOLIO_TRACE" top --from="$TMPD/cut.ftr" -b -i 1s
is "$rc" 1 "a cut trace: exit 1"
like "$out" "^folio-trace top: " "a cut trace: the intervals read are shown"
run "$FOLIO_TRACE" top -i 500ms
is "$rc" 2 "live with an interval below 1s: usage error"
like "$err" "at least 1s" "the error says why"
run "$FOLIO_TRACE" top --from="$TMPD/none.ftr"
is "$rc" 1 "a missing trace: exit 1"
done_testing
