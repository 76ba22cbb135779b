#!/bin/sh
# Live recording on ext4: exact byte totals of dd and fio workloads, inode numbers and paths as
# stat sees them, large folios in the page cache for a sequential read of a file dropped from
# the cache.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf

D=$(record_ext4_dir)
[ "$(stat -f -c %T "$D")" = "ext2/ext3" ] || skip_all "$D is not on ext4"
T=$TMPD/t.ftr

# Sequential write: 8 MiB in 1 MiB writes.
rec "$T" -- dd if=/dev/zero of="$D/seq" bs=1M count=8 status=none
is "$rc" 0 "record -- dd write exits 0"
ino=$(stat -c %i "$D/seq")
is "$(stat -c %a "$T")" 600 "trace file is mode 0600"
is "$(access_sum "$T" write "$ino")" 8388608 "dd write: 8388608 bytes recorded"
is "$(access_count "$T" write "$ino")" 8 "dd write: 8 write calls"
is "$(access_sum "$T" read "$ino")" 0 "dd write: no reads of the output"
is "$(field_of "$T" file "$ino" path)" "$D/seq" "FT_FILE path of the output"
is "$(field_of "$T" file "$ino" dev)" "$(dev_of "$D/seq")" "FT_FILE dev matches stat"
is "$(field_of "$T" access "$ino" pos | tr '\n' ' ')" \
	"0 1048576 2097152 3145728 4194304 5242880 6291456 7340032 " "write positions"
is "$(field_of "$T" access "$ino" isize | tail -n 1)" 8388608 "i_size after the last write"
"$FOLIO_TRACE" dump "$T" > /dev/null
ok $? "trace reads back completely (clean end)"

# Sequential read of the file dropped from the cache: large folios, every page added once.
drop_pages "$D/seq"
rec "$T" -- dd if="$D/seq" of=/dev/null bs=64k status=none
is "$rc" 0 "record -- dd read exits 0"
is "$(access_sum "$T" read "$ino")" 8388608 "dd read: 8388608 bytes recorded"
is "$(access_count "$T" read "$ino")" 128 "dd read: 128 reads of 64 KiB"
is "$(pages_added "$T" "$ino")" 2048 "page cache: 2048 pages added for an 8 MiB file"
big=$(field_of "$T" pagecache_add "$ino" order | awk '$1 > 0' | wc -l)
ok "$([ "$big" -gt 0 ] && echo 0 || echo 1)" "page cache: folios of order > 0 added ($big)"
ra=$(field_of "$T" readahead "$ino" kind | wc -l)
ok "$([ "$ra" -gt 0 ] && echo 0 || echo 1)" "readahead decisions recorded ($ra)"

# fio: 4 KiB random overwrites with pwrite and an fsync every 16 writes, then preadv2 reads.
if command -v fio > /dev/null; then
	rec "$T" -- fio --name=rw --filename="$D/fio" --size=4M --bs=4k --rw=randwrite \
		--ioengine=psync --fsync=16 --output=/dev/null
	is "$rc" 0 "record -- fio randwrite exits 0"
	fino=$(stat -c %i "$D/fio")
	is "$(access_sum "$T" write "$fino")" 4194304 "fio randwrite: 4194304 bytes"
	is "$(access_count "$T" write "$fino")" 1024 "fio randwrite: 1024 pwrites"
	is "$(field_of "$T" access "$fino" flags | sort -u | tr '\n' ' ')" "- positional " \
		"fio randwrite: pwrite is positional (fsync records have no flags)"
	# fsync after every 16th write but the last (strace counts 63 too).
	is "$(access_count "$T" fsync "$fino")" 63 "fio randwrite: 63 fsyncs"
	rec "$T" -- fio --name=rd --filename="$D/fio" --size=4M --bs=16k --rw=read \
		--ioengine=pvsync2 --output=/dev/null
	is "$(access_sum "$T" read "$fino")" 4194304 "fio pvsync2 read: 4194304 bytes"
	is "$(dump_type "$T" access | grep " ino=$fino " | grep ' op=read ' | \
		sed 's/.* flags=\([^ ]*\) .*/\1/' | sort -u)" "vector,positional" \
		"fio pvsync2 read: preadv2 flags"
else
	diag "fio not installed: fio part skipped"
fi
done_testing
