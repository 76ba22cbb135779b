#!/bin/sh
# record benchmark (make bench): events/s the recorder sustains without losing any, and the
# slowdown of a page-cache-bound fio job with vs without recording. Needs root and BPF.
# The machine may be shared: each fio figure is the best of three interleaved runs.
set -u
FT=${FOLIO_TRACE:-./folio-trace}
if [ "$(id -u)" -ne 0 ] || "$FT" record --help 2>/dev/null | grep -q 'without BPF'; then
	echo "record bench: skipped (needs root and BPF support)"
	exit 0
fi
command -v fio > /dev/null || { echo "record bench: skipped (no fio)"; exit 0; }
W=$(mktemp -d /var/tmp/ft-bench.XXXXXX)
M=$W/tmpfs
mkdir -p "$M"
mount -t tmpfs -o size=1g ft-bench "$M"
trap 'umount "$M"; rm -rf "$W"' EXIT

# rate TRACE: "EVENTS SECONDS LOST" from folio-trace info.
rate() {
	"$FT" info "$1" | awk '
	/^records:/ { sub(/.*\(/, ""); e = $1 }
	/^duration:/ { s = $2 }
	/^lost:/ { l = $2 }
	END { printf "%d %s %d\n", e, s, l }'
}

# Events/s: fio writers (one per CPU) doing 64-byte pwrites to tmpfs, one access record each;
# the rate is events over the recorded span, kept only when nothing was lost.
best=0
ncpu=$(nproc)
for size in 8M 16M 32M; do
	"$FT" record --buffer-size=256M -o "$M/ev.ftr" -- fio --name=ev --directory="$M" \
		--size="$size" --bs=64 --rw=write --ioengine=psync --numjobs="$ncpu" \
		--output=/dev/null 2> "$W/err"
	set -- $(rate "$M/ev.ftr")
	r=$(awk -v e="$1" -v s="$2" 'BEGIN { printf "%.0f", (s > 0 ? e / s : 0) }')
	echo "record: $ncpu x $size in 64-byte writes: $1 events in $2 s = $r events/s, lost $3"
	if [ "$3" -eq 0 ] && [ "$r" -gt "$best" ]; then best=$r; fi
	rm -f "$M"/ev*
done
echo "record: sustained without loss: $best events/s"

# Slowdown: fio 4 KiB random reads of a file already in the page cache.
fio --name=layout --filename="$W/f" --size=256M --bs=1M --rw=write --output=/dev/null
iops() {
	python3 -c 'import json,sys; print(int(json.load(sys.stdin)["jobs"][0]["read"]["iops"]))'
}
job="--name=pc --filename=$W/f --size=256M --bs=4k --rw=randread --ioengine=psync
	--invalidate=0 --time_based --runtime=2 --randseed=1 --output-format=json"
max() { [ "$1" -gt "$2" ] && echo "$1" || echo "$2"; }
base=0 cmd=0 sys=0
for round in 1 2 3; do
	cat "$W/f" > /dev/null
	# shellcheck disable=SC2086
	base=$(max "$base" "$(fio $job | iops)")
	# shellcheck disable=SC2086
	cmd=$(max "$cmd" "$("$FT" record -o "$M/fio.ftr" -- fio $job 2> "$W/err" | iops)")
	# Whole system, as an ops engineer would run it.
	rm -f "$M/sys.ftr"
	"$FT" record -o "$M/sys.ftr" 2> "$W/err2" &
	rp=$!
	while [ "$(stat -c %s "$M/sys.ftr" 2> /dev/null || echo 0)" -le 32 ]; do sleep 0.05; done
	# shellcheck disable=SC2086
	sys=$(max "$sys" "$(fio $job | iops)")
	kill -INT $rp
	wait $rp
done
awk -v b="$base" -v w="$cmd" -v s="$sys" 'BEGIN {
	printf "record: fio page-cache 4k randread: %d IOPS without recording\n", b
	printf "record:   -- COMMAND recording: %d IOPS, ratio %.3f (slowdown %.1f%%)\n", w, w / b, (1 - w / b) * 100
	printf "record:   whole-system recording: %d IOPS, ratio %.3f (slowdown %.1f%%)\n", s, s / b, (1 - s / b) * 100
}'
