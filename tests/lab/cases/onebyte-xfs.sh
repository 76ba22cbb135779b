#!/bin/sh
# One byte written every 64 KiB of an 8 MiB file whose large folios readahead cached, on xfs,
# then fsync: the data the block layer was asked to write (the trace's block requests to the
# xfs disk, the log's metadata writes left out) against what the default replay writes back.
# Before 6.6 xfs kept one dirty flag per folio and wrote each touched folio whole; from 6.6
# on it writes the dirty blocks only (iomap_folio_state).
. /lab/cases/lib.sh
KiB=1024

f=/mnt/xfs/s
ftload write "$f" 8M 1M > /dev/null || echo "# ftload write failed"
remount xfs || echo "# remount failed"
dev=$(stat -c '%Hd:%Ld' "$f" 2> /dev/null || stat -c '%t:%T' "$f")
t=s.ftr
check "read, then one byte every 64 KiB and fsync, ran under record" \
	rec "$t" xfs sh -c "ftload read $f 1M > /dev/null && ftload poke $f 64K 128"
ino=$(stat -c %i "$f")
echo "# folios cached by the read (order count ...): $(kernel_orders "$t" "$ino" | tr '\n' ' ')"
# data writes: block requests without the meta flag the xfs log's writes carry
kernel=$(folio-trace dump "$t" | awk '$2 == "block" && $5 == "op=write" && $8 !~ /meta/ {
	sub("bytes=", "", $7); b += $7 } END { print b + 0 }')
model=$(model_metric "$t" writeback_bytes)
folio=$(model_metric "$t" writeback_bytes --dirty-granularity=folio)
block=$(model_metric "$t" writeback_bytes --dirty-granularity=block)
echo "# kernel wrote $kernel bytes of data; the default replay $model (per folio $folio," \
	"per block $block)"
check "the 128 one-byte writes were written back" at_least "$kernel" $((128 * 4 * KiB))
check "the default replay writes back what the kernel wrote" equal "$model" "$kernel"
finish
