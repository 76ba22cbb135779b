#!/bin/sh
# top --cached on the live kernel, no trace given: the test's own file, its pages dropped (a
# POSIX_FADV_DONTNEED of that file alone), then 64 KiB and 32 KiB of its 1 MiB read with
# readahead off (POSIX_FADV_RANDOM): the cached view shows exactly those pages for it (24 of
# 4 KiB), as fincore(1) does; its pages dropped again, the next intervals show 0: the view is
# looked at anew every interval.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
ADVISE=$TOP_BUILDDIR/tests/advise
[ -x "$ADVISE" ] || skip_all "tests/advise not built"
D=$(record_ext4_dir)
page=$(getconf PAGESIZE)
want=$(((65536 + 32768) / page))
F=$D/cached-file
dd if=/dev/zero of="$F" bs=1M count=1 conv=fsync status=none
drop_pages "$F"

# last_pages: the PAGES column of the file's row in the last table that has it ("" none);
# RES is a number and a unit, so PAGES is the third field
last_pages() { awk -v f="$F" '$NF == f { p = $3 } END { print p }' "$TMPD/top.out"; }

# wait_pages N: until the view shows N pages for the file, or a minute went by
wait_pages() {
	i=0
	while [ "$(last_pages)" != "$1" ] && [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do
		sleep 0.1
		i=$((i + 1))
	done
}

# No -n: top runs until the test has seen what it waits for, however loaded the machine.
"$FOLIO_TRACE" top --cached --comm=advise -i 1s -o "$TMPD/t.ftr" > "$TMPD/top.out" \
	2> "$TMPD/top.err" &
pid=$!
wait_recording "$TMPD/t.ftr"
"$ADVISE" "$F" fr:0:0 rd:0:64K rd:512K:32K
wait_pages $want
# the host's own reclaim (a proactive one, as DAMON's pageout, needs no memory pressure) may
# take some of the pages before the view shows them: the view is then judged against the
# kernel's count, and the pages as read are not
kernel=$want
command -v fincore > /dev/null && kernel=$(fincore -n -b -o PAGES "$F" | tr -d ' ')
if [ "$kernel" -lt $want ]; then
	skip "the file seen live as read: the host reclaimed $((want - kernel)) of its pages"
	wait_pages "$kernel"
else
	is "$(last_pages)" $want "the file seen live: $want pages cached, as read with readahead off"
fi
is "$(last_pages)" "$kernel" "fincore(1) agrees: $kernel pages"
row=$(awk -v f="$F" '$NF == f { r = $0 } END { print r }' "$TMPD/top.out")
# its size, pages, the file's size and their share of it, as top prints them
row_re=$(awk -v n="$kernel" -v p="$page" 'BEGIN { printf "^  *%.1f KiB  *%d  *1\\.0 MiB  *%.1f%%  ",
	n * p / 1024, n, n * p * 100 / 1048576 }')
like "$row" "$row_re" "its row: $kernel pages, of 1 MiB, and their share of it"

drop_pages "$F"
wait_pages 0
is "$(last_pages)" 0 "its pages dropped: the next interval shows 0"

kill -TERM $pid
wait $pid
is "$?" 0 "top --cached, ended by SIGTERM: exit 0"
[ -s "$TMPD/top.err" ] && diag "stderr: $(cat "$TMPD/top.err")"
n=$(grep -c '^interval [0-9]*$' "$TMPD/top.out")
is "$(grep -c '^cached now: ' "$TMPD/top.out")" "$n" "a table for each of the $n intervals"
is "$("$FOLIO_TRACE" dump -t end "$TMPD/t.ftr" | wc -l)" 1 "the trace kept with -o ends cleanly"

# a table of files: not with the other views
run "$FOLIO_TRACE" top --cached --lines -n 1
is "$rc" 2 "--cached --lines: usage error"
done_testing
