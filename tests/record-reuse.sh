#!/bin/sh
# Live: an inode number reused after unlink is a new file in the trace. On ext4 a file created
# right after another's removal in the same directory takes its inode number; the recorder
# tells the two apart by i_generation: a second file record for the number, marked reused, with
# the new path; info, replay --by=file and top count each file's writes apart (256 KiB to the
# first, 1 MiB to the second), and the unlink of each is recorded.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf

D=$(record_ext4_dir)
cat > "$D/work.sh" <<EOS
#!/bin/sh
cd "$D"
dd if=/dev/zero of=a.html bs=64k count=4 status=none
stat -c %i a.html > ino.a
rm a.html
dd if=/dev/zero of=b.dat bs=64k count=16 status=none
stat -c %i b.dat > ino.b
rm b.dat
EOS
chmod +x "$D/work.sh"
T=$TMPD/reuse.ftr
for try in 1 2 3; do
	rec "$T" -- "$D/work.sh"
	[ "$(cat "$D/ino.a")" = "$(cat "$D/ino.b")" ] && break
done
[ "$(cat "$D/ino.a")" = "$(cat "$D/ino.b")" ] || skip_all "ext4 gave the second file another inode"
ino=$(cat "$D/ino.a")
is "$rc" 0 "recorded: two files, one inode number ($ino)"

files=$(dump_type "$T" file | grep " ino=$ino ")
is "$(echo "$files" | wc -l)" 2 "two file records for the number"
like "$(echo "$files" | sed -n 1p)" "path=$D/a.html\$" "the first names a.html"
like "$(echo "$files" | sed -n 2p)" " reused=1 path=$D/b.dat\$" "the second, marked reused, b.dat"
is "$(access_count "$T" unlink "$ino")" 2 "each file's unlink recorded"

info=$("$FOLIO_TRACE" info "$T")
like "$info" "^ *262144 .* $D/a.html\$" "info: 256 KiB written to a.html"
like "$info" "^ *1048576 .* $D/b.dat\$" "info: 1 MiB written to b.dat"

by=$("$FOLIO_TRACE" replay --folio-order=0 --by=file --top=100 "$T" 2>&1)
like "$by" "256.0 KiB .* $D/a.html\$" "replay --by=file: a.html's row has its 256 KiB"
like "$by" "1.0 MiB .* $D/b.dat\$" "and b.dat its own with 1 MiB"
like "$("$FOLIO_TRACE" top --from="$T" --batch 2>&1)" "^$D/b.dat .* 1.0 MiB " \
	"top --from: b.dat apart"
done_testing
