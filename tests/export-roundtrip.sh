#!/bin/sh
# export --to=csv|oraclegeneral: exact request streams for known workloads, next-access
# times, folio granularity, and export -> import -> export round trips.
. "$TOP_SRCDIR/tests/lib.sh"

ft() { "$FOLIO_TRACE" "$@"; }
next_at() { od -A n -t d8 -j $(($2 * 24 + 16)) -N 8 "$1" | tr -d ' '; }	# record $2's next
u64_at() { od -A n -t u8 -j $(($2 * 24 + 4)) -N 8 "$1" | tr -d ' '; }	# record $2's obj_id

# One 1 MiB file read twice with 128 KiB reads, 4 reads a second.
ft synth seq-read --files=1 --file-size=1M --io-size=128K --events=16 --rate=4 -o "$TMPD/seq.ftr"

ft export --to=csv "$TMPD/seq.ftr" -o "$TMPD/seq.csv"
is "$(head -1 "$TMPD/seq.csv")" "time,obj_id,obj_size,op" "csv: libCacheSim header"
is "$(($(wc -l < "$TMPD/seq.csv") - 1))" 512 "csv: 16 reads x 32 pages = 512 requests"
is "$(sed -n 2p "$TMPD/seq.csv")" "0,0,4096,read" "csv: first request page 0 at time 0"
is "$(sed -n 34p "$TMPD/seq.csv")" "0,32,4096,read" "csv: second read starts at page 32"
is "$(tail -1 "$TMPD/seq.csv")" "3,255,4096,read" "csv: 16th read (at 3.75 s) ends at page 255"

ft export --to=csv --order=4 "$TMPD/seq.ftr" -o "$TMPD/seq4.csv"
is "$(($(wc -l < "$TMPD/seq4.csv") - 1))" 32 "csv --order=4: 2 folios of 64 KiB per read"
is "$(sed -n 3p "$TMPD/seq4.csv")" "0,16,65536,read" "csv --order=4: folio ids step by 16 pages"

ft export --to=oraclegeneral "$TMPD/seq.ftr" -o "$TMPD/seq.og"
is "$(wc -c < "$TMPD/seq.og")" $((512 * 24)) "oracleGeneral: 24 bytes per request"
is "$(next_at "$TMPD/seq.og" 0)" 257 "oracleGeneral: page 0 is next asked by request 257"
is "$(next_at "$TMPD/seq.og" 255)" 512 "oracleGeneral: page 255 is next asked by request 512"
is "$(next_at "$TMPD/seq.og" 256)" -1 "oracleGeneral: second pass has no next access"
is "$(u64_at "$TMPD/seq.og" 300)" 44 "oracleGeneral: request 301 is page 44"
ft export --to=oraclegeneral "$TMPD/seq.ftr" > "$TMPD/seq-stdout.og"
cmp -s "$TMPD/seq.og" "$TMPD/seq-stdout.og"
ok $? "oracleGeneral to stdout: same bytes as to a file"

# Pipes: synth to stdout, export from stdin.
is "$(ft synth seq-read --files=1 --file-size=1M --io-size=128K --events=16 -o - |
	ft export --to=csv - | wc -l)" 513 "synth -o - | export -: the same 512 requests"

# An unaligned 4098-byte read at 4095 touches pages 0, 1 and 2; folios of 2 pages: 0 and 2.
printf 'fio version 2 iolog\n/x add\n/x read 4095 4098\n/x sync 0 0\n' > "$TMPD/u.iolog"
ft import --from=fio-iolog "$TMPD/u.iolog" -o "$TMPD/u.ftr"
is "$(ft export --to=csv "$TMPD/u.ftr" | sed 1d | cut -d, -f2 | tr '\n' ' ')" "0 1 2 " \
	"unaligned read: pages 0 1 2, the fsync makes no request"
is "$(ft export --to=csv --order=1 "$TMPD/u.ftr" | sed 1d | cut -d, -f2,3 | tr '\n' ' ')" \
	"0,8192 2,8192 " "unaligned read at order 1: folios 0 and 2"
ft import --from=fio-iolog --direct "$TMPD/u.iolog" -o "$TMPD/ud.ftr"
is "$(ft export --to=csv "$TMPD/ud.ftr" | wc -l)" 1 "O_DIRECT accesses make no request"

# Writes keep their op; file numbers go into the high bits.
ft synth append-fsync --files=2 --file-size=16K --io-size=4K --fsync-every=0 --events=4 -o "$TMPD/ap.ftr"
is "$(ft export --to=csv "$TMPD/ap.ftr" | sed 1d | cut -d, -f2,4 | tr '\n' ' ')" \
	"0,write 1099511627776,write 1,write 1099511627777,write " \
	"appends round-robin over two files: file 1 is 1 << 40, ops are writes"

# Round trips: export, import the export, export again: same bytes.
ft synth random-overwrite --events=3000 --file-size=16M --fsync-every=8 --rate=500 \
	-o "$TMPD/ro.ftr"
ft synth many-small-files --events=3000 --rate=300 -o "$TMPD/msf.ftr"
for t in ro msf; do
	for o in 0 3; do
		ft export --to=csv --order=$o "$TMPD/$t.ftr" -o "$TMPD/a.csv"
		ft import --from=csv "$TMPD/a.csv" -o "$TMPD/r.ftr"
		ft export --to=csv --order=$o "$TMPD/r.ftr" -o "$TMPD/b.csv"
		cmp -s "$TMPD/a.csv" "$TMPD/b.csv"
		ok $? "$t order $o: csv -> import -> csv round trip"
		ft export --to=oraclegeneral --order=$o "$TMPD/$t.ftr" -o "$TMPD/a.og"
		ft import --from=oraclegeneral - -o "$TMPD/r.ftr" < "$TMPD/a.og"
		ft export --to=oraclegeneral --order=$o "$TMPD/r.ftr" -o "$TMPD/b.og"
		cmp -s "$TMPD/a.og" "$TMPD/b.og"
		ok $? "$t order $o: oracleGeneral -> import -> oracleGeneral round trip"
	done
done

# A cut trace: exported up to its last whole chunk, with a warning, and exit 1 as
# folio-trace(1) says of incomplete input.
ft synth random-read --events=200000 -o "$TMPD/big.ftr"
head -c $(($(wc -c < "$TMPD/big.ftr") / 2)) "$TMPD/big.ftr" > "$TMPD/cut.ftr"
run ft export --to=csv "$TMPD/cut.ftr" -o "$TMPD/cut.csv"
is "$rc" 1 "cut trace: exit 1"
like "$err" "cut.ftr: trace cut short at byte" "cut trace: says where it was cut"
n=$(($(wc -l < "$TMPD/cut.csv") - 1))
[ "$n" -gt 0 ] && [ "$n" -lt 200000 ]
ok $? "cut trace: part of the requests ($n)"

printf 'time,obj_id,obj_size,op\n1,2,4096,read\nx,1,2\n3,4,0,read\n5,6,4096,frob\n' > "$TMPD/bad.csv"
run ft import --from=csv "$TMPD/bad.csv" -o "$TMPD/x.ftr"
is "$rc" 0 "bad csv lines: exit 0"
is "$(printf '%s\n' "$err" | grep -c 'bad.csv:[345]: ')" 3 "bad csv lines 3, 4, 5 reported"
head -c 30 "$TMPD/seq.og" > "$TMPD/short.og"
run ft import --from=oraclegeneral --strict "$TMPD/short.og" -o "$TMPD/x.ftr"
is "$rc" 1 "oracleGeneral cut inside a record, --strict: exit 1"
like "$err" "short.og:2: last record cut short (6 of 24 bytes)" "... and says so"

run ft export "$TMPD/seq.ftr"
is "$rc" 2 "no --to: exit 2"
run ft export --to=parquet "$TMPD/seq.ftr"
is "$rc" 2 "unknown --to: exit 2"
run ft export --to=csv --order=11 "$TMPD/seq.ftr"
is "$rc" 2 "--order=11: exit 2"
run ft export --to=csv "$TMPD/none.ftr"
is "$rc" 1 "missing trace: exit 1"
like "$err" "^folio-trace: $TMPD/none.ftr: " "missing trace: names it"

done_testing
