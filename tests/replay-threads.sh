#!/bin/sh
# replay --threads=N: the results do not depend on N; the models run on at most N threads beside
# the one decoding the trace, and --threads=1 runs everything in one thread.
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE
[ -r /proc/self/status ] || skip_all "no /proc to count a process's threads"

"$FT" synth zipf-scan --events=1000000 --file-size=1G -q -o "$TMPD/z.ftr" ||
	skip_all "synth could not make the trace"
ARGS="--folio-order=0,4,9 --memory=64M,256M --format=csv"

"$FT" replay $ARGS "$TMPD/z.ftr" >"$TMPD/default.csv"
is "$(awk 'END { print NR }' "$TMPD/default.csv")" 7 "default: a row for each of 6 models"
for n in 1 2 5 64; do
	"$FT" replay --threads=$n $ARGS "$TMPD/z.ftr" >"$TMPD/t$n.csv"
	is "$(cmp -s "$TMPD/default.csv" "$TMPD/t$n.csv" && echo same)" same \
		"--threads=$n: the same CSV as the default"
done

# max_threads ARGS...: the most threads the replay had at once, sampled while it runs
max_threads() {
	"$FT" replay "$@" "$TMPD/z.ftr" >/dev/null &
	pid=$!
	max=0
	while kill -0 $pid 2>/dev/null; do
		n=$(awk '/^Threads:/ { print $2 }' /proc/$pid/status 2>/dev/null)
		[ -n "$n" ] && [ "$n" -gt "$max" ] && max=$n
		sleep 0.01
	done
	wait $pid
	echo "$max"
}
is "$(max_threads --threads=1 $ARGS)" 1 "--threads=1: one thread decodes and runs every model"
is "$(max_threads --threads=2 $ARGS)" 3 "--threads=2: two model threads beside the decoder"
is "$(max_threads --threads=5 $ARGS)" 6 "--threads=5: five model threads beside the decoder"

done_testing
