#!/bin/sh
# A trace whose recording kernel lacked tracepoints (the host record's unrecorded kinds, format
# 1.2): info names what was not recorded, in text and JSON, and calibrate leaves out the rows
# built on those events, saying why, though the trace holds some (tests/mktrace.c
# "units-unrecorded": page-cache, dirtying and iomap writeback events marked unrecorded).
. "$TOP_SRCDIR/tests/lib.sh"
T=$TMPD/u.ftr
"$TOP_BUILDDIR/tests/mktrace" units-unrecorded "$T" || exit 1
"$TOP_BUILDDIR/tests/mktrace" units "$TMPD/all.ftr" || exit 1
kinds='iomap writeback, page-cache insertions and deletions, dirtied folios'
json='"iomap writeback", "page-cache insertions and deletions", "dirtied folios"'

run "$FOLIO_TRACE" info "$T"
is "$rc" 0 "info reads it"
like "$out" "^not recorded on this kernel (no tracepoint): $kinds\$" \
	"info names the kinds the kernel could not give, in bit order"
run "$FOLIO_TRACE" info --format=json "$T"
like "$out" "\"not_recorded\": \\[$json\\]" \
	"info's JSON lists them"
run "$FOLIO_TRACE" info "$TMPD/all.ftr"
ok "$(printf '%s\n' "$out" | grep -c 'not recorded on this kernel')" \
	"a trace with everything recorded has no such line"
run "$FOLIO_TRACE" info --format=json "$TMPD/all.ftr"
like "$out" '"not_recorded": \[\]' "and an empty JSON list"

run "$FOLIO_TRACE" calibrate -q "$TMPD/all.ftr"
is "$rc" 0 "calibrate runs on the whole trace"
like "$out" '^insertions, folios ' "with the insertion rows"
like "$out" '^bytes written back ' "and the file systems' writeback row"
run "$FOLIO_TRACE" calibrate -q "$T"
is "$rc" 0 "calibrate runs on the trace with unrecorded kinds"
left="rows left out, their events not recorded on this kernel (no tracepoint)"
like "$out" "^$left: $kinds\$" \
	"it says which rows it leaves out and why"
ok "$(printf '%s\n' "$out" | grep -c -e '^insertions' -e '^evictions, folios' \
	-e '^bytes written back')" "no insertion, eviction or file-system writeback row"
like "$out" '^pages written back ' "rows from the other events stay"
run "$FOLIO_TRACE" calibrate -q --format=json "$T"
like "$out" "\"rows_left_out\": \\[$json\\]" \
	"calibrate's JSON lists them"
done_testing
