#!/bin/sh
# Live, on this kernel: what truncate and a punched hole leave of a cached large folio on xfs,
# the rule src/model/filemap/truncate.c follows (tests/test-model-truncate has the model's
# side). From 6.15 truncate_inode_partial_folio() splits the folio across the new EOF as the
# buddy allocator splits a block (folio_split()): the pages kept below EOF page p are folios
# of the orders of the set bits of p - index, largest first. The kept pieces are read from
# the delete events of a POSIX_FADV_DONTNEED after the truncate. On XFS 6.18 a hole punched
# into the folio drops it whole: one delete event of its index and order.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
command -v mkfs.xfs > /dev/null || skip_all "mkfs.xfs not installed"
command -v xfs_io > /dev/null || skip_all "xfs_io not installed"
grep -qw xfs /proc/filesystems || modprobe xfs 2> /dev/null || skip_all "no xfs in this kernel"
rel=$(uname -r | awk -F. '{ printf "%d\n", $1 * 1000 + $2 }')
[ "$rel" -ge 6018 ] || skip_all "the rules checked here are 6.18's (this is $(uname -r))"

D=$(record_ext4_dir)
truncate -s 320M "$D/img"
mkfs.xfs -q "$D/img" || skip_all "mkfs.xfs failed"
L=$(losetup -f --show "$D/img") || skip_all "no loop device"
echo "$L" >> "$TMPD/cleanup-loops"
mkdir -p "$D/mnt"
mount -t xfs "$L" "$D/mnt" || skip_all "cannot mount xfs"
echo "$D/mnt" >> "$TMPD/cleanup-mounts"
F=$D/mnt/f

# read_in: the file written, its pages dropped, read back under record into trace $1;
# prints "index order" of its largest folio past the first (the kernel's readahead places it)
read_in() {
	rm -f "$F"
	xfs_io -f -c "pwrite -q 0 4m" -c fsync "$F" || return 1
	drop_pages "$F" > /dev/null
	rec "$1" -- xfs_io -c "pread -q 0 4m" "$F"
	dump_type "$1" pagecache_add | awk -v ino="$(stat -c %i "$F")" '
	{ delete f
	  for (i = 3; i <= NF; i++) { n = index($i, "="); f[substr($i, 1, n - 1)] = substr($i, n + 1) }
	  if (f["ino"] == ino && f["index"] > 0 && f["order"] + 0 > best) {
		best = f["order"] + 0; idx = f["index"] } }
	END { if (best >= 3) print idx, best }'
}

# deletes TRACE: "index order" of each delete event of the file, in index order
deletes() {
	dump_type "$1" pagecache_delete | awk -v ino="$(stat -c %i "$F")" '
	{ delete f
	  for (i = 3; i <= NF; i++) { n = index($i, "="); f[substr($i, 1, n - 1)] = substr($i, n + 1) }
	  if (f["ino"] == ino) print f["index"], f["order"] }' | sort -n
}

# Truncate to page p inside the folio, a page boundary (nothing to zero: the folio stays clean).
set -- $(read_in "$TMPD/read.ftr")
[ $# -eq 2 ] || skip_all "the read made no folio of order 3 or more past page 0"
idx=$1 ord=$2
diag "the read left a folio of order $ord at page $idx"
for quarter in 1 3; do
	set -- $(read_in "$TMPD/read.ftr")
	idx=$1 ord=$2
	p=$((idx + (1 << ord) * quarter / 4 + 1))
	rec "$TMPD/trunc.ftr" -- sh -c "xfs_io -c 'truncate $((p * 4096))' '$F' &&
		xfs_io -c fsync -c 'fadvise -d 0 4m' '$F'"
	is "$rc" 0 "truncate into page $p of the order-$ord folio at $idx, then DONTNEED: exit 0"
	# the kept pieces: the set bits of p - idx, from the largest, at rising indexes
	want=$(awk -v idx="$idx" -v n=$((p - idx)) -v ord="$ord" 'BEGIN {
		at = idx; for (o = ord - 1; o >= 0; o--) if (int(n / 2 ^ o) % 2) { print at, o; at += 2 ^ o } }')
	got=$(deletes "$TMPD/trunc.ftr" | awk -v idx="$idx" -v p="$p" '$1 >= idx && $1 < p')
	is "$(echo $got)" "$(echo $want)" \
		"the folio split at page $p as folio_split() does: kept $(echo "$want" | wc -l) folios"
done

# A hole of four pages two pages into the folio: the folio dropped whole, as one delete.
set -- $(read_in "$TMPD/read.ftr")
idx=$1 ord=$2
rec "$TMPD/punch.ftr" -- xfs_io -c "fpunch $(((idx + 2) * 4096)) 16384" "$F"
is "$rc" 0 "a hole at pages $((idx + 2))-$((idx + 5)): exit 0"
got=$(deletes "$TMPD/punch.ftr" | awk -v idx="$idx" -v end=$((idx + (1 << ord))) \
	'$1 >= idx && $1 < end')
is "$(echo $got)" "$idx $ord" "xfs 6.18: the folio the hole overlaps dropped whole"
done_testing
