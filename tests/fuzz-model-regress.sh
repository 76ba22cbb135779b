#!/bin/sh
# The model fuzz target's seeds and the inputs that once hung it (fuzz/regress/model/), run
# once each without libFuzzer (fuzz/model-replay): every one must end in time, whatever its
# timestamps and lengths, with no sanitizer report and none of the target's checks failing.
. "$TOP_SRCDIR/tests/lib.sh"
R="$TOP_BUILDDIR/fuzz/model-replay"
n=0
for f in "$TOP_SRCDIR"/fuzz/corpus/model/* "$TOP_SRCDIR"/fuzz/regress/model/*; do
	[ -f "$f" ] || continue
	run timeout 60 "$R" "$f"
	is "$rc" 0 "${f##*/fuzz/}: ends, exit 0"
	n=$((n + 1))
done
ok $([ "$n" -ge 6 ] && echo 0 || echo 1) "the model seeds and regression inputs are there ($n)"
# The reproducers of the hangs are the ones named in fuzz/regress/README.
for name in ts-max ts-random huge-len; do
	ok $([ -f "$TOP_SRCDIR/fuzz/regress/model/$name.bin" ]; echo $?) "regress/model/$name.bin"
done
done_testing
