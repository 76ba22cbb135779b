#!/bin/sh
# folio-trace report writes one self-contained page: every section there, nothing loaded from
# elsewhere (no src, no href but to its own anchors, no script, a policy that forbids loads),
# the verdict the very text replay prints, the trust line calibrate's, a page for a trace
# without kernel events saying why it is not calibrated; usage and output errors as every
# subcommand has them. The browser's view is tests/report-browser.sh.
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
PAGE="python3 $TOP_SRCDIR/tests/page-text.py"
T=$TRACES/rand-overwrite.ftr

# replay's verdict: its lines up to the first blank one
verdict() {
	"$FT" replay -q "$@" | sed '/^$/q' | sed '$d'
}

run "$FT" report -q -o "$TMPD/r.html" "$T"
is "$rc:$err" "0:" "report -o: exit 0, nothing on stderr with -q"
is "$($PAGE "$TMPD/r.html")" "verdict orders curves time files calibration settings
svg 2
fetches 0
scripts 0" "every section, two inline plots, nothing fetched, no script"
like "$(cat "$TMPD/r.html")" "Content-Security-Policy\" content=\"default-src 'none'" \
	"a policy that forbids every load"
want=$(verdict "$T")
like "$want" '^  hit ratio (requests) .*%' "replay's verdict has its hit ratio row"
is "$($PAGE "$TMPD/r.html" verdict)" "$want" "the page's verdict is replay's, line for line"
like "$($PAGE "$TMPD/r.html" calibration)" '^calibration: ' "the calibration's table"
like "$(cat "$TMPD/r.html")" '<p id="trust">trust: calibrate.s worst error on this trace: ' \
	"the trust line of a recorded trace"
like "$($PAGE "$TMPD/r.html" curves)" '^  knee of the hit ratio at ' "the curves with their knee"
like "$($PAGE "$TMPD/r.html" files)" '/' "the top files, by path"
like "$(cat "$TMPD/r.html")" '<td>memory_bytes</td><td>--memory</td><td>[1-9]' \
	"the model's settings, each beside its option"

# Orders given: the verdict is still replay's with the same orders.
run "$FT" report -q --folio-order=0,4,9 -o "$TMPD/o.html" "$T"
is "$($PAGE "$TMPD/o.html" verdict)" "$(verdict --folio-order=0,4,9 "$T")" \
	"--folio-order=0,4,9: the verdict replay gives with them"

# A synthetic trace has no kernel events: the page says so instead of a calibration.
"$FT" synth seq-read --events=500 --duration=2s -o "$TMPD/s.ftr" 2>/dev/null
run "$FT" report -q -o "$TMPD/s.html" "$TMPD/s.ftr"
is "$rc" 0 "a synthetic trace: exit 0"
is "$($PAGE "$TMPD/s.html" verdict)" "$(verdict "$TMPD/s.ftr")" "its verdict is replay's"
like "$(cat "$TMPD/s.html")" '<p id="trust">trust: not calibrated, ' "it says why not calibrated"

# A working set of a few pages: the default sweep starts at a page, not below.
"$FT" synth seq-read --events=1 --duration=1s -o "$TMPD/one.ftr" 2>/dev/null
run "$FT" report -q -o "$TMPD/one.html" "$TMPD/one.ftr"
is "$rc:$err" "0:" "a trace of one read: exit 0"
like "$($PAGE "$TMPD/one.html" curves)" '^working set: ' "a trace of one read: its curves"

# --sweep sets the curves' sizes, said in the command the page gives.
run "$FT" report -q --sweep=16M,64M -o "$TMPD/w.html" "$T"
like "$(cat "$TMPD/w.html")" 'replay .*rand-overwrite.ftr --memory=16M,64M</code>' \
	"--sweep: the curves' sizes, the command to get them"
like "$($PAGE "$TMPD/w.html" curves)" '^      64.0 MiB ' "--sweep: its sizes in the table"

# Usage: one trace file, not standard input (it is read several times), no terminal output.
run "$FT" report -q
is "$rc" 2 "no trace: usage error"
run "$FT" report -q -o "$TMPD/x.html" - < "$T"
is "$rc:$err" "2:folio-trace: -: report reads the trace several times: give a file, not standard input" \
	"standard input: usage error, saying why"
run "$FT" report -q --sweep=1G..1M -o "$TMPD/x.html" "$T"
is "$rc" 2 "a bad --sweep: usage error"
if command -v script >/dev/null 2>&1; then
	script -qec "'$FT' report -q '$T'" /dev/null > "$TMPD/tty" 2>&1 && got=0 || got=$?
	like "$(cat "$TMPD/tty")" 'an HTML page is no text for a terminal' \
		"standard output a terminal: refused, saying what to do"
	is "$got" 2 "standard output a terminal: usage error"
	script -qec "'$FT' report -q '$T' -o '$TMPD/t.html'; '$FT' report '$T' -o '$TMPD/t.html'" \
		/dev/null > "$TMPD/tty" 2>&1
	# (after the progress lines of the run without -q, erased on the same line)
	is "$(grep -o "folio-trace report: file://$TMPD/t.html" "$TMPD/tty" | wc -l)" 1 \
		"-o on a terminal: the page's URL said once, not with -q"
else
	skip "script(1) not installed: no terminal to try"
	skip "script(1) not installed"
	skip "script(1) not installed"
fi
[ ! -e "$TMPD/x.html" ]
ok $? "no page left behind by a usage error"

# Output errors.
run sh -c "'$FT' report -q '$T' > /dev/full"
is "$rc" 1 "report > /dev/full: exit 1"
like "$err" "write failed" "report > /dev/full: says the write failed"
run "$FT" report -q -o "$TMPD/nodir/x.html" "$T"
is "$rc" 1 "-o in a missing directory: exit 1"
done_testing
