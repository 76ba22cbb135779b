#!/bin/sh
# synth throughput: events/s for each pattern, written through the trace writer to a file.
# EVENTS=N overrides the size (default 20 M; the replay benchmark uses 100 M).
set -eu
FT=${FOLIO_TRACE:-./folio-trace}
EVENTS=${EVENTS:-20000000}
OUT=$(mktemp "${TMPDIR:-/tmp}/ft-bench-synth.XXXXXX")
trap 'rm -f "$OUT"' EXIT

for p in seq-read random-read random-overwrite append-fsync many-small-files; do
	t0=$(date +%s.%N)
	"$FT" synth "$p" --events="$EVENTS" -o "$OUT"
	t1=$(date +%s.%N)
	size=$(stat -c %s "$OUT")
	awk -v p="$p" -v n="$EVENTS" -v a="$t0" -v b="$t1" -v s="$size" 'BEGIN {
		printf "synth %-17s %d events in %.2f s: %.2f M events/s, %.1f bytes/event\n",
		       p, n, b - a, n / (b - a) / 1e6, s / n }'
done

# Streaming: peak memory for EVENTS/10 and EVENTS events of the same workload (ratio ~1).
if [ -x /usr/bin/time ]; then
	for n in $((EVENTS / 10)) "$EVENTS"; do
		/usr/bin/time -f %M -o "$OUT.rss" "$FT" synth random-read --events="$n" -o "$OUT"
		eval "rss_$n=\$(cat "\$OUT.rss")"
	done
	rm -f "$OUT.rss"
	eval "small=\$rss_$((EVENTS / 10)) big=\$rss_$EVENTS"
	awk -v s="$small" -v b="$big" -v n="$EVENTS" 'BEGIN {
		printf "synth peak RSS: %d KiB for %d events, %d KiB for %d (ratio %.2f)\n",
		       s, n / 10, b, n, b / s }'
fi

# The generator alone, without compression and file output.
BENCH_SYNTH=${BENCH_SYNTH:-./bench/bench-synth}
[ -x "$BENCH_SYNTH" ] && "$BENCH_SYNTH" "$EVENTS"
exit 0
