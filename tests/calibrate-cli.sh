#!/bin/sh
# folio-trace calibrate: usage errors, unreadable traces, the JSON report of a shipped trace
# against its table, and --output.
. "$TOP_SRCDIR/tests/lib.sh"
T="$TOP_SRCDIR/traces/randread-64M-limit.ftr"
[ -f "$T" ] || skip_all "no shipped traces"

run "$FOLIO_TRACE" calibrate
is "$rc" 2 "no trace: usage error"
is "$err" "folio-trace: no trace file given (see folio-trace calibrate --help)" "and says so"
run "$FOLIO_TRACE" calibrate --format=csv "$T"
is "$rc:$err" "2:folio-trace: --format=csv: expected table or json" "unknown format refused"
run "$FOLIO_TRACE" calibrate --memory=lots "$TOP_SRCDIR/traces/seq-copy.ftr"
is "$rc:$(printf '%s\n' "$err" | wc -l):$out" "2:1:" "--memory=lots: usage error, one line"
run "$FOLIO_TRACE" calibrate --files=some "$T"
is "$rc:$err" "2:folio-trace: --files=some: expected all or syscalls" "unknown --files refused"
run "$FOLIO_TRACE" calibrate --by=process "$T"
is "$rc:$err" "2:folio-trace: --by=process: expected file" "--by takes file only"
run "$FOLIO_TRACE" calibrate --top=3 "$T"
is "$rc:$err" "2:folio-trace: --top needs --by=file (see folio-trace calibrate --help)" \
	"--top without --by refused"
# --by=file: the files' kernel figures add up to the totals' rows of the traced files
if command -v jq > /dev/null 2>&1; then
	run "$FOLIO_TRACE" calibrate --by=file --top=1000 --format=json "$T"
	is "$rc" 0 "--by=file runs"
	got=$(printf '%s\n' "$out" | jq -r '[([.files[].inserted_pages.kernel] | add),
		(.metrics[] | select(.metric == "insertions, pages") | .kernel), .files_total,
		(.files | length)] | map(tostring) | join(" ")')
	set -- $got
	is "$1" "$2" "--by=file: the files' kernel insertions sum to the total ($1)"
	is "$3" "$4" "--by=file --top=1000: every file ($3)"
else
	skip "jq not installed"
	skip "jq not installed"
	skip "jq not installed"
fi
run "$FOLIO_TRACE" calibrate --by=file --top=2 "$T"
is "$(printf '%s\n' "$out" | sed -n '/^by file:/,$p' | wc -l)" 4 \
	"--by=file --top=2: a heading, a header and two files"
run "$FOLIO_TRACE" calibrate - < "$T"
is "$rc" 2 "standard input refused (read twice)"
run "$FOLIO_TRACE" calibrate "$T" "$T"
is "$rc" 2 "two traces refused"
printf 'not a trace' > "$TMPD/bad.ftr"
run "$FOLIO_TRACE" calibrate "$TMPD/bad.ftr"
is "$rc" 1 "not a trace: runtime error"
is "$err" "folio-trace: $TMPD/bad.ftr: not a folio-trace file (no FOLIOTRC magic)" \
	"one line naming the file"

"$FOLIO_TRACE" synth -o "$TMPD/syn.ftr" --events=100 seq-read
run "$FOLIO_TRACE" calibrate "$TMPD/syn.ftr"
is "$rc:$err" "1:folio-trace: $TMPD/syn.ftr: no kernel events to calibrate against (a synthetic or imported trace)" \
	"a synthetic trace has nothing to calibrate against"

if command -v jq > /dev/null 2>&1; then
	run "$FOLIO_TRACE" calibrate --format=json -o "$TMPD/c.json" "$T"
	is "$rc:$out" "0:" "--output writes the file, nothing on standard output"
	jq -e . "$TMPD/c.json" > /dev/null
	ok $? "the JSON report parses"
	is "$(jq -r '.config.memory_bytes, .config.cgroup_limit, .config.ra_pages' "$TMPD/c.json" |
		tr '\n' ' ')" "67108864 true 2048 " "the recording host's configuration"
	run "$FOLIO_TRACE" calibrate --memory=1G --format=json "$T"
	is "$(printf '%s\n' "$out" | jq -r '.config.memory_bytes, .config.cgroup_limit' |
		tr '\n' ' ')" "1073741824 false " "--memory replaces the cgroup limit"
	# every row of the table is in the JSON with the same figures
	# columns: metric 1-32, model 34-43, kernel 45-54, error 56-63, source 66-105
	"$FOLIO_TRACE" calibrate "$T" | awk '
		function trim(s) { sub(/^ +/, "", s); sub(/ +$/, "", s); return s }
		/^metric/ {on = 1; next}
		/^$/ {on = 0}
		on && NF > 4 { print trim(substr($0, 1, 32)) "|" trim(substr($0, 34, 10)) "|" \
			trim(substr($0, 45, 10)) "|" trim(substr($0, 66, 40)) }' > "$TMPD/table"
	jq -r '.metrics[] | "\(.metric)|\(.model)|\(.kernel)|\(.source)"' "$TMPD/c.json" > "$TMPD/json"
	is "$(cat "$TMPD/json")" "$(cat "$TMPD/table")" "table and JSON give the same rows"
	is "$(jq -r '[.metrics[] | select(.upper_bound)] | length' "$TMPD/c.json")" 7 \
		"the system-wide rows are marked as upper bounds (pgsteal, nr_dirtied, nr_written, compact_*)"
	is "$(jq -r '[.metrics[] | select(.scope == "memory")] | length' "$TMPD/c.json")" 0 \
		"no free-memory rows: the trace has no recorded state for the model to start from"
else
	diag "jq not installed: JSON report not checked"
fi
# A cut trace: --files=syscalls (which replays a filtered copy) warns and exits 1 like the
# plain calibration, with the same line about the input.
head -c 250000 "$T" > "$TMPD/cut.ftr"
run "$FOLIO_TRACE" calibrate "$TMPD/cut.ftr"
plain="$rc:$err"
like "$plain" "^1:.*cut.ftr: trace incomplete at byte" "a cut trace: exit 1, said"
run "$FOLIO_TRACE" calibrate --files=syscalls "$TMPD/cut.ftr"
is "$rc:$err" "$plain" "--files=syscalls on a cut trace: the same status and line"
# A full TMPDIR (writes past 8 blocks fail with EFBIG): the message names the copy, not the
# input, which was read well.
run sh -c 'trap "" XFSZ; ulimit -f 8; TMPDIR="$2" exec "$1" calibrate --files=syscalls "$3"' \
	sh "$FOLIO_TRACE" "$TMPD" "$T"
like "$rc:$err" "^1:folio-trace: $TMPD/folio-trace-calibrate\.[A-Za-z0-9]*: write failed: File too large" \
	"a full TMPDIR: the temporary copy named, not the input"
done_testing
