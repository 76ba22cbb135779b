#!/bin/sh
# record benchmark (make bench): what recording costs a page-cache-bound workload.
#  1. fio 4 KiB random reads of a cached file (psync, invalidate=0), 1 job and 4 jobs:
#     ROUNDS rounds, each a run without recording, one under a whole-system recorder and one
#     as record's command, interleaved so that the machine's drift hits all alike. Per run:
#     IOPS, the slowdown against the round's run without recording, events/s, events lost and
#     the whole-system recorder's CPU per event (all its threads, over the fio run); then
#     medians and min-max over the rounds.
#  2. ns per run of each BPF program (kernel.bpf_stats_enabled: run_time_ns / run_cnt), from
#     one more whole-system run per job count: statistics cost time of their own, so the
#     timed runs go without them.
#  3. events/s the recorder sustains without loss (64-byte writes to tmpfs).
#  4. the floor: what a pread of a cached file costs more with an empty program on the hook.
# Needs root and BPF. The machine may be shared: ROUNDS (default 7) and RUNTIME (default 3 s
# per fio run) set the length. The file is kept in memory with mlock(2) (python3) for the
# whole benchmark, so that others dropping caches do not turn its reads into disk reads.
set -u
FT=${FOLIO_TRACE:-./folio-trace}
ROUNDS=${ROUNDS:-7}
RUNTIME=${RUNTIME:-3}
if [ "$(id -u)" -ne 0 ] || "$FT" record --help 2>/dev/null | grep -q 'without BPF'; then
	echo "record bench: skipped (needs root and BPF support)"
	exit 0
fi
for tool in fio python3; do
	command -v $tool > /dev/null || { echo "record bench: skipped (no $tool)"; exit 0; }
done
W=$(mktemp -d /var/tmp/ft-bench.XXXXXX)
M=$W/tmpfs
mkdir -p "$M"
mount -t tmpfs -o size=2g ft-bench "$M"
stats_was=$(cat /proc/sys/kernel/bpf_stats_enabled)
pin=
cleanup() {
	echo "$stats_was" > /proc/sys/kernel/bpf_stats_enabled
	[ -n "$pin" ] && kill "$pin" 2> /dev/null
	umount "$M"
	rm -rf "$W"
}
trap cleanup EXIT

# info_of TRACE: "EVENTS SECONDS LOST" from folio-trace info.
info_of() {
	"$FT" info "$1" | awk '
	/^records:/ { sub(/.*\(/, ""); e = $1 }
	/^duration:/ { s = $2 }
	/^lost:/ { l = $2 }
	END { printf "%d %s %d\n", e, s, l + 0 }'
}

iops() {
	python3 -c 'import json,sys; print(int(json.load(sys.stdin)["jobs"][0]["read"]["iops"]))'
}

# cpu_ns PID: CPU time of every thread of the process so far.
cpu_ns() {
	cat /proc/"$1"/task/*/schedstat 2> /dev/null | awk '{ s += $1 } END { printf "%d\n", s }'
}

# prog_stats PID: "NAME RUN_TIME_NS RUN_CNT" for each BPF program the process holds.
prog_stats() {
	for f in /proc/"$1"/fdinfo/*; do
		id=$(awk '/^prog_id:/ { print $2 }' "$f" 2> /dev/null)
		[ -n "$id" ] || continue
		name=$(bpftool prog show id "$id" 2> /dev/null | sed -n 's/.* name \([^ ]*\) .*/\1/p')
		awk -v n="$name" '/^run_time_ns:/ { t = $2 } /^run_cnt:/ { c = $2 }
			END { print n, t, c }' "$f"
	done
}

wait_recording() {
	while [ "$(stat -c %s "$1" 2> /dev/null || echo 0)" -le 32 ]; do sleep 0.05; done
}

# recorded MODE JOB...: fio under a whole-system recorder (MODE system, or stats: the same
# with its BPF programs' statistics kept in $W/progs) or as record's command (MODE command).
# Prints "IOPS EVENTS SECONDS LOST CPU_NS" (CPU of the whole-system recorder over fio's run).
recorded() {
	mode=$1
	shift
	rm -f "$M/r.ftr"
	if [ "$mode" = command ]; then
		"$FT" record -o "$M/r.ftr" -- fio "$@" > "$W/fio.out" 2> "$W/rec.err"
		echo "$(iops < "$W/fio.out") $(info_of "$M/r.ftr") 0"
		return
	fi
	"$FT" record -o "$M/r.ftr" 2> "$W/rec.err" &
	rp=$!
	wait_recording "$M/r.ftr"
	c0=$(cpu_ns $rp)
	fio "$@" > "$W/fio.out"
	c1=$(cpu_ns $rp)
	[ "$mode" = stats ] && prog_stats $rp >> "$W/progs"
	kill -INT $rp
	wait $rp
	echo "$(iops < "$W/fio.out") $(info_of "$M/r.ftr") $((c1 - c0))"
}

# summary LABEL: reads "VALUE" lines, prints median and range.
summary() {
	sort -n | awk -v l="$1" '{ v[NR] = $1 } END {
		m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "record:   %-34s median %9.1f   min %9.1f   max %9.1f\n", l, m, v[1], v[NR] }'
}

fio --name=layout --filename="$W/f" --size=256M --bs=1M --rw=write --output=/dev/null
python3 -c '
import ctypes, mmap, os, signal, sys
m = mmap.mmap(os.open(sys.argv[1], os.O_RDONLY), 0, prot=mmap.PROT_READ)
if ctypes.CDLL(None).mlockall(1):	# MCL_CURRENT: the mapping of the file with the rest
	sys.exit("mlockall failed")
print("pinned", flush=True)
signal.pause()' "$W/f" > "$W/pin" &
pin=$!
while ! grep -q pinned "$W/pin" && kill -0 $pin 2> /dev/null; do sleep 0.1; done
for jobs in 1 4; do
	job="--name=pc --filename=$W/f --size=256M --bs=4k --rw=randread --ioengine=psync
		--invalidate=0 --time_based --runtime=$RUNTIME --numjobs=$jobs --group_reporting
		--output-format=json"
	: > "$W/rows"
	: > "$W/progs"
	echo 0 > /proc/sys/kernel/bpf_stats_enabled
	echo "record: fio 4k randread of a cached file, $jobs job(s), psync, invalidate=0"
	echo "record:   round  base IOPS  system IOPS slow%     ev/s lost ns/ev -- fio IOPS slow%"
	for round in $(seq "$ROUNDS"); do
		cat "$W/f" > /dev/null
		# shellcheck disable=SC2086
		b=$(fio $job | iops)
		# shellcheck disable=SC2086
		set -- $(recorded system $job)
		si=$1 se=$2 ss=$3 sl=$4 sc=$5
		# shellcheck disable=SC2086
		set -- $(recorded command $job)
		echo "$round $b $si $se $ss $sl $sc $1" | awk '{
			printf "record:   %5d %10d %12d %5.1f %8.0f %4d %5.0f %12d %5.1f\n", $1, $2,
				$3, (1 - $3 / $2) * 100, ($5 > 0 ? $4 / $5 : 0), $6, ($4 ? $7 / $4 : 0),
				$8, (1 - $8 / $2) * 100 }' | tee -a "$W/rows"
	done
	awk '{ print $5 }' "$W/rows" | summary "slowdown %, whole system"
	awk '{ print $10 }' "$W/rows" | summary "slowdown %, record -- fio"
	awk '{ print $6 }' "$W/rows" | summary "events/s, whole system"
	awk '{ print $8 }' "$W/rows" | summary "recorder CPU ns/event"
	awk '{ s += $7 } END { printf "record:   events lost in all runs: %d\n", s }' "$W/rows"
	echo 1 > /proc/sys/kernel/bpf_stats_enabled
	# shellcheck disable=SC2086
	recorded stats $job > /dev/null
	echo "record:   BPF programs (one more whole-system run): runs, ns per run"
	awk '{ t[$1] += $2; c[$1] += $3 } END {
		for (n in t) if (c[n]) printf "record:     %-26s %12d %8.0f\n", n, c[n], t[n] / c[n] }' \
		"$W/progs" | sort -k3 -n -r
done
echo "$stats_was" > /proc/sys/kernel/bpf_stats_enabled

# Events/s: fio writers (one per CPU) doing 64-byte pwrites to tmpfs, one access record each;
# the rate is events over the recorded span, kept only when nothing was lost.
best=0
ncpu=$(nproc)
for size in 8M 16M 32M; do
	"$FT" record --buffer-size=256M -o "$M/ev.ftr" -- fio --name=ev --directory="$M" \
		--size="$size" --bs=64 --rw=write --ioengine=psync --numjobs="$ncpu" \
		--output=/dev/null 2> "$W/err"
	# shellcheck disable=SC2046
	set -- $(info_of "$M/ev.ftr")
	r=$(awk -v e="$1" -v s="$2" 'BEGIN { printf "%.0f", (s > 0 ? e / s : 0) }')
	echo "record: $ncpu x $size in 64-byte writes: $1 events in $2 s = $r events/s, lost $3"
	if [ "$3" -eq 0 ] && [ "$r" -gt "$best" ]; then best=$r; fi
	rm -f "$M"/ev*
done
echo "record: sustained without loss: $best events/s"

# What the hook costs before a program does anything: a loop of 4 KiB preads of the cached file
# alone, with an empty program on its exit tracepoint (the recorder's kind of hook), with one on
# the raw exit of every syscall that leaves at once for other calls, under the whole-system
# recorder, and with nothing before and after: each against the mean of the round's two runs
# with nothing, and the medians over the rounds.
FLOOR=./bench/hook-floor
if [ -x "$FLOOR" ] && [ -f "$FLOOR.bpf.o" ]; then
	echo "record: hook floor: ns per 4 KiB pread of the cached file, $ROUNDS rounds"
	echo "record:   round   none  tracepoint  raw exit  recorder   none"
	: > "$W/floor"
	for round in $(seq "$ROUNDS"); do
		n1=$("$FLOOR" "$FLOOR.bpf.o" none "$W/f" 1000000)
		tp=$("$FLOOR" "$FLOOR.bpf.o" pread_exit_empty "$W/f" 1000000)
		raw=$("$FLOOR" "$FLOOR.bpf.o" sys_exit_filter "$W/f" 1000000)
		rm -f "$M/fl.ftr"
		"$FT" record -o "$M/fl.ftr" 2> "$W/rec.err" &
		rp=$!
		wait_recording "$M/fl.ftr"
		rec=$("$FLOOR" "$FLOOR.bpf.o" none "$W/f" 1000000)
		kill -INT $rp
		wait $rp
		n2=$("$FLOOR" "$FLOOR.bpf.o" none "$W/f" 1000000)
		echo "$round $n1 $tp $raw $rec $n2" | awk '{
			printf "record:   %5d %6.0f %11.0f %9.0f %9.0f %6.0f\n", $1, $2, $3, $4, $5, $6 }'
		echo "$n1 $tp $raw $rec $n2" >> "$W/floor"
	done
	for col in "2 empty exit tracepoint" "3 raw exit, filtered" "4 the recorder"; do
		# shellcheck disable=SC2086
		set -- $col
		c=$1
		shift
		awk -v c="$c" '{ print ($c / (($1 + $5) / 2) - 1) * 100 }' "$W/floor" |
			summary "slowdown %, $*"
	done
else
	echo "record: hook floor: skipped ($FLOOR not built)"
fi
