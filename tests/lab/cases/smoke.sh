#!/bin/sh
# The first proof on a distribution kernel: folio-trace record loads its BPF programs and traces
# a 16 MiB write on ext4, folio-trace info reads the trace back, and the trace names the kinds
# of events this release has no tracepoint for (mmap reads before 6.12, memory cgroup
# statistics flushes and refaults per folio before 6.14, readahead windows before 6.18; btrfs
# writeback, btrfs not being loaded here) and whether MGLRU ran. On a failed load libbpf's log
# is kept in record-debug.err.
. /lab/cases/lib.sh

check "record loads its programs and records a 16 MiB write" \
	rec trace.ftr ext4 ftload write /mnt/ext4/f 16M 1M
if [ "$rc" -ne 0 ]; then
	FOLIO_TRACE_DEBUG=1 folio-trace record -o debug.ftr -- true > /dev/null 2> record-debug.err
	grep -v '^$' record-debug.err | tail -n 30 | sed 's/^/#   debug: /'
fi
check "the command's output passes through: ftload's byte count" \
	equal "$(cat trace.ftr.out)" 16777216
folio-trace info trace.ftr > info.txt 2> info.err
check "info reads the trace" equal "$?" 0
sed 's/^/# info: /' info.err
case $(uname -r) in
6.1.*) want="mmap reads, readahead windows, btrfs writeback, memory cgroup statistics flushes, refaults per folio" ;;
6.1[2-3].*) want="readahead windows, btrfs writeback, memory cgroup statistics flushes, refaults per folio" ;;
6.1[4-7].*) want="readahead windows, btrfs writeback" ;;
*) want="btrfs writeback" ;;
esac
got=$(sed -n 's/^not recorded on this kernel (no tracepoint): //p' info.txt)
check "info names what this release cannot give" equal "$got" "$want"
# MGLRU's switch as the kernel showed it (6.12: on, 0x0007; 6.1: built, off)
gen=$(sed -n 's/^lru_gen: *enabled \(0x[0-9a-f]*\) .*/\1/p' info.txt)
check "info shows lru_gen/enabled as sampled" equal "$gen" \
	"$(cat /sys/kernel/mm/lru_gen/enabled 2> /dev/null)"
check "nothing lost" equal "$(folio-trace info trace.ftr | awk '$1 == "lost:" { print $2 }')" 0
finish
