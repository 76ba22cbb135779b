#!/bin/sh
# Live: the default replay is the recording kernel. A cold sequential read of a 64 MiB file in
# 4 KiB, 128 KiB and 1 MiB reads on ext4 and xfs (loop devices with read_ahead_kb 128 and
# max_sectors_kb 1280, the kernel's defaults) is recorded; a replay with no options runs base
# pages and the kernel's largest order, and the latter adds exactly the folios, order by order,
# that this kernel added (mm_filemap_add_to_page_cache).
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
command -v python3 > /dev/null || skip_all "python3 not installed"

model_orders() {
	"$FOLIO_TRACE" replay --format=json "$1" | python3 -c '
import json, sys
c = json.load(sys.stdin)["configurations"][-1]["metrics"]["insertions_by_order"]
print("".join("%d:%d " % (o, n) for o, n in enumerate(c) if n))'
}

D=$(record_ext4_dir)
for fs in ext4 xfs; do
	command -v "mkfs.$fs" > /dev/null || { ok 1 "mkfs.$fs installed"; continue; }
	if ! mkfs_loop "$fs"; then
		ok 1 "$fs on a loop device"
		continue
	fi
	dd if=/dev/urandom of="$D/$fs/f" bs=1M count=64 status=none && sync
	ino=$(stat -c %i "$D/$fs/f")
	for bs in 4k 128k 1M; do
		drop_pages "$D/$fs/f"
		rec "$TMPD/t.ftr" --dev="$D/$fs" -- dd if="$D/$fs/f" of=/dev/null bs=$bs status=none
		k=$(kernel_orders "$TMPD/t.ftr" "$ino")
		ok "$([ -n "$k" ] && echo 0 || echo 1)" "$fs, $bs reads: the kernel's folios recorded"
		is "$(model_orders "$TMPD/t.ftr")" "$k" \
			"$fs, $bs reads: the default replay adds the kernel's folios, order by order"
	done
done
done_testing
