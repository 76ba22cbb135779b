#!/bin/sh
# The trace's memory cgroups in a replay (tests/mktrace.c "memcgs"): /ft/a, limited to 32 KiB
# (8 pages), reads 16 pages of its file, then /ft/b, with no limit, 16 of its own. With
# readahead off and order-0 folios the answer is known: each cgroup is charged its own
# folios, /ft/a reclaims 8 of its own to stay at its limit and /ft/b none, in a 1 GiB host.
# --cgroup-limit gives /ft/b a limit of 16 KiB as a what-if: it then evicts 12; a name no
# cgroup of the trace has, a bad size, or standard input are usage errors.
# "memcg-limits": the same in cgroup v2, with limits written during the trace (mm/memcontrol.c
# memory_max_write(), memory_high_write(): the writer asks try_to_free_mem_cgroup_pages() for
# the excess, which the two-list LRU takes by priority levels, size >> priority each, the goal
# checked after each level). /ft/a's start limit is its last record before the first access
# (32 KiB, not the 64 KiB before it). At 1 s its max drops to 4 pages: goal 4 of 8, levels
# take 1 (priority 3), 1 (2), 3 (1): 5 evicted; its high to 2: goal 1 of 3, 1 at priority 1;
# /ft/b's max to 2 pages: goal 14 of 16, levels take 1, 1, 3, 5 (priorities 4 to 1), 10 < 14,
# so priority 0 takes the other 6: all 16 go. A read of /ft/a's last page at 2 s hits.
# --cgroup-limit keeps its max over the recorded ones: /ft/b stays at 4 pages, 12 evicted.
# "memcg-charges": memcgs with the kernel's page-cache events of /ft/a and two reclaims in it
# (replay/charges.h): one by a thread of /ft/a that cached nothing (no charge of its own at
# the limit: ignored), then one by the reader with 6 pages cached, so 2 of the 8 are others':
# /ft/a's cache holds 6 and evicts 10 of its 16 pages.
. "$TOP_SRCDIR/tests/lib.sh"
T=$TMPD/m.ftr
"$TOP_BUILDDIR/tests/mktrace" memcgs "$T" || exit 1
OPTS="--folio-order=0 --no-readahead --policy=fixed --by=cgroup"

# evicted CSV NAME: the evicted_pages of cgroup NAME in --by=cgroup's CSV
evicted() {
	awk -F, -v name="$2" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["name"] == "\"" name "\"" { print $col["evicted_pages"] }' "$1"
}
# the report's lines joined: the sources line wraps
flat() { printf '%s\n' "$1" | tr '\n' ' ' | tr -s ' '; }

"$FOLIO_TRACE" replay $OPTS --format=csv "$T" > "$TMPD/a.csv"
is "$?" 0 "replay --by=cgroup exits 0"
is "$(evicted "$TMPD/a.csv" /ft/a)" 8 "/ft/a (8 pages) evicts 8 of its 16 pages"
is "$(evicted "$TMPD/a.csv" /ft/b)" 0 "/ft/b (no limit) evicts none"
run "$FOLIO_TRACE" replay $OPTS "$T"
like "$(flat "$out")" "2 memory cgroups, each charged its own folios (/ft/a 32.0 KiB, /ft/b no limit)" \
	"the sources line names the cgroups and their limits"

"$FOLIO_TRACE" replay $OPTS --format=csv --cgroup-limit=b:16K "$T" > "$TMPD/b.csv"
is "$?" 0 "--cgroup-limit=b:16K exits 0"
is "$(evicted "$TMPD/b.csv" /ft/b)" 12 "/ft/b limited to 4 pages evicts 12 of 16"
is "$(evicted "$TMPD/b.csv" /ft/a)" 8 "/ft/a keeps its recorded limit"
"$FOLIO_TRACE" replay $OPTS --format=csv --cgroup-limit=/ft/b:16K "$T" > "$TMPD/c.csv"
is "$(evicted "$TMPD/c.csv" /ft/b)" 12 "the whole path names it too"
run "$FOLIO_TRACE" replay $OPTS --cgroup-limit=b:16K "$T"
like "$(flat "$out")" "/ft/b 16.0 KiB (--cgroup-limit)" \
	"the sources line says the limit is the option's"

L=$TMPD/l.ftr
"$TOP_BUILDDIR/tests/mktrace" memcg-limits "$L" || exit 1
"$FOLIO_TRACE" replay $OPTS --format=csv "$L" > "$TMPD/l.csv"
is "$(evicted "$TMPD/l.csv" /ft/a)" 14 "limits written: /ft/a evicts 8, then 5 to its new max, 1 to its high"
is "$(evicted "$TMPD/l.csv" /ft/b)" 16 "/ft/b's new max of 2 pages: priority 0 takes all 16"
"$FOLIO_TRACE" replay $OPTS --format=csv --cgroup-limit=b:16K "$L" > "$TMPD/m.csv"
is "$(evicted "$TMPD/m.csv" /ft/b)" 12 "--cgroup-limit's max stays over the recorded change"
run "$FOLIO_TRACE" replay $OPTS "$L"
like "$(flat "$out")" "/ft/a 32.0 KiB, /ft/b no limit), limits at the start, then written 3 times" \
	"the sources line says the limits changed"
run "$FOLIO_TRACE" replay $OPTS --format=json "$L"
like "$out" '"read_hit_requests": 1[,}]' "the read after the changes hits the page kept"

# cgroup v2 writeback: /ft/w's own dirty domain, avail its 1024 pages (file pages + headroom),
# background at 409 * 1024 / 4096 = 102 pages, hard limit 204, freerun ceiling 153: at each
# 154th dirty page the writer wakes its wb's background work, whose first chunk (at least
# MIN_WRITEBACK_PAGES) writes all 154, so 4 x 154 = 616 before the fsync writes the last 152.
# Under v1 the global domain of 1 GiB alone: the fsync writes all 768.
wbcol() {
	awk -F, -v k="$2" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		{ v = $c[k] } END { print v / 4096 }' "$1"
}
for v in memcg-dirty memcg-dirty-v1; do
	"$TOP_BUILDDIR/tests/mktrace" $v "$TMPD/$v.ftr" || exit 1
	"$FOLIO_TRACE" replay --folio-order=0 --format=csv "$TMPD/$v.ftr" > "$TMPD/$v.csv"
done
is "$(wbcol "$TMPD/memcg-dirty.csv" wb_background_bytes)" 616 \
	"v2: the cgroup's background writeback, 4 times the 154 pages past its freerun ceiling"
is "$(wbcol "$TMPD/memcg-dirty.csv" wb_fsync_bytes)" 152 "v2: the fsync writes the 152 left"
is "$(wbcol "$TMPD/memcg-dirty-v1.csv" wb_background_bytes)" 0 "v1: no background writeback"
is "$(wbcol "$TMPD/memcg-dirty-v1.csv" wb_fsync_bytes)" 768 "v1: the fsync writes all 768"
run "$FOLIO_TRACE" replay --folio-order=0 "$TMPD/memcg-dirty.ftr"
like "$(flat "$out")" "cgroup v2 writeback: 2 cgroups with dirty limits of their own" \
	"v2: the sources line says the cgroups have dirty limits of their own"
run "$FOLIO_TRACE" replay --folio-order=0 "$TMPD/memcg-dirty-v1.ftr"
printf '%s\n' "$out" | grep -q "dirty limits of"
ok $((! $?)) "v1: it does not"

run "$FOLIO_TRACE" replay --cgroup-limit=nosuch:1M "$T"
is "$rc" 2 "a name no cgroup has: exit 2"
like "$err" "^folio-trace: --cgroup-limit=nosuch: no memory cgroup of that name has accesses" \
	"and says so"
run "$FOLIO_TRACE" replay --cgroup-limit=b "$T"
is "$rc" 2 "no size: exit 2"
like "$err" "cgroup-limit.*not NAME:SIZE" "and says what it takes"
run "$FOLIO_TRACE" replay --cgroup-limit=b:0 "$T"
is "$rc" 2 "a limit of 0: exit 2"
run sh -c '"$1" replay --cgroup-limit=b:16K - < "$2"' sh "$FOLIO_TRACE" "$T"
is "$rc" 2 "from standard input: exit 2"
like "$err" "needs a trace file, not standard input" "and says why"
T=$TMPD/c.ftr
"$TOP_BUILDDIR/tests/mktrace" memcg-charges "$T" || exit 1
"$FOLIO_TRACE" replay $OPTS --format=csv "$T" > "$TMPD/c.csv"
is "$?" 0 "memcg-charges: replay exits 0"
is "$(evicted "$TMPD/c.csv" /ft/a)" 10 "/ft/a's limit reclaim: 2 pages held besides, 10 evicted"
is "$(evicted "$TMPD/c.csv" /ft/b)" 0 "/ft/b (no limit) still evicts none"

done_testing
