#!/bin/sh
# The recording kernel's proactive reclaim (DAMON's pageout, pagecache_delete records by a
# kdamond thread: "by=damon" in dump) evicts the same pages in the models, by default
# (--proactive-reclaim=recorded), and not with --proactive-reclaim=none. The trace
# (tests/mktrace.c "proactive"): 64 pages of a file read one by one, 16 of them (0 to 15)
# deleted by DAMON, the 64 read again; the plain model, no readahead, memory to spare, so
# nothing else evicts: at order 0 the 16 pages leave and refault (64 + 16 insertions), at
# order 2 the 4 folios over them (16 + 4 folios); with none nothing leaves.
. "$TOP_SRCDIR/tests/lib.sh"
T=$TMPD/p.ftr
"$TOP_BUILDDIR/tests/mktrace" proactive "$T" || exit 1
PLAIN="--lru=plain --policy=fixed --no-readahead --memory=64M --format=csv"
M=evictions,evicted_pages,refaults,insertions,inserted_pages

# row ORDER HOW: the metrics' values, comma-separated
row() {
	# shellcheck disable=SC2086
	"$FOLIO_TRACE" replay $PLAIN --folio-order="$1" --proactive-reclaim="$2" --metrics=$M "$T" |
		awk -F, 'NR == 2 { print $3 "," $4 "," $5 "," $6 "," $7 }'
}
is "$(row 0 recorded)" "16,16,16,80,80" "order 0: DAMON's 16 pages evicted and refaulted"
is "$(row 2 recorded)" "4,16,16,20,80" "order 2: the 4 folios over them"
is "$(row 0 none)" "0,0,0,64,64" "--proactive-reclaim=none: nothing evicted"
is "$(row 2 none)" "0,0,0,16,64" "--proactive-reclaim=none at order 2"
like "$("$FOLIO_TRACE" replay --folio-order=0 "$T")" \
	"proactive reclaim: recorded (16 pages deleted by DAMON)" "the report names it"
like "$("$FOLIO_TRACE" replay --folio-order=0 --proactive-reclaim=none "$T")" \
	"proactive reclaim: none (16 pages deleted by DAMON, --proactive-reclaim)" \
	"and the what-if"
is "$("$FOLIO_TRACE" dump -t pagecache_delete "$T" | grep -c ' by=damon$')" 16 \
	"dump marks DAMON's deletes"
# calibrate: the kernel's evictions are DAMON's 16, the default model's the same
is "$("$FOLIO_TRACE" calibrate "$T" 2> /dev/null |
	awk '$1 == "evictions," && $2 == "pages" { print $3, $4 }')" "16 16" \
	"calibrate: the evictions are the kernel's"
done_testing
