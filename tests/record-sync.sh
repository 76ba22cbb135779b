#!/bin/sh
# Live: sync(2) and syncfs(2) recorded (no file, syncfs with its file system's device) and
# replayed as fs/sync.c does them: every dirty file written back by the flusher's works and
# waited for. A 1 MiB file written and left dirty, then `sync`: the replay writes its 1 MiB back
# under "by sync or syncfs", none under fsync's row, and the kernel's file system wrote back the
# same 1 MiB of it. The same with `sync -f` (syncfs) of its directory.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
command -v python3 > /dev/null || skip_all "python3 not installed"
sync --help 2>&1 | grep -q -- '--file-system' || skip_all "sync(1) has no --file-system"

D=$(record_ext4_dir)
F=$D/file
dev=$(dev_of "$D")

# wb TRACE: "sync_bytes fsync_bytes" of the replay at order 0, then the kernel's bytes written
# back of the file (info).
wb() {
	"$FOLIO_TRACE" replay --folio-order=0 --format=json "$1" | python3 -c '
import json, sys
m = json.load(sys.stdin)["configurations"][0]["metrics"]
print("%d %d" % (m["wb_sync_bytes"], m["wb_fsync_bytes"]))'
}

for how in sync syncfs; do
	rm -f "$F"
	cat > "$D/work.sh" <<EOS
#!/bin/sh
dd if=/dev/zero of="$F" bs=64k count=16 status=none
if [ $how = sync ]; then sync; else sync -f "$D"; fi
EOS
	chmod +x "$D/work.sh"
	# written back now: only the file is dirty when the trace starts (a dirty start page of
	# the script would be the sync's too, in the kernel and the replay)
	sync "$D/work.sh"
	rec "$TMPD/$how.ftr" -- "$D/work.sh"
	is "$rc" 0 "$how: recorded"
	ops=$(dump_type "$TMPD/$how.ftr" access | grep " op=$how ")
	is "$(echo "$ops" | grep -c .)" 1 "$how: one record"
	if [ $how = sync ]; then
		like "$ops" " dev=0:0 ino=0 " "sync: no device, no file"
	else
		like "$ops" " dev=$dev ino=0 " "syncfs: the file system's device, no file"
	fi
	is "$(wb "$TMPD/$how.ftr")" "1048576 0" "$how: the replay writes the 1 MiB back by $how"
	like "$("$FOLIO_TRACE" info "$TMPD/$how.ftr")" "^ *1048576 *1048576 .* $F\$" \
		"$how: the kernel wrote the same 1 MiB of the file back"
	like "$("$FOLIO_TRACE" replay --folio-order=0 "$TMPD/$how.ftr" 2>&1)" \
		"by sync or syncfs *1.0 MiB" "$how: the row says so"
done
rm -f "$F"
done_testing
