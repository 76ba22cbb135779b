#!/bin/sh
# Live: record -p of a process that has a file mapped already. The process maps a 1 MiB file
# and reads all of it through the mapping before the recording, then waits: no fault of the
# file happens while traced, yet the trace names the file and carries its start state (256
# pages in one range, probed from /proc/PID/maps at the start), and the replay starts with
# those 256 pages cached. With --no-start-cache the file is not named at all. Only this test's
# file is dropped from the cache.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
command -v python3 > /dev/null || skip_all "python3 not installed"

D=$(record_ext4_dir)
F=$D/mapped
dd if=/dev/urandom of="$F" bs=4096 count=256 status=none
drop_pages "$F"
ino=$(stat -c %i "$F")
mkfifo "$D/go" "$D/ready"

# mapper: maps the file, touches every page, says so, and waits for the test to let it end
python3 - "$F" "$D" <<'PY' &
import mmap, sys
f = open(sys.argv[1], "rb")
m = mmap.mmap(f.fileno(), 0, prot=mmap.PROT_READ)
s = sum(m[i] for i in range(0, len(m), 4096))
open(sys.argv[2] + "/ready", "w").write("mapped\n")
open(sys.argv[2] + "/go").read()
PY
mp=$!
is "$(cat "$D/ready")" "mapped" "the mapper has the file mapped"

for how in probe none; do
	opt=
	[ $how = none ] && opt=--no-start-cache
	rec "$TMPD/$how.ftr" -p "$mp" --duration=1 $opt
	is "$rc" 0 "$how: recorded -p $mp"
done
echo end > "$D/go"
wait $mp

is "$(access_count "$TMPD/probe.ftr" mmap_read "$ino")" 0 "no fault of the file while traced"
like "$(dump_type "$TMPD/probe.ftr" file | grep " ino=$ino ")" "path=$F\$" \
	"the file is named though"
like "$(dump_type "$TMPD/probe.ftr" start_cache | grep " ino=$ino ")" \
	" nr_cache=256 .* ranges=0[+]256\$" "its 256 pages are its start state"
# start_pages TRACE: the pages the replay starts with cached, from its sources line.
start_pages() {
	"$FOLIO_TRACE" replay --format=json "$1" | python3 -c '
import json, re, sys
src = json.load(sys.stdin)["trace"]["sources"]
m = re.search(r"page cache at start: recorded \((\d+) pages", src)
print(m.group(1) if m else 0)'
}
p=$(start_pages "$TMPD/probe.ftr")
ok "$([ "$p" -ge 256 ] && echo 0 || echo 1)" "the replay starts with them cached ($p pages)"
is "$(dump_type "$TMPD/none.ftr" file | grep -c " ino=$ino ")" 0 \
	"--no-start-cache: the file is not named"
done_testing
