#!/bin/sh
# record's failure modes: usage errors (2), runtime errors (1) with one clear line, a private
# output file, clean stops on SIGINT/SIGTERM and --duration, disk full keeping what was written.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
T=$TMPD/t.ftr

run "$FOLIO_TRACE" record --interval=1ms -o "$T" -- true
is "$rc" 2 "--interval below 10ms is a usage error"
run "$FOLIO_TRACE" record --memory-limit=64M -o "$T"
is "$rc" 2 "--memory-limit without a command is a usage error"
run "$FOLIO_TRACE" record --buffer-size=12x -o "$T" -- true
is "$rc" 2 "a bad --buffer-size is a usage error"
run "$FOLIO_TRACE" record --bogus
is "$rc" 2 "an unknown option is a usage error"
run "$FOLIO_TRACE" record -p 1 -o "$T" -- true
is "$rc" 2 "-p and -- COMMAND together is a usage error"

run "$FOLIO_TRACE" record -o /proc/no-such-dir/t.ftr -- true
is "$rc" 1 "an unwritable output exits 1"
is "$err" "folio-trace: /proc/no-such-dir/t.ftr: cannot create: No such file or directory" \
	"and says so in one line"

run "$FOLIO_TRACE" record -o "$T" -- /no/such/program
is "$rc" 1 "a command that cannot run exits 1"
like "$err" '^folio-trace: /no/such/program: cannot run: No such file or directory$' \
	"and names the command"

# Programs that cannot be loaded: the reason, exit 1, and no trace left behind.
printf 'not BTF\n' > "$TMPD/bad.btf"
rm -f "$T"
run env FOLIO_TRACE_BTF="$TMPD/bad.btf" "$FOLIO_TRACE" record -o "$T" -- true
is "$rc" 1 "kernel BTF that cannot be read: exit 1"
like "$err" "^folio-trace: record: cannot read the kernel's BTF from $TMPD/bad.btf: " \
	"and says which file"
ok "$([ -e "$T" ] && echo 1 || echo 0)" "no trace is left behind"
run env FOLIO_TRACE_BTF="$TMPD/none.btf" "$FOLIO_TRACE" record -o "$T" -- true
is "$rc" 1 "FOLIO_TRACE_BTF naming no file: exit 1"
is "$err" "folio-trace: record: FOLIO_TRACE_BTF=$TMPD/none.btf: No such file or directory" \
	"and says so in one line"
ok "$([ -e "$T" ] && echo 1 || echo 0)" "no trace is left behind"

if command -v setpriv > /dev/null; then
	chmod 755 "$TMPD"
	run setpriv --reuid=65534 --regid=65534 --clear-groups --inh-caps=-all \
		"$FOLIO_TRACE" record -o "$TMPD/nobody.ftr" -- true
	is "$rc" 1 "not root: exits 1"
	is "$err" "folio-trace: record: needs root (or CAP_BPF and CAP_PERFMON) to load BPF programs" \
		"not root: one clear line"
fi

# tracefs missing: record mounts it (in a private mount namespace, not to disturb the host).
if command -v unshare > /dev/null; then
	out=$(unshare -m --propagation private sh -c '
		umount /sys/kernel/tracing 2> /dev/null; umount /sys/kernel/debug 2> /dev/null
		grep -c " tracefs " /proc/mounts
		"$1" record -o "$2" -- true 2> /dev/null && echo recorded
		grep " tracefs " /proc/mounts | cut -d" " -f2' sh "$FOLIO_TRACE" "$TMPD/tfs.ftr")
	is "$(echo $out)" "0 recorded /sys/kernel/tracing" "tracefs missing: mounted at /sys/kernel/tracing"
fi

# --duration ends the recording of a command still running; the command runs on.
run "$FOLIO_TRACE" record -o "$T" -d 300ms -- sleep 30
is "$rc" 0 "-d with a longer command: exit 0"
spid=$(echo "$err" | sed -n 's/^folio-trace: record: sleep (pid \([0-9]*\)) is still running, no longer traced$/\1/p')
ok "$([ -n "$spid" ] && kill "$spid" && echo 0 || echo 1)" "-d: the command is left running, and said so"

# -o -: the trace on standard output, the command's output moved to standard error.
"$FOLIO_TRACE" record -o - -- echo hello 2> "$TMPD/so.err" > "$TMPD/so.ftr"
is "$?" 0 "-o -: exit 0"
"$FOLIO_TRACE" dump -t end - < "$TMPD/so.ftr" > /dev/null
ok $? "-o -: standard output is a complete trace"
is "$(head -n 1 "$TMPD/so.err")" "hello" "-o -: the command's output went to standard error"

# -q: nothing on standard error when all went well (no progress, no summary).
run "$FOLIO_TRACE" record -q -o "$T" -- true
is "$rc:$err" "0:" "-q: exit 0, nothing on standard error"
run "$FOLIO_TRACE" record -o "$T" -- true
like "$err" '^folio-trace: record: [0-9]* events, ' "without -q: the summary line"

# An existing world-readable file becomes private.
echo old > "$T"
chmod 644 "$T"
run "$FOLIO_TRACE" record -o "$T" -- true
is "$rc" 0 "record -- true exits 0"
is "$(stat -c %a "$T")" 600 "an existing output file is made 0600"
run "$FOLIO_TRACE" dump -t end "$T"
is "$rc" 0 "the trace ends cleanly"

# Stops: --duration, SIGINT and SIGTERM all close the trace with FT_END.
run "$FOLIO_TRACE" record -o "$T" -d 300ms
is "$rc" 0 "-d 300ms stops by itself, exit 0"
is "$("$FOLIO_TRACE" dump -t end "$T" | wc -l)" 1 "-d: FT_END written"
for sig in INT TERM; do
	rm -f "$T"
	"$FOLIO_TRACE" record -o "$T" 2> "$TMPD/sig.err" &
	pid=$!
	# The first chunk (host, samples) is flushed once the programs are attached.
	wait_recording "$T"
	kill -$sig $pid
	wait $pid
	is "$?" 0 "SIG$sig: exit 0"
	is "$("$FOLIO_TRACE" dump -t end "$T" | wc -l)" 1 "SIG$sig: FT_END written"
	grep -q '^folio-trace: record: [0-9]* events, .* written to .*, [0-9]* lost' "$TMPD/sig.err"
	ok $? "SIG$sig: summary line with the lost count"
done

# On a terminal, a progress line (script(1) provides the terminal).
if command -v script > /dev/null; then
	script -qec "'$FOLIO_TRACE' record -o '$TMPD/tty.ftr' -d 2.5s" /dev/null > "$TMPD/tty.out" 2>&1
	grep -q 'folio-trace: [0-9]* events, [0-9]* events/s, .* written, [0-9]* lost' "$TMPD/tty.out"
	ok $? "a terminal gets the progress line"
fi
run "$FOLIO_TRACE" record -o "$T" -d 1.5s
is "$(echo "$err" | wc -l)" 1 "not a terminal: only the summary line"

# Disk full: a tiny tmpfs for the trace and a workload making far more events than fit.
M=$TMPD/full
if record_tmpfs "$M" 512k; then
	D=$(record_ext4_dir)
	run "$FOLIO_TRACE" record -o "$M/t.ftr" -- dd if=/dev/zero of="$D/small" bs=512 \
		count=200000 status=none
	is "$rc" 1 "disk full: exit 1"
	like "$err" "No space left on device" "disk full: the error says so"
	n=$("$FOLIO_TRACE" dump -t access "$M/t.ftr" 2> /dev/null | wc -l)
	ok "$([ "$n" -gt 1000 ] && echo 0 || echo 1)" "disk full: the chunks written stay readable ($n accesses)"
fi
done_testing
