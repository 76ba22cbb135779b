#!/bin/sh
# What the lab's cases share (sourced, not a case itself): numbered "ok"/"not ok" lines, a
# filesystem's cache dropped by mounting it again, and figures read from a trace, from the
# default replay of it and from the kernel's own counters. Runs in the VM under busybox sh.
n=0
failed=0

# check DESCRIPTION COMMAND...: one line for the check; the command says why when it fails.
check() {
	desc=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $desc"
	else
		echo "not ok $n - $desc"
		failed=$((failed + 1))
	fi
}

# equal A B: A is B, exactly.
equal() {
	[ "$1" = "$2" ] && return 0
	echo "#   got '$1', expected '$2'"
	return 1
}

# within PCT A B: A within PCT percent of B (B = 0: A must be 0).
within() {
	awk -v p="$1" -v a="$2" -v b="$3" 'BEGIN {
		d = a - b; if (d < 0) d = -d
		exit !(b == 0 ? a == 0 : d * 100 <= p * b) }' && return 0
	echo "#   $2 is not within $1% of $3"
	return 1
}

# near PCT FLOOR A B: A within PCT percent of B, or within FLOOR of it where that is wider
# (a count small against what it is drawn from varies by more than PCT of itself).
near() {
	awk -v p="$1" -v f="$2" -v a="$3" -v b="$4" 'BEGIN {
		d = a - b; if (d < 0) d = -d; t = b * p / 100; if (t < f) t = f
		exit !(d <= t) }' && return 0
	echo "#   $3 is not within $1% (or $2) of $4"
	return 1
}

# at_least A B: A >= B.
at_least() {
	[ "$1" -ge "$2" ] && return 0
	echo "#   $1 is below $2"
	return 1
}

# finish: the summary line, and the case's exit status.
finish() {
	echo "$n checks, $failed failed"
	[ "$failed" -eq 0 ]
}

# remount FS: the filesystem at /mnt/FS unmounted and mounted again, which empties the page
# cache of its files (and of nothing else).
remount() {
	dev=$(awk -v m="/mnt/$1" '$2 == m { print $1 }' /proc/mounts)
	sync
	umount "/mnt/$1" && mount -t "$1" "$dev" "/mnt/$1"
}

# vmstat NAME: a /proc/vmstat counter now.
vmstat() {
	awk -v k="$1" '$1 == k { print $2 }' /proc/vmstat
}

# rec TRACE FS COMMAND...: the command recorded, files on /mnt/FS only; stderr in TRACE.err.
rec() {
	t=$1 fs=$2
	shift 2
	folio-trace record --dev="/mnt/$fs" -o "$t" -- "$@" > "$t.out" 2> "$t.err"
	rc=$?
	[ "$rc" -eq 0 ] || sed 's/^/#   record: /' "$t.err"
	return "$rc"
}

# cgroup_figure CSV NAME KEY: KEY of cgroup NAME's last model row in replay --by=cgroup's CSV
cgroup_figure() {
	awk -F, -v name="\"$2\"" -v k="$3" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
		$c["name"] == name { v = $c[k] } END { print v }' "$1"
}

# event_orders EVENT TRACE INO: "ORDER COUNT" lines of the kernel's EVENT records of the file.
event_orders() {
	folio-trace dump "$2" | awk -v ev="$1" -v ino="ino=$3" '$2 == ev && $5 == ino {
		sub("order=", "", $7); n[$7]++ }
		END { for (o in n) print o, n[o] }' | sort -n
}

# kernel_orders TRACE INO: the kernel's insertions into the file, by order.
kernel_orders() {
	event_orders pagecache_add "$@"
}

# deleted_orders TRACE INO: its removals from the file (shmem fires no insertion event; its
# removals name each folio's order).
deleted_orders() {
	event_orders pagecache_delete "$@"
}

# model_orders TRACE [REPLAY OPTION...]: the same from the default replay ("ORDER COUNT"):
# its last model, the recorded kernel's order (the first is base pages, to compare with).
model_orders() {
	t=$1
	shift
	folio-trace replay --format=csv "$@" "$t" | awk -F, '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i ~ /^insertions_by_order_/) c[i] = $i; next }
	{ for (i in c) v[i] = $i }
	END { for (i in c) if (v[i] > 0) { o = c[i]; sub("insertions_by_order_", "", o)
		print o, v[i] } }' | sort -n
}

# model_metric TRACE KEY [REPLAY OPTION...]: one figure of the default replay (a CSV column)
# for its last model, as model_orders.
model_metric() {
	t=$1 key=$2
	shift 2
	folio-trace replay --format=csv "$@" "$t" | awk -F, -v k="$key" '
	NR == 1 { for (i = 1; i <= NF; i++) if ($i == k) c = i; next }
	c { v = $c }
	END { if (c) print v }'
}

# file_wb TRACE PATH: "WRITTEN WRITTEN_BACK" bytes of the file, from info's writeback table.
file_wb() {
	folio-trace info "$1" | awk -v f="$2" '
	/^writeback:/ { on = 1; next }
	on && $NF == f { print $1, $2; exit }'
}

# calib TRACE METRIC: "MODEL KERNEL" of calibrate's first row of that metric.
calib() {
	folio-trace calibrate -q --format=json "$1" |
		grep -m1 "\"metric\": \"$2\"" |
		sed 's/.*"model": \([0-9]*\), "kernel": \([0-9]*\),.*/\1 \2/'
}
