#!/bin/sh
# Live: RWF_DONTCACHE (6.14+) recorded on preadv2/pwritev2 and replayed as 6.18 mm/filemap.c
# does it (src/model/filemap/dontcache.c). On ext4: 16 MiB written with the flag to a new file
# (A) leave nothing cached once written back; 8 MiB read cold with it (B) leave nothing; 4 MiB
# cached before and read with it (C) stay, their folios not dropbehind; 4 MiB written over
# with it (D, blocks already written) stay, ext4 ending that writeback in interrupt context.
# fincore(1) shows the kernel's cache at the end, the trace's deletion events the kernel's
# drops: the model drops the same 6144 pages (A and B; and any of C the host evicted before
# the recording started, read in and dropped by both), inserts into the four files what the
# kernel inserted, and writes the 20 MiB back under its RWF_DONTCACHE row, none under fsync's.
# On xfs (a loop device) a write over old blocks is dropped as well, in the kernel and in the
# model. Only this test's files are dropped from the cache.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
command -v python3 > /dev/null || skip_all "python3 not installed"
command -v fincore > /dev/null || skip_all "fincore not installed"

D=$(record_ext4_dir)

# Does this kernel and file system take the flag? EINVAL: before 6.14; EOPNOTSUPP: the file
# system has no FOP_DONTCACHE.
why=$(python3 - "$D/probe" <<'EOF'
import errno, os, sys
fd = os.open(sys.argv[1], os.O_RDWR | os.O_CREAT, 0o644)
try:
    os.pwritev(fd, [b"x" * 4096], 0, 0x80)
except OSError as e:
    print({errno.EINVAL: "the kernel has no RWF_DONTCACHE (6.14+)",
           errno.EOPNOTSUPP: "this file system does not support RWF_DONTCACHE"}.get(
        e.errno, "RWF_DONTCACHE: " + e.strerror))
EOF
)
[ -z "$why" ] || skip_all "$why"
rm -f "$D/probe"

dd if=/dev/urandom of="$D/B" bs=1M count=8 status=none
dd if=/dev/urandom of="$D/C" bs=1M count=4 status=none
dd if=/dev/urandom of="$D/D" bs=1M count=4 status=none
drop_pages "$D/B" "$D/C" "$D/D"
cat "$D/C" > /dev/null		# C cached before the recording, not dropbehind

cat > "$D/work.py" <<'EOF'
import os, sys
d, mib, DONTCACHE = sys.argv[1], 1 << 20, 0x80
buf = b"z" * mib
fd = os.open(d + "/A", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
for i in range(16):
    os.pwritev(fd, [buf], i * mib, DONTCACHE)
os.close(fd)
for name, n in (("B", 8), ("C", 4)):
    fd = os.open(d + "/" + name, os.O_RDONLY)
    for i in range(n):
        os.preadv(fd, [bytearray(mib)], i * mib, DONTCACHE)
    os.close(fd)
fd = os.open(d + "/D", os.O_WRONLY)
for i in range(4):
    os.pwritev(fd, [buf], i * mib, DONTCACHE)
os.fsync(fd)
os.close(fd)
EOF
T=$TMPD/dc.ftr
rec "$T" -- python3 "$D/work.py" "$D"
is "$rc" 0 "recorded"

cached() { fincore -n -b -o PAGES "$1" | tr -d ' '; }
cache_now="$(cached "$D/A") $(cached "$D/B") $(cached "$D/C") $(cached "$D/D")"

# the flag on each call: 16 writes of A, 8 reads of B, 4 of C, 4 writes of D
for f in A:write:16 B:read:8 C:read:4 D:write:4; do
	n=${f%%:*} rest=${f#*:}
	ino=$(stat -c %i "$D/$n")
	is "$(dump_type "$T" access | grep " ino=$ino " | grep " op=${rest%%:*} " |
		grep -c 'flags=[^ ]*dontcache')" "${rest#*:}" "$n: ${rest#*:} ${rest%%:*}s flagged"
done

# calib_row OUTPUT LABEL: "model kernel" of the row.
calib_row() {
	printf '%s\n' "$1" | grep "^$2 " | head -1 | sed "s/^$2 *//" | awk '{ print $1, $2 }'
}
# files_added NAME...: "model kernel" pages inserted into the named files of $D (calibrate's
# rows by file)
files_added() {
	inos=
	for n in "$@"; do inos="$inos $(stat -c %i "$D/$n")"; done
	"$FOLIO_TRACE" calibrate --by=file --format=json "$T" | python3 -c '
import json, sys
inos = {int(i) for i in sys.argv[1].split()}
rows = [f for f in json.load(sys.stdin)["files"] if f["ino"] in inos]
print(sum(f["inserted_pages"]["model"] for f in rows),
      sum(f["inserted_pages"]["kernel"] or 0 for f in rows))' "$inos"
}
out=$("$FOLIO_TRACE" calibrate -q "$T")
ev=$(calib_row "$out" "evictions, pages")
# the system's file reclaim while recording (/proc/vmstat pgsteal_file): a page of C it took
# counts as a drop of a file with DONTCACHE reads, so any reclaim at all spoils the counts
steal=$(printf '%s\n' "$out" | grep '^evictions, pages .*pgsteal_file' | awk '{ print $4 }')
if [ "${ev#* }" != 0 ] || [ "${steal:-0}" != 0 ]; then
	# reclaim from elsewhere during the recording: not this test's to judge
	for what in "the kernel's cache at the end" drops insertions evictions; do
		skip "$what: the host reclaimed ${ev#* } pages of the traced files meanwhile,"\
			"${steal:-0} in all"
	done
else
	# C's pages cached when the recording started: any the host evicted since the cat are
	# read in by the DONTCACHE read and dropped, in the kernel and in the model
	c0=$(field_of "$T" start_cache "$(stat -c %i "$D/C")" nr_cache)
	is "$cache_now" "0 0 ${c0:-1024} 1024" \
		"kernel: A and B dropped, C's ${c0:-?} cached before and D (written over) kept"
	drops=$((6144 + 1024 - ${c0:-1024}))
	is "$(calib_row "$out" "RWF_DONTCACHE drops, pages")" "$drops $drops" \
		"drops: the model's $drops pages (A, B, C's uncached) are the kernel's deletions"
	# the test's four files: python's own, read by the other tests that run beside this one,
	# may be cached by them between the recorder's probe and this run's reads
	ins=$(files_added A B C D)
	is "${ins% *}" "${ins#* }" "insertions: the model's pages are the kernel's, A to D ($ins)"
	is "$ev" "0 0" "no eviction either side"
fi

m=$("$FOLIO_TRACE" replay --format=json "$T" | python3 -c '
import json, sys
m = json.load(sys.stdin)["configurations"][0]["metrics"]
print(m["wb_dontcache_bytes"], m["wb_fsync_bytes"], m["dropbehind_pages"])')
is "${m% *}" "20971520 0" "replay: 20 MiB written back for RWF_DONTCACHE, none by fsync"
like "$("$FOLIO_TRACE" replay "$T" 2>&1)" "by RWF_DONTCACHE writes *20.0 MiB" "the row says so"

# xfs ends every DONTCACHE writeback where it can drop: 8 MiB to a new file and 4 MiB written
# over old blocks both leave nothing, and the model drops all 3072 pages too.
if ! command -v mkfs.xfs > /dev/null || ! mkfs_loop xfs; then
	skip "no xfs here (mkfs.xfs, a loop device)"
	done_testing
	exit 0
fi
X=$D/xfs
dd if=/dev/urandom of="$X/D" bs=1M count=4 status=none
drop_pages "$X/D"
cat > "$D/xfs.py" <<'EOF'
import os, sys
d, mib, DONTCACHE = sys.argv[1], 1 << 20, 0x80
buf = b"q" * mib
for name, n, flags in (("A", 8, os.O_CREAT | os.O_TRUNC), ("D", 4, 0)):
    fd = os.open(d + "/" + name, os.O_WRONLY | flags, 0o644)
    for i in range(n):
        os.pwritev(fd, [buf], i * mib, DONTCACHE)
    os.fsync(fd)
    os.close(fd)
EOF
rec "$TMPD/xfs.ftr" -- python3 "$D/xfs.py" "$X"
is "$rc" 0 "xfs: recorded"
is "$(cached "$X/A") $(cached "$X/D")" "0 0" "xfs: the new file and the one written over dropped"
out=$("$FOLIO_TRACE" calibrate -q "$TMPD/xfs.ftr")
is "$(calib_row "$out" "RWF_DONTCACHE drops, pages")" "3072 3072" \
	"xfs: the model drops the 3072 pages the kernel deleted"
done_testing
