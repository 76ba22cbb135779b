#!/bin/sh
# Traces as damaged as an attacker can make them, each a valid container (tests/mktrace.c):
# timestamps at the end of time, random or going back, accesses no system call makes. replay
# and calibrate must finish fast (a hang is killed by timeout and fails), count what they
# skipped or clamped, and say so.
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
MK="$TOP_BUILDDIR/tests/mktrace"
for k in ts-max ts-random ts-back huge; do
	"$MK" "$k" "$TMPD/$k.ftr" || exit 1
done

# field JSON-FILE EXPR: a Python expression over the replay's JSON d.
field() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
print(eval(sys.argv[2]))' "$@"
}

# A timestamp of 2^64 - 1: the model's deadlines saturate instead of wrapping around.
run timeout 60 "$FOLIO_TRACE" replay --folio-order=0,9 --format=json "$TMPD/ts-max.ftr"
is "$rc" 0 "ts-max: replay ends, exit 0"
printf '%s\n' "$out" > "$TMPD/ts-max.json"
is "$err" "folio-trace: $TMPD/ts-max.ftr: 1 accesses a second or more earlier than one before them (by up to 18446744071.709549 s) were replayed at that later time" \
	"ts-max: the access after the end of time is counted and said"
is "$(field "$TMPD/ts-max.json" 'd["trace"]["accesses"], d["trace"]["late"], [c["metrics"]["write_bytes"] for c in d["configurations"]]')" \
	"(67, 1, [327680, 327680])" "ts-max: every access modelled, one late"
# The writes of the first file expire at the end of time: the flusher wrote them back.
is "$(field "$TMPD/ts-max.json" '[c["metrics"]["wb_expire_bytes"] for c in d["configurations"]]')" \
	"[262144, 262144]" "ts-max: the flusher ran once at the far end, not 2^64 / 5 s times"

# Random 64-bit times: both subcommands end; calibrate has kernel events to compare with.
run timeout 60 "$FOLIO_TRACE" replay --folio-order=0,9 "$TMPD/ts-random.ftr"
is "$rc" 0 "ts-random: replay ends, exit 0"
like "$err" "^folio-trace: $TMPD/ts-random.ftr: 394 accesses a second or more earlier than one before them" \
	"ts-random: the accesses that went back are counted"
run timeout 60 "$FOLIO_TRACE" calibrate "$TMPD/ts-random.ftr"
is "$rc" 0 "ts-random: calibrate ends, exit 0"
like "$out" "^calibration: $TMPD/ts-random.ftr" "ts-random: calibrate prints its table"
run timeout 60 "$FOLIO_TRACE" replay --folio-order=0 --interval=1ms --dirty-expire=1h \
	--dirty-writeback=1ns "$TMPD/ts-random.ftr"
is "$rc" 0 "ts-random: a 1 ns flusher period ends too (ticks without work are skipped)"

# Every tenth access 2 s before the one it follows: replayed at the latest time seen.
run "$FOLIO_TRACE" replay --format=json "$TMPD/ts-back.ftr"
is "$rc" 0 "ts-back: exit 0"
is "$err" "folio-trace: $TMPD/ts-back.ftr: 10 accesses a second or more earlier than one before them (by up to 1.999000 s) were replayed at that later time" \
	"ts-back: 10 late accesses, by up to 1.999 s"
printf '%s\n' "$out" > "$TMPD/ts-back.json"
is "$(field "$TMPD/ts-back.json" 'd["trace"]["late"], d["trace"]["damaged"]')" "(10, 0)" \
	"ts-back: the JSON counts them"

# A 1 TiB read, a write ending past 2^63, a write of MAX_RW_COUNT + 1: skipped with where
# they are, the 8 good accesses modelled; the trace is damaged, so exit 1.
run timeout 60 "$FOLIO_TRACE" replay --format=json "$TMPD/huge.ftr"
is "$rc" 1 "huge: exit 1"
is "$err" "folio-trace: $TMPD/huge.ftr: record 6 (byte 480 of chunk 0 at file byte 32): read of 1099511627776 bytes, more than one system call moves (2147479552): skipped
folio-trace: $TMPD/huge.ftr: record 9 (byte 672 of chunk 0 at file byte 32): write of 4611686018427387904 bytes, more than one system call moves (2147479552): skipped
folio-trace: $TMPD/huge.ftr: record 12 (byte 864 of chunk 0 at file byte 32): write of 2147479553 bytes, more than one system call moves (2147479552): skipped" \
	"huge: each damaged record named with its place"
printf '%s\n' "$out" > "$TMPD/huge.json"
is "$(field "$TMPD/huge.json" 'd["trace"]["accesses"], d["trace"]["damaged"], d["configurations"][0]["metrics"]["read_bytes"]')" \
	"(8, 3, 32768)" "huge: 8 accesses of 4 KiB modelled, 3 skipped"
run "$FOLIO_TRACE" replay "$TMPD/huge.ftr"
like "$out" "^replay of $TMPD/huge.ftr: 8 accesses, 2 files, 3 damaged records skipped" \
	"huge: the table says so"

# info and top --from apply the same checks: the damaged records named, counted for nothing
# (no "1.0 TiB" read), exit 1.
run "$FOLIO_TRACE" info "$TMPD/huge.ftr"
is "$rc" 1 "info on huge: exit 1"
like "$out" "^  read  *8  *32768 bytes" "info on huge: the 8 good reads only"
is "$(printf '%s\n' "$out" | grep -c '^  write  ')" 0 "info on huge: no damaged write counted"
is "$(printf '%s\n' "$err" | grep -c ': skipped$')" 3 "info on huge: the 3 damaged records named"
run "$FOLIO_TRACE" top --from="$TMPD/huge.ftr" -b
is "$rc" 1 "top --from on huge: exit 1"
like "$out" "^read 32.0 KiB, written 0 B" "top --from on huge: 32 KiB read, nothing written"
is "$(printf '%s\n' "$err" | grep -c ': skipped$')" 3 "top --from on huge: the 3 damaged records named"

# --interval=1ns over 0.098 s would make 98 million samples per order, twice: refused before
# the replay (a first pass over the file finds the span), nothing written, the interval that
# fits the 1048576 samples the time series keep in all named.
run timeout 60 "$FOLIO_TRACE" replay --folio-order=0,9 --interval=1ns \
	--timeseries="$TMPD/ts.csv" "$TMPD/ts-back.ftr"
is "$rc" 2 "--interval=1ns: usage error"
like "$err" "^folio-trace: --interval=1ns: 98000001 samples per order over the trace's 0.098000000 s, 2 configurations: more than the 1048576 the time series keep in all: give --interval=187ns or longer$" \
	"--interval=1ns: says how many samples and which interval fits"
is "$out:$([ -e "$TMPD/ts.csv" ]; echo $?)" ":1" "--interval=1ns: no report, no time series"
run "$FOLIO_TRACE" replay --folio-order=0,9 --interval=187ns --plot="$TMPD/ts.svg" \
	"$TMPD/ts-back.ftr"
is "$rc" 0 "--interval=187ns: the plot is written"
# Ten orders at the interval that fits one: refused as well, the budget being for all of them.
run "$FOLIO_TRACE" replay --folio-order=0,1,2,3,4,5,6,7,8,9 --interval=94ns \
	--timeseries="$TMPD/ts.csv" "$TMPD/ts-back.ftr"
like "$rc:$err" "^2:.*10 configurations: more than the 1048576 the time series keep in all: give --interval=935ns or longer" \
	"ten orders: the interval that fits all ten"
# Standard input cannot be surveyed first: the same limit, said after the replay.
run sh -c '"$1" replay --folio-order=0,9 --interval=1ns --timeseries="$2" - < "$3"' sh \
	"$FOLIO_TRACE" "$TMPD/ts.csv" "$TMPD/ts-back.ftr"
is "$rc" 2 "standard input: a usage error"
like "$err" "2 configurations: .*give --interval=187ns or longer" "standard input: the same limit"
run "$FOLIO_TRACE" replay --folio-order=9 --interval=1ms --timeseries="$TMPD/ts.csv" \
	"$TMPD/ts-back.ftr"
is "$(grep -c '^"order ' "$TMPD/ts.csv")" 98 "--interval=1ms: a sample a millisecond, the last at the last access"
done_testing
