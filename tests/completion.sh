#!/bin/sh
# bash completion offers the program's subcommands and each subcommand's options.
. "$TOP_SRCDIR/tests/lib.sh"
command -v bash >/dev/null 2>&1 || skip_all "bash not installed"

# complete WORDS...: prints the candidates for the last word, sorted, on one line.
complete_words() {
	bash -c '
		. "$1/completion/folio-trace.bash"
		shift
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		_folio_trace
		printf "%s\n" "${COMPREPLY[@]}" | sort | tr "\n" " "' \
		sh "$TOP_SRCDIR" "$@"
}

want=$("$FOLIO_TRACE" --help | awk '/^Subcommands:/ {on = 1; next} on && /^  [a-z]/ {print $1}' |
	sort | tr '\n' ' ')
is "$(complete_words "$FOLIO_TRACE" '')" "$want" "subcommands offered"
is "$(complete_words "$FOLIO_TRACE" 'in')" "info " "prefix completes to info"
is "$(complete_words "$FOLIO_TRACE" dump --f)" "--format= " "dump option completes"
is "$(complete_words "$FOLIO_TRACE" help du)" "dump " "help completes subcommands"
done_testing
