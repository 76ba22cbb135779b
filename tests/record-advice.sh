#!/bin/sh
# Live: posix_fadvise and madvise recorded, then replayed as the recording kernel did them. A
# 64 MiB file on ext4 and xfs (loop devices with read_ahead_kb 128 and max_sectors_kb 1280, the
# kernel's defaults), cold, gets advice and reads or loads from a mapping (tests/advise); a
# replay with no options adds exactly the folios, order by order, that this kernel added
# (mm_filemap_add_to_page_cache), and drops the pages DONTNEED dropped. On a tmpfs mounted
# huge=advise the advice is recorded; shmem adds its folios without that tracepoint, so there
# is nothing of the kernel's to hold the replay to.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
command -v python3 > /dev/null || skip_all "python3 not installed"
ADVISE=$TOP_BUILDDIR/tests/advise
[ -x "$ADVISE" ] || skip_all "tests/advise not built"

# pages_deleted TRACE INO: pages that left the cache (sum of 2^order over pagecache_delete).
pages_deleted() {
	field_of "$1" pagecache_delete "$2" order | awk '{ s += 2 ^ $1 } END { printf "%d\n", s }'
}

# replay_metrics TRACE: "ORDER:COUNT ... | dontneed_pages advice_calls" of the default replay's
# last model, the recorded kernel's order (the first is base pages, to compare with).
replay_metrics() {
	"$FOLIO_TRACE" replay --format=json "$1" | python3 -c '
import json, sys
m = json.load(sys.stdin)["configurations"][-1]["metrics"]
c = m["insertions_by_order"]
print("".join("%d:%d " % (o, n) for o, n in enumerate(c) if n) +
      "| %d %d" % (m["dontneed_pages"], m["advice_calls"]))'
}

# advised NAME CALLS STEP...: tests/advise on the cold file $F (ino $ino) recorded; the replay
# adds the kernel's folios order by order and drops as many pages; CALLS advice calls.
advised() {
	name=$1
	calls=$2
	shift 2
	# Pages the kernel dropped beyond what the replay drops came from someone else (reclaim
	# under a busy host, a drop_caches by another program): the recording is made again, 3 times
	# at most; the checks below then hold the last one to the replay.
	for try in 1 2 3; do
		# cold: DONTNEED drops every clean page of the file (no other file's cache)
		"$ADVISE" "$F" fd:0:0
		rec "$TMPD/t.ftr" --dev="$M" -- "$ADVISE" "$F" "$@"
		r=$(replay_metrics "$TMPD/t.ftr")
		dropped=$(pages_deleted "$TMPD/t.ftr" "$ino")
		r_dropped=${r#*| }
		[ "$dropped" -le "${r_dropped% *}" ] && break
		diag "$fs, $name: the kernel dropped $dropped pages, the replay ${r_dropped% *}:" \
			"someone else's reclaim (try $try)"
	done
	is "$rc" 0 "$fs, $name: record -- advise exits 0"
	k=$(kernel_orders "$TMPD/t.ftr" "$ino")
	ok "$([ -n "$k" ] && echo 0 || echo 1)" "$fs, $name: the kernel's folios recorded"
	diag "$fs, $name ($*): kernel ${k}| $dropped dropped; replay $r"
	is "${r%%|*}" "$k" "$fs, $name: the default replay adds the kernel's folios, order by order"
	is "$r_dropped" "$dropped $calls" \
		"$fs, $name: the replay drops the pages the kernel dropped; $calls advice calls"
}

D=$(record_ext4_dir)
for fs in ext4 xfs; do
	command -v "mkfs.$fs" > /dev/null || { ok 1 "mkfs.$fs installed"; continue; }
	if ! mkfs_loop "$fs"; then
		ok 1 "$fs on a loop device"
		continue
	fi
	M=$D/$fs
	F=$M/f
	dd if=/dev/urandom of="$F" bs=1M count=64 status=none && sync
	ino=$(stat -c %i "$F")

	# FADV_WILLNEED of 8 MiB reads io_pages (320) base pages; 16 MiB read in 128 KiB reads
	# then; FADV_DONTNEED of the first 4 MiB and the first 8 MiB read again.
	advised "fadvise WILLNEED, DONTNEED" 2 fw:0:8M rd:0:16M fd:0:4M rd:0:8M
	is "$(access_fields "$TMPD/t.ftr" fadvise "$ino" | tr '\n' ';')" \
		"0 8388608 - 3;0 4194304 - 4;" "$fs: fadvise records: ranges, WILLNEED and DONTNEED"
	# MADV_WILLNEED of a mapping is FADV_WILLNEED of its file range; loads fault it in.
	# readahead(2) of 8 MiB: ksys_readahead() is a POSIX_FADV_WILLNEED (mm/readahead.c, 6.1 to
	# 6.18); then 16 MiB read in 128 KiB reads
	advised "readahead(2)" 1 ra:0:8M rd:0:16M
	is "$(access_fields "$TMPD/t.ftr" fadvise "$ino")" "0 8388608 - 3" \
		"$fs: readahead(2) recorded as a POSIX_FADV_WILLNEED of its range"
	advised "madvise WILLNEED" 1 mw:16M:8M ld:16M:8M
	is "$(access_fields "$TMPD/t.ftr" madvise "$ino")" "16777216 8388608 - 3" \
		"$fs: madvise record: the file range, MADV_WILLNEED"
	# MADV_HUGEPAGE: a fault reads two PMD folios, the second marked for readahead.
	advised "madvise HUGEPAGE" 1 mh:0:0 ld:32M:8M
	is "$(access_fields "$TMPD/t.ftr" madvise "$ino")" "0 67108864 - 14" \
		"$fs: madvise record: the whole file, MADV_HUGEPAGE"
	advised "fadvise RANDOM" 1 fr:0:0 rd:0:4M
	advised "fadvise SEQUENTIAL" 1 fs:0:0 rd:0:8M
	advised "madvise RANDOM" 1 mr:0:0 ld:0:1M
	advised "madvise SEQUENTIAL" 1 ms:0:0 ld:0:1M
done

# tmpfs huge=advise: a file's hole loaded through an MADV_HUGEPAGE mapping gets PMD folios
# and MADV_WILLNEED of a shmem mapping reads nothing from a device.
M=$TMPD/tmpfs
if mkdir -p "$M" && mount -t tmpfs -o size=64m,huge=advise ft-test "$M" 2> /dev/null; then
	echo "$M" >> "$TMPD/cleanup-mounts"
	F=$M/f
	dd if=/dev/zero of="$F" bs=1M count=8 status=none && truncate -s 32M "$F"
	ino=$(stat -c %i "$F")
	rec "$TMPD/t.ftr" --dev="$M" -- "$ADVISE" "$F" mh:0:0 ld:16M:8M mw:0:8M
	is "$rc" 0 "tmpfs huge=advise: record -- advise exits 0"
	is "$(access_fields "$TMPD/t.ftr" madvise "$ino" | tr '\n' ';')" \
		"0 33554432 - 14;0 8388608 - 3;" \
		"tmpfs huge=advise: madvise records: HUGEPAGE of the file, WILLNEED of 8 MiB"
	# FT_HUGE_ADVISE = 4
	is "$("$FOLIO_TRACE" dump -t device "$TMPD/t.ftr" | grep -c " dev=$(dev_of "$F") .* huge=4 ")" \
		1 "tmpfs huge=advise: its device record says huge=advise"
	diag "tmpfs: shmem adds folios without mm_filemap_add_to_page_cache" \
		"($(field_of "$TMPD/t.ftr" pagecache_add "$ino" order | wc -l) recorded): no kernel" \
		"orders to compare with"
else
	diag "tmpfs huge=advise: cannot mount here"
fi
done_testing
