#!/bin/sh
# Reclaim meeting dirty page-cache folios, on ext4: most of memory held by a full tmpfs, the
# flusher held back (high vm.dirty_* ratios, a long expiry), and a 384 MiB file written
# (fsynced only at its end) into the 320 MiB left. Up to 6.2 ext4 had ->writepage, so
# reclaim's pageout() could write such folios itself, but shrink_folio_list() lets only kswapd
# do it, to a folio met again with PG_reclaim on a PGDAT_DIRTY node; from 6.3 on it cannot.
# The default replay (--reclaim-writeback=auto) must write through reclaim what the kernel
# did (nr_vmscan_write), and evict about what it evicted: within 15% (6.12: the model 1% to 8%
# below the kernel's 68577 to 70446 pages in three runs on an idle host, 11.5% below once in
# the full suite; the model's own count moves from recording to recording, 61974 to 67608).
. /lab/cases/lib.sh
MiB=1048576

total=$(awk '$1 == "MemTotal:" { print $2 * 1024 }' /proc/meminfo)
hold=$((total - 320 * MiB))
mkdir -p /tmp/hold
mount -t tmpfs -o size=$((hold / MiB))m hold /tmp/hold
ftload write /tmp/hold/fill $((hold / MiB - 8))M 1M > /dev/null
echo 90 > /proc/sys/vm/dirty_ratio
echo 80 > /proc/sys/vm/dirty_background_ratio
echo 360000 > /proc/sys/vm/dirty_expire_centisecs

vmscan=$(vmstat nr_vmscan_write)
check "a 384 MiB write, fsynced at its end, ran under record" \
	rec d.ftr ext4 ftload write /mnt/ext4/d 384M 1M
vmscan=$(($(vmstat nr_vmscan_write) - vmscan))
trace=$(folio-trace dump d.ftr | awk '
	$2 == "pagecache_delete" { evicted++ }
	$2 == "vmscan" && $4 == "kind=2" {
		for (i = 5; i <= NF; i++) if ($i ~ /^nr_dirty=/) { split($i, v, "="); dirty += v[2] } }
	END { print evicted + 0, dirty + 0 }')
set -- $trace
echo "# kernel: $1 folios evicted, $2 dirty pages met at the inactive tail," \
	"nr_vmscan_write $vmscan"
model=$(model_metric d.ftr wb_reclaim_bytes)
evicted=$(model_metric d.ftr evictions)
echo "# the default replay: $evicted folios evicted, $model bytes written by reclaim"
check "the kernel reclaimed page cache of the file" at_least "$1" 1
check "the default replay writes through reclaim what the kernel wrote" \
	equal "$model" $((vmscan * 4096))
check "and evicts within 15% of the kernel's evictions" within 15 "$evicted" "$1"
finish
