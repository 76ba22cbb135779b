#!/bin/sh
# make bench: the replay's memory follows what the trace touches and the model holds, never
# --memory nor the trace's length. Prints the peak RSS and wall time of replaying each shipped
# trace with --memory=16T (2^32 pages; each must stay under 64 MiB and 1 s), and the peak RSS
# for 10 M and 100 M events of one working set (a 1 GiB file) with --memory=16T (ratio near 1).
# BENCH_MEMORY_SMALL / BENCH_MEMORY_BIG: other event counts.
set -eu
FT=${FOLIO_TRACE:-./folio-trace}
SRC=${TOP_SRCDIR:-$(dirname "$0")/..}
SMALL=${BENCH_MEMORY_SMALL:-10000000}
BIG=${BENCH_MEMORY_BIG:-100000000}
TIME=/usr/bin/time
DIR=$(mktemp -d "${TMPDIR:-/tmp}/ft-bench-memory.XXXXXX")
trap 'rm -rf "$DIR"' EXIT

[ -x "$TIME" ] || { echo "memory bench: needs GNU time at $TIME"; exit 0; }

# run NAME CMD...: leaves "WALL_S MAXRSS_KIB" in $DIR/NAME
run() {
	name=$1
	shift
	"$TIME" -f '%e %M' -o "$DIR/$name" "$@" > /dev/null
}

printf '%-24s %10s %8s  %s\n' "trace (--memory=16T)" "RSS KiB" "wall s" "within 64 MiB, 1 s"
for t in "$SRC"/traces/*.ftr; do
	n=$(basename "$t")
	run "$n" "$FT" replay --memory=16T "$t"
	read -r wall rss < "$DIR/$n"
	awk -v n="$n" -v w="$wall" -v r="$rss" 'BEGIN {
		printf "%-24s %10d %8.2f  %s\n", n, r, w, (r < 65536 && w < 1) ? "yes" : "NO" }'
done

for n in "$SMALL" "$BIG"; do
	"$FT" synth random-read --events="$n" --file-size=1G --seed=7 -o "$DIR/t$n.ftr"
	run "r$n" "$FT" replay --memory=16T --format=csv "$DIR/t$n.ftr"
	rm -f "$DIR/t$n.ftr"
done
read -r ws rs < "$DIR/r$SMALL"
read -r wb rb < "$DIR/r$BIG"
echo "random-read over 1 GiB, --memory=16T: $SMALL events $rs KiB ($ws s)," \
	"$BIG events $rb KiB ($wb s)"
awk -v a="$rb" -v b="$rs" -v n="$BIG" -v m="$SMALL" \
	'BEGIN { printf "peak RSS ratio %d/%d events: %.2f\n", n, m, a / b }'
