#!/bin/sh
# How many times a command reads the trace: the kernel's facts (the default orders and the
# verdict's trust line) are read once for both (with the replay when the orders are given),
# then the first pass (cgroups, start folios), the replay, and calibrate's own first pass
# and replay for the trust line. Counted from the opens of the file that strace sees; each
# open is one read of it from the start.
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
is "$(opens replay "$REC")" 5 \
	"recording: facts once, first pass, replay, then calibrate's first pass and replay"
is "$(opens replay --folio-order=0,9 "$REC")" 4 \
	"orders given: first pass, replay with the facts, then calibrate's first pass and replay"
is "$(opens calibrate "$REC")" 3 "calibrate: facts, first pass, replay"
done_testing
