#!/bin/sh
# make bench: replay throughput in events/s for one order and for a 4-order sweep in one pass,
# and peak RSS for a 10 M and a 100 M event trace of the same working set (the ratio should be
# close to 1: replay streams the trace, memory is the model's). Sizes can be lowered with
# BENCH_REPLAY_SMALL / BENCH_REPLAY_BIG (events).
set -eu
FT=${FOLIO_TRACE:-./folio-trace}
SMALL=${BENCH_REPLAY_SMALL:-10000000}
BIG=${BENCH_REPLAY_BIG:-100000000}
TIME=/usr/bin/time
DIR=$(mktemp -d "${TMPDIR:-/tmp}/ft-bench-replay.XXXXXX")
trap 'rm -rf "$DIR"' EXIT

[ -x "$TIME" ] || { echo "replay bench: needs GNU time at $TIME"; exit 0; }

# measure NAME CMD...: runs CMD, leaves "WALL_S MAXRSS_KIB USER_S SYS_S" in $DIR/NAME
measure() {
	name=$1
	shift
	"$TIME" -f '%e %M %U %S' -o "$DIR/$name" "$@" >/dev/null
}
secs() { cut -d' ' -f1 "$DIR/$1"; }
rss() { cut -d' ' -f2 "$DIR/$1"; }
# CPU seconds, all threads: events per CPU second is the per-core rate on a busy machine too
cpu() { awk '{ print $3 + $4 }' "$DIR/$1"; }
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.2f M", (s > 0 ? n / s : 0) / 1e6 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

# The same working set (one 1 GiB file, Zipf-popular 4 KiB blocks) at two trace lengths.
for n in "$SMALL" "$BIG"; do
	"$FT" synth random-read --events="$n" --file-size=1G --seed=7 -o "$DIR/t$n.ftr"
done
echo "traces: $SMALL and $BIG events ($(du -h "$DIR/t$BIG.ftr" | cut -f1) for the large one)"

# Reading alone bounds what replay can reach.
measure read "$FT" info "$DIR/t$BIG.ftr"
measure one "$FT" replay --folio-order=9 --memory=512M --format=csv "$DIR/t$BIG.ftr"
measure sweep "$FT" replay --folio-order=0,2,4,9 --memory=512M --format=csv "$DIR/t$BIG.ftr"
measure small "$FT" replay --folio-order=9 --memory=512M --format=csv "$DIR/t$SMALL.ftr"

echo "trace read only:         $(rate "$BIG" "$(secs read)") events/s"
echo "replay, order 9:         $(rate "$BIG" "$(secs one)") events/s wall ($(secs one) s)," \
	"$(rate "$BIG" "$(cpu one)") events/CPU-s"
echo "replay, orders 0,2,4,9:  $(rate "$BIG" "$(secs sweep)") events/s wall ($(secs sweep) s)," \
	"$(rate "$BIG" "$(cpu sweep)") events/CPU-s"
echo "sweep/one wall ratio:    $(ratio "$(secs sweep)" "$(secs one)") (4 models in one pass)"
echo "sweep/one CPU ratio:     $(ratio "$(cpu sweep)" "$(cpu one)")"
echo "one order / read-only wall ratio: $(ratio "$(secs one)" "$(secs read)")"
echo "peak RSS, $SMALL events: $(rss small) KiB"
echo "peak RSS, $BIG events: $(rss one) KiB"
echo "peak RSS ratio big/small: $(ratio "$(rss one)" "$(rss small)")"
