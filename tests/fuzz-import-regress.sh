#!/bin/sh
# Every seed and every past crash of the importer fuzz target goes through `folio-trace import`
# with the importer its first byte names: exit 0 or 1 (bad lines), never a crash.
. "$TOP_SRCDIR/tests/lib.sh"
formats="ftrace fio-iolog csv oraclegeneral"
n=0
for f in "$TOP_SRCDIR"/fuzz/corpus/import/* "$TOP_SRCDIR"/fuzz/regress/import/*; do
	[ -f "$f" ] || continue
	sel=$(od -An -tu1 -N1 "$f" | tr -d ' ')
	fmt=$(echo $formats | cut -d' ' -f$((sel % 4 + 1)))
	tail -c +2 "$f" > "$TMPD/in"
	run "$FOLIO_TRACE" import --from="$fmt" -o "$TMPD/out.ftr" "$TMPD/in"
	ok $([ "$rc" -le 1 ] && echo 0 || echo 1) "${f##*/fuzz/}: import --from=$fmt exits $rc"
	if [ "$rc" -eq 0 ]; then
		run "$FOLIO_TRACE" info "$TMPD/out.ftr"
		is "$rc" 0 "${f##*/fuzz/}: the imported trace reads back complete"
	fi
	n=$((n + 1))
done
ok $([ "$n" -ge 7 ] && echo 0 || echo 1) "the import seeds are there ($n)"
done_testing
