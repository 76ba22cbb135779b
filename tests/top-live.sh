#!/bin/sh
# top on the live kernel: dd writes and reads a file while top watches it in JSON and keeps the
# trace; every figure top showed adds up to that trace's records and to what dd did. On a
# terminal the view takes the screen and gives it back.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed (build-aux/install-deps)"
D=$(record_ext4_dir)
T="$TMPD/top.ftr"

# No -n: top runs until the workload is done, however long a loaded machine takes; SIGTERM
# then ends it, and its last interval takes everything the recorder still has.
"$FOLIO_TRACE" top --comm=dd -i 1s --format=json -o "$T" > "$TMPD/top.jsonl" \
	2> "$TMPD/top.err" &
pid=$!
wait_recording "$T"
dd if=/dev/zero of="$D/f" bs=1M count=8 conv=fsync status=none
dd if="$D/f" iflag=nocache count=0 status=none		# drops its cache
dd if="$D/f" of=/dev/null bs=1M status=none
kill -TERM $pid
wait $pid
is "$?" 0 "top --format=json -o, ended by SIGTERM: exit 0"
docs=$(wc -l < "$TMPD/top.jsonl")
ok "$([ "$docs" -ge 1 ]; echo $?)" "a document per interval ($docs)"
[ -s "$TMPD/top.err" ] && diag "stderr: $(cat "$TMPD/top.err")"
"$FOLIO_TRACE" dump --format=json "$T" > "$TMPD/dump.jsonl"
is "$("$FOLIO_TRACE" dump -t end "$T" | wc -l)" 1 "the trace kept with -o ends cleanly"

python3 - "$TMPD/dump.jsonl" "$TMPD/top.jsonl" "$D/f" > "$TMPD/cmp" <<'PY'
import json, sys
recs = [json.loads(l) for l in open(sys.argv[1])]
docs = [json.loads(l) for l in open(sys.argv[2])]
path = sys.argv[3]
ino = None
for r in recs:
    if r["type"] == "file" and r.get("path") == path:
        ino = (r["dev"], r["ino"])
def mine(r):
    return (r.get("dev"), r.get("ino")) == ino
orders = [0] * 12
pages = dirtied = 0
for r in recs:
    if r["type"] == "folio_dirty" and mine(r):
        dirtied += 4096 * (1 << r["order"] if r["order"] < 11 else 1)
    if r["type"] == "pagecache_add":
        orders[min(r["order"], 11)] += 1
        if mine(r):
            pages += 1 << r["order"] if r["order"] < 11 else 1
rows = {}
for d in docs:
    for row in d["rows"]:
        if row["name"] == path:
            for k, v in row.items():
                if isinstance(v, int):
                    rows[k] = rows.get(k, 0) + v
print("write_bytes", rows.get("write_bytes", -1))
print("read_bytes", rows.get("read_bytes", -1))
print("written_back_bytes", rows.get("written_back_bytes", -1))
print("inserted_pages", rows.get("inserted_pages", -1), pages)
print("dirtied_bytes", rows.get("dirtied_bytes", -1), dirtied)
print("histogram", docs[-1]["run_totals"]["inserted_folios_by_order"] == orders, orders)
print("split", [sum(d["interval_totals"]["inserted_folios_by_order"][o] for d in docs)
                for o in range(12)] == orders)
PY
while read -r what a b; do
	case $what in
	write_bytes|read_bytes)
		is "$a" 8388608 "the file's rows: $what as dd did (8 MiB)" ;;
	written_back_bytes)
		is "$a" 8388608 "the file's rows: ext4 wrote back the 8 MiB fsync asked for" ;;
	inserted_pages)
		is "$a" "$b" "the file's rows: pages inserted as the trace's insertions ($b)" ;;
	dirtied_bytes)
		is "$a" "$b" "the file's rows: bytes dirtied as the trace's folio_dirty records ($b)" ;;
	histogram)
		is "$a" True "folios inserted by order as the trace has them: $b" ;;
	split)	is "$a" True "the intervals add up to the run's totals" ;;
	esac
done < "$TMPD/cmp"

# A terminal: the alternate screen, the title, and the screen given back at the end.
if command -v script > /dev/null; then
	script -qec "'$FOLIO_TRACE' top --comm=ft-no-such-task -i 1s -n 2" /dev/null \
		> "$TMPD/tty.out" 2>&1
	grep -q "$(printf '\033')\[?1049h" "$TMPD/tty.out"
	ok $? "a terminal: the view takes the alternate screen"
	grep -q 'folio-trace top: the tasks and files chosen, interval 2' "$TMPD/tty.out"
	ok $? "a terminal: the screen is redrawn each interval"
	tail -c 32 "$TMPD/tty.out" | grep -q "$(printf '\033')\[?1049l"
	ok $? "a terminal: the screen is given back at the end"
fi
done_testing
