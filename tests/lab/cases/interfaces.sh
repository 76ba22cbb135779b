#!/bin/sh
# A 4 MiB file on ext4 read through each interface the recorder decodes on its own path:
# pread(2) (the syscall exit programs), io_uring (io_uring_complete, whose arguments changed
# in 6.3: one program per argument list) and a shared mapping (mm_filemap_fault and
# mm_filemap_map_pages, from 6.12 on; a kernel without them says so in the trace). Every byte
# read must be in the trace, from the interface that read it.
. /lab/cases/lib.sh
MiB=1048576

f=/mnt/ext4/i
ftload write "$f" 4M 1M > /dev/null || echo "# ftload write failed"
check "reads by pread, io_uring and a mapping ran under record" \
	rec i.ftr ext4 sh -c "ftload read $f 64K && ftload uring-read $f 64K && ftload mmap-read $f"
ino=$(stat -c %i "$f")
# bytes per (op, interface) of the file: "read/0" syscalls, "read/1" io_uring, "mmap_read/K"
folio-trace dump i.ftr | awk -v ino="$ino" '$2 == "access" {
	for (i = 3; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["ino"] != ino) next
	key = v["op"] "/" (v["op"] == "read" ? v["arg"] : "")
	bytes[key] += v["len"] }
	END { for (k in bytes) print k, bytes[k] }' > bytes
sed 's/^/# bytes by op\/interface: /' bytes
sum() { awk -v k="$1" '$1 == k { print $2 }' bytes; }
check "pread: the 4 MiB read" equal "$(sum read/0)" $((4 * MiB))
check "io_uring: the 4 MiB read" equal "$(sum read/1)" $((4 * MiB))
if folio-trace info i.ftr | grep -q '^not recorded on this kernel.*mmap reads'; then
	check "mmap: named unrecorded, and none in the trace" equal "$(sum mmap_read/)" ""
else
	check "mmap: the faults cover at least the 4 MiB mapped" \
		at_least "$(sum mmap_read/)" $((4 * MiB))
fi
finish
