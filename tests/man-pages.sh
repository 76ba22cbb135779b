#!/bin/sh
# Every man page lints clean, and each subcommand's page and --help list the same long options.
. "$TOP_SRCDIR/tests/lib.sh"
command -v mandoc >/dev/null 2>&1 || skip_all "mandoc not installed (build-aux/install-deps)"
MAN="$TOP_SRCDIR/man"

for page in "$MAN"/*.[1-8]; do
	run mandoc -Tlint -Wwarning "$page"
	is "$rc:$out$err" "0:" "mandoc -Tlint clean: ${page##*/}"
done

# Long options of a --help text / a man page, sorted, one per line.
help_options() {
	"$FOLIO_TRACE" "$1" --help | grep -o -- '--[a-z][a-z0-9-]*' | grep -v -x -e --help -e --usage |
		sort -u
}
page_options() {	# only the OPTIONS section: other sections may cite other commands
	mandoc -Tutf8 "$1" 2>/dev/null | sed 's/.\x08//g' |
		awk '/^[A-Z]/ {on = ($1 == "OPTIONS")} on' | grep -o -- '--[a-z][a-z0-9-]*' |
		grep -v -x -e --help -e --usage | sort -u
}

for page in "$MAN"/folio-trace-*.1; do
	[ -e "$page" ] || continue
	sub=${page##*/folio-trace-}
	sub=${sub%.1}
	"$FOLIO_TRACE" "$sub" --help >/dev/null 2>&1 || { ok 1 "$sub --help runs"; continue; }
	if "$FOLIO_TRACE" "$sub" --help | grep -q 'built without BPF support'; then
		tap_n=$((tap_n + 1))
		echo "ok $tap_n - folio-trace-$sub.1 # SKIP $sub built without BPF: no options to compare"
		continue
	fi
	is "$(help_options "$sub")" "$(page_options "$page")" \
		"folio-trace-$sub.1 OPTIONS lists exactly the options of '$sub --help'"
done

# The overview page names every subcommand of the program.
for sub in $("$FOLIO_TRACE" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}'); do
	mandoc -Tutf8 "$MAN/folio-trace.1" | sed 's/.\x08//g' | grep -q -w -- "$sub"
	ok $? "folio-trace.1 mentions the '$sub' subcommand"
done
done_testing
