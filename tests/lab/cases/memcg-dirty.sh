#!/bin/sh
# A memory cgroup's own dirty domain (cgroup v2 writeback: mm/page-writeback.c, the memcg's
# mdtc), on ext4: record --memory-limit=64M of a 256 MiB write (ftload, fsynced at its end),
# memory.stat's file_dirty and file_writeback sampled meanwhile. The cgroup's domain (avail
# about its 64 MiB: background at 10%, freerun at 15%, hard limit at 20%) keeps its dirty pages
# to a few MiB and its wb's background work writes nearly all of the file before the fsync;
# with the global domain alone (about 90 MiB to start background writeback in the VM) the
# dirty pages fill the cgroup until its reclaim wakes the flusher (the model without the
# memcg domain: 25 MiB dirty on average, 59 at most). Compared:
# the pages the flusher wrote (calibrate's writeback_single_inode row) and the dirty pages at
# the samples, the model's (--timeseries) against the kernel's. Measured (folio-trace-model.7):
# flusher pages 6.1 63840 and 65251, 6.12 65308 to 65509, model 63744 to 64000; mean dirty
# 6.1 4.0 MiB, model 3.3-3.4 (both at most about 9 MiB); 6.12 5.9-6.6 with peaks of 22-23,
# model 3.4-4.2 and at most 9.
. /lab/cases/lib.sh
MiB=1048576

echo +memory > /sys/fs/cgroup/cgroup.subtree_control
remount ext4 || echo "# remount failed"
folio-trace record --dev=/mnt/ext4 --memory-limit=64M -o w.ftr -- sh -c '
	cg=/sys/fs/cgroup$(sed -n "s/^0:://p" /proc/self/cgroup)
	while :; do
		awk "\$1 == \"file_dirty\" || \$1 == \"file_writeback\" { printf \"%s \", \$2 }
			END { print \"\" }" "$cg/memory.stat"
		sleep 0.1
	done > stat.log &
	ftload write /mnt/ext4/w 256M 1M > /dev/null
	rc=$?
	kill $!
	exit $rc' > w.out 2> w.err || sed 's/^/#   record: /' w.err

# the kernel's dirty (and under writeback) pages at the samples: mean and largest, MiB
set -- $(awk -v m=$MiB 'NF == 2 { d = $1 / m; s += d; n++; if (d > x) x = d
	w = ($1 + $2) / m; if (w > y) y = w }
	END { printf "%.1f %.1f %.1f %d\n", n ? s / n : 0, x, y, n }' stat.log)
kmean=$1 kmax=$2 kmaxw=$3 ksamples=$4
echo "# kernel: file_dirty mean $kmean MiB, largest $kmax MiB (with writeback $kmaxw) over" \
	"$ksamples samples"

folio-trace replay --timeseries=ts.csv --interval=100ms w.ftr > r.out 2> r.err ||
	sed 's/^/#   replay: /' r.err
set -- $(awk -F, -v m=$MiB 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ last = $c["label"] } { d[NR] = $c["dirty_bytes"] / m; l[NR] = last }
	END { for (i in d) if (l[i] == last) { s += d[i]; n++; if (d[i] > x) x = d[i] }
		printf "%.1f %.1f %d\n", n ? s / n : 0, x, n }' ts.csv)
mmean=$1 mmax=$2
echo "# model: dirty mean $mmean MiB, largest $mmax MiB over $3 samples"

set -- $(calib w.ftr "pages written back by the flusher")
echo "# pages written back by the flusher: model $1, kernel $2"
bg=$(model_metric w.ftr wb_background_bytes)
vm=$(model_metric w.ftr wb_vmscan_bytes)
th=$(model_metric w.ftr throttle_time_s)
tn=$(model_metric w.ftr throttled)
echo "# model: background $((bg / MiB)) MiB, reclaim's wake-ups $((${vm:-0} / MiB)) MiB," \
	"throttled $tn times for $th s"

check "the kernel's flusher wrote most of the 256 MiB" at_least "${2:-0}" 49152
check "the model's flusher pages within 10% of the kernel's" within 10 "${1:-0}" "${2:-0}"
check "the kernel's mean dirty under the cgroup's freerun ceiling (9.6 MiB)" \
	awk -v x="${kmean:-99}" 'BEGIN { exit !(x <= 9.6) }'
# 6.12 reads the cgroup's counts through mem_cgroup_flush_stats_ratelimited(): up to the last
# periodic flush (2 s) old, so its writer runs on past the thresholds the model keeps exactly
case $(uname -r) in
6.1.*)
	check "the model's mean dirty within 2.5 MiB of the kernel's" \
		awk -v a="${mmean:-99}" -v b="${kmean:-0}" 'BEGIN { d = a - b
			exit !(d <= 2.5 && d >= -2.5) }' ;;
*)
	check "the kernel's mean dirty above the model's (its memcg counts lag)" \
		awk -v a="${mmean:-99}" -v b="${kmean:-0}" 'BEGIN { exit !(b >= a) }' ;;
esac
finish
