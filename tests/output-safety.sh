#!/bin/sh
# Outputs are written the one safe way (folio-trace(1), OUTPUT FILES): never over an input,
# never through a symbolic link, devices written in place and never removed, and a file takes
# its name only once it is whole: a failed run leaves an existing file as it was and no
# partial one. A full disk is RLIMIT_FSIZE here (write() fails with EFBIG), so no mount needed.
. "$TOP_SRCDIR/tests/lib.sh"
ft() { "$FOLIO_TRACE" "$@"; }
cd "$TMPD" || exit 1

ft synth seq-read --events=100 -o t.ftr || exit 1
cp t.ftr t.orig
printf 'fio version 2 iolog\n/f add\n/f read 0 4096\n' > in.txt
cp in.txt in.orig
# leftovers DIR: what is in DIR besides the listed names (temporary files would show).
leftovers() { ls -A "$1" | grep -v -x -e t.ftr -e t.orig -e in.txt -e in.orig -e stderr -e "$2" |
	tr "\n" " "; }

# An output that is an input: refused before anything is written, the input intact.
run ft export --to=csv -o t.ftr t.ftr
is "$rc:$err" "1:folio-trace: t.ftr: is also the input t.ftr: refused" "export -o T T: refused"
run ft import --from=fio-iolog -o in.txt in.txt
is "$rc:$err" "1:folio-trace: in.txt: is also the input in.txt: refused" "import -o I I: refused"
ln t.ftr hard.ftr
run ft replay -o hard.ftr t.ftr
is "$rc:$err" "1:folio-trace: hard.ftr: is also the input t.ftr: refused" \
	"replay -o HARDLINK-TO-INPUT: refused (same inode)"
run ft calibrate -o t.ftr t.ftr
is "$rc" 1 "calibrate -o T T: exit 1"
run ft import --from=fio-iolog -o in.txt - < in.txt
is "$rc:$err" "1:folio-trace: in.txt: is also the input (standard input): refused" \
	"import -o I - < I: refused"
cmp -s t.ftr t.orig && cmp -s in.txt in.orig
ok $? "the inputs are intact"
rm hard.ftr

# A symbolic link at the target: refused; --force replaces the link, never its target.
echo precious > victim
ln -s victim link
run ft synth seq-read --events=10 -o link
is "$rc:$err" "1:folio-trace: link: is a symbolic link: refused (--force replaces the link, never what it points to)" \
	"synth -o SYMLINK: refused"
run ft replay --timeseries=link t.ftr
is "$rc" 1 "replay --timeseries=SYMLINK: refused"
run ft replay --memory=1G,2G --curve=curve.csv --curve-plot=link t.ftr
is "$rc" 1 "replay --curve-plot=SYMLINK: refused"
ok "$([ ! -e curve.csv ]; echo $?)" "replay: the other curve output is not written either"
is "$(cat victim)" "precious" "the link's target is untouched"
run ft synth seq-read --events=10 --force -o link
is "$rc" 0 "--force: exit 0"
ok "$([ -f link ] && [ ! -L link ]; echo $?)" "--force: the link became the trace"
is "$(cat victim)" "precious" "--force: the link's target is still untouched"
ln -s victim link2
run ft export --to=csv --force -o link2 t.ftr
ok "$([ -f link2 ] && [ ! -L link2 ] && [ "$(cat victim)" = precious ]; echo $?)" \
	"export --force: the same"
# record too, before any BPF program is loaded (only the checks of the host come first).
if ! "$FOLIO_TRACE" record --help 2>/dev/null | grep -q 'without BPF support' &&
	[ "$(id -u)" -eq 0 ] && [ -r /sys/kernel/btf/vmlinux ]; then
	ln -s victim link3
	run ft record -o link3 -- true
	is "$rc:$err" "1:folio-trace: link3: is a symbolic link: refused (--force replaces the link, never what it points to)" \
		"record -o SYMLINK: refused"
	is "$(cat victim)" "precious" "record: the link's target is untouched"
	rm -f link3
fi
rm -f link link2 victim

# Directories and block devices are refused, even with --force.
mkdir adir
run ft synth seq-read --events=10 --force -o adir
is "$rc:$err" "1:folio-trace: adir: is a directory" "a directory: refused"
rmdir adir

# FIFOs (anyone can plant one in /tmp; opening one waits for a reader) and devices other than
# /dev/null are refused at once, naming the path and why; /dev/null is written in place and
# never removed, even when the run fails.
mkfifo fifo
for cmd in "synth seq-read --events=10 -o fifo" "replay -o fifo t.ftr" \
	"replay --plot=fifo t.ftr" "replay --timeseries=fifo t.ftr" "export --to=csv -o fifo t.ftr" \
	"import --from=fio-iolog -o fifo in.txt"; do
	# shellcheck disable=SC2086
	run timeout 20 "$FOLIO_TRACE" $cmd
	is "$rc:$err" "1:folio-trace: fifo: is a FIFO: refused (an output is a regular file, /dev/null or standard output)" \
		"$cmd: a FIFO without a reader: refused at once"
done
# With a reader: still refused, the reader gets nothing.
cat fifo > fifo.read &
reader=$!
run timeout 20 "$FOLIO_TRACE" synth seq-read --events=10 -o fifo
is "$rc" 1 "synth to a FIFO with a reader: refused"
exec 3<> fifo	# the reader sees an end, whether a writer came or not (never blocks)
exec 3>&-
wait "$reader"
is "$(wc -c < fifo.read)" 0 "the reader got nothing"
ok "$([ -p fifo ]; echo $?)" "the FIFO is left as it was"
ln -s fifo fifolink
run timeout 20 "$FOLIO_TRACE" synth seq-read --events=10 -o fifolink
is "$rc" 1 "a link to a FIFO: refused"
rm -f fifo fifo.read fifolink
run ft synth seq-read --events=10 -o /dev/null
is "$rc" 0 "synth -o /dev/null: exit 0"
printf 'fio version 2 iolog\n/f add\n/f frob 0 1\n' > bad.txt
run ft import --strict --from=fio-iolog -o /dev/null bad.txt
is "$rc" 1 "a failed import to /dev/null: exit 1"
ok "$([ -c /dev/null ]; echo $?)" "/dev/null is still a character device"
run ft import --from=fio-iolog -o /dev/full in.txt
is "$rc:$err" "1:folio-trace: /dev/full: is a character device: refused (an output is a regular file, /dev/null or standard output)" \
	"import -o /dev/full: another device is refused"
ok "$([ -c /dev/full ]; echo $?)" "/dev/full is still a character device"
# /dev/stdout is the file the shell opened, whatever it is.
ft synth seq-read --events=10 -o /dev/stdout > out.ftr
is "$?" 0 "synth -o /dev/stdout > FILE: exit 0"
run ft info out.ftr
is "$rc" 0 "the trace went through standard output to the file"
ft replay -o /dev/stdout --format=csv t.ftr | grep -q '^label,'
ok $? "replay -o /dev/stdout into a pipe"
rm -f out.ftr bad.txt

# A link another user planted in a sticky world-writable directory is never followed, even
# to a device (the kernel's protected_symlinks rule, whatever the sysctl says).
if [ "$(id -u)" -eq 0 ] && id nobody > /dev/null 2>&1; then
	mkdir sticky && chmod 1777 sticky
	ln -s /dev/null sticky/theirs && chown -h nobody sticky/theirs
	ln -s /dev/null sticky/ours
	run ft synth seq-read --events=10 -o sticky/theirs
	is "$rc" 1 "a link of another user in a sticky directory: refused"
	run ft synth seq-read --events=10 -o sticky/ours
	is "$rc" 0 "our own link there to /dev/null: written in place"
	ok "$([ -L sticky/ours ] && [ -c /dev/null ]; echo $?)" "the link and the device stay"
	rm -rf sticky
fi

# A writer stopped by SIGINT, SIGTERM or SIGHUP while writing leaves no file behind: neither
# the output nor a temporary one. The input comes through a FIFO held open, so the command is
# still running, its output open, when the signal comes.
interrupt() {	# interrupt SIG INPUT CMD...: CMD reading INPUT then waiting, stopped by SIG; $rc
	sig=$1
	input=$2
	shift 2
	# a FIFO of its own for each run: what one command left unread never reaches the next
	mkfifo hold
	exec 3<> hold
	cat "$input" >&3
	# background commands ignore SIGINT in a non-interactive shell: give it back
	env --default-signal=INT "$@" < hold > /dev/null 2>&1 &
	pid=$!
	i=0
	seen=never	# the output open, under a temporary name or none
	while [ $i -lt 400 ]; do
		if ls -l "/proc/$pid/fd" 2> /dev/null | grep -q -e " $PWD/#" -e " $PWD/\."; then
			seen=open
			break
		fi
		sleep 0.05
		i=$((i + 1))
	done
	kill "-$sig" "$pid"
	wait "$pid" && rc=0 || rc=$?
	exec 3>&-
	rm -f hold
}
if env --default-signal=INT true 2> /dev/null; then
	for sig in INT:130 TERM:143 HUP:129; do
		code=${sig#*:} sig=${sig%:*}
		interrupt $sig in.txt "$FOLIO_TRACE" import --from=fio-iolog -o imp.ftr -
		is "$rc:$seen:$(ls -A | grep -c -e '^\.' -e imp.ftr)" "$code:open:0" \
			"import stopped by SIG$sig: no file left"
		interrupt $sig t.ftr "$FOLIO_TRACE" export --to=csv -o exp.csv -
		is "$rc:$seen:$(ls -A | grep -c -e '^\.' -e exp.csv)" "$code:open:0" \
			"export stopped by SIG$sig: no file left"
		interrupt $sig /dev/null "$FOLIO_TRACE" synth random-read --events=4294967296 \
			-o syn.ftr
		is "$rc:$seen:$(ls -A | grep -c -e '^\.' -e syn.ftr)" "$code:open:0" \
			"synth stopped by SIG$sig: no file left"
	done
else
	skip "env --default-signal: coreutils too old to give background commands SIGINT back"
fi

# Modes: traces 0600, reports as the umask says.
umask 022
ft synth seq-read --events=10 -o new.ftr
is "$(stat -c %a new.ftr)" 600 "a new trace is mode 0600"
ft replay -o new.txt t.ftr
is "$(stat -c %a new.txt)" 644 "a new report is 0666 minus the umask"
rm -f new.ftr new.txt

# Full disk: writes fail with EFBIG past 4 KiB. A good file stays as it was, no partial
# file appears, no temporary file is left behind.
full() {	# full BLOCKS CMD...: CMD with a file size limit, SIGXFSZ ignored
	blocks=$1
	shift
	(trap '' XFSZ; ulimit -f "$blocks"; exec "$@")
}
cp t.orig good.ftr
run full 8 "$FOLIO_TRACE" synth random-read --events=20000 -o good.ftr
is "$rc:$err" "1:folio-trace: good.ftr: write failed: File too large" "synth on a full disk: exit 1"
cmp -s good.ftr t.orig
ok $? "synth on a full disk: the old trace is intact"
is "$(leftovers . good.ftr)" "" "synth on a full disk: no temporary file left"
printf 'old,report\n' > old.csv
"$TOP_BUILDDIR/tests/mktrace" ts-back back.ftr || exit 1
run full 8 "$FOLIO_TRACE" replay --interval=1us --timeseries=old.csv back.ftr
is "$rc" 1 "replay --timeseries on a full disk: exit 1"
is "$(cat old.csv)" "old,report" "replay --timeseries on a full disk: the old CSV is intact"
run full 8 "$FOLIO_TRACE" replay --interval=1us --format=json -o new.json --plot=new.svg \
	back.ftr
is "$rc" 1 "replay -o and --plot on a full disk: exit 1"
is "$(leftovers . old.csv | tr ' ' '\n' | grep -c -e '^new\.' -e '^\.')" 0 \
	"no partial JSON or SVG under any name, no temporary file"
ft synth random-read --events=20000 -o big.ftr
run full 8 "$FOLIO_TRACE" export --to=oraclegeneral -o old.csv big.ftr
is "$rc:$(cat old.csv)" "1:old,report" "export on a full disk: exit 1, the old file intact"
run full 8 "$FOLIO_TRACE" import --from=fio-iolog -o old.csv in.txt
is "$rc" 0 "a small import fits"
cp t.orig good.ftr
printf 'fio version 2 iolog\n/f add\n/f read 0 4096\n/f frob\n' > bad.txt
run ft import --strict --from=fio-iolog -o good.ftr bad.txt
is "$rc" 1 "a failed import: exit 1"
cmp -s good.ftr t.orig
ok $? "a failed import leaves the old trace as it was"
is "$(leftovers . good.ftr | tr ' ' '\n' | grep -c '^\.')" 0 "and no temporary file"
done_testing
