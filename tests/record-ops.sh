#!/bin/sh
# Every recorded syscall with its arguments: pwrite/pwritev, pread/preadv, fsync, fdatasync,
# sync_file_range, ftruncate, fallocate, mmap reads and writes, msync, io_uring's syncs and
# advice, and the unlink of the file.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
command -v xfs_io > /dev/null || skip_all "xfs_io (xfsprogs) not installed"

D=$(record_ext4_dir)
T=$TMPD/t.ftr
F=$D/ops
touch "$F"
ino=$(stat -c %i "$F")

# xfs_io keeps a -V setting for later commands: the plain pread comes first.
rec "$T" -- xfs_io -c "pwrite -q -b 65536 0 1m" -c "pread -q -b 4096 0 8192" \
	-c "pread -q -V 2 -b 4096 0 16384" -c "pwrite -q -V 4 -b 4096 1m 64k" -c fsync -c fdatasync \
	-c "sync_range -w 0 4096" -c "truncate 500000" -c "falloc 4096 1m" \
	-c "mmap -r 0 64k" -c "mread 0 65536" "$F"
is "$rc" 0 "record -- xfs_io exits 0"
is "$(access_sum "$T" write "$ino")" 1114112 "writes: 1 MiB pwrite + 64 KiB pwritev"
is "$(access_count "$T" write "$ino")" 20 "writes: 16 pwrite + 4 pwritev"
vec=$(dump_type "$T" access | grep " ino=$ino " | grep " op=write " | grep -c 'flags=vector,positional')
is "$vec" 4 "pwritev carries the vector flag"
is "$(access_sum "$T" read "$ino")" 24576 "reads: 8 KiB + 16 KiB"
is "$(access_count "$T" fsync "$ino")" 1 "one fsync"
is "$(access_count "$T" fdatasync "$ino")" 1 "one fdatasync"
is "$(dump_type "$T" access | grep " ino=$ino " | grep ' op=sync_range ' | \
	sed 's/.* pos=\([0-9]*\) len=\([0-9]*\) .* arg=\([0-9]*\).*/\1 \2 \3/')" "0 4096 2" \
	"sync_file_range: offset 0, 4096 bytes, SYNC_FILE_RANGE_WRITE"
is "$(access_sum "$T" truncate "$ino" pos)" 500000 "ftruncate to 500000"
is "$(dump_type "$T" access | grep " ino=$ino " | grep ' op=fallocate ' | \
	sed 's/.* pos=\([0-9]*\) len=\([0-9]*\) isize=\([0-9]*\) .* arg=\([0-9]*\).*/\1 \2 \3 \4/')" \
	"4096 1048576 1052672 0" "fallocate: offset, length, new i_size, mode"
m=$(access_sum "$T" mmap_read "$ino")
ok "$([ "$m" -ge 65536 ] && echo 0 || echo 1)" "mmap reads cover the 64 KiB read ($m bytes)"

# Writes through a shared mapping: one mmap_write per folio the fault dirties; msync cleans
# them, so the second pass over the 16 pages dirties them again. msync(MS_SYNC) (mmap's
# flush()) is vfs_fsync_range() of the mapped range (mm/msync.c): an fdatasync of it, which
# the replay writes back (before it was not recorded, and the replay wrote nothing back).
if command -v python3 > /dev/null; then
	truncate -s 64k "$D/mw"
	mino=$(stat -c %i "$D/mw")
	rec "$T" -- python3 -c "
import mmap, os
fd = os.open('$D/mw', os.O_RDWR)
m = mmap.mmap(fd, 65536, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE)
for i in range(16):
    m[i * 4096] = 65
m.flush()
for i in range(16):
    m[i * 4096 + 1] = 66
m.close()"
	is "$(access_sum "$T" mmap_write "$mino")" 131072 "mmap writes: 2 x 64 KiB dirtied by faults"
	is "$(access_fields "$T" fdatasync "$mino")" "0 65536 - 0" \
		"msync(MS_SYNC): an fdatasync of the mapped 64 KiB"
	is "$("$FOLIO_TRACE" replay --metrics=wb_fsync_bytes --format=csv "$T" |
		awk -F, 'END { print $NF }')" 65536 "the replay writes the 64 KiB back at the msync"
	rec "$T" -- dd if=/dev/zero of="$D/mw" bs=4k count=4 conv=notrunc status=none
	is "$(access_count "$T" mmap_write "$mino")" 0 "write(2) is never taken for an mmap write"
	is "$(access_sum "$T" write "$mino")" 16384 "write(2) recorded as write"
fi

# truncate(2) by path (resolved in user space).
if command -v python3 > /dev/null; then
	rec "$T" -- python3 -c "import os; os.truncate('$F', 123456)"
	is "$(access_sum "$T" truncate "$ino" pos)" 123456 "truncate(2) by path: new size"
	is "$(access_count "$T" truncate "$ino")" 1 "truncate(2) by path: one record"
fi

# io_uring's syncs and advice, recorded at their completion as the calls of the same names
# (ftload uring-sync): 8 MiB written, then an FSYNC of the first half with
# IORING_FSYNC_DATASYNC (io_fsync(): vfs_fsync_range() of it), a FADVISE POSIX_FADV_DONTNEED
# and an FSYNC of the whole file. DONTNEED drops the clean half, and whatever of the other the
# writeback it starts has finished by then in the kernel: the replay, which writes back only
# the range of the first sync, drops that half (a sync of the whole file would have cleaned
# all 8 MiB for it to drop).
ftload=$TOP_BUILDDIR/tests/lab/ftload
U=$D/uring-sync
rec "$T" -- "$ftload" uring-sync "$U" 8M
if [ ! -x "$ftload" ] || echo "$err" | grep -q "cannot set up io_uring"; then
	for i in 1 2 3 4 5 6; do
		skip "ftload not built or io_uring not available here"
	done
else
	uino=$(stat -c %i "$U")
	is "$rc" 0 "record -- ftload uring-sync exits 0"
	is "$(access_fields "$T" fdatasync "$uino")" "0 4194304 - 0" \
		"io_uring FSYNC with IORING_FSYNC_DATASYNC: an fdatasync of the first 4 MiB"
	is "$(access_fields "$T" fadvise "$uino")" "0 0 - 4" \
		"io_uring FADVISE: a POSIX_FADV_DONTNEED of the file"
	is "$(access_fields "$T" fsync "$uino")" "0 0 - 0" "io_uring FSYNC: an fsync of the file"
	dropped=$("$FOLIO_TRACE" replay --metrics=dontneed_pages --format=csv "$T" |
		awk -F, 'END { print $NF }')
	is "$dropped" 1024 "the replay drops the 4 MiB the first sync wrote back"
	kernel=$(field_of "$T" pagecache_delete "$uino" order |
		awk '{ s += 2 ^ $1 } END { printf "%d\n", s }')
	ok "$([ "$kernel" -ge 1024 ] && [ "$kernel" -le 2048 ] && echo 0 || echo 1)" \
		"the kernel's DONTNEED dropped that half and no more than the file ($kernel pages)"
fi
rm -f "$U"

# Deleting the file: its cache goes with the last link.
rec "$T" -- rm "$F"
is "$rc" 0 "record -- rm exits 0"
is "$(access_count "$T" unlink "$ino")" 1 "unlink recorded once for the inode"
d=$(field_of "$T" pagecache_delete "$ino" index | wc -l)
ok "$([ "$d" -gt 0 ] && echo 0 || echo 1)" "its page-cache folios are deleted ($d)"
done_testing
