#!/bin/sh
# Lost-event accounting: with a tiny ring buffer, every write the command makes is either in
# the trace or counted lost, per CPU and type, in FT_LOST records, FT_END and the summary line.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf

M=$TMPD/mnt
record_tmpfs "$M" 128m || skip_all "cannot mount tmpfs"
T=$TMPD/t.ftr
# --dev keeps only the tmpfs file's accesses (not dd's library reads), so every FT_ACCESS
# attempt, recorded or lost, is one of the writes.

# How far the recorder falls behind depends on the machine: should it keep up with 100000
# writes, the same with 4 and 16 times as many (of fewer bytes each, the tmpfs being small).
for n in 100000 400000 1600000; do
	rm -f "$M/x"
	rec "$T" --buffer-size=4K --dev "$M" -- dd if=/dev/zero of="$M/x" bs=$((51200000 / n)) \
		count=$n status=none
	ino=$(stat -c %i "$M/x")
	got=$(access_count "$T" write "$ino")
	lost_access=$(dump_type "$T" lost | awk '/ lost_type=access / { for (i = 3; i <= NF; i++) if ($i ~ /^count=/) { sub(/^count=/, "", $i); s += $i } } END { printf "%d\n", s }')
	[ "$rc" -ne 0 ] || [ "$lost_access" -gt 0 ] && break
done
is "$rc" 0 "record with a 4 KiB ring buffer exits 0"
lost_all=$(dump_type "$T" lost | awk '{ for (i = 3; i <= NF; i++) if ($i ~ /^count=/) { sub(/^count=/, "", $i); s += $i } } END { printf "%d\n", s }')
diag "recorded $got writes, $lost_access access records lost"
ok "$([ "$lost_access" -gt 0 ] && echo 0 || echo 1)" "the small buffer overflows: losses counted"
is "$((got + lost_access))" $n "recorded + lost writes = the $n dd made"
is "$(dump_type "$T" end | sed 's/.* lost=//')" "$lost_all" "FT_END.lost = sum of FT_LOST counts"
like "$err" "written to $T, $lost_all lost (ring buffer full" \
	"the summary line prints the lost count"

# A large buffer keeps up with the same workload.
rec "$T" --buffer-size=256M -- dd if=/dev/zero of="$M/y" bs=512 count=100000 status=none
is "$(access_count "$T" write "$(stat -c %i "$M/y")")" 100000 "256 MiB buffer: all 100000 writes"
is "$(dump_type "$T" lost | wc -l)" 0 "256 MiB buffer: no FT_LOST record"
done_testing
