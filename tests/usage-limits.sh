#!/bin/sh
# Usage errors say what was wrong and what is allowed, exit 2 and write nothing: values out of
# range state the range, an over-long value is echoed cut with the reason still shown, two
# outputs of one run may not share a file, and options that would cost without end are bounded.
. "$TOP_SRCDIR/tests/lib.sh"
ft() { "$FOLIO_TRACE" "$@"; }
cd "$TMPD" || exit 1
T=$TRACES/randread-64M-limit.ftr

# Out of range: the range is in the message.
run ft replay --by=file --top=0 "$T"
is "$rc:$err" "2:folio-trace: --top=0: out of range (1 to 4294967295)" "replay --top=0: the range"
run ft info --by=file --top=0 "$T"
like "$rc:$err" "^2:.*--top=0: out of range (1 to [0-9]*)" "info --top=0: the range"
run ft top --from="$T" -n 0
like "$rc:$err" "^2:.*--iterations=0: out of range (1 to 4294967295)" "top -n 0: the range"
run ft top -p 0
like "$rc:$err" "^2:.*--pid=0: out of range (1 to 1073741823)" "top -p 0: a usage error, the range"
run ft record -p 0 -o r.ftr
like "$rc:$err" "^2:.*--pid=0: out of range (1 to 1073741823)" "record -p 0: the range"

# synth --events: at most 2^32 access records, said before anything is written.
run ft synth seq-read --events=18446744073709551615 -o s.ftr
like "$rc:$err" "^2:.*--events=18446744073709551615: out of range (1 to 4294967296)" \
	"synth --events=2^64-1: refused, the limit in the message"
ok "$([ ! -e s.ftr ]; echo $?)" "no trace written"

# --memory above the model's 2^32 pages: a usage error (2), not a failed run (1).
run ft replay --memory=18446744073709551615 "$T"
like "$rc:$err" "^2:folio-trace: --memory: .*out of range: the model takes at most 2^32 pages" \
	"replay --memory=2^64-1: exit 2 with the limit"
run ft replay --memory=1G,18446744073709551615 "$T"
is "$rc" 2 "the same in a list of sizes"
run ft import --from=fio-iolog --memory=abc -o i.ftr /dev/null
like "$rc:$err" "^2:.*--memory=abc: not a size" "import --memory=abc: not a size"

# Sizes that cost more memory than the process can take: refused before any model is made,
# with the estimate, the bound and how many fit; a list that fits runs under the same bound.
# The 29 KB seq-copy trace at 1000 sizes took 4.0 GiB. ulimit -v and ASan's shadow exclude
# each other, so the sanitizers' build leaves this out.
if ldd "$FOLIO_TRACE" 2> /dev/null | grep -q libasan; then
	for i in 1 2 3; do
		skip "RLIMIT_AS bound: the sanitizers' build cannot run under ulimit -v"
	done
else
	S=$TRACES/seq-copy.ftr
	run sh -c "ulimit -v 1048576 && exec \"\$0\" replay --folio-order=0 \
		--memory=1M..1000M:1M \"\$1\"" "$FOLIO_TRACE" "$S"
	like "$rc:$err" "^2:folio-trace: --memory=1M..1000M:1M: 1000 model instances need about \
[0-9.]* GiB, more than the [0-9.]* MiB this process can take (RLIMIT_AS); [0-9]* would fit\$" \
		"1000 sizes over RLIMIT_AS: refused with the estimate and the bound"
	fit=$(printf '%s\n' "$err" | sed -n 's/.*; \([0-9]*\) would fit$/\1/p')
	ok "$([ "${fit:-0}" -gt 100 ] && [ "$fit" -lt 1000 ]; echo $?)" "how many fit: $fit"
	run sh -c "ulimit -v 1048576 && exec \"\$0\" replay --memory=1M..1000M:10M \"\$1\"" \
		"$FOLIO_TRACE" "$S"
	is "$rc" 0 "100 sizes at two orders fit under the same bound and run"
fi

# An over-long value is echoed cut, saying so, and the reason still follows.
list=$(seq 1 1000 | sed 's/$/M/' | paste -s -d, -)
run ft replay --memory="$list,abc" "$T"
is "$rc" 2 "a 5 KB --memory list with a bad size: exit 2"
like "$err" "(4896 characters, the first 160 shown): not a size" \
	"the list is echoed cut, with the reason"

# Two outputs of one run under one name: refused before anything is written.
run ft replay --plot=q --timeseries=q -o q "$T"
like "$rc:$err" "^2:.*one file for two outputs" "replay --plot=Q --timeseries=Q -o Q: usage error"
ok "$([ ! -e q ]; echo $?)" "nothing written"
: > r
ln r r2
run ft replay --plot=r --timeseries=r2 "$T"
is "$rc" 2 "two names of one file: the same"
done_testing
