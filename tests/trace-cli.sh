#!/bin/sh
# info and dump on the sample trace: exact output; bad input: one line naming the file, exit 1.
. "$TOP_SRCDIR/tests/lib.sh"
DATA="$TOP_SRCDIR/tests/data"
cd "$TMPD" || exit 1
"$TOP_BUILDDIR/tests/mktrace" s.ftr || exit 1
size=$(stat -c %s s.ftr)

# The stored size depends on the zlib build: checked against the file, the rest verbatim.
run "$FOLIO_TRACE" info s.ftr
is "$rc" 0 "info exits 0 on a complete trace"
is "$(printf '%s\n' "$out" | sed -n 2p)" "format:     version 1.8, 3 chunks, $size B" \
	"info: format line gives the file's size"
is "$(printf '%s\n' "$out" | sed 2d)" "$(sed 2d "$DATA/sample.info")" "info output exact"

run "$FOLIO_TRACE" dump s.ftr
is "$out" "$(cat "$DATA/sample.dump")" "dump text output exact"
run "$FOLIO_TRACE" dump --format=json s.ftr
is "$out" "$(cat "$DATA/sample.jsonl")" "dump JSON output exact"
printf '%s\n' "$out" | python3 -c 'import json,sys; [json.loads(l) for l in sys.stdin]' 2>/dev/null
ok $? "every JSON line parses"
run "$FOLIO_TRACE" dump --type=access s.ftr
is "$(printf '%s\n' "$out" | awk '{s += substr($8, 5)} END {print NR, s}')" "3 65537" \
	"dump --type=access: 3 lines, len fields sum to 65537 (awk-friendly)"
run sh -c "cat s.ftr | '$FOLIO_TRACE' dump - | wc -l"
is "$out" 17 "dump reads stdin"

# Cut inside the last chunk: the first two chunks still print, exit 1 with one line.
head -c $((size - 5)) s.ftr > cut.ftr
run "$FOLIO_TRACE" dump cut.ftr
is "$rc" 1 "cut trace: exit 1"
is "$(printf '%s\n' "$out" | wc -l)" 11 "cut trace: the 11 records of whole chunks printed"
is "$(printf '%s\n' "$err" | wc -l)" 1 "cut trace: one line on stderr"
case "$err" in
"folio-trace: cut.ftr: trace incomplete at byte "*"chunk 2 cut short"*) ok 0 "cut: message names file, offset, problem" ;;
*) ok 1 "cut: message names file, offset, problem"; diag "$err" ;;
esac
run "$FOLIO_TRACE" info cut.ftr
is "$rc" 1 "info on a cut trace: exit 1"
like "$out" '^complete:   no: chunk 2 cut short' "info says the trace is incomplete"

run "$FOLIO_TRACE" info missing.ftr
is "$rc:$err" "1:folio-trace: missing.ftr: cannot open: No such file or directory" "missing file"
echo "hello" > text.ftr
run "$FOLIO_TRACE" info text.ftr
is "$rc:$err" "1:folio-trace: text.ftr: not a folio-trace file (no FOLIOTRC magic)" \
	"not a trace"
printf 'FOLIOTRC\002\000\000\000' > newer.ftr
head -c 64 s.ftr | tail -c +13 >> newer.ftr
run "$FOLIO_TRACE" dump newer.ftr
is "$rc:$err" "1:folio-trace: newer.ftr: trace format version 2.0 is newer than this folio-trace reads (1.x)" \
	"newer version"
run "$FOLIO_TRACE" dump --format=xml s.ftr
is "$rc" 2 "bad option value: exit 2"
run "$FOLIO_TRACE" info
is "$rc" 2 "no file: exit 2"
run "$FOLIO_TRACE" nosuch
is "$rc" 2 "unknown subcommand: exit 2"
run "$FOLIO_TRACE" help dump
is "$rc" 0 "help dump exits 0"
like "$out" '^Usage: folio-trace dump' "help dump shows dump's usage"
run "$FOLIO_TRACE" --version
is "$out" "folio-trace $(sed -n 's/^AC_INIT(\[folio-trace\], \[\([^]]*\)\].*/\1/p' "$TOP_SRCDIR/configure.ac")" \
	"--version prints the package version"
done_testing
