#!/bin/sh
# calibrate on real recordings under a memory limit: a sequential reread of a file twice the
# limit, a random-read working set near the limit, an overwrite with fsync. The model's errors
# against the kernel must stay within the bounds folio-trace-calibrate(1) states.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
. "$TOP_SRCDIR/tests/calib-lib.sh"
record_requires_bpf
[ -w /sys/fs/cgroup/memory/memory.limit_in_bytes ] || [ -f /sys/fs/cgroup/cgroup.controllers ] ||
	skip_all "no memory cgroup controller"
command -v jq > /dev/null 2>&1 || skip_all "jq not installed"

D=$(record_ext4_dir)

# calib TRACE: the JSON calibration of the traced files, in $TMPD/c.json
calib() {
	"$FOLIO_TRACE" calibrate --files=syscalls --format=json "$1" > "$TMPD/c.json" 2> "$TMPD/c.err"
	is "$?:$(cat "$TMPD/c.err")" "0:" "calibrate $(basename "$1") runs"
}

# system_bound METRIC SOURCE PAGES: a system-wide counter on a machine others use too: the
# model's figure is the PAGES the workload's own bytes give, and the kernel's count, which
# holds every writer's, is at least 95% of that (the samples that bound it can cut a few of
# the workload's pages off at either end: 8160 of 8192 once) and has no upper bound
system_bound() {
	m=$(field "$1" "$2" model)
	k=$(field "$1" "$2" kernel)
	ok "$([ "$m" = "$3" ] && [ $((${k:-0} * 100)) -ge $(($3 * 95)) ] && echo 0 || echo 1)" \
		"$NAME: $1 ($2, system-wide): model $m = $3, kernel $k >= 95% of it"
}

# cold FILE: only the workload's own reads fill the cache with FILE
cold() { drop_pages "$1"; }

# 1. sequential reread: a 64 MiB file read twice with dd under a 32 MiB limit
NAME=seq-reread
dd if=/dev/urandom of="$D/seq" bs=1M count=64 status=none
cold "$D/seq"
rec "$TMPD/seq.ftr" --memory-limit=32M -- sh -c "dd if=$D/seq of=/dev/null bs=1M status=none; \
	dd if=$D/seq of=/dev/null bs=1M status=none"
is "$rc" 0 "$NAME recorded"
calib "$TMPD/seq.ftr"
within "insertions, pages" mm_filemap_add_to_page_cache 10
within "insertions, folios" mm_filemap_add_to_page_cache 10
within "insertions at order 9, folios" mm_filemap_add_to_page_cache 10
within "evictions, pages" mm_filemap_delete_from_page_cache 10
# every page of the second pass refaults, large folios included: pages against pages
within refaults "memory.stat workingset_refault_file" 5
is "$(jq -r .config.memory_bytes "$TMPD/c.json")" 33554432 "$NAME: the model ran with the limit"
is "$(jq -r .config.cgroup_limit "$TMPD/c.json")" true "$NAME: said to be the cgroup limit"
is "$(field refaults "memory.stat workingset_refault_file" scope)" cgroup \
	"$NAME: refaults from the cgroup's counters"
is "$(field "pages written back" nr_written upper_bound)" true \
	"$NAME: system-wide nr_written is an upper bound"

# 2. random reads of a 48 MiB file (working set near the 64 MiB limit), 4 KiB, twice over
NAME=randread
fio --name=w --filename="$D/rnd" --size=48M --bs=1M --rw=write --output=/dev/null > /dev/null
cold "$D/rnd"
rec "$TMPD/rnd.ftr" --memory-limit=64M -- fio --name=r --filename="$D/rnd" --size=48M \
	--io_size=32M --bs=4k --rw=randread --ioengine=psync --randseed=3 --output=/dev/null
is "$rc" 0 "$NAME recorded"
calib "$TMPD/rnd.ftr"
within "insertions, pages" mm_filemap_add_to_page_cache 10
within "insertions at order 0, folios" mm_filemap_add_to_page_cache 10

# 3. overwrite with fsync: 32 MiB rewritten in place, 64 KiB writes, fsync at the end: each of
# its 8192 pages dirtied and written back once. /proc/vmstat's counts hold every writer of
# the machine (another test suite beside this one wrote 2700 pages more in one run), so they
# bound the model's from above; the trace's own dirtying events are held within 10%.
NAME=overwrite
dd if=/dev/urandom of="$D/ow" bs=1M count=32 status=none
cold "$D/ow"
rec "$TMPD/ow.ftr" --memory-limit=128M -- dd if=/dev/zero of="$D/ow" bs=64k count=512 \
	conv=notrunc,fsync status=none
is "$rc" 0 "$NAME recorded"
calib "$TMPD/ow.ftr"
system_bound "pages written back" nr_written 8192
system_bound "pages dirtied" nr_dirtied 8192
within "folios dirtied" writeback_dirty_folio 10
within "insertions, pages" mm_filemap_add_to_page_cache 10
# 4. a 96 MiB file read twice in base pages (POSIX_FADV_RANDOM: the kernel reads what is
# asked, order 0) under a 64 MiB limit by a small C program (tests/reread), so that no other
# file of its own counts in the cgroup's refaults; with and without a pause between the passes.
# The first pass's 8192 evicted pages make 128 shadow nodes, fewer than the shadow shrinker
# ever trims: every page refaults, whenever the cgroup's statistics were flushed. (With 160 MiB
# under 96 MiB the first pass's 256 nodes do get trimmed or not by when the periodic flush
# came, which no trace records: folio-trace-calibrate(1), BOUNDS.)
NAME=random-reread
dd if=/dev/urandom of="$D/rr96" bs=1M count=96 status=none
for run in "96 64 0" "96 64 3"; do
	set -- $run
	# a drop_caches elsewhere while recording (another test suite on this machine) wipes
	# the cache and the shadows with it: record again, up to three times
	for try in 1 2 3; do
		cold "$D/rr$1"
		rec "$TMPD/rr.ftr" --memory-limit="$2M" -- "$TOP_BUILDDIR/tests/reread" "$D/rr$1" "$3"
		[ "$(counter_delta "$TMPD/rr.ftr" 1 drop_pagecache)" -eq 0 ] && break
		diag "caches dropped by another process while recording: again"
	done
	is "$rc" 0 "$NAME recorded ($1 MiB in $2 MiB, pause $3 s)"
	calib "$TMPD/rr.ftr"
	NAME="$NAME ($1 MiB in $2 MiB, pause $3 s)" \
		within "insertions at order 0, folios" mm_filemap_add_to_page_cache 10
	NAME="$NAME ($1 MiB in $2 MiB, pause $3 s)" \
		within refaults "memory.stat workingset_refault_file" 10
done
done_testing
