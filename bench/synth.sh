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

# The generator alone, without compression and file output.
BENCH_SYNTH=${BENCH_SYNTH:-./bench/bench-synth}
[ -x "$BENCH_SYNTH" ] && "$BENCH_SYNTH" "$EVENTS"
exit 0
