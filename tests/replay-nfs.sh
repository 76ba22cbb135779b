#!/bin/sh
# NFS's dirty byte range per folio in a replay (tests/mktrace.c "nfs"; the rule is
# src/model/writeback/track_range.c, after fs/nfs/write.c nfs_try_to_update_request(), 6.12
# and 6.18): a file on nfs4 written 2 MiB at once and fsynced, then 4 KiB at 0, 8K, 12K and
# 1M, fsynced. The device takes 1 ms per round trip and 4096 MB/s.
# Order 9 (one folio): [8K, 12K) does not touch [0, 4K): a flush of 4K; [12K, 16K) extends
# [8K, 12K); [1M, 1M + 4K) does not touch [8K, 16K): a flush of 8K; the fsync writes 4K. Two
# flushes of 12K, each an unstable WRITE waited for (1 ms + bytes / 4096 MB/s) and a COMMIT
# (1 ms): 2.001 + 2.002 = 4.003 ms. Order 0: a folio per write, no flush. Both write back
# 2 MiB + 16K in 4 I/Os: the bytes are the same, the round trips are not.
. "$TOP_SRCDIR/tests/lib.sh"
T=$TMPD/nfs.ftr
"$TOP_BUILDDIR/tests/mktrace" nfs "$T" || exit 1

"$FOLIO_TRACE" replay --folio-order=0,9 --no-readahead --device=lat=1000,bw=4096 \
	--format=csv-long "$T" > "$TMPD/l.csv"
is "$?" 0 "replay of the nfs trace exits 0"
# metric ORDER KEY: the value of KEY for the model of folio order ORDER
metric() { awk -F, -v o="$1" -v k="$2" '$2 == o && $3 == k { print $4 }' "$TMPD/l.csv"; }

is "$(metric 9 range_flushes)" 2 "order 9: two writes flush the folio's range first"
is "$(metric 9 wb_flush_bytes)" 12288 "... 4K, then the 8K the touching write grew"
is "$(awk -v s="$(metric 9 range_flush_wait_s)" 'BEGIN { d = s - 0.004003;
	print (d < 1e-8 && d > -1e-8) ? "4.003 ms" : s }')" "4.003 ms" \
	"... a WRITE and a COMMIT each: 4.003 ms waited"
is "$(metric 0 range_flushes)" 0 "order 0: each write in a folio of its own, no flush"
is "$(metric 0 writeback_bytes)" 2113536 "order 0: 2 MiB + 16K written back"
is "$(metric 9 writeback_bytes)" 2113536 "order 9: the same bytes"
is "$(metric 9 writeback_ios)" "$(metric 0 writeback_ios)" "... in as many I/Os"

"$FOLIO_TRACE" replay --folio-order=9 --no-readahead --dirty-granularity=folio \
	--format=csv-long "$T" > "$TMPD/f.csv"
is "$(awk -F, '$3 == "range_flushes" { print $4 }' "$TMPD/f.csv")" 0 \
	"--dirty-granularity=folio: no ranges, no flush"
is "$(awk -F, '$3 == "writeback_bytes" { print $4 }' "$TMPD/f.csv")" $((2 * 2097152)) \
	"... and the folio written whole by each fsync"

run "$FOLIO_TRACE" replay --folio-order=9 --no-readahead "$T"
like "$out" "forced flushes (NFS)  *2" "the table shows the flushes"
like "$(printf '%s\n' "$out" | tr '\n' ' ' | tr -s ' ')" \
	"files on nfs4 (up to order 9, dirty per range" \
	"the sources line names the nfs4 files' dirty tracking"
done_testing
