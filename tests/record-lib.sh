# Helpers for the live recording tests (tests/record-*.sh). Source after tests/lib.sh.
# They record real workloads with BPF, so they need root and a build with BPF support.

record_requires_bpf() {
	if "$FOLIO_TRACE" record --help 2>/dev/null | grep -q 'without BPF support'; then
		skip_all "folio-trace built without BPF support"
	fi
	[ "$(id -u)" -eq 0 ] || skip_all "recording needs root"
	[ -r /sys/kernel/btf/vmlinux ] || skip_all "no kernel BTF"
	# One live test at a time: they share the page cache, the memory cgroups and the system's
	# counters that each one's premises read (a file's pages cached or evicted, other files'
	# refaults, pgsteal_file), and make check -j runs tests side by side; the others still run
	# beside them. The test starts again under flock(1), which holds the lock until it exits;
	# -o keeps it from the test's own children, so one left running cannot hold it.
	if [ -z "${FT_LIVE_LOCK_HELD:-}" ]; then
		command -v flock > /dev/null || skip_all "flock(1) not installed"
		rm -rf "$TMPD"
		export FT_LIVE_LOCK_HELD=1
		exec flock -o "${TMPDIR:-/tmp}/folio-trace-live-tests.lock" sh "$0"
	fi
}

# damon_note TRACE: says how many pages the host's proactive reclaim (DAMON's pageout) took
# while TRACE was recorded, as the replay's sources line names them; a figure to read a live
# point's failure by (a replay follows those deletions unless --proactive-reclaim=none).
damon_note() {
	n=$("$FOLIO_TRACE" replay --folio-order=0 "$1" | tr '\n' ' ' | tr -s ' ' |
	    sed -n 's/.*(\([0-9]*\) pages deleted by DAMON.*/\1/p')
	[ -z "$n" ] || diag "DAMON's pageout took $n pages while $(basename "$1") was recorded"
}

# A scratch directory on the root filesystem (ext4 here), removed at exit with TMPD.
record_ext4_dir() {
	d=$(mktemp -d /var/tmp/ft-record.XXXXXX)
	echo "$d" >> "$TMPD/cleanup-dirs"
	echo "$d"
}

# record_tmpfs DIR SIZE: a tmpfs of SIZE mounted at DIR (made), unmounted at exit with TMPD.
record_tmpfs() {
	mkdir -p "$1" && mount -t tmpfs -o size="$2" ft-test "$1" || return 1
	echo "$1" >> "$TMPD/cleanup-mounts"
}

record_cleanup() {
	if [ -f "$TMPD/cleanup-mounts" ]; then
		while read -r m; do umount "$m" 2>/dev/null; done < "$TMPD/cleanup-mounts"
	fi
	if [ -f "$TMPD/cleanup-loops" ]; then
		while read -r l; do losetup -d "$l" 2>/dev/null; done < "$TMPD/cleanup-loops"
	fi
	if [ -f "$TMPD/cleanup-dirs" ]; then
		while read -r d; do rm -rf "$d"; done < "$TMPD/cleanup-dirs"
	fi
	rm -rf "$TMPD"
}
trap record_cleanup EXIT

# rec TRACE ARGS...: folio-trace record -o TRACE ARGS..., status in $rc, stderr in $err.
rec() {
	t=$1
	shift
	"$FOLIO_TRACE" record -o "$t" "$@" > "$TMPD/rec.out" 2> "$TMPD/rec.err" && rc=0 || rc=$?
	err=$(cat "$TMPD/rec.err")
	[ "$rc" -eq 0 ] || diag "record failed ($rc): $err"
}

# wait_recording TRACE: returns once a background recorder traces (its first chunk is written
# after the programs are attached; before that the file holds only its 32-byte header). Gives
# up after 60 s: loading the programs takes seconds on a busy host.
wait_recording() {
	i=0
	while [ "$(stat -c %s "$1" 2> /dev/null || echo 0)" -le 32 ] && [ $i -lt 1200 ]; do
		sleep 0.05
		i=$((i + 1))
	done
}

# wait_readable_writes TRACE N: returns once a recording in progress has at least N write
# accesses readable in its flushed chunks (info reads a trace cut short), or after 60 s.
wait_readable_writes() {
	i=0
	while [ "$("$FOLIO_TRACE" info "$1" 2> /dev/null |
		awk '$1 == "write" { n = $2 } END { print n + 0 }')" -lt "$2" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# drop_pages FILE...: the page cache of these files only emptied, as cold as a first read:
# their dirty pages written back (DONTNEED leaves those), then POSIX_FADV_DONTNEED over each
# whole file (dd iflag=nocache count=0), which also clears the file's shadow entries. Never
# /proc/sys/vm/drop_caches: that empties the cache of every process on the host, other tests
# running beside this one included. With fincore(1), one test point per file that nothing of
# it stayed cached.
drop_pages() {
	for f in "$@"; do
		sync "$f" && dd if="$f" iflag=nocache count=0 status=none || return 1
		if command -v fincore > /dev/null; then
			is "$(fincore -n -b -o PAGES "$f" | tr -d ' ')" 0 \
				"$(basename "$f"): no page of it left in the cache"
		fi
	done
}

# memcg_hierarchy: ROOT and MAX of the memory hierarchy to make test cgroups in (v1's own, or
# v2 with the controller enabled), or the test skipped.
memcg_hierarchy() {
	if [ -w /sys/fs/cgroup/memory/cgroup.procs ]; then
		ROOT=/sys/fs/cgroup/memory MAX=memory.limit_in_bytes
	elif grep -qw memory /sys/fs/cgroup/cgroup.subtree_control 2> /dev/null; then
		ROOT=/sys/fs/cgroup MAX=memory.max
	else
		skip_all "no memory cgroup controller to make cgroups in (v1 or v2)"
	fi
}

# "dev" of a file as the trace writes it: MAJOR:MINOR.
dev_of() { stat -c '%Hd:%Ld' "$1"; }

# dump_type TRACE TYPE: the records of one type, one per line.
dump_type() { "$FOLIO_TRACE" dump -t "$2" "$1"; }

# access_sum TRACE OP INO [FIELD]: sum of FIELD (default len) over FT_ACCESS records.
access_sum() {
	dump_type "$1" access | awk -v op="$2" -v ino="$3" -v fld="${4:-len}" '
	{ delete f; for (i = 3; i <= NF; i++) { n = index($i, "="); f[substr($i, 1, n - 1)] = substr($i, n + 1) }
	  if (f["op"] == op && f["ino"] == ino) s += f[fld] }
	END { printf "%d\n", s }'
}

# access_count TRACE OP INO: number of FT_ACCESS records.
access_count() {
	dump_type "$1" access | awk -v op="$2" -v ino="$3" '
	{ delete f; for (i = 3; i <= NF; i++) { n = index($i, "="); f[substr($i, 1, n - 1)] = substr($i, n + 1) }
	  if (f["op"] == op && f["ino"] == ino) c++ }
	END { printf "%d\n", c }'
}

# field_of TRACE TYPE INO FIELD: FIELD of every record of TYPE about INO, one per line.
field_of() {
	dump_type "$1" "$2" | awk -v ino="$3" -v fld="$4" '
	{ delete f; for (i = 3; i <= NF; i++) { n = index($i, "="); f[substr($i, 1, n - 1)] = substr($i, n + 1) }
	  if (f["ino"] == ino) print f[fld] }'
}

# pages_added TRACE INO: pages brought into the cache (sum of 2^order over pagecache_add).
pages_added() {
	field_of "$1" pagecache_add "$2" order | awk '{ s += 2 ^ $1 } END { printf "%d\n", s }'
}

# counter_delta TRACE SOURCE NAME: last minus first sample of one counter.
counter_delta() {
	"$FOLIO_TRACE" dump "$1" | awk -v src="$2" -v name="$3" '
	$2 == "counter_names" && $0 ~ (" source=" src " ") {
		for (i = 3; i <= NF; i++) if ($i ~ /^names=/) { sub(/^names=/, "", $i); n = split($i, nm, ",") }
		for (i = 1; i <= n; i++) if (nm[i] == name) idx = i
	}
	$2 == "counters" && $0 ~ (" source=" src " ") && idx {
		for (i = 3; i <= NF; i++) if ($i ~ /^values=/) { v = $i; sub(/^values=/, "", v); split(v, vals, ",") }
		if (!seen++) first = vals[idx]; last = vals[idx]
	}
	END { printf "%d\n", last - first }'
}

# via_sum TRACE OP INO VIA: bytes of the OP accesses of INO made through interface VIA (arg:
# 0 syscalls, 1 io_uring, 2 AIO, 3 copy_file_range, 4 sendfile, 5 splice).
via_sum() {
	dump_type "$1" access | awk -v op="$2" -v ino="$3" -v via="$4" '
	{ delete f; for (i = 3; i <= NF; i++) { n = index($i, "="); f[substr($i, 1, n - 1)] = substr($i, n + 1) }
	  if (f["op"] == op && f["ino"] == ino && f["arg"] == via) s += f["len"] }
	END { printf "%d\n", s }'
}

# access_fields TRACE OP INO: "pos len flags arg" of each OP access of INO, one per line.
access_fields() {
	dump_type "$1" access | grep " ino=$3 " | grep " op=$2 " |
		sed 's/.* pos=\([0-9]*\) len=\([0-9]*\) .* flags=\([^ ]*\) arg=\([0-9]*\).*/\1 \2 \3 \4/'
}

# mkfs_loop FS: a fresh 320 MiB FS (ext4 or xfs) on a loop device mounted at $D/FS, its queue
# as the kernel sets up a disk by default: max_sectors_kb 1280, read_ahead_kb 128.
mkfs_loop() {
	truncate -s 320M "$D/$1.img"
	case $1 in
	ext4) mkfs.ext4 -q -F "$D/$1.img" ;;
	xfs) mkfs.xfs -q -f "$D/$1.img" ;;
	esac || return 1
	l=$(losetup -f --show "$D/$1.img") || return 1
	echo "$l" >> "$TMPD/cleanup-loops"
	mkdir -p "$D/$1"
	mount -t "$1" "$l" "$D/$1" || return 1
	echo "$D/$1" >> "$TMPD/cleanup-mounts"
	# max_sectors_kb first: a change of queue limits sets read_ahead_kb again
	echo 1280 > "/sys/block/${l#/dev/}/queue/max_sectors_kb" &&
		echo 128 > "/sys/block/${l#/dev/}/queue/read_ahead_kb"
}

# Folios added to inode INO of TRACE, "ORDER:COUNT ..." in order.
kernel_orders() {
	field_of "$1" pagecache_add "$2" order | sort -n | uniq -c | awk '{ printf "%s:%s ", $2, $1 }'
}
