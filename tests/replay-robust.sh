#!/bin/sh
# Replay of degenerate traces gives sensible results: an empty trace, one with only counter
# samples, and one whose file was written and then truncated to zero before writeback.
. "$TOP_SRCDIR/tests/lib.sh"
command -v python3 >/dev/null 2>&1 || skip_all "python3 not installed"
MK="$TOP_BUILDDIR/tests/mktrace"

# field TRACE.json CONFIG-INDEX EXPR: a Python expression over the metrics dict m.
field() {
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1])); m = d["configurations"][int(sys.argv[2])]["metrics"]
print(eval(sys.argv[3]))' "$@"
}

for kind in empty counters truncated; do
	"$MK" "$kind" "$TMPD/$kind.ftr" || exit 1
	run "$FOLIO_TRACE" replay --folio-order=0,9 --format=json "$TMPD/$kind.ftr"
	is "$rc" 0 "$kind: replay exits 0"
	printf '%s\n' "$out" > "$TMPD/$kind.json"
	run "$FOLIO_TRACE" replay --folio-order=0,9 "$TMPD/$kind.ftr"
	is "$rc" 0 "$kind: the table prints too"
done

for kind in empty counters; do
	for c in 0 1; do
		is "$(field "$TMPD/$kind.json" $c 'm["accesses"], m["insertions"], m["writeback_bytes"], m["hit_ratio"], m["free_blocks"][10]')" \
			"(0, 0, 0, None, 256)" "$kind, config $c: nothing cached, no ratio, 1 GiB free"
	done
done

# 256 x 4 KiB writes then truncate(0): every dirty byte discarded, nothing written back, and the
# buddy allocator merged every freed folio back into the 256 order-10 blocks of 1 GiB.
for c in 0 1; do
	is "$(field "$TMPD/truncated.json" $c 'm["write_bytes"], m["wb_truncated_bytes"], m["writeback_bytes"], m["dirty_bytes"], m["free_blocks"][10]')" \
		"(1048576, 1048576, 0, 0, 256)" "truncated, config $c: 1 MiB discarded, none written"
done
done_testing
