#!/bin/sh
# The kernel's own writeback per file against what was written, on ext4, xfs and btrfs (loop
# devices) and tmpfs: exact bytes for whole-block writes, the block rounding of a 1-byte
# write, nothing on tmpfs; and the block requests of a device of our own.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf

D=$(record_ext4_dir)
T=$TMPD/t.ftr

# wb_row TRACE PATH: "written written_back ratio" of PATH in info's writeback table.
wb_row() {
	"$FOLIO_TRACE" info "$1" | awk -v p="$2" '
	/^writeback:/ { on = 1; next }
	on && /^[a-z]/ { on = 0 }
	on && $4 == p { print $1, $2, $3 }'
}

# block_writes TRACE DEV: bytes of write requests DEV (MAJ:MIN) completed.
block_writes() {
	dump_type "$1" block | awk -v d="dev=$2" '$0 ~ (" " d " ") && / op=write / {
		for (i = 3; i <= NF; i++) if ($i ~ /^bytes=/) { sub(/^bytes=/, "", $i); s += $i } }
	END { printf "%d\n", s }'
}

# loop_fs NAME MKFS...: a file system made by MKFS on a 320 MiB loop device, mounted at
# $D/NAME; its device in $loopdev. Fails when any step does.
loop_fs() {
	name=$1
	shift
	truncate -s 320M "$D/$name.img" && "$@" "$D/$name.img" > /dev/null 2>&1 || return 1
	loopdev=$(losetup -f --show "$D/$name.img") || return 1
	echo "$loopdev" >> "$TMPD/cleanup-loops"
	mkdir -p "$D/$name" && mount "$loopdev" "$D/$name" || return 1
	echo "$D/$name" >> "$TMPD/cleanup-mounts"
}

# write_and_sync DIR: an 8 MiB file and a 1-byte file in DIR, each fsynced.
write_and_sync() {
	rec "$T" -- sh -c "dd if=/dev/zero of='$1/big' bs=1M count=8 conv=fsync status=none &&
		printf x > '$1/one' && sync '$1/one'"
}

# ext4 (the root file system): writepages counts pages, so the byte is a whole page.
write_and_sync "$D"
is "$rc" 0 "ext4: record -- dd; printf; sync exits 0"
is "$(wb_row "$T" "$D/big")" "8388608 8388608 1.000" "ext4: 8 MiB written, 8 MiB written back"
is "$(wb_row "$T" "$D/one")" "1 4096 4096.000" "ext4: 1 byte written, a 4 KiB page written back"

if command -v mkfs.xfs > /dev/null && loop_fs xfs mkfs.xfs -q; then
	write_and_sync "$D/xfs"
	dev=$(dev_of "$D/xfs/big")
	is "$(wb_row "$T" "$D/xfs/big")" "8388608 8388608 1.000" "xfs: 8 MiB written back (iomap)"
	is "$(wb_row "$T" "$D/xfs/one")" "1 4096 4096.000" "xfs: 1 byte, a 4 KiB block written back"
	b=$(block_writes "$T" "$dev")
	diag "xfs: $b bytes of write requests on $dev"
	ok "$(awk -v b="$b" 'BEGIN { print (b >= 8392704 && b <= 8392704 * 1.01) ? 0 : 1 }')" \
		"xfs: the loop device wrote the data and a little log and metadata ($b bytes)"
else
	diag "xfs: no mkfs.xfs, loop device or xfs module here"
fi

if command -v mkfs.btrfs > /dev/null && loop_fs btrfs mkfs.btrfs -q -f; then
	write_and_sync "$D/btrfs"
	is "$(wb_row "$T" "$D/btrfs/big")" "8388608 8388608 1.000" \
		"btrfs: 8 MiB written back (finished ranges)"
else
	diag "btrfs: no mkfs.btrfs, loop device or btrfs module here"
fi

# O_DSYNC writes (dd oflag=dsync): generic_write_sync() writes each call's bytes back before
# it returns, so ext4 writes back all 1 MiB within the recording, and so does the default
# replay, by fsync of each write's range (before, the model left them dirty for the flusher)
rec "$T" -- dd if=/dev/zero of="$D/dsync" bs=4k count=256 oflag=dsync status=none
ok "$rc" "1 MiB written with O_DSYNC: recorded"
is "$(wb_row "$T" "$D/dsync" | cut -d' ' -f1,2)" "1048576 1048576" \
	"O_DSYNC: ext4 wrote back all 1 MiB during the recording"
model=$("$FOLIO_TRACE" replay --format=csv --folio-order=0 "$T" | awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == "wb_fsync_bytes") c = i; next }
	c { print $c }')
is "$model" 1048576 "O_DSYNC: the model writes each write's bytes back, as generic_write_sync()"

M=$TMPD/tmpfs
if record_tmpfs "$M" 64m; then
	write_and_sync "$M"
	is "$(wb_row "$T" "$M/big")" "8388608 0 0.000" "tmpfs: 8 MiB written, nothing written back"
	is "$(block_writes "$T" "$(dev_of "$M/big")")" 0 "tmpfs: no block requests"
fi
done_testing
