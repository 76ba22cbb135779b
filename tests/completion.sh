#!/bin/sh
# bash completion offers the program's subcommands, each subcommand's options, the values of
# options whose help lists them, and trace files where a trace is read.
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

# Option values where --help lists them, with the option in the word or split at = (bash's
# COMP_WORDBREAKS has =, so the line "--format=j" reaches the function as --format = j).
is "$(complete_words "$FOLIO_TRACE" replay --format=)" \
	"--format=csv --format=csv-long --format=json --format=table " "replay --format= values"
is "$(complete_words "$FOLIO_TRACE" replay --format=c)" "--format=csv --format=csv-long " \
	"replay --format=c narrows"
is "$(complete_words "$FOLIO_TRACE" replay --format = j)" "json " "split at =: the value"
is "$(complete_words "$FOLIO_TRACE" replay --format =)" "csv csv-long json table " \
	"split at =, nothing typed yet"
is "$(complete_words "$FOLIO_TRACE" info --format=)" "--format=json --format=text " \
	"info --format= values"
is "$(complete_words "$FOLIO_TRACE" import --from = f)" "fio-iolog ftrace " "import --from values"
is "$(complete_words "$FOLIO_TRACE" export --to = )" "csv oraclegeneral " "export --to values"
is "$(complete_words "$FOLIO_TRACE" replay --metrics = re)" "reads reclaim " "replay --metrics groups"
is "$(complete_words "$FOLIO_TRACE" replay --lru = )" " " "no list in the help: no values"
is "$(complete_words "$FOLIO_TRACE" replay --by = )" "cgroup file process " "replay --by values"
is "$(complete_words "$FOLIO_TRACE" top --by = )" "cgroup file process " "top --by values"

# Trace operands complete to *.ftr files and directories; FILE values to any file.
mkdir "$TMPD/w" "$TMPD/w/dir"
: >"$TMPD/w/a.ftr"
: >"$TMPD/w/b.txt"
is "$(cd "$TMPD/w" && complete_words "$FOLIO_TRACE" replay '')" "a.ftr dir " \
	"replay operand: trace files and directories"
is "$(cd "$TMPD/w" && complete_words "$FOLIO_TRACE" info --format=json '')" "a.ftr dir " \
	"info operand after an option: trace files"
is "$(cd "$TMPD/w" && complete_words "$FOLIO_TRACE" replay --format = json '')" "a.ftr dir " \
	"the value of a split option is no subcommand"
is "$(cd "$TMPD/w" && complete_words "$FOLIO_TRACE" import --from=ftrace '')" "a.ftr b.txt dir " \
	"import input: any file"
is "$(cd "$TMPD/w" && complete_words "$FOLIO_TRACE" replay --output=)" \
	"--output=a.ftr --output=b.txt --output=dir " "--output=FILE: any file"
is "$(cd "$TMPD/w" && complete_words "$FOLIO_TRACE" top --from = )" "a.ftr dir " \
	"top --from=TRACE: trace files"
done_testing
