#!/bin/sh
# The lab's own check, run in the VM by tests/lab/init: the mounts, modules and programs every
# case relies on. A failure here is the lab's, not folio-trace's.
fails=0
check() {	# check DESCRIPTION COMMAND...: one "ok"/"not ok" line
	what=$1
	shift
	if "$@" > /dev/null 2>&1; then
		echo "ok - $what"
	else
		echo "not ok - $what"
		fails=$((fails + 1))
	fi
}
# mounted DIR TYPE
mounted() { awk -v d="$1" -v t="$2" '$2 == d && $3 == t { f = 1 } END { exit !f }' /proc/mounts; }
# loaded MODULE: in /proc/modules (a module built in is not listed, and not asked for)
loaded() { grep -q "^$1 " /proc/modules; }

echo "kernel $(uname -r), case in $(pwd)"
check "proc at /proc" mounted /proc proc
check "sysfs at /sys" mounted /sys sysfs
check "tracefs at /sys/kernel/tracing" mounted /sys/kernel/tracing tracefs
check "tracefs has the event directories" test -d /sys/kernel/tracing/events/syscalls
check "cgroup2 at /sys/fs/cgroup" mounted /sys/fs/cgroup cgroup2
check "kernel BTF" test -r /sys/kernel/btf/vmlinux
check "ext4 at /mnt/ext4" mounted /mnt/ext4 ext4
check "xfs at /mnt/xfs" mounted /mnt/xfs xfs
check "tmpfs at /mnt/tmpfs" mounted /mnt/tmpfs tmpfs
for m in virtio_blk xfs loop; do
	check "module $m loaded" loaded "$m"
done
# virtio_pci is a module on 6.1 only
if [ -f /lib/modules/virtio_pci.ko ]; then
	check "module virtio_pci loaded" loaded virtio_pci
fi
check "/dev/loop0 (loop)" test -b /dev/loop0
check "folio-trace --version" sh -c 'folio-trace --version | grep -q "^folio-trace "'
check "folio-trace record is built with BPF" \
	sh -c '! folio-trace record --help 2>&1 | grep -q "without BPF support"'
for fs in ext4 xfs tmpfs; do
	check "ftload writes and reads 1 MiB on $fs" sh -c "
		[ \"\$(ftload write /mnt/$fs/boot-check 1M 64K)\" = 1048576 ] &&
		[ \"\$(ftload read /mnt/$fs/boot-check 64K)\" = 1048576 ] &&
		rm /mnt/$fs/boot-check"
done
echo "lru_gen enabled: $(cat /sys/kernel/mm/lru_gen/enabled 2> /dev/null || echo absent)"
[ "$fails" -eq 0 ] || { echo "boot: $fails checks failed"; exit 1; }
echo "boot: all checks passed"
