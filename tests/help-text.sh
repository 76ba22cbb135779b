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

# --memory's list and range syntax is in replay's help, not only in the man page.
"$FT" replay --help >"$TMPD/help"
like "$(cat "$TMPD/help")" '^      --memory=SIZE|LIST|RANGE ' "replay --help: --memory takes a list or range"
like "$(tr -s ' \n' '  ' <"$TMPD/help")" '(64M,256M,1G) or a range by step (64M..1G:64M), factor (1G..16G:x2) or count (64M..16G/100)' \
	"replay --help: with an example of each form"

# Every manual page a help text or the top-level usage names exists, by its section; the
# walk-through is folio-trace-analysis(7).
"$FT" --help >"$TMPD/usage"
like "$(cat "$TMPD/usage")" "man folio-trace-analysis walks" "--help: the walk-through's page"
missing=
for c in "" $subs; do
	[ "$c" = help ] && continue
	"$FT" $c --help 2>&1
done | grep -o -e 'folio-trace[a-z-]*([0-9])' -e 'man folio-trace[a-z-]*' | sort -u >"$TMPD/pages"
while read -r page; do
	case $page in
	man\ *) name=${page#man }; ls "$TOP_SRCDIR/man/$name".[1-8] >/dev/null 2>&1 ;;
	*) name=${page%(*}; sec=${page#*(}; sec=${sec%)}; [ -f "$TOP_SRCDIR/man/$name.$sec" ] ;;
	esac || missing="$missing $page"
done <"$TMPD/pages"
is "$missing" "" "every page named in a help text exists ($(wc -l <"$TMPD/pages") named)"
like "$(cat "$TMPD/pages")" "man folio-trace-analysis" "the usage names the walk-through"

done_testing
