#!/bin/sh
# A dirty-heavy workload under a memory cgroup, live: dd writes a 160 MiB file on ext4 twice
# over (no fsync between the passes, one at the end) in a 64 MiB cgroup, so the kernel must
# write most of it back to reclaim the cgroup's page cache. The model replaying the trace (in
# the recorded 64 MiB, with the host's dirty thresholds: a v1 cgroup has no dirty domain)
# writes back within 5% of the pages the block layer saw written inside the file, and, as
# 6.18 does, nothing from reclaim itself: the kernel's nr_vmscan_write stays 0.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
. "$TOP_SRCDIR/tests/wb-lib.sh"
record_requires_bpf
[ -w /sys/fs/cgroup/memory/memory.limit_in_bytes ] ||
	[ -w /sys/fs/cgroup/cgroup.subtree_control ] || skip_all "no memory cgroup controller"
command -v filefrag > /dev/null || skip_all "filefrag (e2fsprogs) not installed"
blk_trace_start || skip_all "no tracefs instance with block:block_rq_issue"

D=$(record_ext4_dir)
T=$TMPD/t.ftr
rec "$T" --memory-limit=64M -- sh -c 'dd if=/dev/zero of="$1" bs=1M count=160 status=none &&
	dd if=/dev/zero of="$1" bs=1M count=160 conv=notrunc,fsync status=none' sh "$D/w"
blk_trace_stop
is "$rc" 0 "record --memory-limit=64M -- two passes of dd exits 0"
is "$err" "$(echo "$err" | grep -v 'exited with\|killed by')" "dd ran to its end"
kernel=$(( $(file_written_bytes "$D/w") / 4096 ))
model=$(( $(model_metric "$T" writeback_bytes --folio-order=9) / 4096 ))
diag "pages written back into the file: kernel $kernel, model $model"
ok "$([ "$kernel" -ge 81920 ] && echo 0 || echo 1)" \
	"the kernel wrote the 2 x 160 MiB back ($kernel pages)"
within 5 "$model" "$kernel"
ok $? "the model's pages written back within 5% of the kernel's"
scans=$(dump_type "$T" vmscan | grep -c ' kind=2 ')
ok "$([ "$scans" -gt 0 ] && echo 0 || echo 1)" \
	"the kernel reclaimed in the cgroup ($scans shrink_inactive events)"
is "$(dump_type "$T" vmscan | grep -c ' kind=4 ')" 0 \
	"the kernel wrote no folio from reclaim (no write_folio event)"
is "$(counter_delta "$T" 1 nr_vmscan_write)" 0 "nor counted one (nr_vmscan_write)"
is "$(model_metric "$T" wb_reclaim_bytes --folio-order=9)" 0 "the model writes nothing from reclaim"
met=$(model_metric "$T" reclaim_dirty_folios --folio-order=9)
ok "$([ "$met" -gt 0 ] && echo 0 || echo 1)" \
	"the model's reclaim met dirty folios ($met) and left them to the flusher"
done_testing
