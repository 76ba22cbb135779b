#!/bin/sh
# Readahead per open file, live. The kernel keeps readahead state in the struct file
# (file->f_ra, fresh at each open) and POSIX_FADV_RANDOM in its f_mode, not in the inode
# (mm/readahead.c page_cache_sync_ra(), mm/fadvise.c generic_fadvise(); 6.1 to 6.18). One
# process opens a 64 MiB file twice (ftload two-readers): through one it reads the first half
# in 16 KiB reads, through the other, advised POSIX_FADV_RANDOM, it reads a random 16 KiB
# block of the second half after each. The recorder numbers the open files (ft_access.ofile,
# format 1.7) and the replay keeps a readahead state for each (filemap/openfile.c): its
# insertions into the file, order by order, are the kernel's exactly. With one state for
# the file, as the model had, the random reader's advice turned readahead off for both:
# every read of the first half missed, in base pages (6.18: 13332 order-0 folios and none
# larger, where the kernel made 5884 and 58 large ones, readahead's; hit ratio 18.6% for
# the kernel's 70.0%). Then the random reader over the whole file, whose pages keep the
# other's folios small: the replay's largest order is the one the kernel's readahead state
# held, as the mapping capped it (below).
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf

ftload=${TOP_BUILDDIR:?run through make check}/tests/lab/ftload
[ -x "$ftload" ] || skip_all "tests/lab/ftload not built"

D=$(record_ext4_dir)
"$ftload" write "$D/f" 64M 1M > /dev/null || skip_all "cannot write a file in $D"
drop_pages "$D/f"
ino=$(stat -c %i "$D/f")

rec "$TMPD/t.ftr" -q -- "$ftload" two-readers "$D/f" 16K 7
is "$rc" 0 "record of two readers of one file exits 0"

# ofiles TRACE: "COUNT OFILE" lines, one per open file the reads of f went through, most
# reads first; "-" for 0
ofiles() {
	"$FOLIO_TRACE" dump "$1" | awk -v ino="ino=$ino" '
		$2 == "access" && $4 == "op=read" && $6 == ino {
			o = "-"
			for (i = 7; i <= NF; i++) if ($i ~ /^ofile=/) o = substr($i, 7)
			n[o]++
		}
		END { for (o in n) print n[o], o }' | sort -rn
}
ofiles "$TMPD/t.ftr" > "$TMPD/ofiles"
is "$(awk '{ print $1 }' "$TMPD/ofiles" | tr '\n' ' ')" "2048 2048 " \
	"the reads went through two open files, 2048 each"
is "$(awk '$2 == "-"' "$TMPD/ofiles")" "" "every read names its open file"
advised=$("$FOLIO_TRACE" dump "$TMPD/t.ftr" | awk -v ino="ino=$ino" '
	$2 == "access" && $4 == "op=fadvise" && $6 == ino {
		for (i = 7; i <= NF; i++) if ($i ~ /^ofile=/) print substr($i, 7) }')
random=$("$FOLIO_TRACE" dump "$TMPD/t.ftr" | awk -v ino="ino=$ino" '
	$2 == "access" && $4 == "op=read" && $6 == ino && $7 ~ /^pos=/ {
		sub("pos=", "", $7); if ($7 >= 32 * 1048576)
			for (i = 8; i <= NF; i++) if ($i ~ /^ofile=/) { print substr($i, 7); exit } }')
is "$advised" "$random" "the advice names the open file of the second half's reads"

# orders TRACE [kernel_]: "ORDER:FOLIOS ..." the default replay (or the kernel) inserted into
# f (replay --by=file's row of the trace's own order, not the order-0 one beside it)
orders() {
	"$FOLIO_TRACE" replay --by=file --format=csv "$1" | awk -F, -v ino="$ino" -v want="$2" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$col["ino"] == ino && $col["order"] > 0 {
			for (o = 0; (want "inserted_" o) in col; o++)
				if ($col[want "inserted_" o] > 0)
					printf "%d:%d ", o, $col[want "inserted_" o]
		}'
}

# near_orders MODEL KERNEL: every order's count of MODEL within 1% of KERNEL's at order 0,
# within a quarter above it, or 8 folios where that is wider
near_orders() {
	echo "$1 / $2" | awk '{
		side = 0
		for (i = 1; i <= NF; i++) {
			if ($i == "/") { side = 1; continue }
			split($i, p, ":"); n[side, p[1]] = p[2]; o[p[1]] = 1
		}
		for (k in o) {
			d = n[0, k] - n[1, k]; if (d < 0) d = -d
			t = n[1, k] / (k == 0 ? 100 : 4); if (t < 8) t = 8
			if (d > t) bad = 1
		}
		exit bad }'
}

# same_orders TRACE WHAT [near]: the replay's folios by order are the kernel's (near them)
same_orders() {
	kernel=$(orders "$1" kernel_)
	diag "$2: kernel's folios by order: $kernel"
	if [ -z "$kernel" ]; then
		ok 1 "$2: the kernel's insertions into the file were recorded"
	elif ! echo "$kernel" | grep -q '\(^\| \)[1-9][0-9]*:'; then
		# base pages only (ext4 before 6.16): the orders cannot tell the states apart
		skip "$2: the kernel read the file in base pages alone ($kernel)"
	elif [ -z "${3:-}" ]; then
		is "$(orders "$1" "")" "$kernel" "$2: the replay's folios by order are the kernel's"
	else
		model=$(orders "$1" "")
		near_orders "$model" "$kernel"
		ok $? "$2: the replay's folios by order near the kernel's ($model)"
	fi
}
same_orders "$TMPD/t.ftr" "halves"

# The random reader over the whole file: the sequential reader's windows meet its pages and
# their folios stay smaller (6.18: up to order 6), while ra->order, capped by the mapping's
# largest order, reaches 9; the replay's largest order is that (calibrate/kernel.c
# note_ra_order()), not the largest folio added, whose windows came out 1-57% off by order
# (0:10766 2:32 3:1 for the kernel's 0:11863 2:20). Equal in 5 runs of 6; once the kernel
# made 4 order-2 folios more than its usual 0:11868 2:16 4:17 5:1 6:7: held near, not equal.
drop_pages "$D/f"
rec "$TMPD/w.ftr" -q -- "$ftload" two-readers "$D/f" 16K 3 whole
is "$rc" 0 "record of a random reader over the whole file exits 0"
same_orders "$TMPD/w.ftr" "whole" near

# A file opened, read and closed in turn: the slab gives each open the struct file the close
# before it freed, and the kernel gives each open a fresh readahead state and no advice
# (do_dentry_open()). Every other open is advised POSIX_FADV_RANDOM and reads one block; the
# others read a MiB in order, reading ahead. The recorder sees the opens (open(2) and its kin)
# and numbers each apart; by the struct file's address alone, as before, the 16 opens had one
# number and the replay kept the advice for the next: no readahead (6.18: 1819 base pages and
# 42 large folios, where the kernel made 161 and 331).
drop_pages "$D/f"
rec "$TMPD/r.ftr" -q -- "$ftload" reopen-reads "$D/f" 16K 16
is "$rc" 0 "record of 16 opens in turn exits 0"
is "$(ofiles "$TMPD/r.ftr" | awk '$2 != "-"' | wc -l)" 16 \
	"the reads of 16 opens in turn went through 16 open files"
same_orders "$TMPD/r.ftr" "reopened"
# The same with the opens made by io_uring (IORING_OP_OPENAT), seen at their completion.
drop_pages "$D/f"
rec "$TMPD/u.ftr" -q -- "$ftload" reopen-reads "$D/f" 16K 16 uring
if [ "$rc" -ne 0 ] && echo "$err" | grep -q "cannot set up io_uring"; then
	for i in 1 2 3; do
		skip "io_uring is not available here (kernel.io_uring_disabled?)"
	done
else
	is "$rc" 0 "record of 16 io_uring opens in turn exits 0"
	is "$(ofiles "$TMPD/u.ftr" | awk '$2 != "-"' | wc -l)" 16 \
		"the reads of 16 io_uring opens in turn went through 16 open files"
	same_orders "$TMPD/u.ftr" "reopened by io_uring"
fi
drop_pages "$D/f"
rm -f "$D/f"
done_testing
