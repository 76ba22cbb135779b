#!/bin/sh
# Inputs that once crashed or upset the trace reader, and the fuzz seed traces: `folio-trace
# dump` must end with 0 (readable) or 1 (damage reported), never a signal or sanitizer report.
# With --enable-fuzz the harness replays them too, checking the reader's status promises.
. "$TOP_SRCDIR/tests/lib.sh"

replay_dump() {	# replay_dump FILE
	run "$FOLIO_TRACE" dump "$1"
	case $rc in
	0|1) ok 0 "dump $(basename "$1"): exit $rc" ;;
	*) ok 1 "dump $(basename "$1"): exit $rc"; diag "$err" | head -20 ;;
	esac
	if [ "$rc" -eq 1 ]; then
		lines=$(printf '%s\n' "$err" | grep -c .)
		is "$lines" 1 "dump $(basename "$1"): one line on stderr"
	fi
}

found=0
for f in "$TOP_SRCDIR"/fuzz/regress/* "$TOP_SRCDIR"/fuzz/corpus/reader/*.ftr; do
	[ -f "$f" ] || continue
	case $f in */README) continue ;; esac
	found=$((found + 1))
	replay_dump "$f"
done
ok $([ "$found" -gt 0 ]; echo $?) "found $found inputs to replay"

# The valid seeds read to their end without complaint; the damaged ones are reported.
for f in valid-small valid-empty valid-counters; do
	run "$FOLIO_TRACE" dump "$TOP_SRCDIR/fuzz/corpus/reader/$f.ftr"
	is "$rc" 0 "$f reads cleanly"
done
run "$FOLIO_TRACE" dump "$TOP_SRCDIR/fuzz/corpus/reader/valid-small.ftr"
is "$(printf '%s\n' "$out" | grep -c .)" 25 "valid-small: 25 records (1 host, 2 files, 10 accesses, 8 kernel, 3 counters, end)"
for f in unclosed cut-in-last-chunk bad-crc bad-zlib bad-zlib-header bad-raw-size-small \
	bad-chunk-magic trailing-junk bad-nrecords bad-chunk-flags bad-file-flags; do
	run "$FOLIO_TRACE" dump "$TOP_SRCDIR/fuzz/corpus/reader/$f.ftr"
	is "$rc" 1 "$f is reported as damaged"
done
# The header fields the checksum does not cover are checked against what they describe.
run "$FOLIO_TRACE" dump "$TOP_SRCDIR/fuzz/corpus/reader/bad-nrecords.ftr"
like "$err" "chunk 0 holds 13 records, its header says 14" "bad-nrecords: the count is checked"
run "$FOLIO_TRACE" dump "$TOP_SRCDIR/fuzz/corpus/reader/bad-chunk-flags.ftr"
like "$err" "chunk 0 has flags 0x1 this folio-trace does not know" "bad-chunk-flags: refused"
run "$FOLIO_TRACE" dump "$TOP_SRCDIR/fuzz/corpus/reader/bad-file-flags.ftr"
is "$err" "folio-trace: $TOP_SRCDIR/fuzz/corpus/reader/bad-file-flags.ftr: trace uses features this folio-trace does not know (file flags 0x2)" \
	"bad-file-flags: the file is refused"

harness="$TOP_BUILDDIR/fuzz/fuzz-reader"
if [ -x "$harness" ]; then
	for f in "$TOP_SRCDIR"/fuzz/regress/* "$TOP_SRCDIR"/fuzz/corpus/reader/*; do
		[ -f "$f" ] || continue
		run "$harness" -runs=1 "$f"
		is "$rc" 0 "harness on $(basename "$f")"
	done
fi
done_testing
