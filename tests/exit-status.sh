#!/bin/sh
# One exit status rule for every subcommand (folio-trace(1), EXIT STATUS): 0 done, 1 a runtime
# error or incomplete input (unreadable, cut or damaged trace, output that cannot be written,
# standard output included), 2 a usage error (unknown or repeated option, bad value, missing
# operand). Each subcommand is tried in each class.
. "$TOP_SRCDIR/tests/lib.sh"
ft() { "$FOLIO_TRACE" "$@"; }
cd "$TMPD" || exit 1
REC=$TOP_SRCDIR/traces/seq-copy.ftr
ft synth seq-read --events=200 -o t.ftr || exit 1
head -c $(($(wc -c < "$REC") * 2 / 3)) "$REC" > cut.ftr
printf 'fio version 2 iolog\n/f add\n/f read 0 4096\n' > in.iolog

# status WANT DESCRIPTION CMD...: the status of CMD, stdout to a file.
status() {
	want=$1 desc=$2
	shift 2
	"$@" > out 2> err && got=0 || got=$?
	is "$got" "$want" "$desc"
}

# 0: done.
status 0 "info" ft info t.ftr
status 0 "dump" ft dump t.ftr
status 0 "synth" ft synth seq-read --events=10 -o s.ftr
status 0 "replay" ft replay t.ftr
status 0 "calibrate" ft calibrate "$REC"
status 0 "report" ft report -q -o r.html t.ftr
status 0 "import" ft import --from=fio-iolog -o i.ftr in.iolog
status 0 "export" ft export --to=csv t.ftr
status 0 "help" ft help replay

# 1: the input cannot be read, or only in part.
for sub in info dump replay calibrate "report -o r.html"; do
	status 1 "$sub: no such trace" ft $sub missing.ftr
	status 1 "$sub: a cut trace (results for what was read)" ft $sub cut.ftr
done
status 1 "export: no such trace" ft export --to=csv missing.ftr
status 1 "export: a cut trace" ft export --to=csv cut.ftr
status 1 "import: no such input" ft import --from=fio-iolog -o i.ftr missing.iolog
status 1 "import --strict: a bad line" sh -c "printf 'fio version 2 iolog\n/f frob\n' |
	'$FOLIO_TRACE' import --strict --from=fio-iolog -o i.ftr -"
status 1 "replay: damaged records" sh -c "'$TOP_BUILDDIR/tests/mktrace' huge h.ftr &&
	'$FOLIO_TRACE' replay h.ftr"

# 1: the output cannot be written; standard output too.
ft info t.ftr > /dev/full 2> err && got=0 || got=$?
is "$got:$(cat err)" "1:folio-trace: standard output: write failed: No space left on device" \
	"info > /dev/full: exit 1 with a message"
for cmd in "dump t.ftr" "replay t.ftr" "export --to=csv t.ftr" "synth seq-read --events=10 -o -" \
	"import --from=fio-iolog -o - in.iolog" "calibrate $REC" "--help" "replay --help"; do
	ft $cmd > /dev/full 2> err && got=0 || got=$?
	is "$got" 1 "$cmd > /dev/full: exit 1"
	like "$(cat err)" "write failed" "$cmd > /dev/full: says the write failed"
done
status 1 "synth -o DIR/missing/x" ft synth seq-read --events=10 -o nodir/x.ftr
status 1 "replay --plot=DIR/missing/x" ft replay --plot=nodir/x.svg t.ftr
status 1 "export -o the input" ft export --to=csv -o t.ftr t.ftr

# 2: usage errors, one class for all: unknown option, bad value, missing operand.
for sub in info dump synth replay calibrate report import export record; do
	status 2 "$sub --no-such-option" ft $sub --no-such-option
done
status 2 "info: no operand" ft info
status 2 "replay: two operands" ft replay t.ftr t.ftr
status 2 "export: no --to" ft export t.ftr
status 2 "import: no --from" ft import -o x.ftr in.iolog

# Decimal numbers only, as sizes: --pinned=0x10 was 16 %.
ft replay --pinned=0x10 t.ftr > out 2> err && got=0 || got=$?
is "$got:$(cat err)" "2:folio-trace: --pinned=0x10: expected a decimal number" \
	"replay --pinned=0x10: usage error"
status 2 "replay --pinned=1e1" ft replay --pinned=1e1 t.ftr
status 2 "replay --interval=0x10s" ft replay --interval=0x10s t.ftr
status 2 "synth --rate=1e6" ft synth seq-read --rate=1e6 -o s.ftr
status 2 "synth --zipf=nan" ft synth random-read --zipf=nan -o s.ftr
status 0 "replay --pinned=12.5" ft replay --pinned=12.5 t.ftr

# An option given twice is a usage error, whatever the subcommand; record's --pid is the one
# option that may repeat.
ft replay --memory=1G --memory=2G t.ftr > out 2> err && got=0 || got=$?
is "$got:$(cat err)" "2:folio-trace: --memory given twice: each option may be given once (see folio-trace(1))" \
	"replay --memory twice: usage error, named"
status 2 "replay -o twice" ft replay -o a.txt -o b.txt t.ftr
status 2 "replay --no-readahead twice" ft replay --no-readahead --no-readahead t.ftr
status 2 "replay --memory=LIST twice" ft replay --memory=1G,2G --memory=4G t.ftr
status 2 "replay --mrc twice" ft replay --mrc=exact --mrc=sampled --lru=plain --policy=fixed \
	--no-readahead t.ftr
status 2 "replay --curve twice" ft replay --memory=1G,2G --curve=a.txt --curve=b.txt t.ftr
status 2 "dump --format twice (short and long)" ft dump -f json --format=text t.ftr
status 2 "synth -o twice" ft synth seq-read -o a.ftr -o b.ftr
status 2 "import --from twice" ft import --from=csv --from=fio-iolog -o x.ftr in.iolog
status 2 "export --to twice" ft export --to=csv --to=csv t.ftr
status 2 "calibrate --format twice" ft calibrate --format=json --format=table "$REC"
status 2 "record -o twice" ft record -o a.ftr -o b.ftr
ok $([ ! -e a.txt ] && [ ! -e a.ftr ] && [ ! -e b.ftr ]; echo $?) \
	"usage errors write no output"

# record: what needs no BPF programs loaded fails the same way everywhere.
if "$FOLIO_TRACE" record --help 2>/dev/null | grep -q 'without BPF support'; then
	status 1 "record without BPF support" ft record -o r.ftr -- true
elif [ "$(id -u)" -eq 0 ] && [ -r /sys/kernel/btf/vmlinux ]; then
	ft record --cgroup=/tmp -o r.ftr -d 1 > out 2> err && got=0 || got=$?
	is "$got:$(head -n 1 err)" "1:folio-trace: --cgroup=/tmp: not a cgroup v2 directory (one under the cgroup2 mount, usually /sys/fs/cgroup)" \
		"record --cgroup=/tmp: exit 1, says why"
	ok $([ ! -e r.ftr ]; echo $?) "record --cgroup=/tmp: no trace file left behind"
	status 0 "record -p twice" ft record -p 1 -p $$ -o r.ftr -d 200ms
fi
done_testing
