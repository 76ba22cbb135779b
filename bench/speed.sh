#!/bin/sh
# make bench: replay speed on the peer workload (zipf-scan: 10 M 4 KiB reads over an 8 GiB file,
# 2 M pages, Zipf 0.9 with a fifth from sequential scans; 800 MiB of memory, about a tenth of
# the pages), as ratios measured in this one run; absolute times are context only, as they
# depend on the machine (named first) and on what else runs on it.
# - the default model at order 9 against order 0 on the same requests (target <= 1.00: larger
#   folios must not mean more work), and the plain model (LRU, fixed folios, no readahead);
# - the default report, --metrics=all and a chosen few metrics (--metrics=hit_ratio,reads),
#   side by side: a run keeps only the bookkeeping its metrics need;
# - SPEED_BENCH_BASELINE=PROGRAM: an older folio-trace, each configuration against it;
# - libCacheSim's cachesim (SPEED_BENCH_CACHESIM=PROGRAM, else a build found beside this one:
#   libCacheSim/_build/bin/cachesim in this directory or its parents), its LRU on the same
#   requests (one per page, then one per 2 MiB folio) in the same memory, against the plain
#   model at orders 0 and 9 (targets: CPU ratio <= 0.80 at order 0, <= 1.00 at order 9), with
#   every metric and with the hit ratios alone (what cachesim computes);
# Every ratio is the median of SPEED_BENCH_PAIRS (5) interleaved pairs of whole-process CPU
# times, as the machine may be noisy. BENCH_SPEED_EVENTS lowers the length.
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
MEM=800M

[ -x "$TIME" ] || { echo "speed bench: needs GNU time at $TIME"; exit 0; }

if [ -z "$CACHESIM" ]; then
	for d in . .. ../.. ../../..; do
		if [ -x "$d/libCacheSim/_build/bin/cachesim" ]; then
			CACHESIM=$d/libCacheSim/_build/bin/cachesim
			break
		fi
	done
fi

cpu_model=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo 2>/dev/null |
	    head -n 1)
echo "machine: ${cpu_model:-CPU model unknown}, $(nproc 2>/dev/null || echo '?') CPUs online"

# cpu PROGRAM ARGS...: CPU seconds of one run
cpu() {
	"$TIME" -f '%U %S' -o "$DIR/time" "$@" >/dev/null 2>&1
	awk '{ print $1 + $2 }' "$DIR/time"
}

# replay_cmd PROGRAM ARGS...: the command line of one replay of the trace (the previous
# build's own copy of it: a build before format 1.6 cannot read this one's)
replay_cmd() {
	prog=$1
	shift
	trace=$DIR/t.ftr
	[ "$prog" = "$OLD" ] && trace=$DIR/t-old.ftr
	echo "$prog replay --memory=$MEM $* $trace"
}

# pairs NAME TARGET "CMD A" "CMD B": the median over interleaved pairs of CPU(B) / CPU(A),
# printed with that pair's times; TARGET "-" when there is none
pairs() {
	name=$1 target=$2 a=$3 b=$4
	: >"$DIR/pairs"
	i=0
	while [ "$i" -lt "$PAIRS" ]; do
		# shellcheck disable=SC2086
		echo "$(cpu $a) $(cpu $b)" >>"$DIR/pairs"
		i=$((i + 1))
	done
	awk '{ print ($1 > 0 ? $2 / $1 : 0), $1, $2 }' "$DIR/pairs" | sort -n |
		awk -v name="$name" -v target="$target" -v pairs="$PAIRS" '
		{ r[NR] = $1; x[NR] = $2; y[NR] = $3 }
		END {
			m = int((NR + 1) / 2)
			printf "%-52s %5.2f", name, r[m]
			met = r[m] <= target + 0 ? "met" : "NOT met"
			if (target != "-")
				printf " (target <= %s: %s)", target, met
			printf "   [%.2f vs %.2f CPU-s, median of %u pairs]\n", y[m], x[m], pairs
		}'
}

"$FT" synth zipf-scan --events="$N" -o "$DIR/t.ftr"
echo "trace: zipf-scan, $N reads"
read_s=$(cpu "$FT" info "$DIR/t.ftr")
echo "context: reading the trace alone (folio-trace info, the decoding every replay does):" \
	"$read_s CPU-s"

echo "ratios of CPU time (lower is faster):"
pairs "default model, order 9 / order 0" 1.00 \
	"$(replay_cmd "$FT" --folio-order=0 --format=csv)" \
	"$(replay_cmd "$FT" --folio-order=9 --format=csv)"
pairs "plain model, order 9 / order 0" 1.00 \
	"$(replay_cmd "$FT" $PLAIN --folio-order=0 --format=csv)" \
	"$(replay_cmd "$FT" $PLAIN --folio-order=9 --format=csv)"
for o in 0 9; do
	pairs "order $o, --metrics=all / the default report" - \
		"$(replay_cmd "$FT" --folio-order=$o)" \
		"$(replay_cmd "$FT" --folio-order=$o --metrics=all)"
	pairs "order $o, --metrics=hit_ratio,reads / default report" - \
		"$(replay_cmd "$FT" --folio-order=$o)" \
		"$(replay_cmd "$FT" --folio-order=$o --metrics=hit_ratio,reads)"
done

if [ -n "$OLD" ]; then
	echo "this build / the previous one ($OLD), each reading the requests as it wrote them:"
	"$OLD" synth zipf-scan --events="$N" -o "$DIR/t-old.ftr"
	echo "context: reading its trace alone: $(cpu "$OLD" info "$DIR/t-old.ftr") CPU-s"
	for cfg in "plain order 0:$PLAIN --folio-order=0" "plain order 9:$PLAIN --folio-order=9" \
		   "default order 0:--folio-order=0" "default order 9:--folio-order=9"; do
		pairs "${cfg%%:*}" - "$(replay_cmd "$OLD" "${cfg#*:}" --format=csv)" \
			"$(replay_cmd "$FT" "${cfg#*:}" --format=csv)"
	done
fi

# versus ORDER TARGET: the plain model against cachesim's LRU on the same requests
versus() {
	og="$DIR/t$1.og"
	"$FT" export --to=oraclegeneral --order="$1" -q -o "$og" "$DIR/t.ftr"
	hit=$("$FT" replay $PLAIN --folio-order="$1" --memory=$MEM "$DIR/t.ftr" |
	      awk '/hit ratio \(requests\)/ { print $NF; exit }')
	miss=$("$CACHESIM" "$og" oracleGeneral lru 838860800 --num-thread=1 2>&1 |
	       sed -n 's/.*miss ratio \([0-9.]*\).*/\1/p' | tail -n 1)
	echo "order $1: hit ratio folio-trace $hit, libCacheSim $(awk -v m="$miss" \
		'BEGIN { printf "%.4f", 1 - m }')"
	pairs "plain order $1, folio-trace / libCacheSim LRU" "$2" \
		"$CACHESIM $og oracleGeneral lru 838860800 --num-thread=1" \
		"$(replay_cmd "$FT" $PLAIN --folio-order="$1" --format=csv)"
	# what cachesim reports: the hit ratios, nothing else
	pairs "  the same, --metrics=hit_ratio,hit_ratio_bytes" "$2" \
		"$CACHESIM $og oracleGeneral lru 838860800 --num-thread=1" \
		"$(replay_cmd "$FT" $PLAIN --folio-order="$1" --format=csv \
		   --metrics=hit_ratio,hit_ratio_bytes)"
}

if [ -n "$CACHESIM" ]; then
	echo "against libCacheSim's cachesim ($CACHESIM), LRU, 800 MiB, single thread:"
	versus 0 0.80
	versus 9 1.00
else
	echo "libCacheSim: no cachesim beside this build (SPEED_BENCH_CACHESIM=PROGRAM to name one)"
fi
