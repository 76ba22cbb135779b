#!/bin/sh
# Files of procfs and sysfs cache no pages: traces recorded before the recorder left them out
# (no FT_HOST_PAGECACHE_FS in their host record) hold reads of them, which replay, the working
# set of --memory=N% and export leave out, counting them. The count is the trace's own: every
# access of a file whose path lies under /proc or /sys, as dump shows them.
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE
command -v python3 > /dev/null 2>&1 || skip_all "python3 not installed"

# uncached TRACE: "ACCESSES FILES": the access records of /proc and /sys files, and the files.
uncached() {
	"$FT" dump "$1" | awk '
	{ delete f; for (i = 3; i <= NF; i++) { e = index($i, "="); f[substr($i, 1, e - 1)] = substr($i, e + 1) } }
	$2 == "file" && f["path"] ~ /^\/(proc|sys)\// { pseudo[f["dev"] " " f["ino"]] = 1 }
	$2 == "access" && (f["dev"] " " f["ino"]) in pseudo { n++ }
	END { for (k in pseudo) files++; print n + 0, files + 0 }'
}

for name in rand-overwrite randread-64M-limit git-small-files; do
	T=$TRACES/$name.ftr
	set -- $(uncached "$T")
	diag "$name: $1 accesses of $2 procfs/sysfs files"
	ok "$([ "$1" -gt 0 ] && echo 0 || echo 1)" "$name: the trace reads procfs or sysfs ($1)"
	run "$FT" replay -q --folio-order=0 --format=json "$T"
	is "$rc" 0 "$name: replay exits 0"
	is "$(printf '%s\n' "$out" | python3 -c '
import json, sys
r = json.load(sys.stdin)["trace"]
print(r["uncached"], r["uncached_files"])')" "$1 $2" \
		"$name: replay leaves out every access of those files, and counts them"
	run "$FT" replay -q --folio-order=0 "$T"
	case $out in
	*"left out: $1 accesses of $2 procfs/sysfs files (no page cache)"*) r=0 ;;
	*) r=1 ;;
	esac
	ok "$r" "$name: the table's run line says so"
	run "$FT" replay -q --folio-order=0 --by=file --all "$T"
	is "$(printf '%s\n' "$out" | grep -c ' /\(proc\|sys\)/')" 0 \
		"$name: no row of --by=file is a procfs or sysfs file"
	run "$FT" export -v --to=csv -o /dev/null "$T"
	case $err in
	*", $1 of procfs/sysfs files and "*) r=0 ;;
	*) r=1 ;;
	esac
	ok "$r" "$name: export skips the same accesses ($err)"
done
done_testing
