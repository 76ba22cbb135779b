#!/bin/sh
# replay survives every damaged or odd trace of the reader's fuzz corpus: exit 0 or 1 (with a
# message when 1), never a crash, and every output it writes is complete.
. "$TOP_SRCDIR/tests/lib.sh"
set -- "$TOP_SRCDIR"/fuzz/corpus/reader/* "$TOP_SRCDIR"/fuzz/regress/*
[ -e "$1" ] || skip_all "no fuzz corpus"

n=0 bad=""
for f in "$@"; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	rm -f "$TMPD/out.json" "$TMPD/ts.csv" "$TMPD/p.svg"
	run "$FOLIO_TRACE" replay --folio-order=0,9 --memory=64M --format=json -o "$TMPD/out.json" \
		--timeseries="$TMPD/ts.csv" --plot="$TMPD/p.svg" "$f"
	case $rc in
	0) [ -s "$TMPD/out.json" ] && tail -c 2 "$TMPD/out.json" | grep -q '}' &&
		grep -q '</svg>' "$TMPD/p.svg" || bad="$bad ${f##*/}(incomplete output)" ;;
	1) [ -n "$err" ] || bad="$bad ${f##*/}(silent failure)" ;;
	*) bad="$bad ${f##*/}(rc=$rc)" ;;
	esac
done
is "$bad" "" "replay of $n corpus traces: no crash, no silent failure, complete outputs"
done_testing
