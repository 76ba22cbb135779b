#!/bin/sh
# The start cache's folios as the kernel's deletes show them (--start-folios=deleted, the
# default), against the rule alone (--start-folios=rule). The trace (tests/mktrace.c
# "startfolios"): a 4 MiB file, pages [0, 256) and [512, 1024) cached before the trace; the
# kernel inserts pages 20-23 (order 2), then a POSIX_FADV_DONTNEED of the file deletes
# (0, order 4), (16, 2), (20, 2), (240, 4), (512, 9), (256, 8): start folios (0, 4), (16, 2),
# (240, 4) and (512, 9) (548 pages); (20, 2) was inserted in the trace, (256, 8) holds no
# start page. The plain model cuts the rest of each range into the largest aligned folios:
#   order 9, rule: [0, 256) one of order 8, [512, 1024) one of order 9: 2 folios dropped;
#   order 9, deleted: the 4, and [20, 240) cut around them: 20 (2), 24 (3), 32 (5), 64 (6),
#     128 (6), 192 (5), 224 (4): 11;
#   order 4: 48 by rule; with the deletes (512, 9) in 32 of order 4, and 20 (2), 24 (3) and
#     thirteen of order 4 from 32: 3 + 32 + 2 + 13 = 50;
#   order 0: 768 base pages either way. Pages: 768 in every case.
# With the last 16 cached pages dirty ("startfolios-dirty"), the DONTNEED writes them back first
# and the folio holding them stays: at order 9 the start folio (512, 9), 2 MiB, by rule or not;
# at order 4 only the piece of it over the 16 pages, 64 KiB (a folio goes in dirty where a
# dirty page lies in it, as folio_mark_dirty() marks it).
. "$TOP_SRCDIR/tests/lib.sh"
T=$TMPD/sf.ftr
"$TOP_BUILDDIR/tests/mktrace" startfolios "$T" || exit 1
PLAIN="--lru=plain --policy=fixed --no-readahead --memory=64M --format=csv"

# two TRACE METRICS ORDER HOW: the two metrics' values of the plain model's replay
two() {
	# shellcheck disable=SC2086
	"$FOLIO_TRACE" replay $PLAIN --folio-order="$3" --start-folios="$4" --metrics="$2" "$1" |
		awk -F, 'NR == 2 { print $3, $4 }'
}
# dropped ORDER HOW: DONTNEED pages and folios
dropped() { two "$T" dontneed_pages,dontneed_folios "$@"; }
is "$(dropped 9 deleted)" "768 11" "order 9: the 4 start folios the deletes show, the rest cut"
is "$(dropped 9 rule)" "768 2" "order 9 by rule: the largest aligned folios"
is "$(dropped 4 deleted)" "768 50" "order 4: the order-9 start folio in pieces of order 4"
is "$(dropped 4 rule)" "768 48" "order 4 by rule"
is "$(dropped 0 deleted)" "768 768" "order 0: base pages"
is "$(dropped 0 rule)" "768 768" "order 0 by rule"

TD=$TMPD/sfd.ftr
"$TOP_BUILDDIR/tests/mktrace" startfolios-dirty "$TD" || exit 1
# written ORDER HOW: bytes written back, and the DONTNEED's folios
written() { two "$TD" writeback_bytes,dontneed_folios "$@"; }
is "$(written 9 deleted)" "2097152 10" "dirty: order 9: the dirty start folio written back, kept"
is "$(written 4 deleted)" "65536 49" "dirty: order 4: only the piece over the dirty pages"
is "$(written 4 rule)" "65536 47" "dirty: order 4 by rule: the same piece"

out=$("$FOLIO_TRACE" replay --folio-order=9 "$T" 2>&1)
like "$(echo "$out" | tr '\n' ' ' | tr -s ' ')" \
	"start folios: 548 pages in 4 folios as the kernel's deletes show them, the rest by rule" \
	"the report says how many the deletes gave"
like "$("$FOLIO_TRACE" replay --folio-order=9 --start-folios=rule "$T" 2>&1)" \
	"start folios: by rule (--start-folios=rule)" "and names the what-if"
"$FOLIO_TRACE" replay --folio-order=9 --start-cache=empty "$T" 2>&1 | grep -q "start folios"
ok "$((! $?))" "no start cache, no start folios"
# the default model (its reader's rule around the 4): the same pages
is "$("$FOLIO_TRACE" replay --folio-order=9 --memory=64M --format=csv \
	--metrics=dontneed_pages "$T" | awk -F, 'NR == 2 { print $3 }')" 768 \
	"the default model: every start page dropped"
# calibrate takes it too, and says so for the rule
like "$("$FOLIO_TRACE" calibrate --start-folios=rule "$T" 2>&1)" \
	"start folios: every one by the rule" "calibrate --start-folios=rule says so"
is "$("$FOLIO_TRACE" calibrate --format=json --start-folios=rule "$T" 2>/dev/null |
	sed -n 's/.*"start_folios": "\([a-z]*\)".*/\1/p')" rule "calibrate's JSON names it"
"$FOLIO_TRACE" calibrate --start-folios=maybe "$T" > /dev/null 2>&1
is "$?" 2 "calibrate: an unknown --start-folios is a usage error"
done_testing
