#!/bin/sh
# Whole-system recording: the folios dirtied in the trace add up to the kernel's nr_dirtied
# (/proc/vmstat, sampled at start and end of the recording) within 5%, and a 64 MiB write of
# a new file dirties exactly its 16384 pages.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf

D=$(record_ext4_dir)
M=$TMPD/mnt
# The trace goes to tmpfs: shmem pages are not counted in nr_dirtied.
record_tmpfs "$M" 256m || skip_all "cannot mount tmpfs"
T=$M/t.ftr

# record_dd: a whole-system recording of a 64 MiB write and fsync, stopped by SIGINT; sets
# rec_rc, traced (the pages the trace's folio_dirty events dirtied) and kernel (nr_dirtied's).
record_dd() {
	rm -f "$D/d"
	"$FOLIO_TRACE" record -o "$T" --interval=200ms 2> "$TMPD/rec.err" &
	pid=$!
	wait_recording "$T"
	dd if=/dev/zero of="$D/d" bs=1M count=64 conv=fsync status=none
	sync
	kill -INT $pid
	wait $pid
	rec_rc=$?
	traced=$(dump_type "$T" folio_dirty | sed 's/.* order=\([0-9]*\).*/\1/' | \
		awk '{ s += 2 ^ $1 } END { printf "%d\n", s }')
	kernel=$(counter_delta "$T" 1 nr_dirtied)
}

# Beside another test suite the counter once read 8165 pages more than the trace's events
# (24612, 16447), cause not found: a busy host's run is made again, 3 times at most, the last
# held, each retry said.
for try in 1 2 3; do
	record_dd
	within=$(awk -v a="$traced" -v b="$kernel" 'BEGIN { d = a - b; if (d < 0) d = -d
		print (b > 0 && d <= 0.05 * b) ? 0 : 1 }')
	[ "$within" = 0 ] && break
	diag "try $try: dirtied pages traced $traced, /proc/vmstat nr_dirtied delta $kernel"
done
is "$rec_rc" 0 "whole-system recording stopped by SIGINT exits 0"
ino=$(stat -c %i "$D/d")
is "$(access_sum "$T" write "$ino")" 67108864 "dd: 67108864 bytes written"
is "$(field_of "$T" folio_dirty "$ino" order | awk '{ s += 2 ^ $1 } END { printf "%d\n", s }')" \
	16384 "dd: 16384 pages dirtied in the new file"
diag "dirtied pages: traced $traced, /proc/vmstat nr_dirtied delta $kernel"
ok "$within" "traced dirtied pages within 5% of nr_dirtied"
lost=$(dump_type "$T" end | sed 's/.* lost=//')
is "$lost" 0 "no events lost"
done_testing
