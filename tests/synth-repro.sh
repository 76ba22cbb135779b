#!/bin/sh
# synth: same options and seed give the same bytes; counts; usage and runtime errors.
. "$TOP_SRCDIR/tests/lib.sh"

ft() { "$FOLIO_TRACE" "$@"; }

run ft synth random-read --events=5000 --file-size=64M --seed=7 -o "$TMPD/a.ftr"
is "$rc" 0 "synth random-read succeeds"
ft synth random-read --events=5000 --file-size=64M --seed=7 -o "$TMPD/b.ftr"
cmp -s "$TMPD/a.ftr" "$TMPD/b.ftr"
ok $? "same seed: byte-identical trace"
ft synth random-read --events=5000 --file-size=64M --seed=8 -o "$TMPD/c.ftr"
cmp -s "$TMPD/a.ftr" "$TMPD/c.ftr"
[ $? -ne 0 ]
ok $? "another seed: a different trace"

for p in seq-read random-read random-overwrite append-fsync many-small-files zipf-scan; do
	ft synth $p --events=3000 --seed=3 -o "$TMPD/$p.1" &&
		ft synth $p --events=3000 --seed=3 -o "$TMPD/$p.2"
	cmp -s "$TMPD/$p.1" "$TMPD/$p.2"
	ok $? "$p: reproducible"
	run ft info "$TMPD/$p.1"
	n=$(printf '%s\n' "$out" | awk '$1 == "access" { print $2 }')
	is "$n" 3000 "$p: exactly 3000 access records"
	like "$out" '(synthetic)' "$p: host record marked synthetic"
done

# Analytic counts: 1 file of 1M written by 4K appends, fsync every 16: 256 writes, 16 fsyncs,
# the full log is synced (that is the 16th) and unlinked.
ft synth append-fsync --files=1 --file-size=1M --io-size=4K --events=273 -o "$TMPD/ap.ftr"
run ft info "$TMPD/ap.ftr"
is "$(printf '%s\n' "$out" | awk '$1 == "write" { print $2 }')" 256 "append-fsync: 256 writes"
is "$(printf '%s\n' "$out" | awk '$1 == "fsync" { print $2 }')" 16 "append-fsync: 16 fsyncs"
is "$(printf '%s\n' "$out" | awk '$1 == "unlink" { print $2 }')" 1 "append-fsync: 1 rotation"

ft synth seq-read --events=1000 --duration=1s -o "$TMPD/d.ftr"
run ft info "$TMPD/d.ftr"
like "$out" '^duration: *0.999000 s' \
	"--duration=1s over 1000 events: 1 ms apart, 0.999 s first to last"

ft synth seq-read --events=100 -o - > "$TMPD/stdout.ftr"
run ft info "$TMPD/stdout.ftr"
is "$rc" 0 "-o - writes a readable trace to stdout"

# Memory and output follow what is generated, not --files: 1e8 files for 100 events took 3 GB
# and wrote 1e8 file records up front. Now only the files touched are there.
for p in seq-read random-read random-overwrite append-fsync; do
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M -o "$TMPD/rss" "$FOLIO_TRACE" synth $p --files=100000000 \
			--events=100 -o "$TMPD/many.ftr"
		rss=$(tail -n 1 "$TMPD/rss")
		ok $([ "$rss" -lt 204800 ] && echo 0 || echo 1) \
			"$p --files=1e8 --events=100: peak RSS $rss KiB, under 200 MiB"
	else
		ft synth $p --files=100000000 --events=100 -o "$TMPD/many.ftr"
	fi
	run ft info "$TMPD/many.ftr"
	files=$(printf '%s\n' "$out" | awk '$1 == "files:" { print $2 }')
	ok $([ "$files" -ge 1 ] && [ "$files" -le 100 ] && echo 0 || echo 1) \
		"$p --files=1e8 --events=100: $files file records, at most one per access"
done

run ft synth no-such-pattern -o "$TMPD/x.ftr"
is "$rc" 2 "unknown pattern: exit 2"
like "$err" "unknown pattern 'no-such-pattern'" "unknown pattern: says so"
run ft synth seq-read
is "$rc" 2 "missing --output: exit 2"
run ft synth random-read --io-size=8K --file-size=4K -o "$TMPD/x.ftr"
is "$rc" 2 "io size above file size: exit 2"
run ft synth seq-read --bytes=1M --duration=1s -o "$TMPD/x.ftr"
is "$rc" 2 "--duration without --events: exit 2"
run ft synth seq-read --events=0 -o "$TMPD/x.ftr"
is "$rc" 2 "--events=0: exit 2"
run ft synth seq-read --zipf=abc -o "$TMPD/x.ftr"
is "$rc" 2 "bad --zipf: exit 2"
run ft synth seq-read --events=10 -o "$TMPD/no/such/dir/x.ftr"
is "$rc" 1 "unwritable output: exit 1"
like "$err" "^folio-trace: $TMPD/no/such/dir/x.ftr: " "unwritable output: names the file"

done_testing
