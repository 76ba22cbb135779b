#!/bin/sh
# Fragmentation as the kernel has it, live: a workload that reads 1000 pairs of 64 KiB files
# interleaved with a 256 MiB file read in large folios, then unlinks one file of each pair, is
# recorded with /proc/pagetypeinfo sampled; calibrate replays it from that recorded start state
# (the kernel's folio orders per file) and the model's free memory at the end must be within
# the bounds folio-trace-calibrate(1) states of the kernel's last /proc/buddyinfo sample:
# free pageblocks within 10%, free order-9 blocks within 16 of the kernel's, order-10 within
# 10%, the unusable index at order 9 within 0.05 at the end and half-way, and the drop in free
# pageblocks over the run (the fragmentation the workload made) within 25% of the kernel's.
# Other tasks on the host allocate too: a recording during which they took or gave back more
# than 128 MiB or 8 pageblocks, or one in which the files were still cached or their cache
# was dropped, is done again, up to three times in 30 s, then the test is skipped.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
[ -r /proc/pagetypeinfo ] || skip_all "no /proc/pagetypeinfo"
command -v jq > /dev/null 2>&1 || skip_all "jq not installed"
command -v python3 > /dev/null 2>&1 || skip_all "python3 not installed"

D=$(record_ext4_dir)
T=$TMPD/frag.ftr

# prepare: the files, written and then dropped from the cache (only these files: the rest of
# the host's cache stays)
prepare() {
	rm -rf "$D"/*
	python3 "$TOP_SRCDIR/traces/frag-pairs.py" prepare "$D"
}

# others TRACE: "TOOK FIRST PBTOOK ADDED DELETED": the pages the rest of the host took (or gave
# back, negative) while recording: the free pages lost between the first and the last
# buddyinfo sample, less the traced files' page-cache growth; the first sample's free
# pageblocks; the pageblocks the rest of the host took: the free pageblocks lost, less the
# traced files' growth in folios of a pageblock or more (each took a free pageblock); and the
# pages the traced files added to the page cache and the pageblock-sized folios deleted from
# it (the workload deletes none: reclaim or a drop of the caches did).
others() {
	"$FOLIO_TRACE" dump "$1" | awk '
		function sizeof(o) { return 2 ^ o }
		$2 == "pagecache_add" || $2 == "pagecache_delete" {
			for (i = 3; i <= NF; i++) if ($i ~ /^order=/) { o = $i; sub(/^order=/, "", o) }
			d = $2 == "pagecache_add" ? 1 : -1
			cache += d * sizeof(o)
			if (d > 0) added += sizeof(o); else if (o >= 9) bigdel += sizeof(o - 9)
			if (o >= 9) bigpb += d * sizeof(o - 9) }
		$2 == "counter_names" && / source=3 / {
			for (i = 3; i <= NF; i++) if ($i ~ /^names=/) { sub(/^names=/, "", $i); n = split($i, nm, ",") } }
		$2 == "counters" && / source=3 / {
			for (i = 3; i <= NF; i++) if ($i ~ /^values=/) { v = $i; sub(/^values=/, "", v); split(v, val, ",") }
			free = 0; pb = 0
			for (j = 1; j <= n; j++) {
				o = nm[j]; sub(/.*\//, "", o)
				free += val[j] * sizeof(o)
				if (o == 9) pb += val[j]; if (o == 10) pb += 2 * val[j]
			}
			if (!seen++) { free0 = free; pb0 = pb }
			last = free; lastpb = pb }
		END { printf "%d %d %d %d %d\n", free0 - last - cache, pb0, pb0 - lastpb - bigpb,
			added, bigdel }'
}

# Up to three recordings, the first one the rest of the host left alone (within 128 MiB and
# 8 pageblocks: each pageblock it frees or takes is one more or less free order-9 block) and in
# which the files were read from the disk (at least 90000 of the 97536 pages they have,
# added to the cache) and at most 2 of their pageblock-sized folios left the cache (other
# tests of the suite drop the caches or reclaim them, which the model cannot know); wait a
# little before the next, and start none after 30 s (the suite stays fast on a busy host).
busy="" o=0 first=0 opb=0 added=0 deleted=0
quiet() {
	[ "${o#-}" -le 32768 ] && [ "${opb#-}" -le 8 ] && [ "$added" -ge 90000 ] &&
		[ "$deleted" -le 2 ]
}
t0=$(date +%s)
for attempt in 1 2 3; do
	if [ "$attempt" -gt 1 ]; then
		[ $(($(date +%s) - t0)) -lt 30 ] || break
		sleep 3
	fi
	prepare
	rec "$T" --interval=250ms -- python3 "$TOP_SRCDIR/traces/frag-pairs.py" run "$D" keep-big
	[ "$rc" -eq 0 ] || break
	set -- $(others "$T")
	o=${1:-0} first=${2:-0} opb=${3:-0} added=${4:-0} deleted=${5:-0}
	quiet && break
	busy="$busy${busy:+,} $((o / 256)) MiB and $opb pageblocks"
	busy="$busy ($added pages added, $deleted pageblock folios deleted)"
done
[ "$rc" -ne 0 ] || [ -z "$busy" ] || quiet ||
	skip_all "the host was busy: other tasks took or gave back$busy while recording"
is "$rc" 0 "record the fragmenting workload"
diag "others took $((o / 256)) MiB and $opb pageblocks while recording" \
	"(at most 128 MiB and 8 for the comparison); the files added $added pages," \
	"$deleted pageblock-sized folios left the cache"
n=$(dump_type "$T" counters | grep -c ' source=5 ')
ok "$([ "$n" -ge 2 ] && echo 0 || echo 1)" "pagetypeinfo sampled at the start and the end ($n)"

"$FOLIO_TRACE" calibrate --format=json "$T" > "$TMPD/c.json" 2> "$TMPD/c.err"
is "$?:$(cat "$TMPD/c.err")" "0:" "calibrate runs"
is "$(jq -r '.metrics[] | select(.metric == "free pageblocks (end)") | .scope' "$TMPD/c.json")" \
	memory "the replay started from the recorded memory"

# m METRIC / k METRIC: the model's and the kernel's figure of a row
m() { jq -r --arg m "$1" '.metrics[] | select(.metric == $m) | .model' "$TMPD/c.json"; }
k() { jq -r --arg m "$1" '.metrics[] | select(.metric == $m) | .kernel' "$TMPD/c.json"; }
# near METRIC MAXDIFF: |model - kernel| <= MAXDIFF, both in the message
near() {
	a=$(m "$1")
	b=$(k "$1")
	awk -v a="$a" -v b="$b" -v d="$2" 'BEGIN { exit !(a != "" && b != "" && a - b <= d && b - a <= d) }'
	ok $? "$1: model $a, kernel $b, within $2"
}
# pct METRIC PCT: |model - kernel| <= PCT % of the kernel's
pct() {
	b=$(k "$1")
	near "$1" "$(awk -v b="$b" -v p="$2" 'BEGIN { printf "%d", b * p / 100 }')"
}

pct "free pageblocks (end)" 10
near "free order-9 blocks (end)" 16
pct "free order-10 blocks (end)" 10
near "unusable index o9 (end), 1/1000" 50
# over time: calibrate compares samples between the first and the last, if there are any
if [ "$n" -ge 3 ]; then
	near "unusable index o9 at 50%, 1/1000" 50
else
	skip "unusable index o9 at 50%: the workload ended within one sampling interval ($n samples)"
fi

# the fragmentation the workload made: free pageblocks lost from the first sample to the end
kd=$((first - $(k "free pageblocks (end)")))
md=$((first - $(m "free pageblocks (end)")))
ok "$([ "$kd" -ge 80 ] && echo 0 || echo 1)" "the workload took free pageblocks: $kd of $first"
awk -v a="$md" -v b="$kd" 'BEGIN { exit !(a - b <= b / 4 && b - a <= b / 4) }'
ok $? "free pageblocks lost: model $md, kernel $kd, within 25%"
done_testing
