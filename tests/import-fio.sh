#!/bin/sh
# import --from=fio-iolog: the captured v3 log and its v2 form, exact counts, times, errors.
. "$TOP_SRCDIR/tests/lib.sh"

ft() { "$FOLIO_TRACE" "$@"; }
D="$TOP_SRCDIR/tests/data"
count() { printf '%s\n' "$2" | awk -v t="$1" '$1 == t { n = $2 } END { print n + 0 }'; }
actions() { awk -v a="$2" -v f="$3" '$f == a { n++ } END { print n + 0 }' "$1"; }

for v in 3 2; do
	log="$D/fio-randrw-v$v.iolog"
	f=$((v == 3 ? 3 : 2))	# column of the action
	run ft import --from=fio-iolog "$log" -o "$TMPD/v$v.ftr"
	is "$rc" 0 "v$v: import succeeds"
	is "$err" "" "v$v: every line understood"
	run ft info "$TMPD/v$v.ftr"
	is "$(count read "$out")" "$(actions "$log" read $f)" "v$v: one read per read line"
	is "$(count write "$out")" "$(actions "$log" write $f)" "v$v: one write per write line"
	is "$(count fsync "$out")" "$(actions "$log" sync $f)" "v$v: one fsync per sync line"
	is "$(count file "$out")" "$(actions "$log" add $f)" "v$v: one file per add line"
done
run ft info "$TMPD/v3.ftr"
is "$(count read "$out")" 29 "v3 sample: 29 reads"
is "$(count write "$out")" 19 "v3 sample: 19 writes"
is "$(count fsync "$out")" 4 "v3 sample: 4 fsyncs"

ft dump "$TMPD/v3.ftr" > "$TMPD/v3.dump"
ft dump "$TMPD/v2.ftr" > "$TMPD/v2.dump"
grep -q 'file .*path=/tmp/imp-fio/d1$' "$TMPD/v3.dump" &&
	grep -q 'file .*path=/tmp/imp-fio/d2$' "$TMPD/v3.dump"
ok $? "file records carry fio's file names"

# v3 times are microseconds since the start, placed at 1 s.
first=$(awk '$3 == "read" || $3 == "write" { print $1; exit }' "$D/fio-randrw-v3.iolog")
got=$(awk '$2 == "access" { print $1; exit }' "$TMPD/v3.dump")
is "$got" $((1000000000 + first * 1000)) "v3: first access at 1 s + $first us"
# Same operations, same order, whatever the version.
strip() { awk '$2 == "access" { $1 = ""; print }' "$1"; }
strip "$TMPD/v3.dump" > "$TMPD/v3.ops"
strip "$TMPD/v2.dump" > "$TMPD/v2.ops"
cmp -s "$TMPD/v3.ops" "$TMPD/v2.ops"
ok $? "v2 and v3 forms give the same accesses"

ft import --from=fio-iolog --direct "$D/fio-randrw-v3.iolog" -o "$TMPD/direct.ftr"
run ft info "$TMPD/direct.ftr"
bytes=$(awk '$3 == "read" || $3 == "write" { n += $5 } END { print n }' "$D/fio-randrw-v3.iolog")
like "$out" "of which O_DIRECT *$bytes bytes" "--direct marks all $bytes bytes O_DIRECT"

# Bad lines.
printf 'fio version 3 iolog\n5 /x add\n6 /x read 0 4096\n7 /y read 0 1\nbogus\n8 /x wait 10 0\n9 /x frob 1 2\n10 /x read a b\n11 /x close\n' > "$TMPD/bad.iolog"
run ft import --from=fio-iolog "$TMPD/bad.iolog" -o "$TMPD/bad.ftr"
is "$rc" 0 "bad fio lines without --strict: exit 0"
like "$err" "bad.iolog:4: file /y used before its 'add' line" \
	"I/O on a file never added: reported with line 4"
like "$err" "bad.iolog:6: 'wait' is not allowed in a version 3 iolog" \
	"v3 wait: reported with line 6"
like "$err" "bad.iolog:7: unknown fio action 'frob'" "unknown action: reported with line 7"
like "$err" "5 of 9 lines skipped" "summary: 5 of 9 lines skipped"
run ft info "$TMPD/bad.ftr"
is "$(count read "$out")" 1 "the one good read is kept"

run ft import --from=fio-iolog --strict "$TMPD/bad.iolog" -o "$TMPD/strict.ftr"
is "$rc" 1 "--strict: exit 1"
[ ! -e "$TMPD/strict.ftr" ]
ok $? "--strict: no output left behind"

printf 'fio version 2 iolog\n/x add\n/x read 0 4096\n/x wait 500000 0\n/x read 4096 4096\n' > "$TMPD/wait.iolog"
ft import --from=fio-iolog "$TMPD/wait.iolog" -o "$TMPD/wait.ftr"
run ft info "$TMPD/wait.ftr"
like "$out" '^duration: *0.500002 s' "v2 wait of 500000 us moves time by 0.5 s"

printf 'fio version 3 iolog\n1 /x add\n2 /x write 0 8192\n3 /x datasync 0 0\n4 /x trim 0 4096\n' \
	> "$TMPD/trim.iolog"
ft import --from=fio-iolog "$TMPD/trim.iolog" -o "$TMPD/trim.ftr"
run ft dump "$TMPD/trim.ftr"
like "$out" 'op=fdatasync dev=8:1 ino=1000 pos=0 len=0 isize=8192' \
	"datasync: fdatasync of the whole file"
like "$out" 'op=fallocate dev=8:1 ino=1000 pos=0 len=4096 isize=8192 .*arg=3' \
	"trim: fallocate punching a hole (mode 3) over the trimmed range"

printf '8 /x read 0 4096\n' > "$TMPD/nohdr.iolog"
run ft import --from=fio-iolog "$TMPD/nohdr.iolog" -o "$TMPD/x.ftr"
is "$rc" 1 "no iolog header: exit 1"
like "$err" "nohdr.iolog:1: not a fio iolog" "no iolog header: says so"

done_testing
