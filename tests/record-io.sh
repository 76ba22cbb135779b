#!/bin/sh
# Reads and writes that do not go through read(2)/write(2): io_uring (fio's io_uring engine,
# plain and fixed buffers), Linux AIO (fio's libaio), copy_file_range (cp, Python), sendfile and
# splice (Python), each on the right file with the exact bytes; and the fadvise and madvise
# hints with the file ranges they name.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
command -v fio > /dev/null || skip_all "fio not installed"
command -v python3 > /dev/null || skip_all "python3 not installed"

D=$(record_ext4_dir)
T=$TMPD/t.ftr
F=$D/f
MIB8=8388608

# distinct_pos TRACE OP INO: how many different positions, and the largest.
distinct_pos() {
	access_fields "$1" "$2" "$3" | awk '{ if (!seen[$1]++) n++; if ($1 > m) m = $1 }
		END { printf "%d %d\n", n, m }'
}

fio_job() {	# fio_job ENGINE RW [OPTION...]
	e=$1
	rw=$2
	shift 2
	rec "$T" -- fio --name=io --filename="$F" --size=8M --bs=4k --rw="$rw" --ioengine="$e" \
		--iodepth=8 --invalidate=0 --output=/dev/null "$@"
}

if fio --enghelp=io_uring > /dev/null 2>&1 && \
	[ "$(cat /proc/sys/kernel/io_uring_disabled 2> /dev/null || echo 0)" -eq 0 ]; then
	fio_job io_uring randwrite
	is "$rc" 0 "record -- fio io_uring randwrite exits 0"
	ino=$(stat -c %i "$F")
	is "$(via_sum "$T" write "$ino" 1)" "$MIB8" "io_uring: 8 MiB written"
	is "$(access_count "$T" write "$ino")" 2048 "io_uring: 2048 writes, none twice"
	is "$(distinct_pos "$T" write "$ino")" "2048 8384512" \
		"io_uring: every 4 KiB block once, at its offset"
	fio_job io_uring randread
	is "$(via_sum "$T" read "$ino" 1)" "$MIB8" "io_uring: 8 MiB read"
	is "$(distinct_pos "$T" read "$ino")" "2048 8384512" "io_uring: every block read once"
	fio_job io_uring randread --fixedbufs=1
	is "$(via_sum "$T" read "$ino" 1)" "$MIB8" "io_uring fixed buffers: 8 MiB read"
	fio_job io_uring randwrite --direct=1
	is "$(via_sum "$T" write "$ino" 1)" "$MIB8" "io_uring O_DIRECT: 8 MiB written"
	is "$(access_fields "$T" write "$ino" | awk '{ print $3 }' | sort -u)" "direct" \
		"io_uring O_DIRECT: the direct flag"
else
	diag "io_uring: not available here (fio engine or kernel.io_uring_disabled)"
fi

if fio --enghelp=libaio > /dev/null 2>&1; then
	rm -f "$F"
	fio_job libaio randwrite
	is "$rc" 0 "record -- fio libaio randwrite exits 0"
	ino=$(stat -c %i "$F")
	is "$(via_sum "$T" write "$ino" 2)" "$MIB8" "AIO: 8 MiB written"
	is "$(distinct_pos "$T" write "$ino")" "2048 8384512" "AIO: every block once, at its offset"
	is "$(access_fields "$T" write "$ino" | awk '{ print $3 }' | sort -u)" "positional" \
		"AIO: positional"
	fio_job libaio randread
	is "$(via_sum "$T" read "$ino" 2)" "$MIB8" "AIO: 8 MiB read"
else
	diag "libaio: fio was built without it"
fi

# cp: coreutils 9 copies with copy_file_range (older ones read and write: either way the
# bytes are the file's, once on each side).
head -c 3145851 /dev/urandom > "$D/src"
rec "$T" -- cp "$D/src" "$D/dst"
is "$rc" 0 "record -- cp exits 0"
sino=$(stat -c %i "$D/src")
dino=$(stat -c %i "$D/dst")
is "$(access_sum "$T" read "$sino")" 3145851 "cp: the source read once"
is "$(access_sum "$T" write "$dino")" 3145851 "cp: the copy written once"
is "$(access_sum "$T" write "$sino")" 0 "cp: nothing written to the source"
diag "cp copied through interface $(access_fields "$T" write "$dino" | awk '{ print $4 }' | sort -u)"

# Python: copy_file_range, sendfile (with an offset and from the file position) and splice
# through a pipe, with the byte counts the calls returned; fadvise; madvise of a file mapping
# (at file offset 8192, advised from 4096 into it) and of anonymous memory (shared anonymous
# memory is a shmem file, but of no path: not a file mapping).
rec "$T" -- python3 -c "
import mmap, os
src = os.open('$D/src', os.O_RDONLY)
out = os.open('$D/out', os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
print('cfr', os.copy_file_range(src, out, 200000, 0, 1000))
print('sf1', os.sendfile(out, src, 4096, 100000))
os.lseek(src, 8192, os.SEEK_SET)
print('sf2', os.sendfile(out, src, None, 5000))
r, w = os.pipe()
n = os.splice(src, w, 65536, offset_src=12288)
print('sp1', n)
print('sp2', os.splice(r, out, n, offset_dst=4096))
os.posix_fadvise(src, 4096, 8192, os.POSIX_FADV_WILLNEED)
m = mmap.mmap(src, 65536, prot=mmap.PROT_READ, offset=8192)
m.madvise(mmap.MADV_WILLNEED, 4096, 8192)
for flags in (mmap.MAP_PRIVATE, mmap.MAP_SHARED):
    a = mmap.mmap(-1, 65536, flags=flags | mmap.MAP_ANONYMOUS)
    a.madvise(mmap.MADV_WILLNEED)
"
is "$rc" 0 "record -- python3 (copies and hints) exits 0"
oino=$(stat -c %i "$D/out")
res=$(cat "$TMPD/rec.out")
cfr=$(echo "$res" | sed -n 's/^cfr //p')
sf1=$(echo "$res" | sed -n 's/^sf1 //p')
sf2=$(echo "$res" | sed -n 's/^sf2 //p')
sp=$(echo "$res" | sed -n 's/^sp1 //p')
is "$(access_fields "$T" read "$sino" | grep ' 3$')" "0 $cfr positional 3" \
	"copy_file_range: source range, positional"
is "$(access_fields "$T" write "$oino" | grep ' 3$')" "1000 $cfr positional 3" \
	"copy_file_range: destination range"
is "$(access_fields "$T" read "$sino" | grep ' 4$' | tr '\n' ';')" \
	"4096 $sf1 positional 4;8192 $sf2 - 4;" \
	"sendfile: with an offset, then from the file position"
# copy_file_range with an offset left the destination's file position at 0
is "$(access_fields "$T" write "$oino" | grep ' 4$' | tr '\n' ';')" "0 $sf1 - 4;$sf1 $sf2 - 4;" \
	"sendfile: the destination written at its file position"
is "$(access_fields "$T" read "$sino" | grep ' 5$')" "12288 $sp positional 5" \
	"splice: the file side of file -> pipe"
is "$(access_fields "$T" write "$oino" | grep ' 5$')" "4096 $sp positional 5" \
	"splice: the file side of pipe -> file"
is "$(access_fields "$T" fadvise "$sino")" "4096 8192 - 3" "fadvise: range and POSIX_FADV_WILLNEED"
is "$(access_fields "$T" madvise "$sino")" "12288 8192 - 3" \
	"madvise: the file range the advised addresses map, MADV_WILLNEED"
is "$(dump_type "$T" access | grep -c ' op=madvise ')" 1 \
	"madvise of anonymous memory, private or shared: no record"
done_testing
