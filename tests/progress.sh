#!/bin/sh
# The progress line: on a terminal (a pty from script(1)) replay, calibrate, synth, import and
# export show how far they are and erase the line at the end; --quiet, a pipe or a file never
# see it. FOLIO_TRACE_PROGRESS_DELAY=0 shows the first line at once, so no run is too short.
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE
command -v script >/dev/null 2>&1 || skip_all "script(1) not installed (bsdutils)"

"$FT" synth random-read --events=20000 -o "$TMPD/r.ftr" 2>/dev/null ||
	skip_all "synth could not make the trace"
"$FT" export --to=oraclegeneral -o "$TMPD/r.og" "$TMPD/r.ftr" 2>/dev/null ||
	skip_all "export could not make the input of import"

# on_pty CMD: runs the command line CMD with its stdout and stderr on a pseudo-terminal;
# $pty is what the terminal got, carriage returns made newlines, escapes spelled ESC.
on_pty() {
	FOLIO_TRACE_PROGRESS_DELAY=0 script -qec "$1" /dev/null >"$TMPD/pty" 2>&1
	pty=$(tr '\r' '\n' <"$TMPD/pty" | sed 's/\x1b/ESC/g')
}

# line WORK: a progress line with a percentage, a count, a rate and an ETA
line() { echo "^$1: *[0-9.]*%, [0-9.]*[kMG]* records, [0-9.]*[kMG]* records/s, ETA [0-9:]*ESC\[K\$"; }

on_pty "'$FT' replay --folio-order=0,9 -o '$TMPD/out' '$TMPD/r.ftr'"
like "$pty" "$(line replay)" "replay on a terminal: percentage, records, rate, ETA"
is "$(tail -c 4 "$TMPD/pty" | od -An -c | tr -s ' ')" " \r 033 [ K" \
	"replay erases its line at the end"
grep -q '^metric' "$TMPD/out"; ok $? "the report in the file is whole"
grep -q 'ESC\|records/s' "$TMPD/out"; ok $((!$?)) "no progress in the report"

on_pty "'$FT' replay -q --folio-order=0 -o '$TMPD/out' '$TMPD/r.ftr'"
is "$(wc -c <"$TMPD/pty")" 0 "replay --quiet: nothing on the terminal"

# A report on the terminal itself comes after the erased line, at the left margin.
on_pty "'$FT' replay --folio-order=0 --format=csv '$TMPD/r.ftr'"
like "$pty" "^ESC\[Klabel," "the report starts where the erased line was"

FOLIO_TRACE_PROGRESS_DELAY=0 "$FT" replay --folio-order=0 -o /dev/null "$TMPD/r.ftr" \
	2>"$TMPD/err" | cat
is "$(wc -c <"$TMPD/err")" 0 "stderr a file: no progress line"

on_pty "'$FT' calibrate -o /dev/null '$TRACES/randread-64M-limit.ftr'"
like "$pty" "$(line calibrate)" "calibrate shows its replay"

on_pty "'$FT' synth random-read --events=20000 -o '$TMPD/s.ftr'"
like "$pty" "$(line synth)" "synth: percentage of --events"
cmp -s "$TMPD/s.ftr" "$TMPD/r.ftr"; ok $? "synth's trace is the same with the line shown"

on_pty "'$FT' synth random-read --bytes=64M -o '$TMPD/b.ftr'"
like "$pty" "^synth: [0-9.]*[kMG]* records, [0-9.]*[kMG]* records/s" \
	"synth --bytes: a count and a rate, no percentage"

on_pty "'$FT' import --from=oraclegeneral -o '$TMPD/i.ftr' '$TMPD/r.og'"
like "$pty" "$(line import)" "import: percentage of the input file"

on_pty "'$FT' export --to=csv -o /dev/null '$TMPD/r.ftr'"
like "$pty" "$(line export)" "export: percentage of the trace"

on_pty "'$FT' export -q --to=csv -o /dev/null '$TMPD/r.ftr'"
is "$(wc -c <"$TMPD/pty")" 0 "export --quiet: nothing on the terminal"

done_testing
