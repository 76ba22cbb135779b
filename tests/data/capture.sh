#!/bin/sh
# How the ftrace samples in this directory were captured (run as root; not part of make check).
# One small workload: write 1.5 MiB with dd conv=fsync and read it back, both inside a 1 MiB
# memory cgroup (v1) so that reclaim runs too, mmap-read a 64 KiB file outside it, unlink
# both. Filemap and writeback events are filtered to the two inodes; vmscan and
# writeback_written are system-wide (the host was otherwise idle in memory terms).
#   ftrace-trace-pipe.txt  the tracefs "trace" file (the trace_pipe line format)
#   ftrace-trace-cmd.txt   trace-cmd report of the same buffer (trace-cmd extract)
#   ftrace-perf.txt        perf script of a second run under perf record -a
set -eu
out=$(cd "${1:-.}" && pwd)
work=${TMPDIR:-/tmp}/ft-capture.$$
cg=/sys/fs/cgroup/memory/ft-capture.$$
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs nodev $T
mkdir -p "$work"

FILEMAP="mm_filemap_add_to_page_cache mm_filemap_delete_from_page_cache mm_filemap_get_pages
	mm_filemap_map_pages mm_filemap_fault"
VMSCAN="mm_vmscan_lru_isolate mm_vmscan_lru_shrink_inactive mm_vmscan_lru_shrink_active
	mm_vmscan_write_folio mm_vmscan_wakeup_kswapd mm_vmscan_memcg_reclaim_begin
	mm_vmscan_direct_reclaim_begin"

workload() {
	mkdir -p "$cg"
	echo 1M > "$cg/memory.limit_in_bytes"
	sh -c "echo \$\$ > $cg/tasks
		dd if=/dev/zero of=$work/big bs=64k count=24 conv=fsync,notrunc status=none
		cat $work/big > /dev/null" || true
	python3 -c 'import mmap,sys; f=open(sys.argv[1],"rb"); m=mmap.mmap(f.fileno(),0,prot=mmap.PROT_READ); s=sum(m[i] for i in range(0,len(m),4096))' "$work/small"
	rm -f "$work/big" "$work/small"
	sleep 1
	rmdir "$cg"
}

prepare() {
	rm -f "$work/big" "$work/small"
	: > "$work/big"
	head -c 65536 /dev/urandom > "$work/small"
	# only these two files' pages dropped (never drop_caches: the whole host's cache)
	for f in "$work/big" "$work/small"; do
		sync "$f"
		dd if="$f" iflag=nocache count=0 status=none
	done
	big=$(stat -c %i "$work/big")
	small=$(stat -c %i "$work/small")
}

tracefs_events() {	# tracefs_events 1|0: enable (with filters) or disable and unfilter
	for e in $FILEMAP; do
		if [ "$1" = 1 ]; then
			echo "i_ino == $big || i_ino == $small" > $T/events/filemap/$e/filter
		else
			echo 0 > $T/events/filemap/$e/filter
		fi
		echo "$1" > $T/events/filemap/$e/enable
	done
	for e in writeback_dirty_folio writeback_single_inode; do
		if [ "$1" = 1 ]; then
			echo "ino == $big || ino == $small" > $T/events/writeback/$e/filter
		else
			echo 0 > $T/events/writeback/$e/filter
		fi
		echo "$1" > $T/events/writeback/$e/enable
	done
	echo "$1" > $T/events/writeback/writeback_written/enable
	for e in $VMSCAN; do
		echo "$1" > $T/events/vmscan/$e/enable
	done
}

# trace_pipe format and trace-cmd report, from one tracefs buffer
prepare
echo > $T/trace
tracefs_events 1
workload
tracefs_events 0
grep -v '^#' $T/trace > "$out/ftrace-trace-pipe.txt"
trace-cmd extract -o "$work/trace.dat" >/dev/null 2>&1
trace-cmd report -i "$work/trace.dat" > "$out/ftrace-trace-cmd.txt"
echo > $T/trace

# perf script
prepare
perf record -q -a -o "$work/perf.data" \
	-e filemap:mm_filemap_add_to_page_cache --filter "i_ino == $big || i_ino == $small" \
	-e filemap:mm_filemap_delete_from_page_cache --filter "i_ino == $big || i_ino == $small" \
	-e filemap:mm_filemap_get_pages --filter "i_ino == $big || i_ino == $small" \
	-e filemap:mm_filemap_fault --filter "i_ino == $big || i_ino == $small" \
	-e filemap:mm_filemap_map_pages --filter "i_ino == $big || i_ino == $small" \
	-e writeback:writeback_dirty_folio --filter "ino == $big || ino == $small" \
	-e vmscan:mm_vmscan_lru_shrink_inactive -e vmscan:mm_vmscan_memcg_reclaim_begin \
	-- sleep 5 &
rec=$!
sleep 1
workload
wait $rec || true
perf script -i "$work/perf.data" > "$out/ftrace-perf.txt" 2>/dev/null
rm -rf "$work"
