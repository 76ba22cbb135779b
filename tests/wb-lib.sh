# Helpers for the live writeback tests (tests/record-wb-*.sh): what the kernel wrote to one
# file, measured in the block layer, and what the model says of the same trace. Source after
# tests/lib.sh and tests/record-lib.sh.
#
# The kernel's figure: the block:block_rq_issue tracepoint, in a tracefs instance of the test's
# own, gives every request the device was sent; the bytes of write requests that fall inside
# the file's extents (filefrag -b512) are the file's data written back, exactly, whatever else
# (journal, log, other files, other tests) the device wrote meanwhile.

TRACEFS=/sys/kernel/tracing

# blk_trace_start: a tracefs instance that records block requests as they are issued.
blk_trace_start() {
	[ -d "$TRACEFS/instances" ] || mount -t tracefs tracefs "$TRACEFS" 2> /dev/null
	[ -d "$TRACEFS/events/block/block_rq_issue" ] || return 1
	BLK="$TRACEFS/instances/ft-wb-test.$$"
	mkdir "$BLK" 2> /dev/null || return 1
	echo 4096 > "$BLK/buffer_size_kb"
	echo 1 > "$BLK/events/block/block_rq_issue/enable"
}

# blk_trace_stop: the requests recorded, in $TMPD/blk.trace; the instance goes.
blk_trace_stop() {
	echo 0 > "$BLK/events/block/block_rq_issue/enable"
	cat "$BLK/trace" > "$TMPD/blk.trace"
	rmdir "$BLK" 2> /dev/null
	BLK=
}

wb_cleanup() {
	if [ -n "${BLK:-}" ]; then
		echo 0 > "$BLK/events/block/block_rq_issue/enable" 2> /dev/null
		rmdir "$BLK" 2> /dev/null
	fi
	record_cleanup
}
trap wb_cleanup EXIT

# disk_of FILE: "MAJ,MIN START" of the whole disk the file's filesystem is on, as block
# requests name it, and the sector its partition starts at (0 for a whole disk).
disk_of() {
	d=$(stat -c '%Hd:%Ld' "$1")
	if [ -r "/sys/dev/block/$d/partition" ]; then
		start=$(cat "/sys/dev/block/$d/start")
		d=$(basename "$(readlink -f "/sys/dev/block/$d/..")")
		d=$(cat "/sys/class/block/$d/dev")
	else
		start=0
	fi
	echo "$d $start" | tr ':' ','
}

# file_written_bytes FILE: bytes the requests in $TMPD/blk.trace wrote inside FILE's extents.
file_written_bytes() {
	set -- "$1" $(disk_of "$1")
	filefrag -v -b512 "$1" | awk -v dev="$2" -v off="$3" -v trace="$TMPD/blk.trace" '
	BEGIN { n = 0; bytes = 0 }
	$1 ~ /^[0-9]+:$/ {
		# "N: logical..logical: physical..physical: length: ..." in 512-byte sectors
		split($0, f, ":"); split(f[3], p, /\.\./)
		s[n] = p[1] + off; e[n] = p[2] + off + 1; n++
	}
	END {
		while ((getline line < trace) > 0) {
			if (line !~ /block_rq_issue: /) continue
			sub(/.*block_rq_issue: /, "", line)
			split(line, r, " ")
			# dev rwbs bytes () sector + nr
			if (r[1] != dev || r[2] !~ /W/) continue
			a = r[5] + 0; b = a + r[7]
			for (i = 0; i < n; i++) {
				lo = a > s[i] ? a : s[i]; hi = b < e[i] ? b : e[i]
				if (hi > lo) bytes += (hi - lo) * 512
			}
		}
		printf "%d\n", bytes
	}'
}

# model_metric TRACE KEY [REPLAY OPTION...]: one metric of a one-model replay (CSV column).
model_metric() {
	t=$1 key=$2
	shift 2
	"$FOLIO_TRACE" replay --format=csv "$@" "$t" | awk -F, -v k="$key" '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i }
	NR == 2 && c { print $c }'
}

# within PCT A B: exit status 0 when A is within PCT percent of B.
within() {
	awk -v p="$1" -v a="$2" -v b="$3" \
		'BEGIN { d = a - b; if (d < 0) d = -d; exit !(b > 0 && d * 100 <= p * b) }'
}
