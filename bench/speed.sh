#!/bin/sh
# make bench: replay speed on the zipf-scan workload (10 M 4 KiB reads over an 8 GiB file,
# 800 MiB of memory), in requests per CPU second: the plain model (LRU, fixed folios, no
# readahead) at orders 0 and 9 and the default model at order 0, after the time reading the
# trace alone takes (folio-trace info decodes every record, as every replay does).
# SPEED_BENCH_BASELINE=PROGRAM: an older folio-trace; each configuration is then run by both,
# alternately (SPEED_BENCH_PAIRS pairs, 5 by default, as the machine may be noisy), and the
# median of the per-pair CPU ratios new/old is printed. BENCH_SPEED_EVENTS lowers the length.
# SPEED_BENCH_CACHESIM=PROGRAM: libCacheSim's cachesim; its LRU then replays the same reads
# (exported one request per page, then per 2 MiB folio) in the same memory, alternately with
# the plain model at orders 0 and 9, and the median speed ratio is printed (target 2 at
# order 0: the speed targets were set against it).
set -eu
FT=${FOLIO_TRACE:-./folio-trace}
OLD=${SPEED_BENCH_BASELINE:-}
CACHESIM=${SPEED_BENCH_CACHESIM:-}
N=${BENCH_SPEED_EVENTS:-10000000}
PAIRS=${SPEED_BENCH_PAIRS:-5}
TIME=/usr/bin/time
DIR=$(mktemp -d "${TMPDIR:-/tmp}/ft-bench-speed.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
PLAIN="--lru=plain --policy=fixed --no-readahead"

[ -x "$TIME" ] || { echo "speed bench: needs GNU time at $TIME"; exit 0; }

# cpu PROGRAM ARGS...: CPU seconds of one replay of the trace
cpu() {
	prog=$1
	shift
	"$TIME" -f '%U %S' -o "$DIR/time" "$prog" replay "$@" --memory=800M --format=csv \
		"$DIR/t.ftr" >/dev/null
	awk '{ print $1 + $2 }' "$DIR/time"
}

# speed NAME ARGS...: one configuration, alone or against the baseline
speed() {
	name=$1
	shift
	if [ -z "$OLD" ]; then
		awk -v s="$(cpu "$FT" "$@")" -v n="$N" -v name="$name" 'BEGIN {
			printf "%-16s %7.2f CPU-s %7.2f M requests/CPU-s\n", name, s,
			       (s > 0 ? n / s / 1e6 : 0) }'
		return
	fi
	: >"$DIR/pairs"
	i=0
	while [ "$i" -lt "$PAIRS" ]; do
		echo "$(cpu "$OLD" "$@") $(cpu "$FT" "$@")" >>"$DIR/pairs"
		i=$((i + 1))
	done
	# the pair with the median ratio, printed with its own times
	awk '{ print ($1 > 0 ? $2 / $1 : 0), $1, $2 }' "$DIR/pairs" | sort -n |
		awk -v n="$N" -v name="$name" -v pairs="$PAIRS" '
		{ r[NR] = $1; o[NR] = $2; c[NR] = $3 }
		END {
			m = int((NR + 1) / 2)
			printf "%-16s old %6.2f CPU-s (%5.2f M/s) new %6.2f CPU-s (%5.2f M/s)" \
			       " CPU new/old %.3f (median of %u pairs)\n", name, o[m],
			       (o[m] > 0 ? n / o[m] / 1e6 : 0), c[m],
			       (c[m] > 0 ? n / c[m] / 1e6 : 0), r[m], pairs
		}'
}

"$FT" synth zipf-scan --events="$N" -o "$DIR/t.ftr"
echo "trace: zipf-scan, $N reads; targets: 7.5, 4 and 25 M requests/CPU-s"
# the ceiling of every configuration: reading and decoding the trace, no model at all
"$TIME" -f '%U %S' -o "$DIR/time" "$FT" info "$DIR/t.ftr" >/dev/null
awk -v n="$N" '{ s = $1 + $2
	printf "%-16s %7.2f CPU-s %7.2f M requests/CPU-s (folio-trace info: decoding, as" \
	       " every replay does)\n", "reading alone", s, (s > 0 ? n / s / 1e6 : 0) }' "$DIR/time"
speed "order 0 plain" $PLAIN --folio-order=0
speed "order 0 default" --folio-order=0
speed "order 9 plain" $PLAIN --folio-order=9

# versus NAME ORDER: the plain model against cachesim's LRU on the same requests
versus() {
	name=$1
	og="$DIR/t$2.og"
	"$FT" export --to=oraclegeneral --order="$2" -q -o "$og" "$DIR/t.ftr"
	hit=$("$FT" replay $PLAIN --folio-order="$2" --memory=800M "$DIR/t.ftr" |
	      awk '/hit ratio \(requests\)/ { print $NF; exit }')
	miss=$("$CACHESIM" "$og" oracleGeneral lru 838860800 --num-thread=1 2>&1 |
	       sed -n 's/.*miss ratio \([0-9.]*\).*/\1/p' | tail -n 1)
	: >"$DIR/pairs"
	i=0
	while [ "$i" -lt "$PAIRS" ]; do
		"$TIME" -f '%U %S' -o "$DIR/time" "$CACHESIM" "$og" oracleGeneral lru 838860800 \
			--num-thread=1 >/dev/null 2>&1
		echo "$(awk '{ print $1 + $2 }' "$DIR/time") $(cpu "$FT" $PLAIN --folio-order="$2")" \
			>>"$DIR/pairs"
		i=$((i + 1))
	done
	awk '{ print ($2 > 0 ? $1 / $2 : 0), $1, $2 }' "$DIR/pairs" | sort -n |
		awk -v n="$N" -v name="$name" -v pairs="$PAIRS" -v hit="$hit" -v miss="$miss" '
		{ r[NR] = $1; l[NR] = $2; f[NR] = $3 }
		END {
			m = int((NR + 1) / 2)
			printf "%-16s libCacheSim LRU %5.2f CPU-s (%5.2f M/s, hits %.2f%%)" \
			       " folio-trace %5.2f CPU-s (%5.2f M/s, hits %s)" \
			       " speed folio-trace/libCacheSim %.3f (median of %u pairs)\n",
			       name, l[m], (l[m] > 0 ? n / l[m] / 1e6 : 0), (1 - miss) * 100,
			       f[m], (f[m] > 0 ? n / f[m] / 1e6 : 0), hit, r[m], pairs
		}'
}

if [ -n "$CACHESIM" ]; then
	echo "against libCacheSim's cachesim ($CACHESIM), LRU, 800 MiB; target 2 at order 0"
	versus "order 0 plain" 0
	versus "order 9 plain" 9
fi
