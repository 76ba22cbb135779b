#!/bin/sh
# A recorder killed with SIGKILL leaves a trace readable to its last whole chunk: every
# subcommand reads it, says it is incomplete, and exits 1. Over an existing trace too: the
# name holds the new recording from its start, and no hidden file is left. SIGHUP ends a
# recording as SIGTERM does.
. "$TOP_SRCDIR/tests/lib.sh"
. "$TOP_SRCDIR/tests/record-lib.sh"
record_requires_bpf
D=$(record_ext4_dir)
T=$TMPD/killed.ftr

# A writer that keeps going: 4 KiB appends, 100 a second, until killed.
"$FOLIO_TRACE" record -o "$T" -- sh -c "while :; do
	dd if=/dev/zero bs=4k count=1 oflag=append conv=notrunc of=$D/log 2>/dev/null
	sleep 0.01; done" > /dev/null 2>&1 &
rec_pid=$!
wait_recording "$T"
wait_readable_writes "$T" 11
kill -KILL "$rec_pid"
wait "$rec_pid" 2>/dev/null
# The traced loop was the recorder's child: it outlives it; stop it.
pkill -KILL -f "of=$D/log" 2>/dev/null
size=$(stat -c %s "$T")
ok $([ "$size" -gt 32 ] && echo 0 || echo 1) "the killed recorder had flushed chunks ($size bytes)"

run "$FOLIO_TRACE" info "$T"
is "$rc" 1 "info on the killed trace exits 1"
like "$out" '^complete:   no: no end record: the recording was cut short' \
	"info says the recording was cut short"
is "$(printf '%s\n' "$err" | wc -l)" 1 "one line on stderr"
writes=$(printf '%s\n' "$out" | awk '$1 == "write" {print $2}')
ok $([ "${writes:-0}" -gt 10 ] && echo 0 || echo 1) "the writes before the kill are readable ($writes)"

run "$FOLIO_TRACE" dump --type=access "$T"
is "$rc" 1 "dump exits 1"
is "$(printf '%s\n' "$out" | grep -c ' op=write ')" "$writes" "dump prints the same writes"
run "$FOLIO_TRACE" replay --folio-order=0 --format=csv "$T"
is "$rc" 1 "replay exits 1 after reporting what it read"
like "$out" 'write_requests' "replay still prints its report"

# Over an existing trace: the name takes the new recording once it starts (a new inode).
O=$TMPD/old.ftr
"$FOLIO_TRACE" synth seq-read --events=100 -o "$O" || exit 1
old_ino=$(stat -c %i "$O")
"$FOLIO_TRACE" record -o "$O" -- sh -c "while :; do
	dd if=/dev/zero bs=4k count=1 oflag=append conv=notrunc of=$D/log2 2>/dev/null
	sleep 0.01; done" > /dev/null 2>&1 &
rec_pid=$!
i=0
while [ "$(stat -c %i "$O")" = "$old_ino" ] && [ $i -lt 400 ]; do
	sleep 0.05
	i=$((i + 1))
done
wait_recording "$O"
wait_readable_writes "$O" 1
kill -KILL "$rec_pid"
wait "$rec_pid" 2>/dev/null
pkill -KILL -f "of=$D/log2" 2>/dev/null
ok "$([ "$(stat -c %i "$O")" != "$old_ino" ]; echo $?)" \
	"a killed recorder over an existing trace: the name was replaced"
run "$FOLIO_TRACE" info "$O"
is "$rc" 1 "info on it exits 1"
like "$out" '^complete:   no: no end record' "the name holds the killed recording, cut short"
is "$(ls -A "$TMPD" | grep -c '^\.')" 0 "no hidden temporary file beside it"

# SIGHUP: the recording ends with its end record, exit 0.
H=$TMPD/hup.ftr
"$FOLIO_TRACE" record -d 60s -o "$H" > /dev/null 2>&1 &
rec_pid=$!
wait_recording "$H"
kill -HUP "$rec_pid"
wait "$rec_pid"
is "$?" 0 "record ended by SIGHUP: exit 0"
run "$FOLIO_TRACE" info "$H"
is "$rc" 0 "SIGHUP: info exits 0"
like "$out" '^complete:   yes' "SIGHUP: the trace is complete"
done_testing
