#!/bin/sh
# The first proof on a distribution kernel: folio-trace record loads its BPF programs and traces
# a 16 MiB write on ext4, and folio-trace info reads the trace back. Run in the VM by
# tests/lab/init, in the output directory: what folio-trace writes on stderr stays there.
folio-trace record -o trace.ftr -- ftload write /mnt/ext4/f 16M 1M \
	> record.out 2> record.err
rc=$?
echo "folio-trace record: exit status $rc"
sed 's/^/  stderr: /' record.err
if [ "$rc" -ne 0 ]; then
	# again with libbpf's log (the verifier's when a program is refused) into record-debug.err
	FOLIO_TRACE_DEBUG=1 folio-trace record -o debug.ftr -- ftload write /mnt/ext4/f 16M 1M \
		> /dev/null 2> record-debug.err
	echo "smoke: folio-trace record failed; libbpf's log in record-debug.err ends:"
	grep -v '^$' record-debug.err | tail -n 30 | sed 's/^/  debug: /'
	exit 1
fi
# record passes on the command's output: ftload's byte count
if [ "$(cat record.out)" != 16777216 ]; then
	echo "smoke: ftload wrote '$(cat record.out)' bytes, not 16777216"
	exit 1
fi
folio-trace info trace.ftr > info.txt 2> info.err
rc=$?
cat info.txt
sed 's/^/  stderr: /' info.err
if [ "$rc" -ne 0 ]; then
	echo "smoke: folio-trace info failed ($rc)"
	exit 1
fi
echo "smoke: passed"
