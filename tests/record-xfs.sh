#!/bin/sh
# Live recording on xfs (loop device): exact byte totals, iomap writeback bytes, large folios.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
command -v mkfs.xfs > /dev/null || skip_all "mkfs.xfs not installed"
grep -qw xfs /proc/filesystems || modprobe xfs 2> /dev/null || skip_all "no xfs in this kernel"

D=$(record_ext4_dir)
truncate -s 320M "$D/img"
mkfs.xfs -q "$D/img" || skip_all "mkfs.xfs failed"
L=$(losetup -f --show "$D/img") || skip_all "no loop device"
echo "$L" >> "$TMPD/cleanup-loops"
mkdir -p "$D/mnt"
mount -t xfs "$L" "$D/mnt" || skip_all "cannot mount xfs"
echo "$D/mnt" >> "$TMPD/cleanup-mounts"
T=$TMPD/t.ftr

rec "$T" -- dd if=/dev/zero of="$D/mnt/f" bs=1M count=8 conv=fsync status=none
is "$rc" 0 "record -- dd write on xfs exits 0"
ino=$(stat -c %i "$D/mnt/f")
is "$(access_sum "$T" write "$ino")" 8388608 "xfs write: 8388608 bytes"
is "$(access_count "$T" fsync "$ino")" 1 "xfs write: one fsync (conv=fsync)"
is "$(field_of "$T" file "$ino" dev)" "$(dev_of "$D/mnt/f")" "xfs: dev matches stat"
is "$(field_of "$T" file "$ino" path)" "$D/mnt/f" "xfs: path under the mount point"
# iomap hands each dirty folio to writeback with its byte length: the whole file, once.
wb=$(dump_type "$T" writeback | awk -v ino="$ino" '
	$0 ~ (" ino=" ino " ") && $0 ~ / kind=4 / { for (i = 3; i <= NF; i++) if ($i ~ /^nr_pages=/) { sub(/^nr_pages=/, "", $i); s += $i } }
	END { printf "%d\n", s }')
is "$wb" 8388608 "xfs: iomap writeback queued exactly 8388608 bytes"

drop_pages "$D/mnt/f"
rec "$T" -- dd if="$D/mnt/f" of=/dev/null bs=128k status=none
is "$(access_sum "$T" read "$ino")" 8388608 "xfs read: 8388608 bytes"
is "$(pages_added "$T" "$ino")" 2048 "xfs read: 2048 pages added"
big=$(field_of "$T" pagecache_add "$ino" order | awk '$1 > 0' | wc -l)
ok "$([ "$big" -gt 0 ] && echo 0 || echo 1)" "xfs read: folios of order > 0 ($big)"
done_testing
