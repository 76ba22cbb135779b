#!/bin/sh
# record benchmark (make bench): events/s the recorder sustains without losing any, and the
# slowdown of a page-cache-bound fio job with vs without recording. Needs root and BPF.
set -u
FT=${FOLIO_TRACE:-./folio-trace}
if [ "$(id -u)" -ne 0 ] || "$FT" record --help 2>/dev/null | grep -q 'without BPF'; then
	echo "record bench: skipped (needs root and BPF support)"
	exit 0
fi
W=$(mktemp -d /var/tmp/ft-bench.XXXXXX)
M=$W/tmpfs
mkdir -p "$M"
mount -t tmpfs -o size=1g ft-bench "$M"
trap 'umount "$M"; rm -rf "$W"' EXIT

# Events/s: two writers (one per CPU here) doing 64-byte writes to tmpfs, one access record
# each; the rate is events over the recorded span, kept only when nothing was lost.
best=0
for n in 200000 400000 800000; do
	"$FT" record --buffer-size=256M -o "$M/ev.ftr" -- sh -c \
		"dd if=/dev/zero of='$M/a' bs=64 count=$n status=none &
		 dd if=/dev/zero of='$M/b' bs=64 count=$n status=none; wait" 2> "$W/err"
	info=$("$FT" info "$M/ev.ftr")
	events=$(echo "$info" | sed -n 's/^records: *[0-9]* (\([0-9]*\) events)/\1/p')
	secs=$(echo "$info" | sed -n 's/^duration: *\([0-9.]*\) s.*/\1/p')
	lost=$(echo "$info" | sed -n 's/^lost: *\([0-9]*\).*/\1/p')
	rate=$(awk -v e="$events" -v s="$secs" 'BEGIN { printf "%.0f", (s > 0 ? e / s : 0) }')
	echo "record: $((2 * n)) writes: $events events in $secs s = $rate events/s, lost $lost"
	if [ "$lost" = 0 ] && [ "$rate" -gt "$best" ]; then best=$rate; fi
	rm -f "$M/ev.ftr" "$M/a" "$M/b"
done
echo "record: sustained without loss: $best events/s"

# Slowdown: fio 4 KiB random reads of a file already in the page cache, 3 s each way.
fio --name=layout --filename="$W/f" --size=256M --bs=1M --rw=write --output=/dev/null
cat "$W/f" > /dev/null
iops() {
	python3 -c 'import json,sys; print(int(json.load(sys.stdin)["jobs"][0]["read"]["iops"]))'
}
job="--name=pc --filename=$W/f --size=256M --bs=4k --rw=randread --ioengine=psync
	--invalidate=0 --time_based --runtime=3 --randseed=1 --output-format=json"
# shellcheck disable=SC2086
base=$(fio $job | iops)
# shellcheck disable=SC2086
with=$("$FT" record -o "$M/fio.ftr" -- fio $job 2> "$W/err" | iops)
# Whole system, as an ops engineer would run it.
"$FT" record -o "$M/sys.ftr" 2> "$W/err2" &
rp=$!
while [ "$(stat -c %s "$M/sys.ftr" 2> /dev/null || echo 0)" -le 32 ]; do sleep 0.05; done
# shellcheck disable=SC2086
sysw=$(fio $job | iops)
kill -INT $rp
wait $rp
awk -v b="$base" -v w="$with" -v s="$sysw" 'BEGIN {
	printf "record: fio page-cache randread: %d IOPS without recording\n", b
	printf "record:   -- COMMAND recording: %d IOPS, ratio %.3f (slowdown %.1f%%)\n", w, w / b, (1 - w / b) * 100
	printf "record:   whole-system recording: %d IOPS, ratio %.3f (slowdown %.1f%%)\n", s, s / b, (1 - s / b) * 100
}'
