#!/bin/sh
# The EXAMPLES of folio-trace-calibrate(1) on the shipped memory-limited trace print exactly
# what the page shows.
. "$TOP_SRCDIR/tests/lib.sh"
PAGE="$TOP_SRCDIR/man/folio-trace-calibrate.1"
[ -f "$TOP_SRCDIR/traces/randread-64M-limit.ftr" ] || skip_all "no shipped traces"

mkdir "$TMPD/bin"
ln -s "$FOLIO_TRACE" "$TMPD/bin/folio-trace"

# Splits each .EX/.EE block into exN.sh (lines from "$ " on, with their "|" continuations)
# and exN.want (the rest), roff escapes undone.
awk -v dir="$TMPD" '
	function unroff(s) { gsub(/\\-/, "-", s); gsub(/\\e/, "\\", s); return s }
	$0 == ".EX" { n++; inblock = 1; cont = 0; next }
	$0 == ".EE" { inblock = 0; next }
	inblock {
		line = unroff($0)
		if (line ~ /^\$ / || cont) {
			sub(/^\$ /, "", line)
			print line > (dir "/ex" n ".sh")
			cont = line ~ /\|$/
		} else {
			sub(/[ \t]+$/, "", line)
			print line > (dir "/ex" n ".want")
		}
	}' "$PAGE"

count=0
for ex in "$TMPD"/ex*.sh; do
	[ -e "$ex" ] || break
	count=$((count + 1))
	got=$(cd "$TOP_SRCDIR" && PATH="$TMPD/bin:$PATH" sh "$ex" 2>&1 | sed 's/[[:space:]]*$//')
	is "$got" "$(cat "${ex%.sh}.want")" "example: $(head -1 "$ex")"
done
is "$count" 2 "the page has its two examples on the shipped trace"
done_testing
