#!/bin/sh
# Live recording on tmpfs: exact byte totals, inode and device numbers, host device table.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf

M=$TMPD/mnt
record_tmpfs "$M" 64m || skip_all "cannot mount tmpfs"
T=$TMPD/t.ftr

rec "$T" -- dd if=/dev/zero of="$M/f" bs=256k count=24 status=none
is "$rc" 0 "record -- dd write on tmpfs exits 0"
ino=$(stat -c %i "$M/f")
dev=$(dev_of "$M/f")
is "$(access_sum "$T" write "$ino")" 6291456 "tmpfs write: 6291456 bytes"
is "$(access_count "$T" write "$ino")" 24 "tmpfs write: 24 calls"
is "$(field_of "$T" file "$ino" dev)" "$dev" "tmpfs: dev matches stat ($dev)"
is "$(field_of "$T" file "$ino" path)" "$M/f" "tmpfs: path under the mount point"
like "$("$FOLIO_TRACE" dump -t host "$T")" "=$dev,tmpfs,4096," \
	"host record lists the tmpfs mount with its block size"

rec "$T" -- dd if="$M/f" of=/dev/null bs=1M status=none
is "$(access_sum "$T" read "$ino")" 6291456 "tmpfs read: 6291456 bytes"
is "$(access_count "$T" read "$ino")" 6 "tmpfs read: 6 reads of 1 MiB"
is "$(access_count "$T" write "$ino")" 0 "tmpfs read: no writes"

# An append-only log: O_APPEND positions come from i_size.
rec "$T" -- sh -c "for i in 1 2 3 4 5; do printf 0123456789 >> '$M/log'; done"
lino=$(stat -c %i "$M/log")
is "$(access_sum "$T" write "$lino")" 50 "append log: 50 bytes"
is "$(field_of "$T" access "$lino" pos | tr '\n' ' ')" "0 10 20 30 40 " "append log: positions"
is "$(field_of "$T" access "$lino" flags | sort -u)" "append" "append log: O_APPEND flag"
# --no-paths: files by device and inode only, and the host record says so.
rec "$T" --no-paths -- dd if="$M/f" of=/dev/null bs=1M status=none
is "$(field_of "$T" file "$ino" path)" "" "--no-paths: FT_FILE without a path"
is "$(dump_type "$T" file | grep -vc ' path=$')" 0 "--no-paths: no path anywhere"
# bit 1 (FT_HOST_NO_PATHS); bit 4 says the kernel's memcg statistics flushes are recorded
is "$(($(dump_type "$T" host | sed 's/.* flags=\([0-9]*\) .*/\1/') & 1))" 1 \
	"--no-paths: FT_HOST_NO_PATHS set"
is "$(access_sum "$T" read "$ino")" 6291456 "--no-paths: accesses still recorded"
done_testing
