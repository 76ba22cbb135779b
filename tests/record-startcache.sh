#!/bin/sh
# Live: the pages each file had cached before the recording (FT_START_CACHE). A 1 MiB file
# (256 pages) read whole before `record -- cat` is 256 pages in one range in the trace, and its
# replay rereads it from the cache: 256 pages cached, no insertion, no device read, where
# --start-cache=empty inserts all 256. The same file cold is 0 pages, although cat's reads
# inserted them before the recorder could look (the trace's own insertions are taken out). The
# probe marks nothing accessed: pages put in by POSIX_FADV_WILLNEED (never referenced) stay
# without PG_referenced and off the active list in /proc/kpageflags after a recording that
# probes them, where one pread of them sets PG_referenced (the check can fail). Half a file
# cached is its half. Under a 32 MiB memory cgroup a 48 MiB file cached before is read with
# no insertion by the kernel; the replay, its pages charged to the root beside the cgroup,
# has 0 insertions and 0 evictions of its own too (what the host's DAMON pageout took meanwhile
# set aside), where an empty start inserts and evicts thousands.
# A file created during the recording starts empty. The recorder has no huge pages (its probes
# map files), the command it runs keeps its own.
# Only this test's files are dropped from the cache.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
command -v python3 > /dev/null || skip_all "python3 not installed"
command -v fincore > /dev/null || skip_all "fincore not installed"
ADVISE=$TOP_BUILDDIR/tests/advise
[ -x "$ADVISE" ] || skip_all "tests/advise not built"
[ -r /proc/kpageflags ] || skip_all "no /proc/kpageflags"

D=$(record_ext4_dir)
F=$D/file
dd if=/dev/urandom of="$F" bs=4096 count=256 status=none
ino=$(stat -c %i "$F")

cached() { fincore -n -b -o PAGES "$1" | tr -d ' '; }

# sources TRACE OPTIONS...: the replay's line on where its configuration came from, unwrapped.
sources() {
	t=$1
	shift
	"$FOLIO_TRACE" replay --format=json "$@" "$t" |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["trace"]["sources"])'
}

# start_of TRACE: "nr_cache ranges" of the file's FT_START_CACHE records.
start_of() {
	"$FOLIO_TRACE" dump -t start_cache "$1" | awk -v ino="$ino" '
	{ delete f; for (i = 3; i <= NF; i++) { n = index($i, "="); f[substr($i, 1, n - 1)] = substr($i, n + 1) }
	  if (f["ino"] == ino) { n_ = f["nr_cache"]; r = r (r ? "," : "") f["ranges"] } }
	END { print n_ " " r }'
}

# file_row TRACE OPTIONS...: "pages_inserted device_read_bytes hit_requests/requests" of the
# file in an order-0 replay.
file_row() {
	t=$1
	shift
	"$FOLIO_TRACE" replay --folio-order=0 --by=file --top=100 --format=json "$@" "$t" |
		python3 -c '
import json, sys
d = json.load(sys.stdin)
for r in d["by"]["rows"]:
    if r["ino"] == int(sys.argv[1]):
        m = r["models"][0]
        ins = sum(n << o for o, n in enumerate(m["inserted_by_order"]))
        print("%d %d %d/%d" % (ins, m["device_read_bytes"], m["read_hit_requests"],
                                m["read_requests"]))' "$ino"
}

# A warm file: read whole, then recorded being read again. A page the host's reclaim takes
# between the read and the probe is the host's (as for the half below): made again, 3 times at
# most, the last held to the answers.
for try in 1 2 3; do
	drop_pages "$F"
	cat "$F" > /dev/null
	pre=$(cached "$F")
	rec "$TMPD/warm.ftr" -- cat "$F"
	[ "$(start_of "$TMPD/warm.ftr")" = "256 0+256" ] && break
	diag "try $try: $(start_of "$TMPD/warm.ftr") pages cached at the probe"
done
is "$pre" 256 "precondition: the file's 256 pages cached"
is "$rc" 0 "record -- cat of the warm file"
is "$(start_of "$TMPD/warm.ftr")" "256 0+256" "trace: 256 pages cached before it, one range"
reads=$(access_count "$TMPD/warm.ftr" read "$ino")
is "$(file_row "$TMPD/warm.ftr")" "0 0 $reads/$reads" \
	"replay (recorded by default): 0 pages inserted, nothing read from the device, every read a hit"
is "$(file_row "$TMPD/warm.ftr" --start-cache=recorded)" "0 0 $reads/$reads" \
	"--start-cache=recorded: the same"
row=$(file_row "$TMPD/warm.ftr" --start-cache=empty)
is "${row%% *}" 256 "--start-cache=empty: 256 pages inserted"
like "$(sources "$TMPD/warm.ftr")" "page cache at start: recorded ([0-9]* pages of [0-9]* files)" \
	"the report names the start cache"
like "$(sources "$TMPD/warm.ftr" --start-cache=empty)" \
	"page cache at start: empty (--start-cache)" "and says when it was told otherwise"
like "$("$FOLIO_TRACE" info "$TMPD/warm.ftr")" "^start: *[0-9]* files probed" "info shows it"

# The same file cold: cat's own insertions before the probe are not the start state.
drop_pages "$F"
rec "$TMPD/cold.ftr" -- cat "$F"
is "$(start_of "$TMPD/cold.ftr")" "0 -" "cold file: 0 pages cached before the trace"
row=$(file_row "$TMPD/cold.ftr")
is "${row%% *}" 256 "and its replay inserts all 256"

# Half of it cached (POSIX_FADV_WILLNEED of the second half): that half, in one range. A page
# someone else's reclaim or migration takes between the setup and the probe is the host's, not
# the probe's: the setup is made again, 3 times at most, and the last is held to the answer.
for try in 1 2 3; do
	drop_pages "$F"
	"$ADVISE" "$F" fw:512K:512K
	i=0
	while [ "$(cached "$F")" -lt 128 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	rec "$TMPD/half.ftr" -- "$ADVISE" "$F" fn:0:0
	[ "$(start_of "$TMPD/half.ftr")" = "128 128+128" ] && break
	diag "try $try: $(start_of "$TMPD/half.ftr") pages cached at the probe"
done
is "$(start_of "$TMPD/half.ftr")" "128 128+128" "half cached: pages 128 to 255"

# kpageflags_bits FLAG PFN...: the flag (bit) of each pfn, a 0 or 1 for each, in order.
kpageflags_bits() {
	python3 -c '
import struct, sys
bit = int(sys.argv[1])
with open("/proc/kpageflags", "rb") as f:
    out = ""
    for p in sys.argv[2:]:
        f.seek(int(p) * 8)
        out += str((struct.unpack("<Q", f.read(8))[0] >> bit) & 1)
print(out)' "$@"
}

# kpageflags FLAG PFN...: how many of the pfns have the flag (bit) set.
kpageflags() {
	kpageflags_bits "$@" | awk '{ print gsub(/1/, "") }'
}

# set_where BITS MASK: how many positions have a 1 in both strings of bits
set_where() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		for (i = 1; i <= length(a); i++) n += substr(a, i, 1) == 1 && substr(b, i, 1) == 1
		print n + 0 }'
}

# Not accessed: WILLNEED's folios (their pfns from the trace of the call), probed by a
# recording of a call that touches no page (POSIX_FADV_NORMAL). A folio the host's reclaim
# takes meanwhile leaves its pfn to another page (the control then counts fewer): the setup
# is made again, 3 times at most, and the last is held to the answers, for the pages left.
for try in 1 2 3; do
	drop_pages "$F"
	rec "$TMPD/willneed.ftr" -- "$ADVISE" "$F" fw:0:0
	pfns=$(field_of "$TMPD/willneed.ftr" pagecache_add "$ino" pfn)
	nf=$(echo "$pfns" | wc -w)
	i=0
	while [ "$(cached "$F")" -lt 256 ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
	# shellcheck disable=SC2086
	before=$(kpageflags 2 $pfns)
	rec "$TMPD/probe.ftr" -- "$ADVISE" "$F" fn:0:0
	# shellcheck disable=SC2086
	after_bits=$(kpageflags_bits 2 $pfns) active_bits=$(kpageflags_bits 6 $pfns)
	"$ADVISE" "$F" rd:0:0
	# shellcheck disable=SC2086
	control_bits=$(kpageflags_bits 2 $pfns)
	control=$(set_where "$control_bits" "$control_bits")
	# the flags of the frames that still hold the file's folios (the control read marked
	# them): a frame the host's reclaim freed may hold someone else's page, active or not
	after=$(set_where "$after_bits" "$control_bits")
	active=$(set_where "$active_bits" "$control_bits")
	[ "$control" = "$nf" ] && break
	diag "try $try: $control of $nf folios referenced by the control read"
done
ok "$([ "$nf" -gt 0 ] && echo 0 || echo 1)" "WILLNEED's folios: $nf, their pfns in the trace"
is "$before" 0 "before: no folio referenced (PG_referenced)"
if [ "$control" = "$nf" ]; then
	is "$(start_of "$TMPD/probe.ftr")" "256 0+256" "the probe saw all 256 pages"
	is "$control" "$nf" "control: one pread marks every folio referenced"
else
	# The host's proactive reclaim (DAMON's pageout) takes pages no one has touched, which
	# WILLNEED's are, in every try: the probe must have seen at least the ones the control
	# read still found in their frames, and the pread must mark those (nearly all of them).
	probed=$(start_of "$TMPD/probe.ftr" | cut -d' ' -f1)
	diag "the host's reclaim took $((nf - control)) of the $nf folios in each of 3 tries"
	ok "$([ "${probed:-0}" -ge "$control" ] && [ "${probed:-0}" -le 256 ] && echo 0 ||
	      echo 1)" "the probe saw the pages the host left ($probed, the control $control)"
	ok "$([ $((control * 16)) -ge $((nf * 15)) ] && echo 0 || echo 1)" \
		"control: one pread marks the folios left referenced ($control of $nf)"
fi
is "$after" 0 "after the probe: still none referenced (of the folios still there)"
is "$active" 0 "and none active"

drop_pages "$F"

# metrics TRACE OPTIONS...: "insertions evictions" of the whole replay at order 0, then the
# big file's "pages_inserted hits/reads device_read_bytes" and the kernel's pages inserted
# into it.
metrics() {
	t=$1
	shift
	"$FOLIO_TRACE" replay --folio-order=0 --by=file --top=100 --format=json "$@" "$t" |
		python3 -c '
import json, sys
d = json.load(sys.stdin)
m = d["configurations"][0]["metrics"]
out = "%d %d" % (m["insertions"], m["evictions"])
for r in d["by"]["rows"]:
    if r["ino"] == int(sys.argv[1]):
        f = r["models"][0]
        k = sum(n << o for o, n in enumerate(r["kernel"]["inserted_by_order"]))
        ins = sum(n << o for o, n in enumerate(f["inserted_by_order"]))
        out += " | %d %d/%d %d | %d" % (ins, f["read_hit_requests"], f["read_requests"],
                                        f["device_read_bytes"], k)
print(out)' "$bino"
}

if [ -w /sys/fs/cgroup/memory/memory.limit_in_bytes ]; then
	B=$D/big
	dd if=/dev/urandom of="$B" bs=1M count=48 status=none
	bino=$(stat -c %i "$B")
	# the host's reclaim may take pages of it before the reread: made again, 3 times at
	# most, until the kernel inserted none; the last is held to the answers
	for try in 1 2 3; do
		drop_pages "$B"
		cat "$B" > /dev/null
		pre=$(cached "$B")
		rec "$TMPD/limit.ftr" --memory-limit=32M -- dd if="$B" of=/dev/null bs=128k
		# the host's proactive reclaim (DAMON's pageout) may take pages of other files
		# during it, which the replay follows: the point is the model's own reclaim
		got=$(metrics "$TMPD/limit.ftr" --proactive-reclaim=none)
		[ "${got##* }" = 0 ] && break
		diag "try $try: the kernel inserted ${got##* } pages of it in the reread"
	done
	is "$pre" 12288 "precondition: the 48 MiB file cached"
	is "$rc" 0 "record --memory-limit=32M of its reread"
	damon_note "$TMPD/limit.ftr"
	is "${got#* }" "0 | 0 384/384 0 | 0" \
		"no eviction of the model's own; the file: no insertion, every read a hit, none from the device (kernel: none)"
	like "$(sources "$TMPD/limit.ftr")" "charged to the root beside the cgroup" \
		"the report says where the start cache is charged"
	got=$(metrics "$TMPD/limit.ftr" --start-cache=empty)
	ok "$([ "${got%% *}" -gt 12288 ] && echo 0 || echo 1)" \
		"--start-cache=empty: more insertions than the file's pages (${got%% |*})"
	drop_pages "$B"
else
	skip "no cgroup v1 memory controller: the memory-limit case"
fi

# A file created during the recording has no start state, whatever the probe found cached: on a
# tmpfs, fallocate(1) allocates its 2048 pages with no write nor insertion event to take them out.
# (ftload probed-read keeps the file until the probe has looked at it.)
T=$TMPD/tmpfs-born
FTLOAD=$TOP_BUILDDIR/tests/lab/ftload
mkdir -p "$T"
if [ ! -x "$FTLOAD" ]; then
	skip "tests/lab/ftload not built: the file born during the recording"
elif mount -t tmpfs -o size=16m ft-startcache "$T"; then
	echo "$T" >> "$TMPD/cleanup-mounts"
	"$FOLIO_TRACE" record -q -o "$TMPD/born.ftr" -- sh -c \
		"fallocate -l 8M '$T/g' && stat -c %i '$T/g' > '$TMPD/born.ino' &&
		 '$FTLOAD' probed-read '$T/g' 1M > /dev/null && rm '$T/g'"
	ok $? "a tmpfs file created and fallocated under record"
	saved_ino=$ino
	ino=$(cat "$TMPD/born.ino")
	is "$(start_of "$TMPD/born.ftr")" "0 -" \
		"born during the recording: no start state (the probe saw its fallocated pages)"
	ino=$saved_ino
else
	skip "cannot mount a tmpfs: the file born during the recording"
fi

# mincore(2) probes map the files: the recorder keeps khugepaged from its memory
# (PR_SET_THP_DISABLE, in /proc/PID/status), the command it runs keeps its own setting
"$FOLIO_TRACE" record -q -o "$TMPD/thp.ftr" -- sh -c \
	'grep THP_enabled /proc/$PPID/status; grep THP_enabled /proc/$$/status' > "$TMPD/thp"
is "$(tr -s ' \t\n' ' ' < "$TMPD/thp")" "THP_enabled: 0 THP_enabled: 1 " \
	"no huge pages for the recorder, the traced command's as they were"
done_testing
