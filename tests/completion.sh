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
is "$(complete_words "$FOLIO_TRACE" replay --threads = )" " " "no list in the help: no values"
# Values given as "WORD: meaning; WORD: meaning", placeholders and [:RATE] left out.
is "$(complete_words "$FOLIO_TRACE" replay --lru = )" "mglru plain two-list " "replay --lru values"
is "$(complete_words "$FOLIO_TRACE" replay --policy = )" "fixed readahead " "replay --policy values"
is "$(complete_words "$FOLIO_TRACE" replay --device = )" "hdd nfs nvme sata-ssd " \
	"replay --device values, not the lat=US,bw=MBPS form"
is "$(complete_words "$FOLIO_TRACE" replay --dirty-granularity = )" "auto block folio range " \
	"replay --dirty-granularity values"
is "$(complete_words "$FOLIO_TRACE" replay --mrc = )" "compare exact sampled " "replay --mrc modes"
is "$(complete_words "$FOLIO_TRACE" replay --ra-rule=)" "--ra-rule=6.11 --ra-rule=6.17 --ra-rule=6.6 " \
	"replay --ra-rule values"
is "$(complete_words "$FOLIO_TRACE" replay --metrics = h)" "help " "replay --metrics=help offered"
sorts=$(complete_words "$FOLIO_TRACE" top --sort = )
is "$sorts" "dirtied evicted hit% inserted name o0 o1-3 o4-8 o9+ ra read waf wback write " \
	"top --sort: its columns"
bad=
for c in $sorts; do
	"$FOLIO_TRACE" top --from="$TRACES/seq-copy.ftr" -b -n 1 --sort="$c" >/dev/null 2>&1 ||
		bad="$bad $c"
done
is "$bad" "" "top takes every --sort value completion offers"

# Each option once (--by, not --by and --by=), as many as the help defines.
for sub in replay info dump synth calibrate report import export top record; do
	got=$(complete_words "$FOLIO_TRACE" $sub --)
	defined=$("$FOLIO_TRACE" $sub --help | grep -c -e '^      --[a-z]' -e '^  -[^ -], --[a-z]')
	dups=$(printf '%s\n' $got | sed 's/=$//' | sort | uniq -d | tr '\n' ' ')
	is "$(printf '%s\n' $got | wc -l):$dups" "$defined:" "$sub: each of its $defined options once"
done
is "$(complete_words "$FOLIO_TRACE" replay --b)" "--block-fill= --block-size= --by= " \
	"an option that takes a value is offered with its ="
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
