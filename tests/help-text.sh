#!/bin/sh
# Every subcommand's --help reads at 80 columns: no line wider than argp's 79, no line of
# blanks (argp's leftover when a text ends at the margin), and the hand-made lists after
# "Patterns...:" or "Formats:" never wrapped back to column 0 in mid-phrase.
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE

subs=$("$FT" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}')
for c in $subs; do
	[ "$c" = help ] && continue
	"$FT" "$c" --help >"$TMPD/help" 2>&1
	wide=$(awk 'length > 79' "$TMPD/help" | head -3)
	is "$wide" "" "$c --help: no line wider than 79 columns"
	blank=$(grep -c '^ \+$' "$TMPD/help")
	is "$blank" 0 "$c --help: no line of blanks"
	# in a list, a line at column 0 starts a sentence; a lower-case one is a wrapped item
	cut=$(awk '/^[A-Z][^ ].*:$/ && !/^Usage/ {list = 1; next}
		list && /^[^ ]/ { if ($0 ~ /^[a-z(-]/) print; list = 0 }' "$TMPD/help")
	is "$cut" "" "$c --help: no list item wrapped in mid-phrase"
done
# the two that did
"$FT" synth --help >"$TMPD/help"
like "$(cat "$TMPD/help")" '^  seq-read          read each file front to back (1 x 256M, 128K)$' \
	"synth --help: the seq-read item on one line"
"$FT" import --help >"$TMPD/help"
like "$(cat "$TMPD/help")" '^                 filemap, writeback and vmscan tracepoints$' \
	"import --help: the ftrace item continued indented"

done_testing
