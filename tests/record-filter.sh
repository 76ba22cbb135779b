#!/bin/sh
# Scope of a recording: -- COMMAND traces the command and its children only; -p, --comm and
# --dev narrow it further.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf

D=$(record_ext4_dir)
T=$TMPD/t.ftr

# Another process keeps writing to its own file the whole time.
sh -c "while :; do printf x >> '$D/noise'; sleep 0.01; done" &
noise=$!
i=0
while [ ! -s "$D/noise" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
nino=$(stat -c %i "$D/noise")

rec "$T" -- sh -c "dd if=/dev/zero of='$D/a' bs=4k count=10 status=none; \
	dd if='$D/a' of=/dev/null bs=4k status=none"
is "$rc" 0 "record -- sh -c 'dd; dd' exits 0"
aino=$(stat -c %i "$D/a")
is "$(access_sum "$T" write "$aino")" 40960 "children of the command are traced (dd write)"
is "$(access_sum "$T" read "$aino")" 40960 "children of the command are traced (dd read)"
is "$(access_count "$T" write "$nino")" 0 "the other process's writes are not recorded"
is "$(dump_type "$T" task | grep -c " pid=$noise ")" 0 "the other process never appears"
# the tasks that made accesses (kernel threads acting on the files, such as a flusher or
# kdamond, may show with kernel events)
comms=$("$FOLIO_TRACE" dump "$T" | awk '
	$2 == "task" { split($3, a, "="); comm[a[2]] = $5; sub(/^comm=/, "", comm[a[2]]) }
	$2 == "access" { split($3, a, "="); tid[a[2]] = 1 }
	END { for (x in tid) print (x in comm) ? comm[x] : "unknown-" x }' | sort -u | tr '\n' ' ')
is "$comms" "dd sh " "accesses: the command and its children"
dump_type "$T" task | grep -q " comm=folio-trace\( \|$\)"
ok $? "tasks: the recorder's fork before exec too"

# -p: only that process, whole system otherwise quiet for it.
rec "$T" -p "$noise" -d 0.5s
is "$rc" 0 "record -p PID -d 0.5s exits 0"
n=$(access_count "$T" write "$nino")
ok "$([ "$n" -gt 0 ] && echo 0 || echo 1)" "-p: the process's appends are recorded ($n)"
# Every access comes from the traced process; other tasks may show only with kernel events
# about its file (a flusher thread writing its appends back).
pids=$("$FOLIO_TRACE" dump "$T" | awk '
	$2 == "task" { split($3, a, "="); split($4, b, "="); pid[a[2]] = b[2] }
	$2 == "access" { split($3, a, "="); tid[a[2]] = 1 }
	END { for (x in tid) print (x in pid) ? pid[x] : "unknown-" x }' | sort -u | tr '\n' ' ')
is "$pids" "$noise " "-p: every access comes from the traced pid"
kill "$noise"
wait "$noise" 2> /dev/null

# --comm: in a command, only tasks of that name.
echo hello > "$D/c"
cino=$(stat -c %i "$D/c")
rec "$T" --comm dd -- sh -c "cat '$D/c' > /dev/null; dd if='$D/c' of=/dev/null status=none"
is "$(access_sum "$T" read "$cino")" 6 "--comm dd: dd's read of 6 bytes recorded, cat's not"
is "$(dump_type "$T" task | sed 's/.* comm=\([^ ]*\).*/\1/' | sort -u)" "dd" "--comm dd: only dd tasks"

# Files of filesystems that cache no pages (procfs, sysfs, cgroupfs) are left out, the trace
# saying so (FT_HOST_PAGECACHE_FS, 8 in the host record's flags): reading them inserts no
# folio, and an earlier recorder's reads of them came back as cached pages in the replay.
P=$(awk '$3 ~ /^cgroup2?$/ { print $2; exit }' /proc/mounts)
pseudo="/proc/meminfo /proc/self/status /sys/kernel/mm/transparent_hugepage/enabled"
[ -n "$P" ] && [ -r "$P/cgroup.procs" ] && pseudo="$pseudo $P/cgroup.procs"
rec "$T" -- sh -c "cat $pseudo '$D/c' > /dev/null"
is "$rc" 0 "record of reads of procfs, sysfs and cgroupfs files exits 0"
is "$(access_sum "$T" read "$cino")" 6 "the ext4 file's read is recorded"
is "$(dump_type "$T" access | grep -c " dev=\($(dev_of /proc/meminfo)\|$(dev_of /sys/kernel)\) ")" \
	0 "no access of a procfs or sysfs file is recorded"
is "$(dump_type "$T" file | grep -c ' path=/\(proc\|sys\)/')" 0 "nor is such a file named"
flags=$(dump_type "$T" host | sed -n 's/.* flags=\([0-9]*\).*/\1/p')
is "$(( ${flags:-0} & 8 ))" 8 "the host record says procfs and sysfs are left out"
run "$FOLIO_TRACE" replay -q --folio-order=0 "$T"
case $out in *"procfs/sysfs files (no page cache)"*) r=1 ;; *) r=0 ;; esac
ok "$r" "replay leaves nothing more out by path"

# --dev: files on other filesystems are left out.
M=$TMPD/mnt
if record_tmpfs "$M" 16m; then
	rec "$T" --dev "$M" -- sh -c "printf 12345 > '$M/x'; printf 1234567 > '$D/y'"
	is "$(access_sum "$T" write "$(stat -c %i "$M/x")")" 5 "--dev: the tmpfs file is recorded"
	is "$(access_count "$T" write "$(stat -c %i "$D/y")")" 0 "--dev: the ext4 file is not"
	devs=$(dump_type "$T" access | sed 's/.* dev=\([0-9:]*\) .*/\1/' | sort -u)
	is "$devs" "$(dev_of "$M/x")" "--dev: every access is on that device"
fi
# --cgroup: only tasks in a cgroup v2 directory.
U=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/mounts)
if [ -n "$U" ] && mkdir "$U/ft-test-$$" 2> /dev/null; then
	CG=$U/ft-test-$$
	rm -f "$T"
	"$FOLIO_TRACE" record -o "$T" --cgroup "$CG" 2> "$TMPD/cg.err" &
	recorder=$!
	wait_recording "$T"
	sh -c "echo \$\$ > '$CG/cgroup.procs'; \
		dd if=/dev/zero of='$D/cg' bs=4k count=5 status=none"
	dd if=/dev/zero of="$D/out" bs=4k count=3 status=none
	# A shell that writes outside, then moves in and writes again (builtins: no exec):
	# asked again when it moves, only its second write is recorded.
	sh -c "printf 1234 > '$D/mv'; echo \$\$ > '$CG/cgroup.procs'; printf 123456 >> '$D/mv'"
	kill -INT $recorder
	wait $recorder
	is "$?" 0 "--cgroup recording exits 0 on SIGINT"
	rmdir "$CG"
	is "$(access_sum "$T" write "$(stat -c %i "$D/cg")")" 20480 "--cgroup: the task inside is recorded"
	is "$(access_count "$T" write "$(stat -c %i "$D/out")")" 0 "--cgroup: the task outside is not"
	is "$(access_sum "$T" write "$(stat -c %i "$D/mv")")" 6 \
		"--cgroup: a task that moves in is recorded from then on, not before"
fi
done_testing
