#!/bin/sh
# Shadows inside a large folio, live. __filemap_add_folio() (mm/filemap.c) replaces every entry
# of a new folio's range and hands the last one to workingset_refault(), so a readahead folio
# over base pages that were evicted refaults when any of them left a shadow, not only its
# first page. Under record --memory-limit=48M:
# 1. A (16 MiB) read at its odd pages alone, 4 KiB each under POSIX_FADV_RANDOM (ftload
#    stride-read): 2048 base pages, each between two pages never cached;
# 2. B (96 MiB) read through: A's pages evicted, a shadow at each odd page;
# 3. A read through by a new opener: readahead's large folios each span odd pages.
# The kernel counts nearly all of A refaulted; the default replay's refaults (calibrate, the
# workingset_refault_file events of the traced files) within 5% of it. Looking at each folio's
# first page alone, as the model did, found a tenth of them (395 of 3979 on 6.18).
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf

ftload=${TOP_BUILDDIR:?run through make check}/tests/lab/ftload
[ -x "$ftload" ] || skip_all "tests/lab/ftload not built"

D=$(record_ext4_dir)
"$ftload" write "$D/a" 16M 1M > /dev/null && "$ftload" write "$D/b" 96M 1M > /dev/null ||
	skip_all "cannot write two files in $D"
drop_pages "$D/a" "$D/b"

"$FOLIO_TRACE" record -q -o "$TMPD/r.ftr" --memory-limit=48M -- sh -c '
	"$1" stride-read "$2" 4K 8K 4K > /dev/null && "$1" read "$3" 1M > /dev/null &&
	"$1" read "$2" 1M > /dev/null' sh "$ftload" "$D/a" "$D/b"
is "$?" 0 "record of odd pages, a flood, then a reread exits 0"

run "$FOLIO_TRACE" calibrate --format=json "$TMPD/r.ftr"
is "$rc" 0 "calibrate exits 0"
printf '%s\n' "$out" > "$TMPD/c.json"
. "$TOP_SRCDIR/tests/calib-lib.sh"
NAME="odd pages, then a reread"
kernel=$(field refaults "workingset_refault_file events" kernel)
# the folios of A the kernel inserted above order 0 (replay --by=file's kernel_inserted_N)
large=$("$FOLIO_TRACE" replay --by=file --format=csv "$TMPD/r.ftr" | awk -F, -v a="\"$D/a\"" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["name"] == a { for (o = 1; ("kernel_inserted_" o) in col; o++)
		n += $col["kernel_inserted_" o] }
	END { print n + 0 }')
damon_note "$TMPD/r.ftr"
diag "A's folios above order 0 (kernel): $large"
ok "$([ "${kernel:-0}" -ge 3000 ] && echo 0 || echo 1)" \
	"the kernel counted most of A refaulted (at least 3000 pages: $kernel)"
if [ "$large" -eq 0 ]; then
	# base pages only (ext4 before 6.16): no folio spans an odd page and its neighbour
	skip "the kernel read A again in base pages: no folio to look inside"
else
	within refaults "workingset_refault_file events" 5
fi
drop_pages "$D/a" "$D/b"
rm -f "$D/a" "$D/b"
done_testing
