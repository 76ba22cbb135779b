#!/bin/sh
# How many times a command reads the trace: the kernel's facts (the default orders and the
# verdict's trust line) are read once for both (with the replay when the orders are given),
# and calibrate's first pass with them; then the replay's first pass (cgroups, start
# folios), the replay, and calibrate's replay for the trust line. Counted from the opens of
# the file that strace sees; each open is one read of it from the start.
. "$TOP_SRCDIR/tests/lib.sh"
FT=$FOLIO_TRACE
command -v strace >/dev/null 2>&1 || skip_all "no strace to count the opens"
strace -f -o /dev/null true 2>/dev/null || skip_all "strace cannot trace here"

# opens ARGS... FILE: how many times the command opens FILE (its last argument)
opens() {
	eval "f=\${$#}"
	strace -f -e trace=openat -o "$TMPD/strace" "$FT" "$@" >/dev/null 2>&1
	grep -c "\"$f\", O_RDONLY" "$TMPD/strace"
}

"$FT" synth zipf-scan --events=20000 -q -o "$TMPD/z.ftr" || skip_all "synth failed"
REC="$TOP_SRCDIR/traces/rand-overwrite.ftr"
is "$(opens replay "$TMPD/z.ftr")" 3 \
	"synthetic trace: facts (found none) for orders and trust, first pass, replay"
is "$(opens replay --format=csv "$TMPD/z.ftr")" 3 \
	"csv (no trust line): facts for the orders, first pass, replay"
is "$(opens replay --folio-order=0 --format=csv "$TMPD/z.ftr")" 2 \
	"orders given, no trust line: first pass, replay"
is "$(opens replay --folio-order=0,9 "$TMPD/z.ftr")" 2 \
	"orders given: the trust line's facts come with the replay (found none)"
is "$(opens replay "$REC")" 4 \
	"recording: facts once with calibrate's first pass, first pass, replay, calibrate's replay"
is "$(opens replay --folio-order=0,9 "$REC")" 3 \
	"orders given: first pass, replay with the facts and calibrate's first pass, its replay"
is "$(opens calibrate "$REC")" 2 "calibrate: facts with the first pass, replay"
done_testing
