#!/bin/sh
# import --from=ftrace on the captured samples: exact counts per record type, the same buffer
# in trace_pipe and trace-cmd layout gives the same records, bad lines reported, --strict.
. "$TOP_SRCDIR/tests/lib.sh"

ft() { "$FOLIO_TRACE" "$@"; }
D="$TOP_SRCDIR/tests/data"
count() { printf '%s\n' "$2" | awk -v t="$1" '$1 == t { n = $2 } END { print n + 0 }'; }
events() { grep -c -E "(^|[ :])($2):" "$1"; }	# lines of these events in a sample

for s in trace-pipe trace-cmd perf; do
	gzip -dc "$D/ftrace-$s.txt.gz" > "$TMPD/$s.txt"
	run ft import --from=ftrace -o "$TMPD/$s.ftr" - < "$TMPD/$s.txt"
	is "$rc" 0 "$s: import from stdin succeeds"
	is "$err" "" "$s: every line understood"
	run ft info "$TMPD/$s.ftr"
	t="$TMPD/$s.txt"
	is "$(count pagecache_add "$out")" "$(events "$t" mm_filemap_add_to_page_cache)" \
		"$s: one pagecache_add per mm_filemap_add_to_page_cache line"
	is "$(count pagecache_delete "$out")" "$(events "$t" mm_filemap_delete_from_page_cache)" \
		"$s: one pagecache_delete per delete line"
	is "$(count folio_dirty "$out")" "$(events "$t" writeback_dirty_folio)" \
		"$s: one folio_dirty per writeback_dirty_folio line"
	is "$(count access "$out")" \
		"$(events "$t" 'mm_filemap_get_pages|mm_filemap_map_pages|mm_filemap_fault')" \
		"$s: one access per get_pages, map_pages and fault line"
	is "$(count vmscan "$out")" "$(events "$t" 'mm_vmscan_[a-z_]*')" \
		"$s: one vmscan record per vmscan line"
	is "$(count writeback "$out")" "$(events "$t" 'writeback_written|writeback_single_inode')" \
		"$s: one writeback record per writeback_written/single_inode line"
	like "$out" '(synthetic)' "$s: host record marked synthetic"
done

# The exact numbers of the committed trace_pipe sample (counted by hand with grep).
run ft info "$TMPD/trace-pipe.ftr"
is "$(count pagecache_add "$out")" 1000 "trace-pipe sample: 1000 page-cache adds"
is "$(count access "$out")" 28 "trace-pipe sample: 28 accesses"
is "$(count file "$out")" 3 "trace-pipe sample: 3 files"

# trace_pipe and trace-cmd report of one buffer: the very same records.
ft dump "$TMPD/trace-pipe.ftr" > "$TMPD/pipe.dump"
ft dump "$TMPD/trace-cmd.ftr" > "$TMPD/cmd.dump"
cmp -s "$TMPD/pipe.dump" "$TMPD/cmd.dump"
ok $? "trace_pipe and trace-cmd layouts of one buffer import identically"

# Field values of the first page-cache add, straight from its line.
line=$(grep -m1 'mm_filemap_add_to_page_cache:' "$TMPD/trace-pipe.txt")
ino_hex=$(printf '%s\n' "$line" | sed 's/.* ino \([0-9a-f]*\) .*/\1/')
ofs=$(printf '%s\n' "$line" | sed 's/.* ofs=\([0-9]*\) .*/\1/')
order=$(printf '%s\n' "$line" | sed 's/.* order=\([0-9]*\).*/\1/')
want="ino=$(printf '%d' "0x$ino_hex") index=$((ofs / 4096))"
got=$(grep -m1 ' pagecache_add ' "$TMPD/pipe.dump")
like "$got" "$want" "first add: decimal inode and page index from hex ino and byte ofs ($want)"
like "$got" "order=$order" "first add: order $order kept"

# Bad and unsupported lines: counted, the first five shown with line numbers, never fatal...
{
	head -3 "$TMPD/trace-pipe.txt"
	echo "this is not an ftrace line"
	echo "  cat-1 [000] 5.000001: sched_switch: prev_comm=cat"
	echo "  cat-1 [000] 5.000002: mm_filemap_add_to_page_cache: dev 8:1 ino zz"
	echo "  cat-1 [000] 5.000003: mm_filemap_get_pages: dev=8:1 ino=10 ofs=9-1"
	echo "  cat-1 [000] 5.000004: writeback_dirty_folio: bdi 8:1: index=3"
	echo "  cat-1 [000] 5.000005: mm_vmscan_lru_isolate: order=0"
	echo "CPU:1 [LOST 42 EVENTS]"
} > "$TMPD/bad.txt"
run ft import --from=ftrace -o "$TMPD/bad.ftr" "$TMPD/bad.txt"
is "$rc" 0 "bad lines without --strict: exit 0"
like "$err" "bad.txt:4: no \[CPU\] column" "bad line reported with its number (line 4)"
like "$err" "bad.txt:5: unsupported event sched_switch" \
	"unsupported event reported with its number (line 5)"
like "$err" "bad.txt:8: writeback_dirty_folio: expected ino and index" \
	"malformed fields reported (line 8)"
is "$(printf '%s\n' "$err" | grep -c 'bad.txt:[0-9]*:')" 5 "only the first 5 bad lines shown"
like "$err" "6 of 10 lines skipped as bad or unsupported (5 shown)" "summary counts all 6 bad lines"
run ft info "$TMPD/bad.ftr"
is "$(count lost "$out")" 1 "LOST line becomes a lost record"
like "$out" '^lost: *42' "... counting 42 events"

# ... unless --strict: the first one stops the import, exit 1, no output left behind.
run ft import --from=ftrace --strict -o "$TMPD/strict.ftr" "$TMPD/bad.txt"
is "$rc" 1 "--strict: exit 1"
like "$err" "bad.txt:4: no \[CPU\] column.*(--strict)" "--strict: names the line"
[ ! -e "$TMPD/strict.ftr" ]
ok $? "--strict: no half-written output"

run ft import --from=ftrace -o "$TMPD/x.ftr" "$TMPD/no-such-file"
is "$rc" 1 "missing input: exit 1"
run ft import --from=nosuch -o "$TMPD/x.ftr" "$TMPD/bad.txt"
is "$rc" 2 "unknown format: exit 2"
run ft import "$TMPD/bad.txt" -o "$TMPD/x.ftr"
is "$rc" 2 "no --from: exit 2"

# A range to the last byte has no byte count: a bad line, never a 0-byte read.
{
	head -3 "$TMPD/trace-pipe.txt"
	echo "  cat-1 [000] 5.000003: mm_filemap_get_pages: dev=8:1 ino=10 ofs=0-18446744073709551615"
	echo "  cat-1 [000] 5.000004: mm_filemap_fault: dev=8:1 ino=10 ofs=18446744073709551615"
} > "$TMPD/ofs.txt"
run ft import --from=ftrace --strict -o "$TMPD/ofs.ftr" "$TMPD/ofs.txt"
like "$rc:$err" "^1:.*ofs.txt:4: mm_filemap_get_pages: ofs=0-18446744073709551615: past the largest offset" \
	"ofs=0-(2^64-1): an error naming the line"
run ft import --from=ftrace -o "$TMPD/ofs.ftr" "$TMPD/ofs.txt"
like "$err" "ofs.txt:5: mm_filemap_fault: ofs=18446744073709551615: past the largest offset" \
	"a fault at the last offset: a bad line too"
is "$(ft dump --type=access "$TMPD/ofs.ftr" 2> /dev/null | grep -c ' len=0 ')" 0 \
	"no 0-byte read written"

# A line longer than 64 KiB (a file without newlines: /dev/zero) is refused at once, naming
# the file and line, in every text format, in bounded memory.
for f in ftrace fio-iolog csv; do
	run timeout 60 "$FOLIO_TRACE" import --from=$f -o "$TMPD/z.ftr" /dev/zero
	is "$rc:$err" "1:folio-trace: /dev/zero:1: a line longer than 65536 bytes: refused (no format imported has one)" \
		"$f: /dev/zero refused at its first line"
done
{ head -3 "$TMPD/trace-pipe.txt"; head -c 70000 /dev/zero | tr '\0' x; echo; } > "$TMPD/long.txt"
run ft import --from=ftrace -o "$TMPD/z.ftr" "$TMPD/long.txt"
like "$rc:$err" "^1:.*long.txt:4: a line longer than 65536 bytes" "a long line in a file: its number"
ok "$([ ! -e "$TMPD/z.ftr" ]; echo $?)" "nothing written"

# An empty input is an error in every format, and writes nothing.
: >"$TMPD/empty"
for f in ftrace fio-iolog csv oraclegeneral; do
	rm -f "$TMPD/e.ftr"
	run ft import --from=$f -o "$TMPD/e.ftr" "$TMPD/empty"
	is "$rc:$(printf '%s\n' "$err" | wc -l)" "1:1" "$f: empty input: exit 1, one line"
	like "$err" "empty.*empty input" "$f: the message names the file and says it is empty"
	ok $([ ! -e "$TMPD/e.ftr" ] && echo 0 || echo 1) "$f: empty input: no trace written"
done
run sh -c "ft() { '$FOLIO_TRACE' \"\$@\"; }; : | ft import --from=ftrace -o '$TMPD/e.ftr' -"
is "$rc" 1 "empty standard input: exit 1"

# ftrace text without the access events: imported, saying why there are no accesses.
grep -v -E 'mm_filemap_(get_pages|map_pages|fault):' "$TMPD/trace-pipe.txt" >"$TMPD/noacc.txt"
run ft import --from=ftrace -o "$TMPD/noacc.ftr" "$TMPD/noacc.txt"
is "$rc" 0 "no access events: still imported"
like "$err" "noacc.txt: no mm_filemap_get_pages, mm_filemap_map_pages or mm_filemap_fault events: the trace holds no accesses" \
	"no access events: stderr says why there are no accesses"
run ft replay "$TMPD/noacc.ftr"
like "$out" "^no accesses in the trace: every figure below is 0 or -;" \
	"no access events: the replay's table says it is empty"
like "$(printf '%s\n' "$out" | sed -n '/^no accesses/,/import(1))$/p' | tr -s ' \n' '  ')" \
	"a trace imported from ftrace needs the mm_filemap_get_pages, map_pages or fault events" \
	"no access events: and why"
run ft replay "$TMPD/trace-pipe.ftr"
is "$(printf '%s\n' "$out" | grep -c '^no accesses')" 0 "with accesses: no such line"
run ft import --from=ftrace -o "$TMPD/pipe2.ftr" "$TMPD/trace-pipe.txt"
is "$err" "" "with access events: no such line"

done_testing
