#!/bin/sh
# make install puts the shipped traces the man pages' examples read in $(pkgdatadir)/traces,
# as folio-trace(1) and folio-trace-analysis(7) say, and make uninstall removes them.
. "$TOP_SRCDIR/tests/lib.sh"
command -v "${MAKE:-make}" >/dev/null 2>&1 || skip_all "make not installed"
D=$TMPD/inst
M="${MAKE:-make} -s -C $TOP_BUILDDIR DESTDIR=$D"

$M install-dist_tracesDATA >"$TMPD/log" 2>&1
ok $? "make install-dist_tracesDATA"
dir=$(find "$D" -type d -path "*/share/folio-trace/traces" 2>/dev/null | head -1)
[ -n "$dir" ] || dir=$TMPD/none
ok $([ -d "$dir" ] && echo 0 || echo 1) "installed under DATADIR/folio-trace/traces ($dir)"
want=$(cd "$TOP_SRCDIR/traces" && ls *.ftr README | sort | tr '\n' ' ')
is "$(cd "$dir" 2>/dev/null && ls | sort | tr '\n' ' ')" "$want" "every shipped trace and the README"
for t in "$TOP_SRCDIR"/traces/*.ftr; do
	cmp -s "$t" "$dir/$(basename "$t")"
	ok $? "$(basename "$t") installed as shipped"
done
run "$FOLIO_TRACE" info "$dir/rand-overwrite.ftr"
is "$rc" 0 "an installed trace reads"
for page in folio-trace.1 folio-trace-analysis.7 folio-trace-replay.1; do
	grep -q 'share/folio\\-trace/traces' "$TOP_SRCDIR/man/$page"
	ok $? "$page says where the traces are installed"
done
$M uninstall-dist_tracesDATA >"$TMPD/log" 2>&1
is "$(find "$D" -type f | wc -l)" 0 "make uninstall removes them"

done_testing
