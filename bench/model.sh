#!/bin/sh
# Model throughput (accesses per CPU second per order, ratio to order 0), one instance, no
# trace I/O. MODEL_BENCH_MILLIONS=N: accesses per run, in millions (default 2).
# MODEL_BENCH_BASELINE=PROGRAM: an older build of bench/bench-model; each row is then run by
# both, one after the other, and the speedup new/old is printed (same accesses, same results).
set -eu
BM="${TOP_BUILDDIR:-.}/bench/bench-model"
N=${MODEL_BENCH_MILLIONS:-2}
OLD=${MODEL_BENCH_BASELINE:-}

if [ -z "$OLD" ]; then
	exec "$BM" "$N"
fi
# rate WORKLOAD ORDER PROGRAM: accesses/s of one row
rate() { "$3" "$N" "$1" "$2" | awk 'NR == 2 { print $3 }'; }
printf '%-13s %5s %14s %14s %8s\n' workload order "old/s" "new/s" speedup
for w in random-read seq-read hot-read random-write mixed; do
	for o in 0 4 9; do
		old=$(rate "$w" "$o" "$OLD")
		new=$(rate "$w" "$o" "$BM")
		awk -v w="$w" -v o="$o" -v a="$old" -v b="$new" \
			'BEGIN { printf "%-13s %5u %14.0f %14.0f %8.2f\n", w, o, a, b, (a > 0 ? b / a : 0) }'
	done
done
