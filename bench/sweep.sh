#!/bin/sh
# make bench: sweeps and miss-ratio curves on the zipf-scan workload (10 M 4 KiB reads over an
# 8 GiB file: Zipf 0.9 with a fifth from sequential scans; the plain LRU, fixed folios, no
# readahead, memory at about a tenth of the working set):
# - a 100-point exact curve (--mrc=exact) against one single-size replay, CPU ratio (<= 3);
# - the sampled curve's mean hit-ratio error at 1% against the exact one, per order;
# - orders 0,4,9 in one pass against three single runs: CPU ratio and wall times;
# - 3 orders x 4 memory sizes in one pass against twelve single runs.
# BENCH_SWEEP_EVENTS lowers the trace length.
set -eu
FT=${FOLIO_TRACE:-./folio-trace}
N=${BENCH_SWEEP_EVENTS:-10000000}
TIME=/usr/bin/time
DIR=$(mktemp -d "${TMPDIR:-/tmp}/ft-bench-sweep.XXXXXX")
trap 'rm -rf "$DIR"' EXIT
PLAIN="--lru=plain --policy=fixed --no-readahead"
MEM=800M

[ -x "$TIME" ] || { echo "sweep bench: needs GNU time at $TIME"; exit 0; }

# measure NAME CMD...: runs CMD, leaves "WALL_S MAXRSS_KIB USER_S SYS_S" in $DIR/NAME
measure() {
	name=$1
	shift
	"$TIME" -f '%e %M %U %S' -o "$DIR/$name" "$@" >"$DIR/$name.out"
}
wall() { cut -d' ' -f1 "$DIR/$1"; }
cpu() { awk '{ print $3 + $4 }' "$DIR/$1"; }
rss() { cut -d' ' -f2 "$DIR/$1"; }
# sum NAME...: CPU seconds (K=cpu) or wall seconds (K=wall) of runs added up
sum() {
	for f in "$@"; do cat "$DIR/$f"; done |
		awk -v k="$K" '{ s += (k == "cpu" ? $3 + $4 : $1) } END { print s }'
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

"$FT" synth zipf-scan --events="$N" --seed=11 -o "$DIR/t.ftr"
echo "trace: zipf-scan, $N reads ($(du -h "$DIR/t.ftr" | cut -f1))"

measure single "$FT" replay $PLAIN --folio-order=0 --memory=$MEM --format=csv "$DIR/t.ftr"
measure exact "$FT" replay $PLAIN --folio-order=0 --mrc=exact --memory=1%..100%/100 \
	--format=csv "$DIR/t.ftr"
echo "single-size replay, order 0:  $(cpu single) CPU-s, $(wall single) s wall, $(rss single) KiB"
echo "exact curve, 100 points:      $(cpu exact) CPU-s, $(wall exact) s wall, $(rss exact) KiB"
echo "exact curve / single CPU:     $(ratio "$(cpu exact)" "$(cpu single)") (target <= 3)"

measure compare "$FT" replay $PLAIN --folio-order=0,4,9 --mrc=compare:0.01 --format=json \
	"$DIR/t.ftr"
measure sampled "$FT" replay $PLAIN --folio-order=0 --mrc=sampled:0.01 --format=csv "$DIR/t.ftr"
python3 - "$DIR/compare.out" <<'PY' || echo "sampled error: python3 needed"
import json, sys
for c in json.load(open(sys.argv[1]))["sweep"]["curves"]:
    if c["source"] == "sampled":
        e = c["error_vs_exact"]
        print(f"sampled 1%, order {c['order']}: {100 * c['sample_rate']:.4g}% of the folios, "
              f"mean hit-ratio error {e['mae']:.4f}, max {e['max']:.4f} (target mean < 0.01)")
PY
echo "sampled curve (order 0) / single CPU: $(ratio "$(cpu sampled)" "$(cpu single)")"

# N orders in one pass against N runs one after the other, and against the same runs started
# together (what sharing the cores and caches costs by itself): SWEEP_BENCH_ROUNDS interleaved
# rounds (3 by default, as the machine may be noisy), the round with the median ratio printed.
ROUNDS=${SWEEP_BENCH_ROUNDS:-3}
export FT PLAIN MEM DIR
: >"$DIR/rounds"
i=0
while [ "$i" -lt "$ROUNDS" ]; do
	for o in 0 4 9; do
		measure "single$o" "$FT" replay $PLAIN --folio-order=$o --memory=$MEM --format=csv \
			"$DIR/t.ftr"
	done
	measure orders "$FT" replay $PLAIN --folio-order=0,4,9 --memory=$MEM --format=csv \
		"$DIR/t.ftr"
	# GNU time counts the CPU of the children the shell waited for
	measure together sh -c 'for o in 0 4 9; do
			"$FT" replay $PLAIN --folio-order=$o --memory=$MEM --format=csv \
				"$DIR/t.ftr" >/dev/null &
		done
		wait'
	K=cpu
	singles_cpu=$(sum single0 single4 single9)
	K=wall
	singles_wall=$(sum single0 single4 single9)
	echo "$(cpu orders) $(wall orders) $singles_cpu $singles_wall $(cpu together)" \
		"$(wall together)" >>"$DIR/rounds"
	i=$((i + 1))
done
awk '{ print ($3 > 0 ? $1 / $3 : 0), $0 }' "$DIR/rounds" | sort -n | awk -v n="$ROUNDS" '
	{ line[NR] = $0 }
	END {
		split(line[int((NR + 1) / 2)], f, " ")
		printf "orders 0,4,9 in one pass:     %.2f CPU-s, %.2f s wall\n", f[2], f[3]
		printf "three single runs:            %.2f CPU-s, %.2f s wall\n", f[4], f[5]
		printf "the three started together:   %.2f CPU-s, %.2f s wall\n", f[6], f[7]
		printf "one pass / single runs CPU:   %.2f (target <= 1.0; median of %u rounds)\n",
		       f[1], n
		printf "one pass / single runs wall:  %.2f (target < 1)\n", (f[5] > 0 ? f[3] / f[5] : 0)
		printf "one pass / together CPU:      %.2f, wall %.2f\n", (f[6] > 0 ? f[2] / f[6] : 0),
		       (f[7] > 0 ? f[3] / f[7] : 0)
	}'

# The same pass on one thread and on as many as this machine has: the models run in threads
# beside the decoder, each model's accesses in trace order, so the wall time of a pass is about
# the largest of the decoding, the slowest model alone and the models' CPU over the threads.
ncpu=$(nproc 2>/dev/null || echo 1)
for t in 1 "$ncpu"; do
	measure "threads$t" "$FT" replay $PLAIN --folio-order=0,4,9 --memory=$MEM --threads="$t" \
		--format=csv "$DIR/t.ftr"
done
echo "orders 0,4,9 in one pass, --threads=1: $(cpu threads1) CPU-s, $(wall threads1) s wall;" \
	"--threads=$ncpu: $(cpu "threads$ncpu") CPU-s, $(wall "threads$ncpu") s wall"
slowest=$(for o in 0 4 9; do wall "single$o"; done | sort -n | tail -n 1)
echo "wall --threads=$ncpu / --threads=1: $(ratio "$(wall "threads$ncpu")" "$(wall threads1)");" \
	"--threads=$ncpu pass / slowest single run: $(ratio "$(wall "threads$ncpu")" "$slowest")"
echo "model: wall ~ max(decoding, slowest model alone, models' CPU / threads); with a CPU per" \
	"order and one for decoding a pass ends with its slowest model"

# (order, memory) pairs in one pass against a run each
measure pairs "$FT" replay $PLAIN --folio-order=0,4,9 --memory=400M,800M,1600M,3200M \
	--format=csv "$DIR/t.ftr"
runs=
for o in 0 4 9; do
	for m in 400M 800M 1600M 3200M; do
		measure "p$o-$m" "$FT" replay $PLAIN --folio-order=$o --memory=$m --format=csv \
			"$DIR/t.ftr"
		runs="$runs p$o-$m"
	done
done
K=cpu
pairs_cpu=$(sum $runs)
K=wall
pairs_wall=$(sum $runs)
echo "12 (order, memory) pairs in one pass: $(cpu pairs) CPU-s, $(wall pairs) s wall;" \
	"12 runs: $pairs_cpu CPU-s, $pairs_wall s wall"
echo "pairs one pass / runs CPU:    $(ratio "$(cpu pairs)" "$pairs_cpu")"
echo "pairs one pass / runs wall:   $(ratio "$(wall pairs)" "$pairs_wall")"
