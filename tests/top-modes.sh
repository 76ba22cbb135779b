#!/bin/sh
# top's two other views of a trace: --lines, one line per interval of the whole system's
# figures (as cachestat), within 80 columns, as many as the screen's intervals, their inserted
# pages adding up to the trace's; --cached, what the page cache holds now of the files a
# trace names (as fincore, no BPF): a file read whole is all resident, then none of it once
# its pages are dropped (its own pages only), a file gone is counted as such.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
FT=$FOLIO_TRACE
T=$TRACES/seq-copy.ftr
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"

run "$FT" top --from="$T" --lines -i 200ms
is "$rc" 0 "--lines: exit 0"
is "$(printf '%s\n' "$out" | awk 'length > 80' | wc -l)" 0 "--lines: no line over 80 columns"
is "$(printf '%s\n' "$out" | head -n 1 | awk '{ print $1, $5, $6 }')" "TIME INSERTED LARGE%" \
	"--lines: a heading first"
json=$("$FT" top --from="$T" --format=json -i 200ms)
n=$(printf '%s\n' "$json" | wc -l)
is "$(printf '%s\n' "$out" | grep -vc '^  *TIME')" "$n" \
	"--lines: a line per interval, as many as JSON documents"
# INSERTED is columns 35 to 42 (the byte columns before it hold a space)
sum=$(printf '%s\n' "$out" | grep -v '^  *TIME' | cut -c35-42 | awk '{ n += $1 } END { print n }')
want=$(printf '%s\n' "$json" | python3 -c '
import json, sys
print(sum(json.loads(l)["interval_totals"]["inserted_pages"] for l in sys.stdin))' 2>/dev/null)
is "$sum" "$want" "--lines: INSERTED adds up to the intervals' inserted pages"
run "$FT" top --from="$T" --lines --format=json
is "$rc" 2 "--lines with --format=json: usage error"

# --cached: a trace naming two files of ours, made by import (no BPF needed).
page=$(getconf PAGESIZE)
F=$TMPD/cached
G=$TMPD/gone
head -c 1048576 /dev/zero > "$F"
head -c 4096 /dev/zero > "$G"
printf 'fio version 2 iolog\n%s add\n%s add\n%s open\n%s read 0 4096\n%s close\n' \
	"$F" "$G" "$F" "$F" "$F" > "$TMPD/c.iolog"
printf '%s open\n%s read 0 4096\n%s close\n' "$G" "$G" "$G" >> "$TMPD/c.iolog"
"$FT" import --from=fio-iolog -o "$TMPD/c.ftr" "$TMPD/c.iolog" 2>/dev/null
rm "$G"
cat "$F" > /dev/null
run "$FT" top --from="$TMPD/c.ftr" --cached
is "$rc" 0 "--cached: exit 0"
like "$out" "^cached now: 1.0 MiB in 1 of the trace's 2 files with a path (1 gone or unreadable)$" \
	"--cached: the file read whole all resident; the removed one counted as gone"
like "$out" "^   1.0 MiB $(printf '%10s' $((1048576 / page)))    1.0 MiB 100.0%  $F\$" \
	"--cached: its row, as fincore shows it"
drop_pages "$F"
run "$FT" top --from="$TMPD/c.ftr" --cached
like "$out" "^       0 B          0    1.0 MiB   0.0%  $F\$" \
	"--cached: none of it once its pages are dropped"
run "$FT" top --from="$TMPD/c.ftr" --cached --format=json
is "$rc" 2 "--cached with --format=json: usage error"
[ "$page" -gt 0 ]
ok $? "page size known"
done_testing
